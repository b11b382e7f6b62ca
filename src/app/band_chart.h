// Values by rating band or by speed: the settings' two presets ("Compare: by rating band (200)",
// "by speed", one dataset per band: learn/filter/bands.h) and the chart of each piece's value with
// its 95% interval against the band, the games of each band under its label.
#pragma once

#include "app/app_state.h"
#include "app/plot_renderer.h"

namespace materialist::app {

// The two preset buttons (published as "compare:elo-bands" and "compare:speeds"): they set the
// per-filter datasets to the bands of the applied filter; Apply reads them.
void band_presets(AppState& state, float scale);

// True when the fitted datasets are bands (every one's filter is a band's, learn::band_label).
bool shows_band_chart(const AppState& state);
// Publishes "bands:plot" (the data area), "bands:label:I" and "bands:games:I" (the text under
// band I of the bands drawn, those with games) for the layout contract.
void draw_band_chart(AppState& state, PlotRenderer& renderer, ImVec2 size, float scale);

}  // namespace materialist::app
