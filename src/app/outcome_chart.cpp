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
  const char* win;
  const char* draw;
  const char* loss;
};

OutcomeNames outcome_names(bool eval, bool player) {
  if (!eval) return {"win", "draw", "loss"};
  return player ? OutcomeNames{"the player", "draw", "the opponent"}
                : OutcomeNames{"White", "draw", "Black"};
}

const char* outcome_title(std::size_t datasets, bool eval, bool player) {
  if (eval) {
    return datasets > 3
               ? (player ? "The player's expected score (engine evaluation) vs material (pawns), "
                           "by dataset"
                         : "White's expected score (engine evaluation) vs material (pawns), by "
                           "dataset")
               : "Expected score (engine evaluation) vs material (pawns)";
  }
  if (datasets > 3) {
    return player ? "P(the player wins) vs material (pawns), by dataset"
                  : "P(White wins) vs material (pawns), by dataset";
  }
  return player ? "P(the player wins / draws / loses) vs material (pawns)"
                : "P(White wins / draws / loses) vs material (pawns)";
}

// Whether a curve is worth a line: the draw curve is flat zero when draws are left out.
bool non_zero(const Series& s) {
  return std::any_of(s.ys.begin(), s.ys.end(), [](double y) { return y > 1e-6; });
}

// Each dataset's curves: win solid and bright, draw dimmer, loss faint, in the dataset's colour.
// Beyond three datasets (rating or speed bands) each shows its win curve only, enough to tell the
// datasets apart. Labelled only when one dataset is shown (the legend then names the curves).
std::vector<Series> outcome_series(const std::vector<protocol::Fit>& fits,
                                   const OutcomeNames& names) {
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
    if (non_zero(draw)) series.push_back(std::move(draw));
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
  bool draws = false;
  for (std::size_t d = 0; d < fits.size(); ++d) {
    if (fits[d].curve.size() < 2) continue;
    entries.push_back({fits[d].name, dataset_color(static_cast<int>(d)), 2.5f});
    draws = draws || std::any_of(fits[d].curve.begin(), fits[d].curve.end(),
                                 [](const protocol::CurvePoint& p) { return p.draw > 1e-6; });
  }
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
void draw_outcome_tooltip(const PlotArea& area, const std::vector<protocol::Fit>& fits, bool eval) {
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
    if (eval) {
      ImGui::TextColored(color, "%s expected score %.1f%%", fits[d].name.c_str(),
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
  const bool eval = state.report.target == learn::Target::kEval;
  const OutcomeNames names = outcome_names(eval, state.player_view());
  const std::vector<Series> series = outcome_series(fits, names);
  PlotLegend legend{outcome_legend(fits, series, names), {}, {}};
  PlotSpec spec{"##outcomes",
                outcome_title(fits.size(), eval, state.player_view()),
                "material balance along the pawn column",
                -10,
                10,
                0,
                1,
                "%.1f"};
  spec.legend = &legend;
  bool hovered = false;
  const PlotArea area = begin_plot(spec, size, scale, hovered);
  publish_plot(state, "outcomes", area, legend, scale);
  draw_series(renderer, area, series, scale);
  if (hovered && !fits.empty() && !fits.front().curve.empty())
    draw_outcome_tooltip(area, fits, eval);
}

}  // namespace materialist::app
