// The whole window, drawn once per frame from AppState. Edits settings in place and returns the
// commands the user asked for; never talks to the worker itself.
#pragma once

#include <vector>

#include "app/app_state.h"
#include "app/plot_renderer.h"

namespace materialist::app {

struct UiFonts {
  ImFont* body = nullptr;
  ImFont* large = nullptr;  // headline numbers and the drop target
};

// `scale` is the devicePixelRatio the style and fonts were built for.
std::vector<Command> draw_ui(AppState& state, PlotRenderer& renderer, const UiFonts& fonts,
                             float scale);

// Dark theme with the app's accent colours, sizes multiplied by `scale`.
void apply_style(float scale);

}  // namespace materialist::app
