#include "app/sides_table.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "app/theme.h"
#include "app/widgets.h"
#include "core/statistics.h"

namespace materialist::app {
namespace {

struct Shown {
  double value = 0, se = 0;
};

// One of a row's three estimates in the units chosen (each is sent in pawns and in θ).
Shown in_units(double pawns, double pawns_se, double theta, double theta_se,
               protocol::Units units) {
  if (units == protocol::Units::kPawn) return {pawns, pawns_se};
  const double scale = units == protocol::Units::kElo ? kEloPerLogOdds : 1.0;
  return {theta * scale, theta_se * scale};
}

std::string estimate_text(const Shown& s, protocol::Units units) {
  const bool fine = units == protocol::Units::kLogOdds;
  char text[64];
  if (std::isfinite(s.se) && s.se >= (fine ? 0.0005 : 0.5)) {
    std::snprintf(text, sizeof text, fine ? "%.3f ± %.3f" : "%.0f ± %.0f", s.value, s.se);
  } else {
    std::snprintf(text, sizeof text, fine ? "%.3f" : "%.0f", s.value);
  }
  return text;
}

const char* title(protocol::Units units) {
  return units == protocol::Units::kElo ? "Own against the opponents' pieces (Elo)"
         : units == protocol::Units::kLogOdds
             ? "Own against the opponents' pieces (log-odds)"
             : "Own against the opponents' pieces (pawn = 100: the player's own pawn)";
}

std::string p_text(double p) {
  char text[32];
  std::snprintf(text, sizeof text, p < 0.001 ? "%.1e" : "%.3f", p);
  return text;
}

}  // namespace

void draw_sides_table(AppState& state, const protocol::Fit& fit, float scale) {
  if (fit.sides.empty()) return;
  const protocol::Units units = state.settings.units;
  ImGui::TextColored(to_vec4(kMuted), "%s", title(units));
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
    const Shown own = in_units(row.own, row.own_se, row.own_theta, row.own_theta_se, units);
    const Shown opponent =
        in_units(row.opponent, row.opponent_se, row.opponent_theta, row.opponent_theta_se, units);
    const Shown difference = in_units(row.difference, row.difference_se, row.difference_theta,
                                      row.difference_theta_se, units);
    ImGui::TextUnformatted(estimate_text(own, units).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(estimate_text(opponent, units).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(estimate_text(difference, units).c_str());
    ImGui::TableNextColumn();
    ImGui::TextColored(to_vec4(row.p < 0.05 ? kAccent : kMuted), "%s", p_text(row.p).c_str());
  }
  publish_table_columns(state, "sides", scale);
  ImGui::EndTable();
}

}  // namespace materialist::app
