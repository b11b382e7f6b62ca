// Plot frames drawn with ImGui's draw lists (axes, grid, ticks, labels, legend) around series that
// the PlotRenderer draws with the project's shaders.
#pragma once

#include <string>
#include <vector>

#include "app/plot_renderer.h"

namespace materialist::app {

struct Series {
  std::string label;
  std::vector<double> xs, ys;
  ImU32 color = 0;
  float width = 2;  // pixels at scale 1
};

struct PlotSpec {
  const char* id;       // ImGui id of the plot's item
  const char* title;    // drawn above the frame
  const char* x_label;  // under the x axis
  double x0, x1, y0, y1;
  const char* y_format = "%.0f";  // tick labels
  const char* x_format = "%.0f";
  bool x_log10 = false;  // x holds log10 of the quantity: decade ticks labelled 10, 100, 1k, …
  const char* const* x_names = nullptr;  // categories: the label of x = 0, 1, 2, … (else numbers)
  int x_name_count = 0;
};

// Lays out a plot of `size` at the cursor: title, frame, grid and tick labels. Returns the data
// area; `hovered` reports whether the mouse is over it (for tooltips).
PlotArea begin_plot(const PlotSpec& spec, ImVec2 size, float scale, bool& hovered);

// Draws the series with the renderer and their legend in a corner of the plot: the asked one,
// unless another covers less of the data (the series' lines and `disks`, drawn by the caller).
enum class LegendCorner { kTopLeft, kTopRight, kBottomRight, kBottomLeft };
void draw_series(PlotRenderer& renderer, const PlotArea& area, const std::vector<Series>& series,
                 float scale, LegendCorner corner, const std::vector<Disk>& disks = {});

// A "nice" tick step (1, 2 or 5 times a power of ten) giving about `target` ticks over `range`.
double nice_step(double range, int target);

}  // namespace materialist::app
