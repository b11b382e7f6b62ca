#include "app/imbalance_controls.h"

#include <array>
#include <string>

#include "app/theme.h"
#include "app/widgets.h"
#include "learn/filter/game_filter.h"
#include "learn/vocabulary/imbalance.h"

namespace materialist::app {
namespace {

// Short labels in ImbalanceTerm order; the tooltip gives the definition and unit.
constexpr std::array<const char*, learn::kImbalanceTerms> kShort = {
    "N per pawn",       "R per pawn", "rook pair", "Q + R",        "minor pair", "exch. + minors",
    "exch., no minors", "Q + N",      "R + B",     "opp. bishops", "last pawn"};
constexpr std::array<const char*, learn::kImbalanceTerms> kDefinitions = {
    "Nw·(Pw−5) − Nb·(Pb−5): a knight's value per own pawn beyond five (Kaufman: +1/16 pawn)",
    "Rw·(Pw−5) − Rb·(Pb−5): a rook's value per own pawn beyond five (Kaufman: −1/8 pawn)",
    "[two rooks] White − Black: redundancy of a rook pair",
    "[queen and rook] White − Black: queen-and-rook redundancy",
    "[two or more minors, not two bishops] White − Black: a minor pair beyond the bishop pair",
    "a rook for a minor (queens, rooks, minors otherwise level) with minors left on both sides",
    "a rook for a minor (queens, rooks, minors otherwise level) with no other minor",
    "[queen and knight] White − Black: the article's queen-and-knight pair",
    "[rook and bishop] White − Black: the article's rook-and-bishop pair",
    "[one bishop each, on opposite colours] × the 1-3-3-5-9 balance: the balance's weight there",
    "[one pawn left, phase ≤ 6] White − Black: the last pawn in the endgame"};

}  // namespace

bool imbalance_checkboxes(AppState& state, float scale) {
  protocol::ModelChoice& model = state.settings.fit.model;
  ImGui::AlignTextToFramePadding();
  ImGui::TextColored(to_vec4(kMuted), "Imbalances");
  bool changed = false;
  const float right = ImGui::GetWindowContentRegionMax().x;
  for (int term = 0; term < learn::kImbalanceTerms; ++term) {
    const float width = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                        ImGui::CalcTextSize(kShort[term]).x;
    // Wrap to the next line when the box would not fit.
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width < right) {
      ImGui::SameLine();
    }
    bool on = learn::has_term(model.imbalances, static_cast<learn::ImbalanceTerm>(term));
    const std::string id = std::string("model:imbalance:") + learn::kImbalanceNames[term];
    if (checkbox(state, kShort[term], on, id.c_str(), scale)) {
      model.imbalances = static_cast<learn::ImbalanceSet>(model.imbalances ^ (1u << term));
      changed = true;
    }
    if (ImGui::IsItemHovered()) {
      const std::string about = std::string(learn::kImbalanceNames[term]) + ": " +
                                kDefinitions[term] + " (" + learn::kImbalanceUnits[term] + ")";
      tooltip(about.c_str());
    }
  }
  return changed;
}

bool split_sides_checkbox(AppState& state, float scale) {
  protocol::ModelChoice& model = state.settings.fit.model;
  const bool player_view = learn::player_view(state.filter_form);
  bool changed = false;
  if (!player_view && model.split_sides) {
    model.split_sides = false;  // own and opponent's need a player
    changed = true;
  }
  ImGui::BeginDisabled(!player_view);
  changed |=
      checkbox(state, "own vs opponent's pieces", model.split_sides, "model:split-sides", scale);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip(player_view ? "the player's pieces and the opponents' as separate values"
                                  : "needs a player's point of view: filter player=NAME;pov=1");
  }
  return changed;
}

}  // namespace materialist::app
