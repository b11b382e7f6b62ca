// The self-play loop's rounds in the play-test window: the values each round played and learned
// (a piece its games could not identify named with the value it kept), how it scored, and a bar
// per piece and set.
#include "app/play_selfplay.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/theme.h"
#include "app/widgets.h"

namespace materialist::app {
namespace {

std::string score_text(const SelfPlayRound& round) {
  if (std::isnan(round.score)) return "…";
  char text[64];
  std::snprintf(text, sizeof text, "%.1f%% (%llu games)", 100 * round.score,
                static_cast<unsigned long long>(round.games));
  return text;
}

std::string learned_text(const PlayTest& play, std::size_t i) {
  const SelfPlayRound& round = play.selfplay[i];
  if (round.learned) return round.learned->values_text();
  return play.learning() && i + 1 == play.selfplay.size() ? "fitting…" : "…";
}

// The round's games did not identify these pieces: they keep the values the round played.
void draw_kept(AppState& state, std::size_t i, float scale) {
  const SelfPlayRound& round = state.play.selfplay[i];
  if (!round.learned || round.learned->fallback_pieces == 0) return;
  const std::string kept = "kept: " + play::fallback_text(*round.learned);
  note(kept.c_str(), kWarn);
  publish(state, ("play:kept:" + std::to_string(i + 1)).c_str(), scale);
}

void draw_rounds_table(AppState& state, float scale) {
  const PlayTest& play = state.play;
  if (!ImGui::BeginTable("play-selfplay", 4,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp))
    return;
  ImGui::TableSetupColumn("round");
  ImGui::TableSetupColumn("played (P,N,B,R,Q)");
  ImGui::TableSetupColumn("score vs start");
  ImGui::TableSetupColumn("learned from its games");
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < play.selfplay.size(); ++i) {
    const SelfPlayRound& round = play.selfplay[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%zu", i + 1);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(round.played.values_text().c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(score_text(round).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(learned_text(play, i).c_str());
    draw_kept(state, i, scale);
  }
  ImGui::EndTable();
}

// A narrow column (a phone): each round as wrapped lines, never cut.
void draw_rounds_list(AppState& state, float scale) {
  const PlayTest& play = state.play;
  for (std::size_t i = 0; i < play.selfplay.size(); ++i) {
    const SelfPlayRound& round = play.selfplay[i];
    const std::string line = "Round " + std::to_string(i + 1) + ": played " +
                             round.played.values_text() + ", " + score_text(round) +
                             " vs start; learned " + learned_text(play, i);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(line.c_str());
    ImGui::PopTextWrapPos();
    draw_kept(state, i, scale);
  }
}

void draw_bars(const PlayTest& play) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = 6 * ImGui::GetFontSize();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(width, height));
  std::vector<play::ValueSet> sets = {play.selfplay_start};
  for (const SelfPlayRound& round : play.selfplay) {
    if (round.learned) sets.push_back(*round.learned);
  }
  const float group = width / 4;
  const float bar = std::max(2.0f, group * 0.8f / static_cast<float>(sets.size()));
  const float label = ImGui::GetTextLineHeight();
  for (int piece = 1; piece < 5; ++piece) {
    for (std::size_t s = 0; s < sets.size(); ++s) {
      const float value = static_cast<float>(sets[s].middlegame[static_cast<std::size_t>(piece)]);
      const float h = std::min(1.0f, value / 1300.0f) * (height - label - 2);
      const float x = at.x + group * static_cast<float>(piece - 1) + bar * static_cast<float>(s);
      draw->AddRectFilled(ImVec2(x, at.y + height - label - h),
                          ImVec2(x + bar - 2, at.y + height - label),
                          dataset_color(static_cast<int>(s)));
    }
    draw->AddText(ImVec2(at.x + group * static_cast<float>(piece - 1), at.y + height - label),
                  kMuted, piece_name(piece).c_str());
  }
}

}  // namespace

void draw_selfplay(AppState& state, float scale) {
  if (state.play.selfplay.empty()) return;
  section("Self-play: learn, play, learn again");
  if (ImGui::GetContentRegionAvail().x < 520 * scale) {
    draw_rounds_list(state, scale);
  } else {
    draw_rounds_table(state, scale);
  }
  note("A piece a round's games cannot identify keeps the value it played (\"kept\").", kMuted);
  draw_bars(state.play);
  note("Bars: the start set, then each round's learned values (N, B, R, Q; the pawn is 100).",
       kMuted);
}

}  // namespace materialist::app
