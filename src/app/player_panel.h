// The "Player" window: a username on lichess or chess.com, the games to load (speed, rated,
// dates, how many) and "My values" (the fit from the player's side). player_form.h loads it.
#pragma once

#include <vector>

#include "app/app_state.h"

namespace materialist::app {

// Draws the window while state.player_open; "Load games" pushes a kLoadPlayer command and
// closes it, "Close" closes it.
void draw_player_panel(AppState& state, std::vector<Command>& commands, float scale);

}  // namespace materialist::app
