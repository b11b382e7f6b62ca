// The play-test's live figures: Elo and LLR against games, a pairing's numbers, the rating
// table and the pairings.
#include "app/play_figures.h"

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

std::string signed_text(double value, const char* format) {
  if (std::isnan(value)) return "n/a";
  if (std::isinf(value)) return value > 0 ? "+inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// A chart's frame: its room in the layout, a faint background and its title; returns its corner.
ImVec2 chart_frame(const char* title, ImVec2 size, float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::Dummy(size);
  draw->AddRectFilled(at, ImVec2(at.x + size.x, at.y + size.y), IM_COL32(255, 255, 255, 8),
                      4 * scale);
  draw->AddText(ImVec2(at.x + 6 * scale, at.y + 4 * scale), kMuted, title);
  return at;
}

void draw_elo_chart(const PlayTest& play, ImVec2 size, float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 at = chart_frame("Elo ± 95% against games", size, scale);
  if (play.history.empty()) return;
  const EloAxis y = elo_chart_axis(play.history);
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
    if (previous != nullptr) {
      const double g0 = static_cast<double>(previous->games), g1 = static_cast<double>(p.games);
      // The band only where both ends have an interval (an early one is unbounded).
      if (std::isfinite(previous->error) && std::isfinite(p.error)) {
        const double pe = previous->error, e = p.error;
        const ImVec2 quad[4] = {ImVec2(px(g0), py(previous->elo + pe)),
                                ImVec2(px(g1), py(p.elo + e)), ImVec2(px(g1), py(p.elo - e)),
                                ImVec2(px(g0), py(previous->elo - pe))};
        draw->AddConvexPolyFilled(quad, 4, IM_COL32(92, 170, 255, 50));
      }
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
  const ImVec2 at = chart_frame("LLR against its bounds", size, scale);
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
    // Figures only once they are finite: an unbounded interval is "early", not "± inf".
    std::string line = "Elo " + play::elo_interval_text(estimate->elo, estimate->elo_error95);
    if (std::isfinite(estimate->nelo) && std::isfinite(estimate->nelo_error95)) {
      line += " · nElo " + signed_text(estimate->nelo, "%+.1f") + " ± " +
              signed_text(estimate->nelo_error95, "%.1f");
    }
    if (std::isfinite(estimate->elo_error95)) {
      char los[32];
      std::snprintf(los, sizeof los, " · LOS %.1f%%", 100 * estimate->los);
      line += los;
    }
    ImGui::TextUnformatted(line.c_str());
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
    ImGui::Text("LLR %.2f (bounds %.2f, %.2f)", sprt->llr, sprt->lower, sprt->upper);
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

// The colour of a verdict: good, bad, or plain while nothing is settled.
ImU32 verdict_colour(play::VerdictKind kind) {
  switch (kind) {
    case play::VerdictKind::kBetter:
    case play::VerdictKind::kH1:
      return kGood;
    case play::VerdictKind::kWorse:
    case play::VerdictKind::kH0:
      return kBad;
    default:
      return kAccent;
  }
}

}  // namespace

void draw_verdict(AppState& state, float scale) {
  PlayTest& play = state.play;
  if (!play.match) return;
  const play::Match& match = *play.match;
  section(play.running()     ? "Live"
          : play.cancelled() ? "Cancelled (the games played are kept)"
                             : "Finished");
  std::string progress = grouped(match.pairs_done()) + " of " + grouped(match.task_count()) +
                         " game pairs · " + grouped(match.games_done()) + " games · " +
                         duration(play_seconds(play));
  if (const auto rate = games_per_minute(play)) {
    char text[48];
    std::snprintf(text, sizeof text, "%.1f", *rate);
    progress +=
        " · " +
        (*rate < 10 ? std::string(text) : grouped(static_cast<std::uint64_t>(*rate + 0.5))) +
        " games/min";
  }
  progress += " · " + std::to_string(play.workers) + (play.workers == 1 ? " worker" : " workers");
  ImGui::TextWrapped("%s", progress.c_str());
  publish(state, "play:progress", scale);
  // The first pairing's verdict (a gauntlet's or round robin's others are in the table).
  const play::Verdict verdict = *play_verdict(play);
  const std::string text =
      (match.pairings().size() == 1
           ? std::string()
           : match.settings().sets[0].name + " vs " + match.settings().sets[1].name + ": ") +
      verdict.text;
  ImGui::PushStyleColor(ImGuiCol_Text,
                        ImGui::ColorConvertU32ToFloat4(verdict_colour(verdict.kind)));
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  publish(state, "play:verdict", scale);
}

// The match's live figures: progress, then one pairing's figures and charts, or several
// pairings' ratings and scores.
void draw_figures(AppState& state, float scale, bool with_verdict) {
  PlayTest& play = state.play;
  if (!play.match) return;
  const play::Match& match = *play.match;
  if (with_verdict) draw_verdict(state, scale);
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

}  // namespace materialist::app
