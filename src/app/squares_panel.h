// Values by square in the page: a line under the values (the held-out check, a button) and the
// "Values by square" window: a heat map per piece for the middlegame or the endgame, coloured
// around the piece's mean in the chosen unit, each square's value ± error and its positions on
// hover, squares with too few positions greyed (never findings), the material-only values
// beside, and the downloads (CSV, C++ header, JSON, the labelled positions as EPD).
#pragma once

#include <vector>

#include "app/app_state.h"

namespace materialist::app {

// Under the values while the model has values by square: what the fit found, or why none.
void draw_squares_summary(AppState& state, float scale);

// The window while state.squares_open.
void draw_squares_window(AppState& state, std::vector<Command>& commands, float scale);

}  // namespace materialist::app
