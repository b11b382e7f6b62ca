// Plot frames drawn with ImGui's draw lists (axes, grid, ticks, labels, legend) around series that
// the PlotRenderer draws with the project's shaders.
#pragma once

#include <string>
#include <vector>

#include "app/plot_renderer.h"

namespace materialist::app {

struct AppState;

struct Series {
  std::string label;
  std::vector<double> xs, ys;
  ImU32 color = 0;
  float width = 2;  // pixels at scale 1
};

// An entry of a plot's legend: a swatch in `color` (a line `width` pixels thick at scale 1, or a
// dot when `width` is 0) and its label.
struct LegendEntry {
  std::string label;
  ImU32 color = 0;
  float width = 2;
};

// A plot's legend, drawn in rows between the title and the data so that it never covers the data;
// begin_plot fills `min` and `max` with the rectangle it took (published for the tests).
struct PlotLegend {
  std::vector<LegendEntry> entries;
  ImVec2 min, max;
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
  PlotLegend* legend = nullptr;  // drawn above the data when it has entries
};

// Lays out a plot of `size` at the cursor: title, frame, grid and tick labels. Returns the data
// area; `hovered` reports whether the mouse is over it (for tooltips).
PlotArea begin_plot(const PlotSpec& spec, ImVec2 size, float scale, bool& hovered);

// The legend entries of the series that have a label.
std::vector<LegendEntry> legend_entries(const std::vector<Series>& series);

// Draws the series' lines with the renderer (their legend is the plot's, see PlotSpec::legend).
void draw_series(PlotRenderer& renderer, const PlotArea& area, const std::vector<Series>& series,
                 float scale);

// Publishes the plot's data area as "<name>:plot" and its legend, when it has one, as
// "<name>:legend" (tests check that the two never overlap).
void publish_plot(AppState& state, const char* name, const PlotArea& area, const PlotLegend& legend,
                  float scale);

// A "nice" tick step (1, 2 or 5 times a power of ten) giving about `target` ticks over `range`.
double nice_step(double range, int target);

}  // namespace materialist::app
