#include "app/charts.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/plot.h"
#include "app/theme.h"
#include "app/widgets.h"
#include "core/statistics.h"
#include "learn/vocabulary/pieces.h"

namespace materialist::app {
namespace {

// Names each series just after its last point ("Queen 1078"), nudged apart so labels never
// overlap, and kept inside the plot.
void draw_end_labels(const PlotArea& area, const std::vector<Series>& series, float scale) {
  struct Label {
    float y;
    float x;  // where the series ends: labels ride along while a fit is running
    std::string text;
    ImU32 color;
  };
  std::vector<Label> labels;
  for (const Series& s : series) {
    if (s.ys.empty() || !std::isfinite(s.ys.back())) continue;
    char text[64];
    const double v = s.ys.back();
    std::snprintf(text, sizeof text, std::fabs(v) < 20 ? "%s %.2f" : "%s %.0f", s.label.c_str(), v);
    const ImVec2 end = area.to_pixels(s.xs.back(), s.ys.back());
    labels.push_back({end.y, end.x, text, s.color});
  }
  std::sort(labels.begin(), labels.end(), [](const Label& a, const Label& b) { return a.y < b.y; });
  const float height = ImGui::GetTextLineHeight();
  for (std::size_t i = 1; i < labels.size(); ++i) {
    labels[i].y = std::max(labels[i].y, labels[i - 1].y + height);
  }
  // Shift the whole column up if it runs past the bottom of the plot.
  const float overflow = labels.empty() ? 0 : labels.back().y + height * 0.5f - area.max.y;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const Label& label : labels) {
    const float y = label.y - std::max(0.0f, overflow);
    // A small plot cannot hold every label: those pushed above its top are left out (they would
    // cover the title).
    if (y - height * 0.5f < area.min.y) continue;
    const ImVec2 extent = ImGui::CalcTextSize(label.text.c_str());
    const ImVec2 at(std::min(label.x + 10 * scale, area.max.x - extent.x - 8 * scale),
                    y - height * 0.5f);
    draw->AddRectFilled(ImVec2(at.x - 4 * scale, at.y),
                        ImVec2(at.x + extent.x + 4 * scale, at.y + height),
                        IM_COL32(16, 18, 22, 200), 3 * scale);
    draw->AddText(at, label.color, label.text.c_str());
  }
}

// A fit with a single state (an exact fit with no iterates to show) is drawn as a flat line
// across the plot at its value, not as a trajectory.
void spread_single_point(Series& s, double x_max) {
  if (s.xs.size() != 1) return;
  s.xs = {0.0, x_max};
  s.ys = {s.ys.front(), s.ys.front()};
}

int dataset_count(const Trajectory& t) {
  int count = static_cast<int>(t.fits.size());
  for (const protocol::Snapshot& s : t.snapshots) count = std::max(count, s.dataset + 1);
  return std::max(count, 1);
}

std::string dataset_name(const Trajectory& t, int index) {
  if (index < static_cast<int>(t.fits.size())) return t.fits[static_cast<std::size_t>(index)].name;
  return "dataset " + std::to_string(index + 1);
}

// With several datasets each one gets its colour; the pieces are told apart by their end labels.
std::vector<Series> dataset_series(const Trajectory& t, int datasets) {
  std::vector<Series> series;
  for (int d = 0; d < datasets; ++d) {
    for (int i = 1; i < kPieceCount; ++i) {  // the pawn is 100 by definition
      const protocol::Coefficient* fitted =
          t.done && d < static_cast<int>(t.fits.size())
              ? t.fits[static_cast<std::size_t>(d)].find(
                    learn::kPieceColumns[static_cast<std::size_t>(i)])
              : nullptr;
      if (fitted != nullptr && !fitted->identified) continue;  // not a value: no line
      Series s;
      s.label = std::string(piece_letter(i)) + " " + dataset_name(t, d);
      s.color = dataset_color(d);
      s.width = 2.0f;
      for (const protocol::Snapshot& snapshot : t.snapshots) {
        if (snapshot.dataset != d) continue;
        s.xs.push_back(snapshot.iteration);
        s.ys.push_back(entry(snapshot.values, i));
      }
      spread_single_point(s, std::max(1, t.snapshots.back().iteration));
      if (!s.xs.empty()) series.push_back(std::move(s));
    }
  }
  return series;
}

// A chart's y range.
struct ValueRange {
  double low = 0, high = 0;
};

// The trajectory's y range in the chosen unit: every value (within -600 and 3000), at least
// 0 to 1200, in whole steps.
ValueRange convergence_range(const Trajectory& t, double per_pawn) {
  double y_min = 0, y_max = 1200;
  for (const protocol::Snapshot& s : t.snapshots) {
    for (double v : s.values) {
      if (!std::isfinite(v)) continue;
      y_min = std::min(y_min, std::max(v, -600.0));
      y_max = std::max(y_max, std::min(v, 3000.0));
    }
  }
  y_min *= per_pawn;
  y_max *= per_pawn;
  const double step = nice_step(y_max - y_min, 6);
  return {std::floor(y_min / step) * step, std::ceil(y_max / step) * step};
}

// A finished fit that does not identify a piece draws no line for it: a trajectory of ratios
// to a pawn value the games do not determine is not a value.
std::array<bool, kPieceCount> identified_pieces(const Trajectory& t) {
  std::array<bool, kPieceCount> shown{};
  for (int i = 0; i < kPieceCount; ++i) {
    const protocol::Coefficient* c =
        t.done && !t.fits.empty()
            ? t.fits.front().find(learn::kPieceColumns[static_cast<std::size_t>(i)])
            : nullptr;
    shown[i] = c == nullptr || c->identified;
  }
  return shown;
}

// The lines without a legend, each named at its end instead.
void draw_labelled_series(PlotRenderer& renderer, const PlotArea& area,
                          const std::vector<Series>& series, float scale) {
  draw_series(renderer, area, series, scale);
  draw_end_labels(area, series, scale);
}

// One dataset's trajectory: a line per identified piece in its colour, in the chosen unit.
std::vector<Series> piece_series(const Trajectory& t, const std::array<bool, kPieceCount>& shown,
                                 double per_pawn, double x_max) {
  std::vector<Series> series(kPieceCount);
  for (int i = 0; i < kPieceCount; ++i) {
    if (!shown[i]) continue;
    series[i].label = piece_name(i);
    series[i].color = kPieceColors[i];
    series[i].width = i == 0 ? 1.5f : 2.25f;
    for (const protocol::Snapshot& s : t.snapshots) {
      series[i].xs.push_back(s.iteration);
      series[i].ys.push_back(entry(s.values, i) * per_pawn);
    }
  }
  std::erase_if(series, [](const Series& s) { return s.xs.empty(); });
  for (Series& s : series) spread_single_point(s, x_max);
  return series;
}

// The iteration under the mouse: a vertical line, and its loss and values in a tooltip.
void draw_iteration_tooltip(const PlotArea& area, const Trajectory& t,
                            const std::array<bool, kPieceCount>& shown, double per_pawn,
                            bool fine) {
  const double x = area.x0 + (ImGui::GetMousePos().x - area.min.x) / (area.max.x - area.min.x) *
                                 (area.x1 - area.x0);
  const auto nearest =
      std::min_element(t.snapshots.begin(), t.snapshots.end(),
                       [x](const protocol::Snapshot& a, const protocol::Snapshot& b) {
                         return std::fabs(a.iteration - x) < std::fabs(b.iteration - x);
                       });
  const float px = area.to_pixels(nearest->iteration, 0).x;
  ImGui::GetWindowDrawList()->AddLine(ImVec2(px, area.min.y), ImVec2(px, area.max.y),
                                      IM_COL32(255, 255, 255, 70), 1.0f);
  ImGui::BeginTooltip();
  ImGui::Text("iteration %d, loss %.6f", nearest->iteration, nearest->loss);
  for (int i = 0; i < kPieceCount; ++i) {
    if (!shown[i]) continue;
    ImGui::TextColored(to_vec4(kPieceColors[i]), fine ? "%s %.3f" : "%s %.1f",
                       piece_name(i).c_str(), entry(nearest->values, i) * per_pawn);
  }
  ImGui::EndTooltip();
}

// One line per dataset (a single dataset keeps the accent colour). Named in the legend for up to
// three: more (rating bands) would take the plot's height, and the table's colours name them.
std::vector<Series> loss_series(const Trajectory& t, double x_max) {
  const int datasets = dataset_count(t);
  std::vector<Series> losses;
  for (int d = 0; d < datasets; ++d) {
    Series loss{datasets > 1 && datasets <= 3 ? dataset_name(t, d) : "",
                {},
                {},
                datasets > 1 ? dataset_color(d) : kAccent,
                2.0f};
    for (const protocol::Snapshot& s : t.snapshots) {
      if (s.dataset != d) continue;
      loss.xs.push_back(s.iteration);
      loss.ys.push_back(s.loss);
    }
    spread_single_point(loss, x_max);
    if (!loss.xs.empty()) losses.push_back(std::move(loss));
  }
  return losses;
}

// The balances shown: those that hold at least 0.1% of the rows (the far tails are a handful of
// rows), at least ±4 and at most ±24.
int balance_reach(const protocol::Balance& chart) {
  double total = 0;
  for (const protocol::BalanceBin& bin : chart.bins) total += bin.count();
  int reach = 4;
  for (const protocol::BalanceBin& bin : chart.bins) {
    if (bin.count() >= std::max(3.0, total * 1e-3)) reach = std::max(reach, std::abs(bin.dm));
  }
  return std::min(reach, 24);
}

// The balance chart's curves: the logistic references, the data's own fitted curve and each
// dataset's expected score.
std::vector<Series> balance_curves(const AppState& state, int reach, bool eval) {
  const protocol::Balance& chart = state.balance;
  std::vector<Series> curves;
  auto curve = [&](double alpha, const char* label, ImU32 color, float width) {
    Series s{label, {}, {}, color, width};
    for (int i = 0; i <= 240; ++i) {
      const double x = -reach - 0.5 + (2 * reach + 1) * i / 240.0;
      s.xs.push_back(x);
      s.ys.push_back(1 / (1 + std::exp(-alpha * x)));
    }
    curves.push_back(std::move(s));
  };
  // The legend stays small (its rows take the plot's height): the reference curves are named for
  // one dataset, each dataset's curve for up to three (the table's colours name more).
  const std::size_t datasets = state.trajectory.fits.size();
  curve(0.5, datasets <= 1 ? "α = 0.5" : "", IM_COL32(150, 156, 168, 110), 1.25f);
  curve(1.0, datasets <= 1 ? "α = 1.0" : "", IM_COL32(150, 156, 168, 170), 1.25f);
  char fitted_label[64];
  if (chart.alpha) {
    // The data's own curve (draws as ½ point): the same whichever draw model is fitted.
    std::snprintf(fitted_label, sizeof fitted_label, "data: α = %.3f (%s)", *chart.alpha,
                  eval ? "evaluations" : "draws ½");
    curve(*chart.alpha, fitted_label, kAccent, 2.5f);
  }
  // Each dataset's fitted expected score (win + draw / 2) along the pawn column: the model's own
  // curve, which changes with its draw model (draws left out, ½ point, ordinal).
  const std::vector<protocol::Fit>& fits = state.trajectory.fits;
  for (std::size_t d = 0; d < fits.size(); ++d) {
    Series s{fits.size() > 3   ? std::string()
             : fits.size() > 1 ? fits[d].name
                               : std::string("this model's expected score"),
             {},
             {},
             fits.size() > 1 ? dataset_color(static_cast<int>(d)) : IM_COL32(120, 220, 140, 255),
             2.0f};
    for (const protocol::CurvePoint& p : fits[d].curve) {
      if (std::fabs(p.pawns) > reach + 0.5) continue;
      s.xs.push_back(p.pawns);
      s.ys.push_back(p.win + 0.5 * p.draw);
    }
    if (s.xs.size() > 1) curves.push_back(std::move(s));
  }
  return curves;
}

// The balance under the mouse: its dot ringed, its score and results in a tooltip.
void draw_balance_tooltip(const PlotArea& area, const protocol::Balance& chart, double max_count,
                          float max_radius, bool player, float scale) {
  const double x = area.x0 + (ImGui::GetMousePos().x - area.min.x) / (area.max.x - area.min.x) *
                                 (area.x1 - area.x0);
  const int balance = static_cast<int>(std::lround(x));
  for (const protocol::BalanceBin& bin : chart.bins) {
    if (bin.dm != balance || bin.count() <= 0) continue;
    const float radius =
        std::max(2.5f * scale, max_radius * static_cast<float>(std::sqrt(bin.count() / max_count)));
    ImGui::GetWindowDrawList()->AddCircle(area.to_pixels(bin.dm, bin.score()), radius + 4 * scale,
                                          IM_COL32(255, 255, 255, 200), 0, 1.5f * scale);
    ImGui::BeginTooltip();
    ImGui::Text("ΔM = %+d: %s scored %.1f%% of %s rows", balance, player ? "the player" : "White",
                100 * bin.score(), grouped(static_cast<std::uint64_t>(bin.count())).c_str());
    ImGui::Text("%s white wins, %s draws, %s black wins",
                grouped(static_cast<std::uint64_t>(bin.white)).c_str(),
                grouped(static_cast<std::uint64_t>(bin.draws)).c_str(),
                grouped(static_cast<std::uint64_t>(bin.black)).c_str());
    ImGui::EndTooltip();
  }
}

}  // namespace

void draw_convergence(const AppState& state, PlotRenderer& renderer, ImVec2 size, float scale) {
  const Trajectory& t = state.trajectory;
  // The chosen unit once the fit has its scale (values are pawn = 100 while it runs, and when
  // the fit gives no scale).
  const std::optional<double> unit = unit_scale(state);
  const double per_pawn = unit.value_or(1.0);
  const ValueRange range = convergence_range(t, per_pawn);
  const int last_iteration = t.snapshots.empty() ? 0 : t.snapshots.back().iteration;
  const double x_max =
      std::max({1, t.done ? last_iteration : t.planned_iterations, last_iteration});
  const std::array<bool, kPieceCount> shown = identified_pieces(t);
  const bool hidden = std::find(shown.begin(), shown.end(), false) != shown.end();
  char title[128];
  std::snprintf(title, sizeof title, "Piece values vs iteration (%s, %s%s)", solver_label(t.solver),
                unit ? unit_label(state.settings.units) : "pawn = 100",
                hidden                    ? ": values not identified, see the warnings"
                : t.snapshots.size() == 1 ? ": the exact fit, no iterates to show"
                                          : "");
  bool hovered = false;
  const bool fine = state.settings.units == protocol::Units::kLogOdds && unit;
  const PlotArea area = begin_plot({"##convergence", title, "iteration", 0, x_max, range.low,
                                    range.high, fine ? "%.1f" : "%.0f"},
                                   size, scale, hovered);
  const int datasets = dataset_count(t);
  if (datasets > 1) {
    std::vector<Series> series = dataset_series(t, datasets);
    for (Series& s : series)
      for (double& y : s.ys) y *= per_pawn;
    draw_labelled_series(renderer, area, series, scale);
    return;
  }
  draw_labelled_series(renderer, area, piece_series(t, shown, per_pawn, x_max), scale);
  if (hovered && !t.snapshots.empty()) draw_iteration_tooltip(area, t, shown, per_pawn, fine);
}

bool has_loss_plot(const AppState& state) {
  return !(state.trajectory.done && state.trajectory.snapshots.size() == 1);
}

void draw_loss(AppState& state, PlotRenderer& renderer, ImVec2 size, float scale) {
  const Trajectory& t = state.trajectory;
  double lo = 1e300, hi = -1e300;
  for (const protocol::Snapshot& s : t.snapshots) {
    if (!std::isfinite(s.loss)) continue;
    lo = std::min(lo, s.loss);
    hi = std::max(hi, s.loss);
  }
  if (lo > hi) lo = 0.4, hi = 0.7;
  const double pad = std::max(1e-4, (hi - lo) * 0.08);
  const int last_iteration = t.snapshots.empty() ? 0 : t.snapshots.back().iteration;
  const double x_max =
      std::max({1, t.done ? last_iteration : t.planned_iterations, last_iteration});
  char title[160];
  const bool converged = !t.fits.empty() && t.fits.front().converged;
  // An exact fit with no steps to show (the ordinal model's): its loss as a one-line note, not
  // an empty plot frame.
  if (!has_loss_plot(state)) {
    std::snprintf(title, sizeof title,
                  "Loss J(θ) = %.5f at the exact fit (Newton fitted it at once: no steps to draw)",
                  t.snapshots.front().loss);
    note(title, kMuted);
    publish(state, "note:loss", scale);
    return;
  }
  std::snprintf(
      title, sizeof title,
      t.solver == learn::SolverKind::kNewton ? "Loss J(θ) by Newton step%s" : "Loss J(θ)%s",
      t.snapshots.empty() ? ""
      : !t.done           ? " — fitting…"
      : converged         ? " — converged"
                          : " — stopped before converging");
  const std::vector<Series> losses = loss_series(t, x_max);
  PlotLegend legend{legend_entries(losses), {}, {}};
  PlotSpec spec{"##loss", title,    "iteration", 0,
                x_max,    lo - pad, hi + pad,    hi - lo < 0.01 ? "%.4f" : "%.3f"};
  spec.legend = &legend;
  bool hovered = false;
  const PlotArea area = begin_plot(spec, size, scale, hovered);
  publish_plot(state, "loss", area, legend, scale);
  draw_series(renderer, area, losses, scale);
}

void draw_estimates(const AppState& state, PlotRenderer& renderer, ImVec2 size, float scale) {
  const std::vector<EstimatePoint>& points = state.estimates;
  double x0 = 1, x1 = 2, y_min = 0, y_max = 1200;
  if (!points.empty()) {
    x0 = std::log10(std::max<double>(1, points.front().games));
    x1 = std::max(x0 + 1, std::log10(std::max<double>(1, points.back().games)) + 0.05);
    x0 = std::floor(x0);
  }
  for (const EstimatePoint& p : points) {
    for (int i = 1; i < kPieceCount; ++i) {
      if (!std::isfinite(p.values[i])) continue;
      const double band = std::isfinite(p.se[i]) ? kZ95 * p.se[i] : 0;
      y_min = std::min(y_min, std::max(p.values[i] - band, -600.0));
      y_max = std::max(y_max, std::min(p.values[i] + band, 3000.0));
    }
  }
  const double step = nice_step(y_max - y_min, 6);
  y_min = std::floor(y_min / step) * step;
  y_max = std::ceil(y_max / step) * step;
  bool hovered = false;
  PlotSpec spec{"##estimates",
                "Values while reading: exact fit of the games read so far (95% band)",
                "games read (log scale)",
                x0,
                x1,
                y_min,
                y_max};
  spec.x_log10 = true;
  const PlotArea area = begin_plot(spec, size, scale, hovered);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  std::vector<Series> series;
  for (int i = 1; i < kPieceCount; ++i) {  // the pawn is 100 by definition
    Series s{piece_name(i), {}, {}, kPieceColors[i], 2.25f};
    const ImU32 band = (kPieceColors[i] & 0x00FFFFFFu) | (0x40u << IM_COL32_A_SHIFT);
    for (std::size_t k = 0; k < points.size(); ++k) {
      const EstimatePoint& p = points[k];
      if (!std::isfinite(p.values[i])) continue;
      const double x = std::log10(std::max<double>(1, p.games));
      s.xs.push_back(x);
      s.ys.push_back(p.values[i]);
      // Each estimate as a dot with its 95% interval: the only mark while there is one estimate.
      if (std::isfinite(p.se[i])) {
        draw->AddLine(area.to_pixels(x, p.values[i] - kZ95 * p.se[i]),
                      area.to_pixels(x, p.values[i] + kZ95 * p.se[i]), kPieceColors[i],
                      1.5f * scale);
      }
      draw->AddCircleFilled(area.to_pixels(x, p.values[i]), 3.0f * scale, kPieceColors[i]);
      // The band between this point and the next, as a filled quad.
      if (k + 1 < points.size() && std::isfinite(points[k + 1].values[i]) &&
          std::isfinite(p.se[i]) && std::isfinite(points[k + 1].se[i])) {
        const EstimatePoint& q = points[k + 1];
        const double xq = std::log10(std::max<double>(1, q.games));
        draw->AddQuadFilled(area.to_pixels(x, p.values[i] + kZ95 * p.se[i]),
                            area.to_pixels(xq, q.values[i] + kZ95 * q.se[i]),
                            area.to_pixels(xq, q.values[i] - kZ95 * q.se[i]),
                            area.to_pixels(x, p.values[i] - kZ95 * p.se[i]), band);
      }
    }
    if (!s.xs.empty()) series.push_back(std::move(s));
  }
  draw_labelled_series(renderer, area, series, scale);
}

void draw_balance(AppState& state, PlotRenderer& renderer, ImVec2 size, float scale) {
  const protocol::Balance& chart = state.balance;
  double max_count = 1;
  for (const protocol::BalanceBin& bin : chart.bins) max_count = std::max(max_count, bin.count());
  const int reach = balance_reach(chart);
  const bool player = state.player_view();
  const bool several = state.trajectory.fits.size() > 1;
  const bool eval = state.report.target == learn::Target::kEval;  // expected scores, not points
  const char* what = eval ? (player ? "Evaluation (the player's expected score)"
                                    : "Evaluation (White's expected score)")
                          : (player ? "Points scored by the player" : "Points scored by White");
  char title[160];
  std::snprintf(title, sizeof title, "%s vs %s (1-3-3-5-9)%s", what,
                several || eval ? "ΔM" : "material balance ΔM",
                several ? ", all files together" : "");
  const std::vector<Series> curves = balance_curves(state, reach, eval);
  PlotLegend legend{legend_entries(curves), {}, {}};
  PlotSpec spec{
      "##balance",
      title,
      player ? "ΔM (pawns, the player minus the opponent)" : "ΔM (pawns, White minus Black)",
      -reach - 0.5,
      reach + 0.5,
      0,
      1,
      "%.2f"};
  spec.legend = &legend;
  bool hovered = false;
  const PlotArea area = begin_plot(spec, size, scale, hovered);
  publish_plot(state, "balance", area, legend, scale);
  std::vector<Disk> disks;
  const float max_radius = std::min(14.0f * scale, (area.max.x - area.min.x) / (4.0f * reach + 2));
  for (const protocol::BalanceBin& bin : chart.bins) {
    if (bin.count() <= 0 || std::abs(bin.dm) > reach) continue;
    const float radius =
        std::max(2.5f * scale, max_radius * static_cast<float>(std::sqrt(bin.count() / max_count)));
    disks.push_back({double(bin.dm), bin.score(), radius, IM_COL32(242, 142, 43, 170)});
  }
  draw_series(renderer, area, curves, scale);
  renderer.add_disks(ImGui::GetWindowDrawList(), area, disks);
  if (hovered) draw_balance_tooltip(area, chart, max_count, max_radius, player, scale);
}

}  // namespace materialist::app
