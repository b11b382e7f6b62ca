// The Analysis panel (a collapsible section of the left column): model options (refit at once),
// units (display only), and the options that re-read the files — bootstrap, positions, game
// filters and datasets — sent with "Apply (re-reads the files)". Also the sharing and export
// buttons of the analysis (share link, provenance JSON, values as code).
#pragma once

#include <vector>

#include "app/app_state.h"

namespace materialist::app {

void draw_analysis_panel(AppState& state, std::vector<Command>& commands, float scale);

// A `fit` command with the current fit and model settings and the read options last applied.
Command fit_command(const AppState& state);

}  // namespace materialist::app
