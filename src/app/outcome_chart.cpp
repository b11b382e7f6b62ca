// The fitted outcome curves: P(win), P(draw), P(loss) of every dataset against the balance.
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

bool has_outcome_curves(const AppState& state) {
  const std::vector<protocol::Fit>& fits = state.trajectory.fits;
  return state.trajectory.done && std::any_of(fits.begin(), fits.end(), [](const protocol::Fit& f) {
           return f.curve.size() > 1;
         });
}

void draw_outcome_curves(const AppState& state, PlotRenderer& renderer, ImVec2 size, float scale) {
  const std::vector<protocol::Fit>& fits = state.trajectory.fits;
  bool hovered = false;
  const PlotArea area = begin_plot(
      {"##outcomes",
       fits.size() > 3 ? (state.player_view() ? "P(the player wins) vs material (pawns), by dataset"
                                              : "P(White wins) vs material (pawns), by dataset")
       : state.player_view() ? "P(the player wins / draws / loses) vs material (pawns)"
                             : "P(White wins / draws / loses) vs material (pawns)",
       "material balance along the pawn column", -10, 10, 0, 1, "%.1f"},
      size, scale, hovered);
  std::vector<Series> series;
  const bool several = fits.size() > 1;
  // Beyond three datasets (rating or speed bands) the legend would outgrow the plot: each
  // dataset shows its win curve only, enough to tell the datasets apart.
  const bool wins_only = fits.size() > 3;
  for (std::size_t d = 0; d < fits.size(); ++d) {
    // A fit whose pawn is not identified has no curve (engine_exports.cpp): no legend entry.
    if (fits[d].curve.size() < 2) continue;
    const ImU32 base = several ? dataset_color(static_cast<int>(d)) : kAccent;
    // Win solid and bright, draw dimmer, loss faint: the same colour per dataset.
    const ImU32 dim = (base & 0x00FFFFFFu) | (150u << 24);
    const ImU32 faint = (base & 0x00FFFFFFu) | (90u << 24);
    const std::string name = several ? fits[d].name + ": " : std::string();
    Series win{name + "win", {}, {}, base, 2.5f};
    Series draw{name + "draw", {}, {}, several ? dim : IM_COL32(200, 200, 200, 220), 1.75f};
    Series loss{name + "loss", {}, {}, several ? faint : kBad, 1.75f};
    for (const protocol::CurvePoint& p : fits[d].curve) {
      win.xs.push_back(p.pawns);
      win.ys.push_back(p.win);
      draw.xs.push_back(p.pawns);
      draw.ys.push_back(p.draw);
      loss.xs.push_back(p.pawns);
      loss.ys.push_back(p.loss);
    }
    if (wins_only) win.label = fits[d].name;
    series.push_back(std::move(win));
    if (wins_only) continue;
    // The draw curve is flat zero when draws are left out of the model: not worth a line.
    if (std::any_of(draw.ys.begin(), draw.ys.end(), [](double y) { return y > 1e-6; }))
      series.push_back(std::move(draw));
    series.push_back(std::move(loss));
  }
  draw_series(renderer, area, series, scale, LegendCorner::kTopLeft);
  if (hovered && !fits.empty() && !fits.front().curve.empty()) {
    const double x = area.x0 + (ImGui::GetMousePos().x - area.min.x) / (area.max.x - area.min.x) *
                                   (area.x1 - area.x0);
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
      ImGui::TextColored(to_vec4(several ? dataset_color(static_cast<int>(d)) : kAccent),
                         "%s win %.1f%%  draw %.1f%%  loss %.1f%%", fits[d].name.c_str(),
                         100 * nearest->win, 100 * nearest->draw, 100 * nearest->loss);
    }
    ImGui::EndTooltip();
  }
}

}  // namespace materialist::app
