// The play-test's live figures (play_figures.cpp), drawn in the play-test window.
#pragma once

#include "app/app_state.h"

namespace materialist::app {

// Elo ± band and the LLR against games, the pentanomial counts, the rating table and the
// pairings of the match being played (or the last one).
void draw_figures(AppState& state, float scale);

}  // namespace materialist::app
