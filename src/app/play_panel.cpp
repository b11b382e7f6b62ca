#include "app/play_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/play_board.h"
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

constexpr ImU32 kWarn = IM_COL32(240, 190, 90, 255);

std::string signed_text(double value, const char* format) {
  if (std::isnan(value)) return "n/a";
  if (std::isinf(value)) return value > 0 ? "+inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// ---- the form ----

void draw_form(AppState& state, float scale) {
  PlayTest& play = state.play;
  PlayForm& form = play.form;
  const bool idle = !play.running;
  section("Value sets");
  note("Ticked sets play; the first ticked one is the set under test (a gauntlet's hub).", kMuted);
  ImGui::BeginDisabled(!idle);
  for (std::size_t i = 0; i < form.candidates.size(); ++i) {
    PlayCandidate& candidate = form.candidates[i];
    ImGui::PushID(static_cast<int>(i));
    const std::string label = candidate.set.name + "  " + candidate.set.values_text();
    checkbox(state, label.c_str(), candidate.chosen, ("play:set:" + candidate.set.name).c_str(),
             scale);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", candidate.source.c_str());
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
    ImGui::SetTooltip(
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
  checkbox(state, "round robin (else a gauntlet: the first set against each other)",
           form.round_robin, "play:rr", scale);
  checkbox(state, "SPRT (two sets): stop when it decides", form.sprt, "play:sprt", scale);
  if (form.sprt) {
    ImGui::SameLine();
    double_field(state, "nElo0", form.elo0, "play:elo0", narrow_width * 0.7f, scale);
    ImGui::SameLine();
    double_field(state, "nElo1", form.elo1, "play:elo1", narrow_width * 0.7f, scale);
  }
  ImGui::EndDisabled();
}

void draw_actions(AppState& state, float scale) {
  PlayTest& play = state.play;
  const bool has_games = play.match && play.match->pairs_done() > 0;
  ImGui::Spacing();
  if (button(state, "Start", scale, !play.running, "play:start")) start_play(play);
  same_line_if_fits("Cancel");
  if (button(state, "Cancel", scale, play.running, "play:cancel")) cancel_play(play);
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
  if (button(state, "Learn from these games", scale, has_games && !play.running && !state.busy(),
             "play:learn")) {
    JsonWriter json;
    json.begin_object()
        .field("type", "play-learn")
        .field("name", "materialist-match.pgn")
        .field("text", play_pgn(play))
        .end_object();
    play.outbox.push_back(json.take());
  }
  same_line_if_fits("Self-play loop (3 rounds)");
  if (button(state, "Self-play loop (3 rounds)", scale, !play.running && !state.busy(),
             "play:selfplay")) {
    start_selfplay(play, 3);
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Learn, play, learn again: each round plays the values learned from the last round's "
        "games against the first chosen set");
  }
  if (!play.error.empty()) note(play.error.c_str(), kBad);
}

// ---- the live figures ----

struct Range {
  double lo = 0, hi = 0;
};

void draw_elo_chart(const PlayTest& play, ImVec2 size, float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::Dummy(size);
  draw->AddRectFilled(at, ImVec2(at.x + size.x, at.y + size.y), IM_COL32(255, 255, 255, 8),
                      4 * scale);
  draw->AddText(ImVec2(at.x + 6 * scale, at.y + 4 * scale), kMuted, "Elo ± 95% against games");
  if (play.history.empty()) return;
  Range y{-50, 50};
  for (const PlayPoint& p : play.history) {
    if (!std::isfinite(p.elo)) continue;
    const double e = std::isfinite(p.error) ? std::min(p.error, 400.0) : 400.0;
    y.lo = std::min(y.lo, std::max(-800.0, p.elo - e));
    y.hi = std::max(y.hi, std::min(800.0, p.elo + e));
  }
  const double games = static_cast<double>(std::max<std::uint64_t>(2, play.history.back().games));
  const float pad = 24 * scale;
  auto px = [&](double g) {
    return at.x + pad + static_cast<float>(g / games) * (size.x - 2 * pad);
  };
  auto py = [&](double v) {
    v = std::clamp(v, y.lo, y.hi);
    return at.y + size.y - 8 * scale -
           static_cast<float>((v - y.lo) / (y.hi - y.lo)) * (size.y - 30 * scale);
  };
  draw->AddLine(ImVec2(px(0), py(0)), ImVec2(px(games), py(0)), IM_COL32(255, 255, 255, 60));
  char label[32];
  std::snprintf(label, sizeof label, "%+.0f", y.hi);
  draw->AddText(ImVec2(at.x + 2 * scale, py(y.hi) - 6 * scale), kMuted, label);
  std::snprintf(label, sizeof label, "%+.0f", y.lo);
  draw->AddText(ImVec2(at.x + 2 * scale, py(y.lo) - 14 * scale), kMuted, label);
  const PlayPoint* previous = nullptr;
  for (const PlayPoint& p : play.history) {
    if (!std::isfinite(p.elo)) {
      previous = nullptr;
      continue;
    }
    const double e = std::isfinite(p.error) ? p.error : 1e9;
    if (previous != nullptr) {
      const double pe = std::isfinite(previous->error) ? previous->error : 1e9;
      const double g0 = static_cast<double>(previous->games), g1 = static_cast<double>(p.games);
      const ImVec2 quad[4] = {ImVec2(px(g0), py(previous->elo + pe)), ImVec2(px(g1), py(p.elo + e)),
                              ImVec2(px(g1), py(p.elo - e)),
                              ImVec2(px(g0), py(previous->elo - pe))};
      draw->AddConvexPolyFilled(quad, 4, IM_COL32(92, 170, 255, 50));
      draw->AddLine(ImVec2(px(g0), py(previous->elo)), ImVec2(px(g1), py(p.elo)), kAccent,
                    2 * scale);
    } else {
      draw->AddCircleFilled(ImVec2(px(static_cast<double>(p.games)), py(p.elo)), 2.5f * scale,
                            kAccent);
    }
    previous = &p;
  }
}

void draw_llr_chart(const PlayTest& play, ImVec2 size, float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::Dummy(size);
  draw->AddRectFilled(at, ImVec2(at.x + size.x, at.y + size.y), IM_COL32(255, 255, 255, 8),
                      4 * scale);
  draw->AddText(ImVec2(at.x + 6 * scale, at.y + 4 * scale), kMuted, "LLR against its bounds");
  const auto& sprt = play.match->sprt();
  if (!sprt) return;
  const double lo = sprt->lower * 1.15, hi = sprt->upper * 1.15;
  const double games =
      play.history.empty()
          ? 2.0
          : static_cast<double>(std::max<std::uint64_t>(2, play.history.back().games));
  const float pad = 24 * scale;
  auto px = [&](double g) {
    return at.x + pad + static_cast<float>(g / games) * (size.x - 2 * pad);
  };
  auto py = [&](double v) {
    v = std::clamp(v, lo, hi);
    return at.y + size.y - 8 * scale -
           static_cast<float>((v - lo) / (hi - lo)) * (size.y - 30 * scale);
  };
  draw->AddLine(ImVec2(px(0), py(sprt->upper)), ImVec2(px(games), py(sprt->upper)), kGood,
                1.5f * scale);
  draw->AddLine(ImVec2(px(0), py(sprt->lower)), ImVec2(px(games), py(sprt->lower)), kBad,
                1.5f * scale);
  draw->AddLine(ImVec2(px(0), py(0)), ImVec2(px(games), py(0)), IM_COL32(255, 255, 255, 50));
  draw->AddText(ImVec2(px(games) - 30 * scale, py(sprt->upper) - 16 * scale), kGood, "H1");
  draw->AddText(ImVec2(px(games) - 30 * scale, py(sprt->lower) + 2 * scale), kBad, "H0");
  ImVec2 previous(px(0), py(0));
  for (const PlayPoint& p : play.history) {
    const ImVec2 point(px(static_cast<double>(p.games)), py(p.llr));
    draw->AddLine(previous, point, kAccent, 2 * scale);
    previous = point;
  }
}

// One pairing's figures: Elo, nElo, LOS, W/D/L, the pentanomial counts and the SPRT's state.
void draw_pairing_figures(const play::Match& match) {
  const play::MatchSettings& settings = match.settings();
  const play::PairingStats& stats = match.stats().front();
  ImGui::Text("%s vs %s", settings.sets[0].name.c_str(), settings.sets[1].name.c_str());
  if (const auto estimate = play::pairing_estimate(stats)) {
    ImGui::Text("Elo %s ± %s · nElo %s ± %s · LOS %.1f%%",
                signed_text(estimate->elo, "%+.1f").c_str(),
                signed_text(estimate->elo_error95, "%.1f").c_str(),
                signed_text(estimate->nelo, "%+.1f").c_str(),
                signed_text(estimate->nelo_error95, "%.1f").c_str(), 100 * estimate->los);
    ImGui::Text("W/D/L %llu/%llu/%llu · score %.1f%%",
                static_cast<unsigned long long>(stats.games.wins),
                static_cast<unsigned long long>(stats.games.draws),
                static_cast<unsigned long long>(stats.games.losses), 100 * estimate->score);
  }
  const auto& c = stats.pairs.counts;
  ImGui::Text("Pentanomial (0, ½, 1, 1½, 2): %llu  %llu  %llu  %llu  %llu",
              static_cast<unsigned long long>(c[0]), static_cast<unsigned long long>(c[1]),
              static_cast<unsigned long long>(c[2]), static_cast<unsigned long long>(c[3]),
              static_cast<unsigned long long>(c[4]));
  if (const auto& sprt = match.sprt()) {
    ImGui::Text("LLR %.2f (%.2f, %.2f) · %s", sprt->llr, sprt->lower, sprt->upper,
                sprt->decision == play::SprtDecision::kH1   ? "H1 accepted"
                : sprt->decision == play::SprtDecision::kH0 ? "H0 accepted"
                                                            : "continue");
  }
}

// One pairing's charts: the Elo estimate, and the LLR beside it (or under it) with an SPRT.
void draw_pairing_charts(const PlayTest& play, float width, float scale) {
  const float height = std::max(110 * scale, std::min(180 * scale, width * 0.35f));
  if (play.match->sprt()) {
    const float half = (width - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    if (half > 220 * scale) {
      draw_elo_chart(play, ImVec2(half, height), scale);
      ImGui::SameLine();
      draw_llr_chart(play, ImVec2(half, height), scale);
    } else {
      draw_elo_chart(play, ImVec2(width, height), scale);
      draw_llr_chart(play, ImVec2(width, height), scale);
    }
  } else {
    draw_elo_chart(play, ImVec2(width, height), scale);
  }
}

// Several pairings' ratings (logistic Elo, mean 0), the best first.
void draw_ratings_table(const play::Match& match) {
  const play::MatchSettings& settings = match.settings();
  auto table = play::match_ratings(match);
  if (!table) return;
  ImGui::TextUnformatted("Ratings (logistic Elo, mean 0, 95% errors)");
  if (ImGui::BeginTable("play-ratings", 4,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("set");
    ImGui::TableSetupColumn("rating");
    ImGui::TableSetupColumn("points / games");
    ImGui::TableSetupColumn("score");
    ImGui::TableHeadersRow();
    std::vector<std::size_t> order(table->sets.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return table->sets[a].rating > table->sets[b].rating;
    });
    for (const std::size_t i : order) {
      const play::SetRating& rating = table->sets[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(settings.sets[i].name.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%+.0f ± %.0f", rating.rating, rating.error95);
      ImGui::TableNextColumn();
      ImGui::Text("%.1f / %llu", rating.points, static_cast<unsigned long long>(rating.games));
      ImGui::TableNextColumn();
      ImGui::Text("%.1f%%", 100 * rating.score);
    }
    ImGui::EndTable();
  }
  if (table->regularized)
    note("(a set won or lost every game: one virtual draw per pairing)", kMuted);
}

// Each pairing's W/D/L, score and Elo: a table under a folding "Pairings" header.
void draw_pairings_table(const play::Match& match) {
  const play::MatchSettings& settings = match.settings();
  // Folded away (a round robin of six sets has fifteen).
  if (!ImGui::CollapsingHeader("Pairings")) return;
  if (ImGui::BeginTable("play-pairings", 4,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("pairing");
    ImGui::TableSetupColumn("W/D/L");
    ImGui::TableSetupColumn("score");
    ImGui::TableSetupColumn("Elo ± 95%");
    ImGui::TableHeadersRow();
    for (const play::PairingStats& stats : match.stats()) {
      const auto estimate = play::pairing_estimate(stats);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%s – %s", settings.sets[stats.pairing.first].name.c_str(),
                  settings.sets[stats.pairing.second].name.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%llu/%llu/%llu", static_cast<unsigned long long>(stats.games.wins),
                  static_cast<unsigned long long>(stats.games.draws),
                  static_cast<unsigned long long>(stats.games.losses));
      ImGui::TableNextColumn();
      if (estimate) ImGui::Text("%.1f%%", 100 * estimate->score);
      ImGui::TableNextColumn();
      if (estimate) {
        ImGui::Text("%s ± %s", signed_text(estimate->elo, "%+.0f").c_str(),
                    signed_text(estimate->elo_error95, "%.0f").c_str());
      }
    }
    ImGui::EndTable();
  }
}

// The match's live figures: progress, then one pairing's figures and charts, or several
// pairings' ratings and scores.
void draw_figures(AppState& state, float scale) {
  PlayTest& play = state.play;
  if (!play.match) return;
  const play::Match& match = *play.match;
  section(play.running     ? "Live"
          : play.cancelled ? "Cancelled (the games played are kept)"
                           : "Finished");
  ImGui::Text("%zu of %zu game pairs · %zu games · %.0f s · %d worker%s", match.pairs_done(),
              match.task_count(), match.games_done(), play_seconds(play), play.workers,
              play.workers == 1 ? "" : "s");
  publish(state, "play:progress", scale);
  const play::MatchSettings& settings = match.settings();
  if (const std::string kept = fallback_notes(settings.sets); !kept.empty()) {
    note(("Fallback values (pieces their fit could not identify): " + kept).c_str(), kWarn);
  }
  const float width = ImGui::GetContentRegionAvail().x;
  if (match.pairings().size() == 1) {
    draw_pairing_figures(match);
    draw_pairing_charts(play, width, scale);
    return;
  }
  // Several pairings: the ratings, then each pairing's score.
  draw_ratings_table(match);
  ImGui::Spacing();
  draw_pairings_table(match);
}

}  // namespace

void test_values(AppState& state, const play::ValueSet& set, const std::string& source) {
  PlayForm& form = state.play.form;
  for (PlayCandidate& candidate : form.candidates) candidate.chosen = false;
  add_candidate(form, set, source);
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
    // A phone: the actions, the game in progress, its figures, then the form.
    draw_actions(state, scale);
    draw_game(state, large, scale);
    draw_figures(state, scale);
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
