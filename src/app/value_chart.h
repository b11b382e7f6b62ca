// Values in the chosen unit: the factor from pawn = 100, and the chart of an exact fit (each
// value with its 95% interval beside the reference sets).
#pragma once

#include <optional>
#include <vector>

#include "app/app_state.h"
#include "app/plot_renderer.h"

namespace materialist::app {

// "pawn = 100", "Elo", "log-odds"
const char* unit_label(protocol::Units units);

// After an exact (Newton) fit there are no iterates worth a trajectory: each value with its 95%
// interval beside the reference sets, in the chosen unit.
bool shows_value_chart(const AppState& state);
void draw_value_chart(const AppState& state, PlotRenderer& renderer, ImVec2 size, float scale);
// The same chart of any fits under `title` (one colour each, named in the legend when several),
// in `units`; the reference sets stand on `unit` (the fit's pawn in that unit), left out when
// there is none. `x_caption` replaces the words under the x axis when given.
void draw_fit_values(const std::vector<protocol::Fit>& fits, protocol::Units units,
                     std::optional<double> unit, const char* title, PlotRenderer& renderer,
                     ImVec2 size, float scale, const char* x_caption = nullptr);

}  // namespace materialist::app
