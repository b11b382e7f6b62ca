// "About": what the app reproduces (the article, with its link) and what its numbers mean.
#pragma once

#include "app/app_state.h"

namespace materialist::app {

// Draws the About window while state.about_open; its "Close" button clears it.
void draw_about(AppState& state, float scale);

}  // namespace materialist::app
