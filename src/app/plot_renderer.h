// Draws plot series with the project's own GLSL ES 3.0 programs (shaders/line.*, shaders/disk.*)
// from inside ImGui's draw lists: each series becomes an ImDrawList callback that runs between
// ImGui's own draw commands, so plots layer correctly with the widgets around them.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "imgui.h"

namespace materialist::app {

// A plot's pixel rectangle and the data range it shows.
struct PlotArea {
  ImVec2 min, max;  // framebuffer pixels (y down)
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  ImVec2 to_pixels(double x, double y) const;
};

struct Disk {
  double x, y;   // data coordinates
  float radius;  // pixels
  ImU32 color;
};

class PlotRenderer {
 public:
  PlotRenderer() = default;
  PlotRenderer(const PlotRenderer&) = delete;
  PlotRenderer& operator=(const PlotRenderer&) = delete;

  // Compiles and links the programs; false (with a message) when the GL context refuses them.
  bool init(std::string& error);
  bool ready() const { return line_program_ != 0 && disk_program_ != 0; }

  // Queues an anti-aliased polyline through (xs[i], ys[i]) in data coordinates.
  void add_polyline(ImDrawList* list, const PlotArea& area, const std::vector<double>& xs,
                    const std::vector<double>& ys, ImU32 color, float width);
  void add_disks(ImDrawList* list, const PlotArea& area, const std::vector<Disk>& disks);

  // Forgets the frame's queued series; call after ImGui's draw data has been rendered.
  void end_frame() { batches_.clear(); }

 private:
  struct Batch {
    enum class Kind { kLines, kDisks } kind;
    PlotRenderer* owner;
    ImVec2 rect_min, rect_max;
    std::vector<float> data;  // lines: x,y per point; disks: x,y,radius,rgba(as 4 floats)
    ImU32 color = 0;
    float width = 1;
  };

  static void draw_batch(const ImDrawList* list, const ImDrawCmd* cmd);
  void draw_lines(const Batch& batch, const ImDrawCmd& cmd);
  void draw_disks(const Batch& batch, const ImDrawCmd& cmd);
  void queue(ImDrawList* list, Batch batch);

  unsigned line_program_ = 0, disk_program_ = 0;
  unsigned line_vao_ = 0, disk_vao_ = 0;
  unsigned quad_buffer_ = 0, line_corner_buffer_ = 0, instance_buffer_ = 0;
  std::deque<Batch> batches_;  // a deque keeps callback pointers valid while it grows
};

}  // namespace materialist::app
