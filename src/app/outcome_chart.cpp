// The fitted outcome curves: P(win), P(draw), P(loss) of every dataset against the balance (with
// the evaluation target: the expected score the engine's evaluation gives each side).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/charts.h"
#include "app/plot.h"
#include "app/theme.h"
#include "app/widgets.h"
#include "learn/vocabulary/pieces.h"

namespace materialist::app {
namespace {

// What the chart's curves are called: the outcomes, or each side's expected score.
struct OutcomeNames {
  std::string win;
  std::string draw;
  std::string loss;
};

// How the shown fit codes the outcomes: only the ordinal model predicts draws. With draws as ½
// its curve is the expected score; with draws left out, the share of decisive games won.
enum class CurveKind { kOrdinal, kExpectedScore, kDecisive, kEval };

CurveKind curve_kind(const AppState& state) {
  if (state.report.target == learn::Target::kEval) return CurveKind::kEval;
  switch (state.settings.fit.model_options(state.report.target).outcomes) {
    case learn::OutcomeModel::kOrdinal:
      return CurveKind::kOrdinal;
    case learn::OutcomeModel::kFractional:
      return CurveKind::kExpectedScore;
    case learn::OutcomeModel::kDrawsOut:
      break;
  }
  return CurveKind::kDecisive;
}

OutcomeNames outcome_names(CurveKind kind, bool player) {
  const std::string white = player ? "the player" : "White";
  const std::string black = player ? "the opponent" : "Black";
  switch (kind) {
    case CurveKind::kOrdinal:
      return {"win", "draw", "loss"};
    case CurveKind::kEval:
      return {white, "draw", black};
    case CurveKind::kExpectedScore:
      return {white + "'s score", "draws (observed)", black + "'s score"};
    case CurveKind::kDecisive:
      break;
  }
  return {"win", "draws (observed)", "loss"};
}

std::string outcome_title(std::size_t datasets, CurveKind kind, bool player) {
  const std::string white = player ? "the player" : "White";
  const std::string side = player ? "The player" : "White";
  const bool by_dataset = datasets > 3;
  switch (kind) {
    case CurveKind::kEval:
      return by_dataset ? side +
                              "'s expected score (engine evaluation) vs material (pawns), by "
                              "dataset"
                        : "Expected score (engine evaluation) vs material (pawns)";
    case CurveKind::kOrdinal:
      return by_dataset ? "P(" + white + " wins) vs material (pawns), by dataset"
                        : "P(" + white + " wins / draws / loses) vs material (pawns)";
    case CurveKind::kExpectedScore:
      // The fit counts a draw as half a win: its one curve is the expected score, and the draws
      // drawn beside it are the data's, by the 1-3-3-5-9 balance.
      return side + "'s expected score (draws ½) vs material (pawns)" +
             (by_dataset ? ", by dataset" : "");
    case CurveKind::kDecisive:
      break;
  }
  return "P(" + white + " wins a decisive game) vs material (pawns)" +
         (by_dataset ? ", by dataset" : "");
}

// The share of draws among the rows at each 1-3-3-5-9 balance: the draws a binary model does not
// predict, from the data. Balances with fewer than kMinRows rows are too noisy to draw.
Series observed_draws(const protocol::Balance& balance, std::string label, ImU32 color) {
  constexpr double kMinRows = 20;
  Series draws{std::move(label), {}, {}, color, 1.5f};
  for (const protocol::BalanceBin& bin : balance.bins) {
    if (bin.count() < kMinRows) continue;
    draws.xs.push_back(bin.dm);
    draws.ys.push_back(bin.draws / bin.count());
  }
  return draws;
}

// Whether a curve is worth a line: the draw curve is flat zero when draws are left out.
bool non_zero(const Series& s) {
  return std::any_of(s.ys.begin(), s.ys.end(), [](double y) { return y > 1e-6; });
}

// Each dataset's curves: win solid and bright, draw dimmer, loss faint, in the dataset's colour.
// Beyond three datasets (rating or speed bands) each shows its win curve only, enough to tell the
// datasets apart. Labelled only when one dataset is shown (the legend then names the curves).
std::vector<Series> outcome_series(const std::vector<protocol::Fit>& fits,
                                   const OutcomeNames& names, CurveKind kind) {
  const bool observed = kind == CurveKind::kExpectedScore || kind == CurveKind::kDecisive;
  std::vector<Series> series;
  const bool several = fits.size() > 1;
  const bool wins_only = fits.size() > 3;
  for (std::size_t d = 0; d < fits.size(); ++d) {
    // A fit whose pawn is not identified has no curve (worker/exporter.cpp): no line.
    if (fits[d].curve.size() < 2) continue;
    const ImU32 base = several ? dataset_color(static_cast<int>(d)) : kAccent;
    const ImU32 dim = (base & 0x00FFFFFFu) | (150u << 24);
    const ImU32 faint = (base & 0x00FFFFFFu) | (90u << 24);
    Series win{several ? "" : names.win, {}, {}, base, 2.5f};
    Series draw{
        several ? "" : names.draw, {}, {}, several ? dim : IM_COL32(200, 200, 200, 220), 1.75f};
    Series loss{several ? "" : names.loss, {}, {}, several ? faint : kBad, 1.75f};
    for (const protocol::CurvePoint& p : fits[d].curve) {
      win.xs.push_back(p.pawns);
      win.ys.push_back(p.win);
      draw.xs.push_back(p.pawns);
      draw.ys.push_back(p.draw);
      loss.xs.push_back(p.pawns);
      loss.ys.push_back(p.loss);
    }
    series.push_back(std::move(win));
    if (wins_only) continue;
    if (observed) {
      Series seen = observed_draws(fits[d].balance, draw.label, draw.color);
      if (seen.xs.size() > 1) series.push_back(std::move(seen));
    } else if (non_zero(draw)) {
      series.push_back(std::move(draw));
    }
    series.push_back(std::move(loss));
  }
  return series;
}

// The legend: with one dataset its curves; with several each dataset's colour, and (up to three)
// a key of the curves' brightness.
std::vector<LegendEntry> outcome_legend(const std::vector<protocol::Fit>& fits,
                                        const std::vector<Series>& series,
                                        const OutcomeNames& names) {
  if (fits.size() <= 1) return legend_entries(series);
  std::vector<LegendEntry> entries;
  for (std::size_t d = 0; d < fits.size(); ++d) {
    if (fits[d].curve.size() < 2) continue;
    entries.push_back({fits[d].name, dataset_color(static_cast<int>(d)), 2.5f});
  }
  // Every dataset's series is win, [draw], loss: more than two per dataset means draws are drawn.
  const bool draws = series.size() > 2 * (entries.empty() ? 1 : entries.size());
  if (fits.size() > 3) return entries;
  const ImU32 white = IM_COL32(235, 238, 245, 255);
  entries.push_back({std::string(names.win) + " (bright)", white, 2.5f});
  if (draws)
    entries.push_back(
        {std::string(names.draw) + " (dimmer)", (white & 0x00FFFFFFu) | (150u << 24), 1.75f});
  entries.push_back(
      {std::string(names.loss) + " (faint)", (white & 0x00FFFFFFu) | (90u << 24), 1.75f});
  return entries;
}

// The balance under the mouse: each dataset's probabilities (or expected scores) there.
void draw_outcome_tooltip(const PlotArea& area, const std::vector<protocol::Fit>& fits,
                          CurveKind kind) {
  const double x = area.x0 + (ImGui::GetMousePos().x - area.min.x) / (area.max.x - area.min.x) *
                                 (area.x1 - area.x0);
  const bool several = fits.size() > 1;
  ImGui::BeginTooltip();
  ImGui::Text("material %+.2f pawns", x);
  for (std::size_t d = 0; d < fits.size(); ++d) {
    const auto& curve = fits[d].curve;
    if (curve.empty()) continue;
    const auto nearest =
        std::min_element(curve.begin(), curve.end(),
                         [x](const protocol::CurvePoint& a, const protocol::CurvePoint& b) {
                           return std::fabs(a.pawns - x) < std::fabs(b.pawns - x);
                         });
    const ImVec4 color = to_vec4(several ? dataset_color(static_cast<int>(d)) : kAccent);
    if (kind == CurveKind::kEval || kind == CurveKind::kExpectedScore) {
      ImGui::TextColored(color, "%s expected score %.1f%%", fits[d].name.c_str(),
                         100 * nearest->win);
    } else if (kind == CurveKind::kDecisive) {
      ImGui::TextColored(color, "%s decisive games won %.1f%%", fits[d].name.c_str(),
                         100 * nearest->win);
    } else {
      ImGui::TextColored(color, "%s win %.1f%%  draw %.1f%%  loss %.1f%%", fits[d].name.c_str(),
                         100 * nearest->win, 100 * nearest->draw, 100 * nearest->loss);
    }
  }
  ImGui::EndTooltip();
}

}  // namespace

bool has_outcome_curves(const AppState& state) {
  const std::vector<protocol::Fit>& fits = state.trajectory.fits;
  return state.trajectory.done && std::any_of(fits.begin(), fits.end(), [](const protocol::Fit& f) {
           return f.curve.size() > 1;
         });
}

void draw_outcome_curves(AppState& state, PlotRenderer& renderer, ImVec2 size, float scale) {
  const std::vector<protocol::Fit>& fits = state.trajectory.fits;
  const CurveKind kind = curve_kind(state);
  const OutcomeNames names = outcome_names(kind, state.player_view());
  const std::vector<Series> series = outcome_series(fits, names, kind);
  PlotLegend legend{outcome_legend(fits, series, names), {}, {}};
  const std::string title = outcome_title(fits.size(), kind, state.player_view());
  PlotSpec spec{
      "##outcomes", title.c_str(), "material balance along the pawn column", -10, 10, 0, 1, "%.1f"};
  spec.legend = &legend;
  bool hovered = false;
  const PlotArea area = begin_plot(spec, size, scale, hovered);
  publish_plot(state, "outcomes", area, legend, scale);
  // The curves by name, for the tests: which are drawn, and with how many points.
  for (const Series& s : series) {
    if (!s.label.empty())
      publish_rect(state, "outcomes:curve:" + s.label + ":" + std::to_string(s.xs.size()), area.min,
                   area.max, scale);
  }
  draw_series(renderer, area, series, scale);
  if (hovered && !fits.empty() && !fits.front().curve.empty())
    draw_outcome_tooltip(area, fits, kind);
}

}  // namespace materialist::app
