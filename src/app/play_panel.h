// The Play-test window: the form (value sets, limit, pairs or an SPRT, gauntlet or round robin),
// Start / Cancel, the live figures (Elo ± band and the LLR against games, the pentanomial counts,
// the rating table), a board with a game in progress, and the exports, drawn with ImGui draw
// lists from AppState::play (play_state.h).
#pragma once

#include "app/app_state.h"
#include "imgui.h"

namespace materialist::app {

void draw_play_panel(AppState& state, ImFont* large, float scale);

// "Test these values": opens the play-test with this set against 1-3-3-5-9 (a fit's button).
void test_values(AppState& state, const play::ValueSet& set, const std::string& source);

}  // namespace materialist::app
