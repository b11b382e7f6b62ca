#include "app/about.h"

#include <algorithm>

#include "app/theme.h"
#include "app/widgets.h"
#include "imgui.h"

namespace materialist::app {

void draw_about(AppState& state, float scale) {
  if (!state.about_open) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const ImVec2 size(std::min(display.x - 24 * scale, 640 * scale),
                    std::min(display.y - 24 * scale, 560 * scale));
  ImGui::SetNextWindowPos(ImVec2((display.x - size.x) * 0.5f, (display.y - size.y) * 0.5f));
  ImGui::SetNextWindowSize(size);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.11f, 0.12f, 0.145f, 0.98f));
  ImGui::Begin("About Materialist", nullptr,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_NoSavedSettings);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(
      "Materialist learns what chess pieces are worth from the games you give it. It reproduces "
      "the article");
  ImGui::TextColored(to_vec4(kAccent),
                     "\"Determine the weight of chess pieces by regression "
                     "analysis\" (Habr, 2015)");
  ImGui::TextUnformatted("https://habr.com/ru/post/254753/");
  publish(state, "about:link", scale);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Click to copy the address");
  if (ImGui::IsItemClicked()) ImGui::SetClipboardText("https://habr.com/ru/post/254753/");
  ImGui::Spacing();
  ImGui::TextUnformatted(
      "Each quiet position of a game (no capture, promotion or check for two plies) is a row: the "
      "material difference White minus Black, and the game's result. A logistic regression "
      "finds the weights that best predict the results from the material.");
  ImGui::Spacing();
  ImGui::TextUnformatted(
      "What the numbers mean: values are in pawns × 100 (a pawn is 100 by definition), or in "
      "Elo, or in log-odds of the result. \"± 12\" is a standard error (game-clustered: the "
      "positions of one game share its result); a value ± 1.96 errors is a 95% interval. "
      "The article's, the textbook 1-3-3-5-9 and Capablanca's values stand beside the learned "
      "ones. A relation such as B + N = R + 1.5P \"holds\" when the data's margin is clear of "
      "its error, \"consistent\" for an equality the data cannot reject.");
  ImGui::Spacing();
  ImGui::TextUnformatted(
      "Gradient descent is the article's procedure (its log is reproduced to every digit); "
      "Newton finds the exact optimum in a few steps. Files are read in your browser: nothing "
      "is uploaded.");
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  if (button(state, "Close", scale, true, "about:close")) state.about_open = false;
  ImGui::End();
  ImGui::PopStyleColor();
}

}  // namespace materialist::app
