// The self-play loop's rounds in the play-test window (play_state.h, SelfPlayRound).
#pragma once

#include "app/app_state.h"

namespace materialist::app {

// The rounds' values and scores, a table where there is room and wrapped lines where not, each
// piece a round's games could not identify named with the value it kept; then a bar chart of the
// start set and each round's learned values. Nothing before the loop's first round.
void draw_selfplay(AppState& state, float scale);

}  // namespace materialist::app
