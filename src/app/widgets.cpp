#include "app/widgets.h"

#include <array>

#include "app/theme.h"
#include "imgui_internal.h"

namespace materialist::app {

void publish(AppState& state, const char* label, float scale) {
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
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
  ImGui::TextUnformatted(title);
  ImGui::PopStyleColor();
  ImGui::Separator();
}

ImU32 dataset_color(int index) {
  constexpr std::array<ImU32, 6> kPalette = {
      IM_COL32(92, 170, 255, 255),   // blue
      IM_COL32(255, 159, 64, 255),   // orange
      IM_COL32(120, 210, 120, 255),  // green
      IM_COL32(235, 110, 180, 255),  // pink
      IM_COL32(240, 215, 90, 255),   // yellow
      IM_COL32(170, 130, 240, 255),  // purple
  };
  return kPalette[static_cast<std::size_t>(index) % kPalette.size()];
}

}  // namespace materialist::app
