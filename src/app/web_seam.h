// The app's only door to the page (implemented with emscripten::val in web_seam.cpp): worker
// messages come in through Module.materialistInbox, commands go out through
// Module.onAppCommand, button rectangles through Module.onAppLayout. See web/PROTOCOL.md.
#pragma once

#include <string>
#include <vector>

#include "app/app_state.h"

namespace materialist::app::web {

// Applies every message the page queued since the last frame; returns how many there were.
int drain_messages(AppState& state);

// Hands a command to the page (which forwards worker commands and handles "png" itself).
void send(const Command& command);
// Hands a command already written as JSON to the page (the play-test's: play_state.h).
void send_json(const std::string& command);
// Sends and empties the play-test's queued commands.
void flush_play_commands(AppState& state);

// Publishes the main buttons' rectangles when they differ from `published` (then updated).
void publish_layout(const std::vector<ButtonRect>& buttons, std::vector<ButtonRect>& published);

// The font the page fetched (fonts/DejaVuSans.ttf), empty when it could not.
std::vector<unsigned char> take_font();

float device_pixel_ratio();
// The canvas' size in CSS pixels.
void canvas_css_size(double& width, double& height);
// The canvas' backing store in pixels, and setting it.
void canvas_pixel_size(int& width, int& height);
void set_canvas_pixel_size(int width, int height);

}  // namespace materialist::app::web
