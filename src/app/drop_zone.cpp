#include "app/drop_zone.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/theme.h"
#include "app/widgets.h"

namespace materialist::app {
namespace {

// The drop zone's headline: what to drop or choose, what a drag would read, or the read's
// progress.
std::string drop_headline(const AppState& state) {
  if (!state.drag_over && state.phase == protocol::Phase::kReading) {
    const protocol::Progress& p = state.progress;
    if (p.file.empty()) return "Reading…";  // no progress yet
    // A stream of unknown length (a player's games): the games so far, not a percent.
    if (p.total_bytes <= 0) return "Reading " + p.file + ": " + grouped(p.games) + " games so far";
    const int percent = static_cast<int>(100 * p.bytes / p.total_bytes);
    return "Reading " + p.file + ": " + std::to_string(percent) + "%";
  }
  if (!state.drag_over && !state.link_files.empty()) {
    const std::string what =
        state.link_files.size() == 1 ? state.link_files.front() : std::string("the link's files");
    return (state.touch ? "Choose " : "Drop ") + what + (state.touch ? "" : " here");
  }
  if (!state.drag_over) return state.touch ? "Choose PGN files" : "Drop PGN files here";
  if (state.drag_file_count <= 0) return "Release to read the files";
  return "Release to read " + std::to_string(state.drag_file_count) +
         (state.drag_file_count == 1 ? " file" : " files");
}

// The drop zone's invitation under its headline: what to drop or choose, and how it is read.
std::vector<std::string> drop_lines(const AppState& state) {
  std::vector<std::string> lines;
  // A link made from local files: which files, since only the link's maker has them.
  if (!state.link_files.empty()) {
    std::string from_link = "This link was made from local files: ";
    for (std::size_t i = 0; i < state.link_files.size(); ++i)
      from_link += (i > 0 ? ", " : "") + state.link_files[i];
    from_link += state.touch ? ". Choose them" : ". Drop them (or Open files…)";
    from_link += " to fit them with the link's settings; Reset returns to the preset's.";
    lines.push_back(from_link);
  } else {
    lines.push_back(
        state.touch
            ? "with Choose files… (several at once), or Load sample: the article's 2,997 games"
            : "or Open files… (several at once), or Load sample: the article's 2,997 games");
  }
  lines.push_back("Files are read as streams in a Web Worker: nothing is uploaded.");
  lines.push_back("A statistics file (.mstats, from materialist stats) is fitted at once.");
  lines.push_back("Gradient descent is animated as it converges; Newton gives the exact fit.");
  return lines;
}

}  // namespace

void draw_drop_target(const AppState& state, const UiFonts& fonts, ImVec2 size, float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const std::vector<std::string> lines = drop_lines(state);
  {
    // Tall enough for its text (a phone's narrow zone wraps it into many lines): never over the
    // values' heading under it.
    ImGui::PushFont(fonts.large);
    const float headline = ImGui::GetTextLineHeight();
    ImGui::PopFont();
    float needed = headline * 2.4f + 24 * scale;
    for (const std::string& line : lines) {
      needed += ImGui::CalcTextSize(line.c_str(), nullptr, false, size.x - 40 * scale).y +
                ImGui::GetStyle().ItemSpacing.y;
    }
    if (state.phase != protocol::Phase::kReading)
      size.y = std::max(size.y, 2 * needed - 2 * headline);
  }
  const ImVec2 min = ImGui::GetCursorScreenPos();
  const ImVec2 max(min.x + size.x, min.y + size.y);
  ImGui::Dummy(size);
  const bool lit = state.drag_over;
  draw->AddRectFilled(min, max, lit ? IM_COL32(92, 170, 255, 40) : IM_COL32(255, 255, 255, 8),
                      12 * scale);
  // A dashed border: the familiar look of a drop zone.
  const ImU32 border = lit ? kAccent : IM_COL32(140, 146, 160, 160);
  const float dash = 14 * scale, gap = 9 * scale, inset = 6 * scale, thickness = 2.5f * scale;
  auto dashed = [&](ImVec2 a, ImVec2 b) {
    const float length = std::hypot(b.x - a.x, b.y - a.y);
    const ImVec2 dir((b.x - a.x) / length, (b.y - a.y) / length);
    for (float s = 0; s < length; s += dash + gap) {
      const float e = std::min(length, s + dash);
      draw->AddLine(ImVec2(a.x + dir.x * s, a.y + dir.y * s),
                    ImVec2(a.x + dir.x * e, a.y + dir.y * e), border, thickness);
    }
  };
  const ImVec2 a(min.x + inset, min.y + inset), b(max.x - inset, max.y - inset);
  dashed(a, ImVec2(b.x, a.y));
  dashed(ImVec2(b.x, a.y), b);
  dashed(b, ImVec2(a.x, b.y));
  dashed(ImVec2(a.x, b.y), a);

  ImGui::PushFont(fonts.large);
  const std::string headline = drop_headline(state);
  const ImVec2 headline_size = ImGui::CalcTextSize(headline.c_str());
  const ImVec2 centre((min.x + max.x) * 0.5f, (min.y + max.y) * 0.5f);
  draw->AddText(ImVec2(centre.x - headline_size.x * 0.5f, centre.y - headline_size.y * 1.4f),
                lit ? kAccent : IM_COL32(230, 233, 240, 255), headline.c_str());
  ImGui::PopFont();
  // During a read the progress says it all: no invitation to open more.
  if (state.phase == protocol::Phase::kReading) return;
  float y = centre.y + 4 * scale;
  for (const std::string& text : lines) {
    const char* line = text.c_str();
    // Wrapped to the zone's width (a phone's is narrow).
    const float wrap = size.x - 40 * scale;
    const ImVec2 extent = ImGui::CalcTextSize(line, nullptr, false, wrap);
    draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(centre.x - extent.x * 0.5f, y),
                  kMuted, line, nullptr, wrap);
    y += extent.y + ImGui::GetStyle().ItemSpacing.y;
  }
}

// Tints the window while files are dragged over the page; names the drop when the drop target
// itself is hidden (data already shown).
void draw_drag_overlay(const AppState& state, const UiFonts& fonts, float scale,
                       bool drop_target_visible) {
  if (!state.drag_over) return;
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  draw->AddRectFilled(ImVec2(0, 0), size, IM_COL32(20, 60, 110, 110));
  draw->AddRect(ImVec2(8 * scale, 8 * scale), ImVec2(size.x - 8 * scale, size.y - 8 * scale),
                kAccent, 14 * scale, 0, 4 * scale);
  if (drop_target_visible) return;
  const std::string text = drop_headline(state);
  ImGui::PushFont(fonts.large);
  const ImVec2 extent = ImGui::CalcTextSize(text.c_str());
  const ImVec2 at((size.x - extent.x) * 0.5f, (size.y - extent.y) * 0.5f);
  draw->AddRectFilled(ImVec2(at.x - 24 * scale, at.y - 16 * scale),
                      ImVec2(at.x + extent.x + 24 * scale, at.y + extent.y + 16 * scale),
                      IM_COL32(16, 18, 22, 230), 10 * scale);
  draw->AddText(at, IM_COL32(255, 255, 255, 255), text.c_str());
  ImGui::PopFont();
}

}  // namespace materialist::app
