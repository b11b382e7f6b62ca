#include "app/widgets.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "app/theme.h"
#include "imgui_internal.h"

namespace materialist::app {

void publish(AppState& state, const char* label, float scale) {
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  state.buttons.push_back(
      {label, min.x / scale, min.y / scale, (max.x - min.x) / scale, (max.y - min.y) / scale});
}

void publish_rect(AppState& state, const std::string& label, ImVec2 min, ImVec2 max, float scale) {
  state.buttons.push_back(
      {label, min.x / scale, min.y / scale, (max.x - min.x) / scale, (max.y - min.y) / scale});
}

bool button(AppState& state, const char* label, float scale, bool enabled,
            const char* published_as) {
  ImGui::BeginDisabled(!enabled);
  const bool clicked = ImGui::Button(label);
  ImGui::EndDisabled();
  publish(state, published_as != nullptr ? published_as : label, scale);
  return clicked;
}

void same_line_or_wrap(float width) {
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

float toggle_width(const char* label) {
  const float text = ImGui::CalcTextSize(label, nullptr, true).x;
  return ImGui::GetFrameHeight() + (text > 0 ? ImGui::GetStyle().ItemInnerSpacing.x + text : 0);
}

float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x;
}

float int_field_width(int digits) {
  const ImGuiStyle& style = ImGui::GetStyle();
  return ImGui::CalcTextSize("0").x * static_cast<float>(digits + 1) + 2 * style.FramePadding.x +
         2 * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x);
}

void tooltip(const char* text) {
  const float screen = ImGui::GetIO().DisplaySize.x - 4 * ImGui::GetStyle().WindowPadding.x;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(
      std::max(ImGui::GetFontSize() * 8, std::min(ImGui::GetFontSize() * 24, screen)));
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

bool button_or_why(AppState& state, const char* label, float scale, bool enabled,
                   const std::string& why, const char* published_as) {
  const bool clicked = button(state, label, scale, enabled, published_as);
  if (!enabled && !why.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    tooltip(why.c_str());
    state.buttons.push_back({std::string("why:") + (published_as ? published_as : label),
                             min.x / scale, min.y / scale, (max.x - min.x) / scale,
                             (max.y - min.y) / scale});
  }
  return clicked;
}

bool checkbox(AppState& state, const char* label, bool& value, const char* published_as,
              float scale) {
  const bool changed = ImGui::Checkbox(label, &value);
  publish(state, published_as, scale);
  return changed;
}

void publish_table_columns(AppState& state, const char* name, float scale) {
  const ImGuiTable* table = ImGui::GetCurrentTable();
  if (table == nullptr) return;
  for (int i = 0; i < table->ColumnsCount; ++i) {
    const ImGuiTableColumn& column = table->Columns[i];
    state.buttons.push_back({std::string(name) + ":col" + std::to_string(i), column.MinX / scale,
                             table->OuterRect.Min.y / scale, (column.MaxX - column.MinX) / scale,
                             table->OuterRect.GetHeight() / scale});
  }
}

void note(const char* text, ImU32 color) {
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(color));
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

void section(const char* title) {
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(kAccent));
  // Wrapped: a narrow screen shows the whole title on two lines rather than cutting it.
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(title);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  ImGui::Separator();
}

ImU32 dataset_color(int index) {
  // Twelve distinct colours: a comparison by rating band has twelve bands.
  constexpr std::array<ImU32, 12> kPalette = {
      IM_COL32(92, 170, 255, 255),   // blue
      IM_COL32(255, 159, 64, 255),   // orange
      IM_COL32(120, 210, 120, 255),  // green
      IM_COL32(235, 110, 180, 255),  // pink
      IM_COL32(240, 215, 90, 255),   // yellow
      IM_COL32(170, 130, 240, 255),  // purple
      IM_COL32(80, 220, 230, 255),   // cyan
      IM_COL32(240, 90, 80, 255),    // red
      IM_COL32(225, 225, 225, 255),  // white
      IM_COL32(185, 140, 90, 255),   // brown
      IM_COL32(190, 240, 90, 255),   // lime
      IM_COL32(60, 160, 140, 255),   // teal
  };
  if (index >= 0 && static_cast<std::size_t>(index) < kPalette.size())
    return kPalette[static_cast<std::size_t>(index)];
  // Beyond the palette: hues spread by the golden ratio.
  float r = 0, g = 0, b = 0;
  const float hue = std::fmod(0.13f + 0.618034f * static_cast<float>(index), 1.0f);
  ImGui::ColorConvertHSVtoRGB(hue, index % 2 == 0 ? 0.45f : 0.7f, 0.95f, r, g, b);
  return IM_COL32(static_cast<int>(r * 255), static_cast<int>(g * 255), static_cast<int>(b * 255),
                  255);
}

void begin_centred_window(const char* title, ImVec2 size) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(size);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.11f, 0.12f, 0.145f, 0.98f));
  ImGui::Begin(title, nullptr,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_NoSavedSettings);
}

void end_centred_window() {
  ImGui::End();
  ImGui::PopStyleColor();
}

}  // namespace materialist::app
