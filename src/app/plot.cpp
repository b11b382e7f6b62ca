#include "app/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "app/widgets.h"

namespace materialist::app {
namespace {

constexpr ImU32 kFrameFill = IM_COL32(24, 27, 33, 255);
constexpr ImU32 kFrameBorder = IM_COL32(70, 76, 88, 255);
constexpr ImU32 kGrid = IM_COL32(255, 255, 255, 22);
constexpr ImU32 kTickText = IM_COL32(170, 176, 188, 255);
constexpr ImU32 kTitleText = IM_COL32(230, 233, 240, 255);

// Lays the legend's entries out in rows from `at`, each row within `width` (an entry too long for
// a row wraps its label), and draws them when `draw` is given. Returns the height taken.
float layout_legend(ImDrawList* draw, const std::vector<LegendEntry>& entries, ImVec2 at,
                    float width, float scale) {
  const float line = ImGui::GetTextLineHeight();
  const float swatch = 14 * scale, pad = 6 * scale, gap = 16 * scale;
  const float text_room = std::max(line, width - swatch - pad);
  float x = 0, y = 0, row = 0;
  for (const LegendEntry& entry : entries) {
    const ImVec2 text = ImGui::CalcTextSize(entry.label.c_str(), nullptr, false, text_room);
    const float wide = swatch + pad + text.x;
    if (x > 0 && x + wide > width) {
      x = 0;
      y += row;
      row = 0;
    }
    if (draw != nullptr) {
      const ImVec2 mid(at.x + x + swatch * 0.5f, at.y + y + line * 0.5f);
      if (entry.width > 0) {
        draw->AddLine(ImVec2(at.x + x, mid.y), ImVec2(at.x + x + swatch, mid.y), entry.color,
                      std::max(2.0f, entry.width) * scale);
      } else {
        draw->AddCircleFilled(mid, 5 * scale, entry.color);
      }
      draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(),
                    ImVec2(at.x + x + swatch + pad, at.y + y), kTitleText, entry.label.c_str(),
                    nullptr, text_room);
    }
    x += wide + gap;
    row = std::max(row, std::max(text.y, line) + 0.15f * line);
  }
  return y + row;
}

// The y axis' grid lines and tick labels.
void draw_y_ticks(ImDrawList* draw, const PlotSpec& spec, const PlotArea& area, float scale) {
  const float line = ImGui::GetTextLineHeight();
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
}

// An x tick's label: a decade (10, 1k, 1M), a category's name or a number.
void x_tick_text(const PlotSpec& spec, double x, double step, char* text, std::size_t size) {
  if (spec.x_log10) {
    const double v = std::pow(10.0, x);
    if (v >= 1e6) {
      std::snprintf(text, size, "%.0fM", v / 1e6);
    } else if (v >= 1e3) {
      std::snprintf(text, size, "%.0fk", v / 1e3);
    } else {
      std::snprintf(text, size, "%.0f", v);
    }
  } else if (spec.x_names != nullptr) {
    const long index = std::lround(x);
    std::snprintf(text, size, "%s",
                  index >= 0 && index < spec.x_name_count ? spec.x_names[index] : "");
  } else {
    std::snprintf(text, size, spec.x_format, std::fabs(x) < step * 1e-9 ? 0.0 : x);
  }
}

// The x axis' grid lines and tick labels.
void draw_x_ticks(ImDrawList* draw, const PlotSpec& spec, const PlotArea& area, float scale) {
  const float line = ImGui::GetTextLineHeight();
  double x_step =
      nice_step(area.x1 - area.x0, std::max(2, int((area.max.x - area.min.x) / (line * 5.5f))));
  // Whole-number labels (iterations) never step by less than one: no "0 0 1 2 2" axis.
  if (spec.x_log10 || spec.x_names != nullptr || std::strstr(spec.x_format, ".0f") != nullptr)
    x_step = std::max(std::round(x_step), 1.0);
  char text[32];
  for (double x = std::ceil(area.x0 / x_step) * x_step; x <= area.x1 + x_step * 1e-9; x += x_step) {
    const float px = area.to_pixels(x, area.y0).x;
    draw->AddLine(ImVec2(px, area.min.y), ImVec2(px, area.max.y), kGrid, 1.0f);
    x_tick_text(spec, x, x_step, text, sizeof text);
    const ImVec2 extent = ImGui::CalcTextSize(text);
    draw->AddText(ImVec2(px - extent.x * 0.5f, area.max.y + 3 * scale), kTickText, text);
  }
}

// The x axis' label: centred under the data when it fits on one line, else wrapped.
void draw_x_label(ImDrawList* draw, const PlotSpec& spec, const PlotArea& area, ImVec2 origin,
                  float width) {
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 label_size = ImGui::CalcTextSize(spec.x_label);
  if (label_size.x <= width) {
    // Centred under the data, kept inside the plot's width.
    const float x = std::clamp((area.min.x + area.max.x - label_size.x) * 0.5f, origin.x,
                               origin.x + width - label_size.x);
    draw->AddText(ImVec2(x, area.max.y + line * 1.25f), kTickText, spec.x_label);
  } else {
    draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(),
                  ImVec2(origin.x, area.max.y + line * 1.25f), kTickText, spec.x_label, nullptr,
                  width);
  }
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
  // Room for tick labels on the left, the title on top, tick labels and axis label below.
  const float left = 6.0f * line * 0.62f + 8 * scale;
  const float right = 24 * scale;
  // The title and the axis label wrap within the plot's width (a phone's narrow plot): never cut
  // at the edge.
  const float title_height = ImGui::CalcTextSize(spec.title, nullptr, false, size.x).y;
  const float label_height = ImGui::CalcTextSize(spec.x_label, nullptr, false, size.x).y;
  // The legend's rows go between the title and the data, as many as its entries take.
  PlotLegend* legend = spec.legend;
  const bool has_legend = legend != nullptr && !legend->entries.empty();
  const ImVec2 legend_at(origin.x + left, origin.y + title_height + line * 0.3f);
  const float legend_width = size.x - left - right;
  const float legend_height =
      has_legend ? layout_legend(nullptr, legend->entries, legend_at, legend_width, scale) : 0;
  const float top = has_legend ? legend_at.y + legend_height + line * 0.4f
                               : origin.y + title_height + line * 0.5f;
  // A legend never squeezes the data under half the height asked: the plot grows instead.
  if (has_legend)
    size.y = std::max(size.y, top - origin.y + line * 1.4f + label_height + size.y * 0.5f);
  ImGui::InvisibleButton(spec.id, size);
  hovered = ImGui::IsItemHovered();
  draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(origin.x, origin.y), kTitleText,
                spec.title, nullptr, size.x);
  if (has_legend) {
    layout_legend(draw, legend->entries, legend_at, legend_width, scale);
    legend->min = legend_at;
    legend->max = ImVec2(legend_at.x + legend_width, legend_at.y + legend_height);
  }
  PlotArea area;
  area.min = ImVec2(origin.x + left, top);
  area.max = ImVec2(origin.x + size.x - right, origin.y + size.y - line * 1.4f - label_height);
  area.x0 = spec.x0;
  area.x1 = spec.x1 > spec.x0 ? spec.x1 : spec.x0 + 1;
  area.y0 = spec.y0;
  area.y1 = spec.y1 > spec.y0 ? spec.y1 : spec.y0 + 1;
  hovered = hovered && ImGui::IsMouseHoveringRect(area.min, area.max);

  draw->AddRectFilled(area.min, area.max, kFrameFill, 4 * scale);
  draw_y_ticks(draw, spec, area, scale);
  draw_x_ticks(draw, spec, area, scale);
  draw_x_label(draw, spec, area, origin, size.x);
  draw->AddRect(area.min, area.max, kFrameBorder, 4 * scale);
  return area;
}

std::vector<LegendEntry> legend_entries(const std::vector<Series>& series) {
  std::vector<LegendEntry> entries;
  for (const Series& s : series) {
    if (!s.label.empty()) entries.push_back({s.label, s.color, s.width});
  }
  return entries;
}

void publish_plot(AppState& state, const char* name, const PlotArea& area, const PlotLegend& legend,
                  float scale) {
  publish_rect(state, std::string(name) + ":plot", area.min, area.max, scale);
  if (!legend.entries.empty())
    publish_rect(state, std::string(name) + ":legend", legend.min, legend.max, scale);
}

void draw_series(PlotRenderer& renderer, const PlotArea& area, const std::vector<Series>& series,
                 float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const Series& s : series) {
    renderer.add_polyline(draw, area, s.xs, s.ys, s.color, s.width * scale);
  }
}

}  // namespace materialist::app
