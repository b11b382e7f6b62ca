#include "app/band_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/plot.h"
#include "app/theme.h"
#include "app/value_chart.h"
#include "app/widgets.h"
#include "core/statistics.h"
#include "learn/filter/bands.h"
#include "learn/vocabulary/pieces.h"

namespace materialist::app {
namespace {

struct BandColumn {
  const protocol::Fit* fit;
  std::string label;
};

// The bands with games, in the datasets' order (rising rating, or speed); the fits are named by
// their bands (app_state.cpp).
std::vector<BandColumn> band_columns(const AppState& state) {
  std::vector<BandColumn> columns;
  for (const protocol::Fit& fit : state.trajectory.fits) {
    if (fit.used > 0) columns.push_back({&fit, fit.name});
  }
  return columns;
}

// "1.2k" when the full count would not fit under a narrow band.
std::string games_text(std::uint64_t games, float room) {
  std::string text = grouped(games);
  if (ImGui::CalcTextSize(text.c_str()).x <= room || games < 1000) return text;
  char compact[16];
  std::snprintf(compact, sizeof compact, "%.1fk", static_cast<double>(games) / 1000.0);
  return compact;
}

// A band's start: "1400" for "1400-1599" ("<800", "2800+" and speeds as they are).
std::string band_start(const std::string& label) {
  const std::size_t dash = label.find('-');
  return dash == std::string::npos || dash == 0 ? label : label.substr(0, dash);
}

void set_bands(AppState& state, const char* spec_text) {
  const auto bands =
      learn::make_bands(*learn::parse_band_spec(spec_text), state.filter_form);  // a fixed spec
  if (!bands) {
    state.toast = bands.error().message;
    state.toast_since = -1;
    return;
  }
  protocol::ReadOptions& read = state.settings.read;
  read.datasets = protocol::DatasetMode::kPerFilter;
  read.each_filter.clear();
  for (const learn::Band& band : *bands) read.each_filter.push_back(band.filter);
}

// The band chart's y range.
struct BandRange {
  double y_min = 0, y_max = 0;
};

// The y range: every value and the intervals' tops, but no higher than 1.6 × the largest value
// (a band of a few games has bars of thousands that would flatten every value): a bar cut at the
// frame ends in an arrow. From 0 unless a value is negative.
BandRange band_range(const std::vector<BandColumn>& columns, protocol::Units units,
                     int first_piece) {
  double y_min = 0, top_value = 0, top_bar = 0;
  for (const BandColumn& column : columns) {
    for (int i = first_piece; i < kPieceCount; ++i) {
      const protocol::Coefficient* c = column.fit->find(learn::kPieceColumns[i]);
      if (c == nullptr || !c->identified) continue;
      const double v = in_unit(*c, units), half = kZ95 * se_in_unit(*c, units);
      y_min = std::min(y_min, v);
      top_value = std::max(top_value, v);
      top_bar = std::max(top_bar, v + (std::isfinite(half) ? half : 0));
    }
  }
  double y_max = top_value > 0 ? std::min(top_bar * 1.05, top_value * 1.6) : top_bar;
  if (!(y_max > y_min)) y_max = y_min + 1;
  const double step = nice_step(y_max - y_min, 6);
  y_max = std::ceil(y_max / step) * step;
  y_min = std::floor(y_min / step) * step;
  return {y_min, y_max};
}

// The chart's title: by rating band or by speed, a short one when the long one would not fit.
std::string band_title(const std::vector<BandColumn>& columns, protocol::Units units, float width) {
  // Rating bands are numbers ("1400-1599", "<800"), speeds are names.
  const bool by_rating =
      !columns.empty() && columns.front().label.find_first_of("0123456789") != std::string::npos;
  char title[160];
  std::snprintf(title, sizeof title, "Piece values by %s, 95%% intervals (%s)",
                by_rating ? "rating band" : "speed", unit_label(units));
  if (ImGui::CalcTextSize(title).x > width) {  // a phone: the short title
    std::snprintf(title, sizeof title, "Values by %s (%s)", by_rating ? "rating band" : "speed",
                  unit_label(units));
  }
  return title;
}

// How the bands' labels and games fit under the chart.
struct BandLabels {
  float room = 0;             // the width per band
  bool short_labels = false;  // each band's start instead of its full label
  bool staggered = false;     // on two alternating rows
  float under = 0;            // the height of the labels' lines
};

std::string band_label(const BandLabels& labels, const BandColumn& c) {
  return labels.short_labels ? band_start(c.label) : c.label;
}

std::string band_games(const BandLabels& labels, const BandColumn& c) {
  return games_text(c.fit->used, labels.room);
}

// Each band's label and games under it: full labels, or each band's start ("1400") when one
// would not fit, or those on two staggered rows when even they would not (a phone). The room
// per band is measured as begin_plot lays out its data area.
BandLabels band_labels(const std::vector<BandColumn>& columns, float width, float line,
                       float scale) {
  const int count = static_cast<int>(columns.size());
  BandLabels labels;
  const float area_width = width - (6.0f * line * 0.62f + 8 * scale) - 24 * scale;
  labels.room = count > 0 ? area_width / count - 6 * scale : 0;
  const auto widest = [&columns](auto text_of) {
    float widest_text = 0;
    for (const BandColumn& c : columns)
      widest_text = std::max(widest_text, ImGui::CalcTextSize(text_of(c).c_str()).x);
    return widest_text;
  };
  labels.short_labels = widest([](const BandColumn& c) { return c.label; }) > labels.room;
  labels.staggered =
      std::max(widest([&labels](const BandColumn& c) { return band_label(labels, c); }),
               widest([&labels](const BandColumn& c) { return band_games(labels, c); })) >
      labels.room;
  labels.under = (labels.staggered ? 4.0f : 2.0f) * line;
  return labels;
}

// Under each band: its label and its games (published as bands:label:N and bands:games:N).
void draw_band_labels(AppState& state, ImDrawList* draw, const PlotArea& area,
                      const std::vector<BandColumn>& columns, const BandLabels& labels, float line,
                      float scale) {
  const int count = static_cast<int>(columns.size());
  for (int b = 0; b < count; ++b) {
    const float center = area.to_pixels(b, 0).x;
    const std::string label = band_label(labels, columns[b]);
    const std::string games = band_games(labels, columns[b]);
    const ImVec2 label_size = ImGui::CalcTextSize(label.c_str());
    const ImVec2 games_size = ImGui::CalcTextSize(games.c_str());
    const float row = labels.staggered && b % 2 == 1 ? 2 * line : 0;
    const ImVec2 label_at(center - label_size.x * 0.5f, area.max.y + 3 * scale + row);
    const ImVec2 games_at(center - games_size.x * 0.5f, label_at.y + line);
    if (labels.staggered && b % 2 == 1) {  // a tick down to the lower row
      draw->AddLine(ImVec2(center, area.max.y + 2 * scale), ImVec2(center, label_at.y - 2 * scale),
                    IM_COL32(90, 96, 108, 255), 1.0f * scale);
    }
    draw->AddText(label_at, IM_COL32(210, 214, 222, 255), label.c_str());
    draw->AddText(games_at, kMuted, games.c_str());
    publish_rect(state, "bands:label:" + std::to_string(b), label_at,
                 ImVec2(label_at.x + label_size.x, label_at.y + label_size.y), scale);
    publish_rect(state, "bands:games:" + std::to_string(b), games_at,
                 ImVec2(games_at.x + games_size.x, games_at.y + games_size.y), scale);
  }
}

// A 95% interval's bar, capped at its ends, or with an arrow where the frame cuts its top.
void draw_interval_bar(ImDrawList* draw, const PlotArea& area, const BandRange& range, double x,
                       double v, double half, ImU32 color, float scale) {
  const ImVec2 lo = area.to_pixels(x, std::max(range.y_min, v - half));
  const ImVec2 hi = area.to_pixels(x, std::min(range.y_max, v + half));
  draw->AddLine(lo, hi, color, 2 * scale);
  const float cap = 4 * scale;
  if (v - half >= range.y_min) {
    draw->AddLine(ImVec2(lo.x - cap, lo.y), ImVec2(lo.x + cap, lo.y), color, 1.5f * scale);
  }
  if (v + half <= range.y_max) {
    draw->AddLine(ImVec2(hi.x - cap, hi.y), ImVec2(hi.x + cap, hi.y), color, 1.5f * scale);
  } else {  // cut at the frame: an arrow says it goes on
    draw->AddTriangleFilled(ImVec2(hi.x, hi.y), ImVec2(hi.x - cap, hi.y + 2 * cap),
                            ImVec2(hi.x + cap, hi.y + 2 * cap), color);
  }
}

// Each piece: its values joined across the bands, a bar for each 95% interval, and a dot;
// the pieces side by side within a band so their bars never hide each other.
void draw_band_pieces(PlotRenderer& renderer, ImDrawList* draw, const PlotArea& area,
                      const std::vector<BandColumn>& columns, protocol::Units units,
                      int first_piece, const BandRange& range, float scale) {
  const int count = static_cast<int>(columns.size());
  const int pieces = kPieceCount - first_piece;
  std::vector<Disk> disks;
  for (int i = first_piece; i < kPieceCount; ++i) {
    const double offset = (i - first_piece - (pieces - 1) * 0.5) * std::min(0.6 / pieces, 0.14);
    const ImU32 color = kPieceColors[i];
    std::vector<double> xs, ys;
    for (int b = 0; b < count; ++b) {
      const protocol::Coefficient* c = columns[b].fit->find(learn::kPieceColumns[i]);
      if (c == nullptr || !c->identified || columns[b].fit->state == "failed") continue;
      const double x = b + offset, v = in_unit(*c, units), half = kZ95 * se_in_unit(*c, units);
      xs.push_back(x);
      ys.push_back(v);
      if (std::isfinite(half) && half > 0)
        draw_interval_bar(draw, area, range, x, v, half, color, scale);
      disks.push_back({x, v, 4.5f * scale, color});
    }
    if (xs.size() >= 2) {
      renderer.add_polyline(draw, area, xs, ys, (color & 0x00FFFFFFu) | (140u << 24), 1.5f * scale);
    }
  }
  renderer.add_disks(draw, area, disks);
}

// The legend: the pieces' colours, and what the marks mean.
void draw_band_legend(const PlotArea& area, const BandLabels& labels, float line, int first_piece) {
  ImGui::SetCursorScreenPos(ImVec2(area.min.x, area.max.y + labels.under + 0.3f * line));
  for (int i = first_piece; i < kPieceCount; ++i) {
    if (i > first_piece) ImGui::SameLine();
    ImGui::TextColored(to_vec4(kPieceColors[i]), "■ %s", piece_name(i).c_str());
  }
  ImGui::SameLine();
  const char* note_text =
      labels.short_labels ? "bars: 95% (an arrow: cut at the top); under each band: its lowest "
                            "rating, its games; no dot: not identified"
                          : "bars: 95% (an arrow: cut at the top); under each band: its games; no "
                            "dot: not identified";
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(note_text).x) ImGui::NewLine();
  note(note_text, kMuted);
}

}  // namespace

void band_presets(AppState& state, float scale) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextColored(to_vec4(kMuted), "Compare:");
  same_line_or_wrap(button_width("by rating band (200)"));
  if (button(state, "by rating band (200)", scale, true, "compare:elo-bands")) {
    set_bands(state, "elo:200");
  }
  same_line_or_wrap(button_width("by speed"));
  if (button(state, "by speed", scale, true, "compare:speeds")) set_bands(state, "speed");
}

bool shows_band_chart(const AppState& state) {
  return state.trajectory.done && state.trajectory.bands;
}

void draw_band_chart(AppState& state, PlotRenderer& renderer, ImVec2 size, float scale) {
  const std::vector<BandColumn> columns = band_columns(state);
  const protocol::Units units = state.settings.units;
  const bool fine = units == protocol::Units::kLogOdds;
  // The pawn is the unit itself in pawn = 100: drawn only in the other units.
  const int first_piece = units == protocol::Units::kPawn ? 1 : 0;
  const int count = static_cast<int>(columns.size());
  const BandRange range = band_range(columns, units, first_piece);
  const std::string title = band_title(columns, units, size.x);
  const float line = ImGui::GetTextLineHeight();
  const BandLabels labels = band_labels(columns, size.x, line, scale);
  // The legend's row goes under the labels; staggered labels (a phone's scrolling column) get a
  // taller plot than the height given.
  const ImVec2 plot_size(size.x, std::max(size.y - labels.under + 0.4f * line - line * 1.6f,
                                          line * (labels.staggered ? 14 : 8)));
  std::vector<const char*> no_names(static_cast<std::size_t>(std::max(count, 1)), "");
  PlotSpec spec{"##bands",   title.c_str(), "",          -0.5,
                count - 0.5, range.y_min,   range.y_max, fine ? "%.1f" : "%.0f"};
  spec.x_names = no_names.data();  // the band labels are drawn below, two lines each
  spec.x_name_count = count;
  bool hovered = false;
  const PlotArea area = begin_plot(spec, plot_size, scale, hovered);
  publish_rect(state, "bands:plot", area.min, area.max, scale);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw_band_labels(state, draw, area, columns, labels, line, scale);
  draw_band_pieces(renderer, draw, area, columns, units, first_piece, range, scale);
  draw_band_legend(area, labels, line, first_piece);
}

}  // namespace materialist::app
