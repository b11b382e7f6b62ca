// Small widgets shared by the window's panels: buttons whose rectangles are published for the
// e2e tests (web/PROTOCOL.md, onAppLayout), and section titles.
#pragma once

#include "app/app_state.h"
#include "imgui.h"

namespace materialist::app {

// Records the last item's rectangle in CSS pixels under `label`, so tests can click it.
void publish(AppState& state, const char* label, float scale);

// A button published under its label (or `published_as` when given).
bool button(AppState& state, const char* label, float scale, bool enabled = true,
            const char* published_as = nullptr);

// An accent-coloured title with a separator under it.
void section(const char* title);

// A palette for datasets compared side by side (distinct from the piece colours' meaning).
ImU32 dataset_color(int index);

}  // namespace materialist::app
