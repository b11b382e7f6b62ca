// The split-sides model's table: per piece, the player's own value against the opponents', the
// difference with its error and the p-value of "own = opponent's" (pawn = 100 in the player's
// own pawns), under the values table; nothing for other models.
#pragma once

#include "app/app_state.h"

namespace materialist::app {

void draw_sides_table(AppState& state, const protocol::Fit& fit, float scale);

}  // namespace materialist::app
