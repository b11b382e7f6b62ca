#include "app/value_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/plot.h"
#include "app/theme.h"
#include "app/widgets.h"
#include "core/statistics.h"
#include "learn/vocabulary/pieces.h"

namespace materialist::app {

const char* unit_label(protocol::Units units) {
  return units == protocol::Units::kElo       ? "Elo"
         : units == protocol::Units::kLogOdds ? "log-odds"
                                              : "pawn = 100";
}

namespace {

// The name prefixes of a fit's piece values: "" for the five values, "own-" and "opponent-"
// for the split-sides model (drawn side by side), none for tapered values.
std::vector<std::string> value_prefixes(const protocol::Fit& fit) {
  if (fit.find("knight") != nullptr) return {""};
  if (fit.find("own-knight") != nullptr) return {"own-", "opponent-"};
  return {};
}
constexpr ImU32 kOpponentColor = IM_COL32(165, 170, 182, 255);

// A reference set of values (pawn = 100) with its mark's colour and its legend's label.
struct Reference {
  const PieceValues* values;
  ImU32 color;
  const char* label;
};
const Reference kReferences[] = {{&kArticle, IM_COL32(240, 240, 240, 230), "article"},
                                 {&kTextbook, IM_COL32(240, 215, 90, 220), "1-3-3-5-9"},
                                 {&kCapablancaSet, IM_COL32(200, 120, 240, 220), "Capablanca"}};

// The y range's top: every value with its 95% interval, and the reference sets.
double values_y_max(const std::vector<protocol::Fit>& fits, protocol::Units units,
                    std::optional<double> unit) {
  const double per_pawn = unit.value_or(1.0);
  double y_min = 0, y_max = 0;
  for (const protocol::Fit& fit : fits) {
    for (const std::string& prefix : value_prefixes(fit)) {
      for (int i = 1; i < kPieceCount; ++i) {
        const protocol::Coefficient* c =
            fit.find(prefix + std::string(learn::kPieceColumns[static_cast<std::size_t>(i)]));
        if (c == nullptr || !c->identified) continue;
        const double v = in_unit(*c, units), band = kZ95 * se_in_unit(*c, units);
        y_max = std::max(y_max, v + (std::isfinite(band) ? band : 0));
      }
    }
  }
  for (int i = 1; i < kPieceCount && unit; ++i)
    y_max = std::max({y_max, kArticle[i] * per_pawn, kTextbook[i] * per_pawn});
  const double step = nice_step(y_max - y_min, 6);
  return std::ceil(y_max * 1.05 / step) * step;
}

// The x axis's caption: what the marks are, and which pawn the reference sets stand on.
std::string values_x_label(const std::vector<protocol::Fit>& fits, protocol::Units units,
                           std::optional<double> unit) {
  const bool split = !fits.empty() && fits.front().find("own-pawn") != nullptr;
  const char* scaled = units == protocol::Units::kPawn ? ""
                       : split                         ? " (scaled to the player's own pawn)"
                       : fits.size() > 1               ? " (scaled to the first dataset's pawn)"
                                                       : " (scaled to the fitted pawn)";
  char x_label[160];
  if (unit) {
    std::snprintf(x_label, sizeof x_label,
                  "learned (dots, 95%% bars) beside the article, 1-3-3-5-9 and Capablanca%s",
                  scaled);
  } else {
    std::snprintf(x_label, sizeof x_label,
                  "learned (dots, 95%% bars); no reference sets: the fit gives no pawn to scale "
                  "them to");
  }
  return x_label;
}

// Reference sets: short horizontal marks across each category (none without a unit).
void draw_reference_marks(ImDrawList* draw, const PlotArea& area, std::optional<double> unit,
                          float scale) {
  const double per_pawn = unit.value_or(1.0);
  const float half = (area.max.x - area.min.x) / 4.0f * 0.38f;  // half a category's width
  for (const Reference& ref : kReferences) {
    for (int i = 1; i < kPieceCount && unit; ++i) {
      const ImVec2 at = area.to_pixels(i, (*ref.values)[i] * per_pawn);
      draw->AddLine(ImVec2(at.x - half, at.y), ImVec2(at.x + half, at.y), ref.color, 1.5f * scale);
    }
  }
}

// Learned values: one dot per dataset, its 95% interval as a bar, its number beside a lone one.
void draw_learned_values(PlotRenderer& renderer, ImDrawList* draw, const PlotArea& area,
                         const std::vector<protocol::Fit>& fits, protocol::Units units,
                         float scale) {
  const bool fine = units == protocol::Units::kLogOdds;
  const int n = static_cast<int>(fits.size());
  std::vector<Disk> disks;
  for (int d = 0; d < n; ++d) {
    const protocol::Fit& fit = fits[static_cast<std::size_t>(d)];
    const std::vector<std::string> prefixes = value_prefixes(fit);
    for (std::size_t series = 0; series < prefixes.size(); ++series) {
      const bool opponent = prefixes[series] == "opponent-";
      for (int i = 1; i < kPieceCount; ++i) {
        const protocol::Coefficient* c = fit.find(
            prefixes[series] + std::string(learn::kPieceColumns[static_cast<std::size_t>(i)]));
        if (c == nullptr || !c->identified) continue;
        // Split sides: the player's own value left of the opponents'.
        const double side = prefixes.size() > 1 ? (opponent ? 0.15 : -0.15) : 0.0;
        const double x = i + side + (n > 1 ? (d - (n - 1) * 0.5) * (0.6 / n) : 0.0);
        const double v = in_unit(*c, units), band = kZ95 * se_in_unit(*c, units);
        const ImU32 color = n > 1 ? dataset_color(d) : opponent ? kOpponentColor : kPieceColors[i];
        if (std::isfinite(band) && band > 0) {
          const ImVec2 lo = area.to_pixels(x, v - band), hi = area.to_pixels(x, v + band);
          draw->AddLine(lo, hi, color, 2.5f * scale);
          draw->AddLine(ImVec2(lo.x - 5 * scale, lo.y), ImVec2(lo.x + 5 * scale, lo.y), color,
                        2 * scale);
          draw->AddLine(ImVec2(hi.x - 5 * scale, hi.y), ImVec2(hi.x + 5 * scale, hi.y), color,
                        2 * scale);
        }
        disks.push_back({x, v, 6.0f * scale, color});
        char text[48];
        std::snprintf(text, sizeof text, fine ? "%.2f" : "%.0f", v);
        const ImVec2 at = area.to_pixels(x, v);
        if (n == 1)
          draw->AddText(ImVec2(at.x + 9 * scale, at.y - ImGui::GetTextLineHeight() * 0.5f),
                        IM_COL32(235, 238, 245, 255), text);
      }
    }
  }
  renderer.add_disks(draw, area, disks);
}

// The legend's entries: the reference marks (and the sides' or the datasets' colours).
std::vector<LegendEntry> values_legend(const std::vector<protocol::Fit>& fits,
                                       std::optional<double> unit) {
  std::vector<LegendEntry> entries;
  const std::size_t n = fits.size();
  for (const Reference& ref : kReferences) {
    if (unit) entries.push_back({ref.label, ref.color, 2});  // not drawn without a unit
  }
  if (n == 1 && value_prefixes(fits.front()).size() > 1) {
    entries.push_back({"own (the player's)", kPieceColors[learn::kKnightIndex], 0});
    entries.push_back({"the opponents'", kOpponentColor, 0});
  }
  for (std::size_t d = 0; d < n && n > 1; ++d) {
    entries.push_back({fits[d].name, dataset_color(static_cast<int>(d)), 0});
  }
  return entries;
}

}  // namespace

bool shows_value_chart(const AppState& state) {
  const Trajectory& t = state.trajectory;
  return t.done && !t.fits.empty() && t.solver == learn::SolverKind::kNewton;
}

void draw_value_chart(const AppState& state, PlotRenderer& renderer, ImVec2 size, float scale) {
  char title[160];
  std::snprintf(
      title, sizeof title, "Piece values with 95%% intervals (%s, exact fit in %d Newton steps)",
      unit_label(state.settings.units),
      state.trajectory.snapshots.empty() ? 0 : state.trajectory.snapshots.back().iteration);
  // The reference sets are pawn = 100: in another unit they stand on the fit's pawn, and are
  // left out when it gives no scale (a pawn not identified, say).
  draw_fit_values(state.trajectory.fits, state.settings.units, unit_scale(state), title, renderer,
                  size, scale);
}

void draw_fit_values(const std::vector<protocol::Fit>& fits, protocol::Units units,
                     std::optional<double> unit, const char* title, PlotRenderer& renderer,
                     ImVec2 size, float scale, const char* x_caption) {
  const bool fine = units == protocol::Units::kLogOdds;
  static constexpr const char* kNames[] = {"", "Knight", "Bishop", "Rook", "Queen"};
  const double y_min = 0, y_max = values_y_max(fits, units, unit);
  const std::string x_label = values_x_label(fits, units, unit);
  bool hovered = false;
  PlotSpec spec{"##values",
                title,
                x_caption != nullptr ? x_caption : x_label.c_str(),
                0.5,
                4.5,
                y_min,
                y_max,
                fine ? "%.1f" : "%.0f"};
  spec.x_names = kNames;
  spec.x_name_count = kPieceCount;
  PlotLegend legend{values_legend(fits, unit), {}, {}};
  spec.legend = &legend;
  const PlotArea area = begin_plot(spec, size, scale, hovered);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw_reference_marks(draw, area, unit, scale);
  draw_learned_values(renderer, draw, area, fits, units, scale);
}

}  // namespace materialist::app
