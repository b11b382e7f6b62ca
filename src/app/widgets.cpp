#include "app/widgets.h"

#include <array>

#include "app/theme.h"

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
