#include "app/sides_table.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "app/theme.h"
#include "app/widgets.h"

namespace materialist::app {
namespace {

std::string estimate_text(double value, double se) {
  char text[64];
  if (std::isfinite(se) && se >= 0.5) {
    std::snprintf(text, sizeof text, "%.0f ± %.0f", value, se);
  } else {
    std::snprintf(text, sizeof text, "%.0f", value);
  }
  return text;
}

std::string p_text(double p) {
  char text[32];
  std::snprintf(text, sizeof text, p < 0.001 ? "%.1e" : "%.3f", p);
  return text;
}

}  // namespace

void draw_sides_table(AppState& state, const protocol::Fit& fit, float scale) {
  if (fit.sides.empty()) return;
  ImGui::TextColored(to_vec4(kMuted),
                     "Own against the opponents' pieces (pawn = 100: the player's own pawn)");
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("sides", 5, flags)) return;
  for (const char* header : {"Piece", "own", "opponent's", "difference", "p (own = opp.)"}) {
    ImGui::TableSetupColumn(header);
  }
  ImGui::TableHeadersRow();
  for (const protocol::SideRow& row : fit.sides) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    std::string piece = row.piece;
    if (!piece.empty()) piece[0] = static_cast<char>(piece[0] - 'a' + 'A');
    ImGui::TextUnformatted(piece.c_str());
    if (!row.identified) {
      ImGui::TableNextColumn();
      ImGui::TextColored(to_vec4(kBad), "not identified");
      continue;
    }
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(estimate_text(row.own, row.own_se).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(estimate_text(row.opponent, row.opponent_se).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(estimate_text(row.difference, row.difference_se).c_str());
    ImGui::TableNextColumn();
    ImGui::TextColored(to_vec4(row.p < 0.05 ? kAccent : kMuted), "%s", p_text(row.p).c_str());
  }
  publish_table_columns(state, "sides", scale);
  ImGui::EndTable();
}

}  // namespace materialist::app
