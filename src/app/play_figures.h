// The play-test's live figures (play_figures.cpp), drawn in the play-test window.
#pragma once

#include "app/app_state.h"

namespace materialist::app {

// The match's state (live, finished, cancelled), its progress and its verdict in words
// (play_verdict), published as play:progress and play:verdict.
void draw_verdict(AppState& state, float scale);
// Elo ± band and the LLR against games, the pentanomial counts, the rating table and the
// pairings of the match being played (or the last one); the verdict first, `with_verdict`.
void draw_figures(AppState& state, float scale, bool with_verdict = true);

}  // namespace materialist::app
