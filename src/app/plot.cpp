#include "app/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace materialist::app {
namespace {

constexpr ImU32 kFrameFill = IM_COL32(24, 27, 33, 255);
constexpr ImU32 kFrameBorder = IM_COL32(70, 76, 88, 255);
constexpr ImU32 kGrid = IM_COL32(255, 255, 255, 22);
constexpr ImU32 kTickText = IM_COL32(170, 176, 188, 255);
constexpr ImU32 kTitleText = IM_COL32(230, 233, 240, 255);

// How much of the data a legend card at `min` (of size `card`) would cover: the series' lines,
// sampled every few pixels, and the disks that reach into it (each as much as a line's stretch).
int covered(const PlotArea& area, const std::vector<Series>& series, const std::vector<Disk>& disks,
            ImVec2 min, ImVec2 card, float scale) {
  const ImVec2 max(min.x + card.x, min.y + card.y);
  auto inside = [&](ImVec2 p, float reach) {
    return p.x >= min.x - reach && p.x <= max.x + reach && p.y >= min.y - reach &&
           p.y <= max.y + reach;
  };
  int count = 0;
  const float step = 6 * scale;
  for (const Series& s : series) {
    for (std::size_t i = 0; i + 1 < s.xs.size() && i + 1 < s.ys.size(); ++i) {
      const ImVec2 a = area.to_pixels(s.xs[i], s.ys[i]);
      const ImVec2 b = area.to_pixels(s.xs[i + 1], s.ys[i + 1]);
      const float length = std::hypot(b.x - a.x, b.y - a.y);
      const int samples = std::clamp(static_cast<int>(length / step), 1, 64);
      for (int k = 0; k < samples; ++k) {
        const float t = static_cast<float>(k) / static_cast<float>(samples);
        count += inside(ImVec2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t), 2 * scale) ? 1 : 0;
      }
    }
  }
  for (const Disk& disk : disks) {
    count += inside(area.to_pixels(disk.x, disk.y), disk.radius) ? 8 : 0;
  }
  return count;
}

// The legend's top-left corner: the asked corner unless another covers less of the data.
ImVec2 legend_position(const PlotArea& area, const std::vector<Series>& series,
                       const std::vector<Disk>& disks, ImVec2 card, float scale,
                       LegendCorner asked) {
  const float margin = 8 * scale;
  const float left = area.min.x + margin, right = std::max(left, area.max.x - card.x - margin);
  const float top = area.min.y + margin, bottom = std::max(top, area.max.y - card.y - margin);
  auto position = [&](LegendCorner corner) {
    switch (corner) {
      case LegendCorner::kTopLeft:
        return ImVec2(left, top);
      case LegendCorner::kTopRight:
        return ImVec2(right, top);
      case LegendCorner::kBottomRight:
        return ImVec2(right, bottom);
      case LegendCorner::kBottomLeft:
        return ImVec2(left, bottom);
    }
    return ImVec2(left, top);
  };
  ImVec2 best = position(asked);
  int least = covered(area, series, disks, best, card, scale);
  for (const LegendCorner corner : {LegendCorner::kTopLeft, LegendCorner::kTopRight,
                                    LegendCorner::kBottomRight, LegendCorner::kBottomLeft}) {
    if (least == 0) break;
    const ImVec2 at = position(corner);
    const int count = covered(area, series, disks, at, card, scale);
    if (count < least) {
      least = count;
      best = at;
    }
  }
  return best;
}

}  // namespace

double nice_step(double range, int target) {
  if (!(range > 0) || target < 1) return 1;
  const double raw = range / target;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / power;
  const double nice = fraction < 1.5 ? 1 : fraction < 3.5 ? 2 : fraction < 7.5 ? 5 : 10;
  return nice * power;
}

PlotArea begin_plot(const PlotSpec& spec, ImVec2 size, float scale, bool& hovered) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float line = ImGui::GetTextLineHeight();
  ImGui::InvisibleButton(spec.id, size);
  hovered = ImGui::IsItemHovered();

  // The title wraps within the plot's width (a phone's narrow plot): never cut at the edge.
  const float title_height = ImGui::CalcTextSize(spec.title, nullptr, false, size.x).y;
  draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(origin.x, origin.y), kTitleText,
                spec.title, nullptr, size.x);
  // Room for tick labels on the left, the title on top, tick labels and axis label below.
  const float left = 6.0f * line * 0.62f + 8 * scale;
  PlotArea area;
  area.min = ImVec2(origin.x + left, origin.y + title_height + line * 0.5f);
  // The axis label wraps within the plot's width too, and takes the lines it needs.
  const float label_height = ImGui::CalcTextSize(spec.x_label, nullptr, false, size.x).y;
  area.max = ImVec2(origin.x + size.x - 24 * scale, origin.y + size.y - line * 1.4f - label_height);
  area.x0 = spec.x0;
  area.x1 = spec.x1 > spec.x0 ? spec.x1 : spec.x0 + 1;
  area.y0 = spec.y0;
  area.y1 = spec.y1 > spec.y0 ? spec.y1 : spec.y0 + 1;
  hovered = hovered && ImGui::IsMouseHoveringRect(area.min, area.max);

  draw->AddRectFilled(area.min, area.max, kFrameFill, 4 * scale);
  char text[32];
  const double y_step =
      nice_step(area.y1 - area.y0, std::max(2, int((area.max.y - area.min.y) / (line * 2.2f))));
  for (double y = std::ceil(area.y0 / y_step) * y_step; y <= area.y1 + y_step * 1e-9; y += y_step) {
    const float py = area.to_pixels(area.x0, y).y;
    draw->AddLine(ImVec2(area.min.x, py), ImVec2(area.max.x, py), kGrid, 1.0f);
    std::snprintf(text, sizeof text, spec.y_format, std::fabs(y) < y_step * 1e-9 ? 0.0 : y);
    const ImVec2 extent = ImGui::CalcTextSize(text);
    draw->AddText(ImVec2(area.min.x - extent.x - 6 * scale, py - extent.y * 0.5f), kTickText, text);
  }
  double x_step =
      nice_step(area.x1 - area.x0, std::max(2, int((area.max.x - area.min.x) / (line * 5.5f))));
  // Whole-number labels (iterations) never step by less than one: no "0 0 1 2 2" axis.
  if (spec.x_log10 || spec.x_names != nullptr || std::strstr(spec.x_format, ".0f") != nullptr)
    x_step = std::max(std::round(x_step), 1.0);
  for (double x = std::ceil(area.x0 / x_step) * x_step; x <= area.x1 + x_step * 1e-9; x += x_step) {
    const float px = area.to_pixels(x, area.y0).x;
    draw->AddLine(ImVec2(px, area.min.y), ImVec2(px, area.max.y), kGrid, 1.0f);
    if (spec.x_log10) {
      const double v = std::pow(10.0, x);
      if (v >= 1e6) {
        std::snprintf(text, sizeof text, "%.0fM", v / 1e6);
      } else if (v >= 1e3) {
        std::snprintf(text, sizeof text, "%.0fk", v / 1e3);
      } else {
        std::snprintf(text, sizeof text, "%.0f", v);
      }
    } else if (spec.x_names != nullptr) {
      const long index = std::lround(x);
      std::snprintf(text, sizeof text, "%s",
                    index >= 0 && index < spec.x_name_count ? spec.x_names[index] : "");
    } else {
      std::snprintf(text, sizeof text, spec.x_format, std::fabs(x) < x_step * 1e-9 ? 0.0 : x);
    }
    const ImVec2 extent = ImGui::CalcTextSize(text);
    draw->AddText(ImVec2(px - extent.x * 0.5f, area.max.y + 3 * scale), kTickText, text);
  }
  const ImVec2 label_size = ImGui::CalcTextSize(spec.x_label);
  if (label_size.x <= size.x) {
    // Centred under the data, kept inside the plot's width.
    const float x = std::clamp((area.min.x + area.max.x - label_size.x) * 0.5f, origin.x,
                               origin.x + size.x - label_size.x);
    draw->AddText(ImVec2(x, area.max.y + line * 1.25f), kTickText, spec.x_label);
  } else {
    draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(),
                  ImVec2(origin.x, area.max.y + line * 1.25f), kTickText, spec.x_label, nullptr,
                  size.x);
  }
  draw->AddRect(area.min, area.max, kFrameBorder, 4 * scale);
  return area;
}

void draw_series(PlotRenderer& renderer, const PlotArea& area, const std::vector<Series>& series,
                 float scale, LegendCorner corner, const std::vector<Disk>& disks) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const Series& s : series) {
    renderer.add_polyline(draw, area, s.xs, s.ys, s.color, s.width * scale);
  }
  // Legend: a swatch and the label per series, on a translucent card.
  const float line = ImGui::GetTextLineHeight();
  float width = 0;
  int labelled = 0;
  for (const Series& s : series) {
    if (s.label.empty()) continue;
    width = std::max(width, ImGui::CalcTextSize(s.label.c_str()).x);
    ++labelled;
  }
  if (labelled == 0) return;
  const float pad = 6 * scale, swatch = 14 * scale;
  // As many columns as it takes to stay within the plot's height (many bands compared), never
  // over the chart under it: the card is clipped to the plot.
  const float room = std::max(line * 1.15f, area.max.y - area.min.y - 16 * scale - pad * 1.5f);
  const int per_column = std::max(1, static_cast<int>(room / (line * 1.15f)));
  const int columns = (labelled + per_column - 1) / per_column;
  const int rows = (labelled + columns - 1) / columns;
  const float column_width = width + swatch + 3 * pad;
  const ImVec2 card(column_width * static_cast<float>(columns),
                    static_cast<float>(rows) * line * 1.15f + pad * 1.5f);
  ImVec2 at = legend_position(area, series, disks, card, scale, corner);
  at.x = std::max(at.x, area.min.x);
  draw->PushClipRect(area.min, area.max, true);
  draw->AddRectFilled(at, ImVec2(at.x + card.x, at.y + card.y), IM_COL32(16, 18, 22, 210),
                      4 * scale);
  int k = 0;
  for (const Series& s : series) {
    if (s.label.empty()) continue;
    const float x = at.x + column_width * static_cast<float>(k / rows);
    const float y = at.y + pad + line * 1.15f * static_cast<float>(k % rows);
    const float mid = y + line * 0.5f;
    draw->AddLine(ImVec2(x + pad, mid), ImVec2(x + pad + swatch, mid), s.color,
                  std::max(2.0f, s.width) * scale);
    draw->AddText(ImVec2(x + 2 * pad + swatch, y), kTitleText, s.label.c_str());
    ++k;
  }
  draw->PopClipRect();
}

}  // namespace materialist::app
