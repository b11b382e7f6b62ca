// The drop zone that invites files before there is data, and the tint over the page while files
// are dragged over it.
#pragma once

#include "app/app_state.h"
#include "app/ui.h"
#include "imgui.h"

namespace materialist::app {

// The drop zone in `size` at the cursor (taller when its text needs it): a dashed frame, its
// headline, and what to drop and how it is read.
void draw_drop_target(const AppState& state, const UiFonts& fonts, ImVec2 size, float scale);

// Tints the window while files are dragged over the page; names the drop when the drop target
// itself is hidden (data already shown).
void draw_drag_overlay(const AppState& state, const UiFonts& fonts, float scale,
                       bool drop_target_visible);

}  // namespace materialist::app
