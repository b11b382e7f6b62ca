#include "app/play_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/play_board.h"
#include "app/play_figures.h"
#include "app/play_selfplay.h"
#include "app/theme.h"
#include "app/widgets.h"
#include "core/json.h"
#include "imgui_stdlib.h"

namespace materialist::app {
namespace {

// A number field after its label (no +/- buttons); only the field is published. `input` draws
// the field itself and says whether it changed.
template <typename Input>
bool labelled_field(AppState& state, const char* label, const char* published_as, float width,
                    float scale, Input input) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(width);
  ImGui::PushID(published_as);
  const bool changed = input();
  ImGui::PopID();
  publish(state, published_as, scale);
  return changed;
}

bool int_field(AppState& state, const char* label, int& value, const char* published_as,
               float width, float scale) {
  return labelled_field(state, label, published_as, width, scale,
                        [&] { return ImGui::InputInt("", &value, 0, 0); });
}

bool double_field(AppState& state, const char* label, double& value, const char* published_as,
                  float width, float scale) {
  return labelled_field(state, label, published_as, width, scale,
                        [&] { return ImGui::InputDouble("", &value, 0, 0, "%g"); });
}

void same_line_if_fits(const char* label) {
  const float width = ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2;
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

// ---- the form ----

// A value set's box and its label (wrapped beside the box; a click on it ticks the set too), with
// the pieces it plays at 1-3-3-5-9's values under it.
void draw_set_row(AppState& state, PlayCandidate& candidate, bool idle, float scale) {
  // Whose values they are, for the sets that could be taken for the user's own.
  const std::string label = candidate.set.name + "  " + candidate.set.values_text() +
                            (candidate.origin.empty() ? "" : "  (" + candidate.origin + ")");
  checkbox(state, "##set", candidate.chosen, ("play:set:" + candidate.set.name).c_str(), scale);
  if (ImGui::IsItemHovered()) tooltip(candidate.source.c_str());
  // A long name on a phone wraps instead of running past the window's edge.
  ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
  ImGui::AlignTextToFramePadding();
  ImGui::TextWrapped("%s", label.c_str());
  publish(state, ("play:set-label:" + candidate.set.name).c_str(), scale);
  if (ImGui::IsItemClicked() && idle) candidate.chosen = !candidate.chosen;
  if (ImGui::IsItemHovered()) tooltip(candidate.source.c_str());
  if (candidate.set.fallback_pieces != 0) {
    // Under the set's label, its wrapped lines aligned with it.
    const float indent = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
    ImGui::Indent(indent);
    const std::string kept = "not identified by its fit, played at 1-3-3-5-9's values: " +
                             play::fallback_text(candidate.set);
    note(kept.c_str(), kWarn);
    publish(state, ("play:fallback:" + candidate.set.name).c_str(), scale);
    ImGui::Unindent(indent);
  }
}

void draw_form(AppState& state, float scale) {
  PlayTest& play = state.play;
  PlayForm& form = play.form;
  const bool idle = !play.running();
  section("Value sets");
  note("Ticked sets play; the first ticked one is the set under test (a gauntlet's hub).", kMuted);
  ImGui::BeginDisabled(!idle);
  for (std::size_t i = 0; i < form.candidates.size(); ++i) {
    PlayCandidate& candidate = form.candidates[i];
    ImGui::PushID(static_cast<int>(i));
    draw_set_row(state, candidate, idle, scale);
    ImGui::PopID();
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("custom");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(
      std::min(16.0f * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x * 0.6f));
  ImGui::InputTextWithHint("##custom", "mine:100,300,320,500,950", &form.custom);
  publish(state, "play:custom", scale);
  ImGui::SameLine();
  if (button(state, "Add", scale, true, "play:add")) add_custom_set(form);
  if (!form.custom_error.empty()) note(form.custom_error.c_str(), kBad);
  if (button(state, "The article's experiment", scale, true, "play:article")) {
    article_preset(form);
  }
  if (ImGui::IsItemHovered()) {
    tooltip(
        "The article's four engine versions, the sample's learned values and 1-3-3-5-9 in a "
        "round robin");
  }

  section("Match");
  const float narrow_width = 6.5f * ImGui::GetFontSize();
  int limit = form.by_depth ? 1 : 0;
  constexpr std::array<Choice, 2> kLimits = {{{"nodes", "nodes per move"}, {"depth", "depth"}}};
  radio_row(state, "play:limit", kLimits, limit, scale);
  form.by_depth = limit == 1;
  if (form.by_depth) {
    int_field(state, "depth", form.depth, "play:depth", narrow_width, scale);
  } else {
    int_field(state, "nodes", form.nodes, "play:nodes", narrow_width, scale);
  }
  ImGui::SameLine();
  int_field(state, "game pairs", form.pairs, "play:pairs", narrow_width, scale);
  int seed = static_cast<int>(std::min<std::uint64_t>(form.seed, 2147483647));
  same_line_if_fits("seed 000000000");
  if (int_field(state, "seed", seed, "play:seed", narrow_width, scale)) {
    form.seed = static_cast<std::uint64_t>(std::max(0, seed));
  }
  checkbox(state, "round robin", form.round_robin, "play:rr", scale);
  // The explanation wraps (a phone's width holds no 440-pixel label).
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0);
  ImGui::TextColored(to_vec4(kMuted), "%s",
                     form.round_robin ? "every set against every other"
                                      : "unticked: a gauntlet, the first set against each other");
  ImGui::PopTextWrapPos();
  checkbox(state, "SPRT (two sets): stop when it decides", form.sprt, "play:sprt", scale);
  if (form.sprt) {
    ImGui::SameLine();
    double_field(state, "nElo0", form.elo0, "play:elo0", narrow_width * 0.7f, scale);
    ImGui::SameLine();
    double_field(state, "nElo1", form.elo1, "play:elo1", narrow_width * 0.7f, scale);
  }
  ImGui::EndDisabled();
}

// The match's games as the page's data (the worker reads them as a file and fits them).
void send_learn(PlayTest& play) {
  JsonWriter json;
  json.begin_object()
      .field("type", "play-learn")
      .field("name", "materialist-match.pgn")
      .field("text", play_pgn(play))
      .end_object();
  play.outbox.push_back(json.take());
  play.learn_asking = false;
}

// Before the match's games replace the user's data and fit: what goes, what comes, two answers.
void draw_learn_question(AppState& state, float scale) {
  PlayTest& play = state.play;
  const std::vector<std::string>& files = state.report.files;
  std::string data = files.empty() ? std::string("your data") : files.front();
  if (files.size() > 1) data += " and " + grouped(files.size() - 1) + " more";
  const std::string question = "This replaces " + data + " (" + grouped(state.report.games) +
                               " games) and its fit with the match's " +
                               grouped(play.match->games_done()) + " games.";
  note(question.c_str(), kAccent);
  if (button(state, "Replace my data", scale, true, "play:learn-replace")) send_learn(play);
  ImGui::SameLine();
  if (button(state, "Keep my data", scale, true, "play:learn-keep")) play.learn_asking = false;
}

void draw_actions(AppState& state, float scale) {
  PlayTest& play = state.play;
  const bool has_games = play.match && play.match->pairs_done() > 0;
  ImGui::Spacing();
  if (button(state, "Start", scale, !play.running(), "play:start")) start_play(play);
  same_line_if_fits("Cancel");
  if (button(state, "Cancel", scale, play.running(), "play:cancel")) cancel_play(play);
  same_line_if_fits("Games PGN");
  if (button(state, "Games PGN", scale, has_games, "play:pgn")) {
    save_text(play, "materialist-match.pgn", "application/x-chess-pgn", play_pgn(play));
  }
  same_line_if_fits("Statistics JSON");
  if (button(state, "Statistics JSON", scale, play.match.has_value(), "play:json")) {
    save_text(play, "materialist-match.json", "application/json", play_json(play) + "\n");
  }
  same_line_if_fits("Share link");
  if (button(state, "Share link", scale, true, "play:share")) {
    play.outbox.push_back(R"({"type":"play-share","link":")" + play_link(play.form) + "\"}");
  }
  same_line_if_fits("Learn from these games");
  const bool may_learn = has_games && !play.running() && !state.busy();
  if (button(state, "Learn from these games", scale, may_learn, "play:learn")) {
    // The match's games replace the page's data and fit: asked first when there are some.
    if (state.has_data()) {
      play.learn_asking = true;
    } else {
      send_learn(play);
    }
  }
  same_line_if_fits("Self-play loop (3 rounds)");
  if (button(state, "Self-play loop (3 rounds)", scale, !play.running() && !state.busy(),
             "play:selfplay")) {
    start_selfplay(play, 3);
  }
  if (ImGui::IsItemHovered()) {
    tooltip(
        "Learn, play, learn again: each round plays the values learned from the last round's "
        "games against the first chosen set");
  }
  if (!play.error.empty()) note(play.error.c_str(), kBad);
  if (play.learn_asking && may_learn) draw_learn_question(state, scale);
  for (const PlayCandidate& candidate : play.form.candidates) {
    if (candidate.chosen && carries_learned_tables(candidate.set)) {
      ImGui::TextWrapped(
          "The share link leaves out %s (a link cannot carry 768 values): its tables download "
          "from Values by square.",
          candidate.set.name.c_str());
      break;
    }
  }
}

}  // namespace

void test_values(AppState& state, const play::ValueSet& set, const std::string& source) {
  PlayForm& form = state.play.form;
  for (PlayCandidate& candidate : form.candidates) candidate.chosen = false;
  offer_fit(form, set, source, true);
  for (PlayCandidate& candidate : form.candidates) {
    if (candidate.set.name == "classic") candidate.chosen = true;
  }
  form.round_robin = false;
  state.play.open = true;
  if (set.fallback_pieces != 0) {
    state.toast =
        "Not identified by the fit, played at 1-3-3-5-9's values: " + play::fallback_text(set);
    state.toast_since = -1;
  }
  state.play.outbox.push_back(play_status_json(state.play));
}

void draw_play_panel(AppState& state, ImFont* large, float scale) {
  if (!state.play.open) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const bool narrow = display.x < 760 * scale;
  // The whole canvas: the data's view waits behind it (Close).
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(display);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.085f, 0.092f, 0.11f, 1.0f));
  ImGui::Begin("Play-test: do these values play better?", nullptr,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_NoSavedSettings);
  if (button(state, "Close", scale, true, "play:close")) state.play.open = false;
  const char* about =
      "Engines that differ only in their piece values play game pairs (each opening twice, "
      "colours reversed) in Web Workers, one per core.";
  if (!narrow) {
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
  }
  note(about, kMuted);
  if (narrow) {
    ImGui::BeginChild("play-column", ImVec2(0, 0), false);
    const ImVec2 min = ImGui::GetWindowPos();
    state.buttons.push_back({"play:scroll", min.x / scale, min.y / scale,
                             ImGui::GetWindowWidth() / scale, ImGui::GetWindowHeight() / scale});
    // A phone: the actions, the match's progress and verdict, the game, its figures, then the
    // form.
    draw_actions(state, scale);
    draw_verdict(state, scale);
    draw_game(state, large, scale);
    draw_figures(state, scale, false);
    draw_selfplay(state, scale);
    draw_form(state, scale);
    ImGui::EndChild();
  } else {
    // Left: the form and its actions; right: the live figures, then the game in progress.
    const float left =
        std::clamp(ImGui::GetContentRegionAvail().x * 0.4f, 360 * scale, 560 * scale);
    ImGui::BeginChild("play-left", ImVec2(left, 0), false);
    const ImVec2 min = ImGui::GetWindowPos();
    state.buttons.push_back({"play:scroll", min.x / scale, min.y / scale,
                             ImGui::GetWindowWidth() / scale, ImGui::GetWindowHeight() / scale});
    draw_form(state, scale);
    draw_actions(state, scale);
    draw_selfplay(state, scale);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("play-right", ImVec2(0, 0), false);
    draw_figures(state, scale);
    draw_game(state, large, scale);
    ImGui::EndChild();
  }
  ImGui::End();
  ImGui::PopStyleColor();
}

}  // namespace materialist::app
