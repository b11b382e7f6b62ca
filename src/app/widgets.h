// Small widgets shared by the window's panels: buttons whose rectangles are published for the
// e2e tests (web/PROTOCOL.md, onAppLayout), and section titles.
#pragma once

#include <array>
#include <string>

#include "app/app_state.h"
#include "imgui.h"

namespace materialist::app {

// Records the last item's rectangle in CSS pixels under `label`, so tests can click it.
void publish(AppState& state, const char* label, float scale);

// Records the rectangle from `min` to `max` (framebuffer pixels) in CSS pixels under `label`.
void publish_rect(AppState& state, const std::string& label, ImVec2 min, ImVec2 max, float scale);

// A button published under its label (or `published_as` when given).
bool button(AppState& state, const char* label, float scale, bool enabled = true,
            const char* published_as = nullptr);

// A button that, while disabled, says why when pointed at or tapped (`why`: a tooltip, published
// as "why:<label>" while it shows).
bool button_or_why(AppState& state, const char* label, float scale, bool enabled,
                   const std::string& why, const char* published_as = nullptr);

// Before an item `width` pixels wide: on the same line when it fits, else on the next (a phone's
// narrow column never cuts a row at its right edge).
void same_line_or_wrap(float width);
// The width of a checkbox or radio button with this label; of a button.
float toggle_width(const char* label);
float button_width(const char* label);
// The least width of a number field with +/- buttons that shows `digits` digits.
float int_field_width(int digits);

// A checkbox published under `published_as`; true when it changed.
bool checkbox(AppState& state, const char* label, bool& value, const char* published_as,
              float scale);

// Publishes the current table's columns as "<name>:col<i>" (x and width of each column, y and
// height of the table) so tests can check no column is collapsed. Call before EndTable.
void publish_table_columns(AppState& state, const char* name, float scale);

// A tooltip of `text` wrapped at about 24 ems (never wider than the screen): a long one is never
// cut at the screen's edge.
void tooltip(const char* text);

// Wrapped muted text (a reason, a note): never cut off at the panel's edge.
void note(const char* text, ImU32 color);

// A window over the page, centred, of `size` (a height of 0 fits its contents), fixed in place:
// the player form, Result vs evaluation, Values by square. End it with end_centred_window().
void begin_centred_window(const char* title, ImVec2 size);
void end_centred_window();

// An accent-coloured title with a separator under it.
void section(const char* title);

// A palette for datasets compared side by side (distinct from the piece colours' meaning).
ImU32 dataset_color(int index);

struct Choice {
  const char* id;     // published as "<group>:<id>"
  const char* label;  // what the radio button says
};

// A row of radio buttons over an enum-like int; true when the choice changed. Wraps to a new
// line when the next button would not fit.
template <std::size_t N>
bool radio_row(AppState& state, const char* group, const std::array<Choice, N>& choices,
               int& picked, float scale) {
  bool changed = false;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) {
      const float next = ImGui::CalcTextSize(choices[i].label).x + ImGui::GetFrameHeight() +
                         ImGui::GetStyle().ItemInnerSpacing.x;
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < next) ImGui::NewLine();
    }
    ImGui::PushID(group);
    if (ImGui::RadioButton(choices[i].label, picked == static_cast<int>(i))) {
      changed = picked != static_cast<int>(i);
      picked = static_cast<int>(i);
    }
    ImGui::PopID();
    publish(state, (std::string(group) + ":" + choices[i].id).c_str(), scale);
  }
  return changed;
}

}  // namespace materialist::app
