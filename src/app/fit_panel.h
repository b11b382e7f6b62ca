// The settings that refit the kept histogram at once: preset, model, solver, λ, unknown results
// and units. Shows what the last fit actually used: a solver the model overrode is shown as such,
// with the worker's reason in full.
#pragma once

#include <vector>

#include "app/app_state.h"

namespace materialist::app {

void draw_fit_settings(AppState& state, std::vector<Command>& commands, float scale);

// The settings a refit sends (the controls' fit settings, the read options last applied).
Command fit_command(const AppState& state);

}  // namespace materialist::app
