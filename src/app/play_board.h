// The play-test's game in progress: the board of a live game (the last move marked) beside or
// above its move list.
#pragma once

#include "app/app_state.h"
#include "imgui.h"

namespace materialist::app {

// Draws the game a play worker plays now (or the last one shown), under its section heading.
void draw_game(AppState& state, ImFont* large, float scale);

}  // namespace materialist::app
