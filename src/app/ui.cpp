#include "app/ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/about.h"
#include "app/analysis_panel.h"
#include "app/band_chart.h"
#include "app/charts.h"
#include "app/drop_zone.h"
#include "app/fit_panel.h"
#include "app/play_panel.h"
#include "app/player_panel.h"
#include "app/results_panel.h"
#include "app/squares_panel.h"
#include "app/target_panel.h"
#include "app/theme.h"
#include "app/widgets.h"

namespace materialist::app {
namespace {

// [SECTION] Toolbar and status

// Continues the row when a button of this label still fits, else starts a new one (a phone).
void same_line_if_fits(const char* label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = ImGui::CalcTextSize(label).x + style.FramePadding.x * 2;
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

// The exports: right-aligned in the toolbar, or in a row of their own at the end of a phone's
// column.
void draw_exports(AppState& state, std::vector<Command>& commands, float scale, bool in_toolbar) {
  const char* labels[] = {"Export .mat", "Values CSV", "Values JSON", "PNG"};
  const char* formats[] = {"mat", "csv", "json", "png"};
  float width = 0;
  for (const char* label : labels) {
    width += ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2 +
             ImGui::GetStyle().ItemSpacing.x;
  }
  const bool fitted = !state.trajectory.snapshots.empty();
  if (in_toolbar) {
    // Right-aligned on the same line when they fit, else on a line of their own.
    ImGui::SameLine();
    const float right = ImGui::GetContentRegionMax().x - width;
    if (ImGui::GetCursorPosX() <= right) {
      ImGui::SetCursorPosX(right);
    } else {
      ImGui::NewLine();
    }
  }
  for (int i = 0; i < 4; ++i) {
    // A picture of the results: only once there are some.
    const bool enabled = i == 3 ? fitted || state.has_data() : (i == 0 ? state.has_data() : fitted);
    if (button_or_why(state, labels[i], scale,
                      enabled && !(i < 3 && state.phase == protocol::Phase::kReading),
                      i == 0 && state.has_data() ? std::string("Wait for the read to end.")
                                                 : export_hint(state))) {
      Command export_command{Command::Kind::kExport};
      export_command.format = formats[i];
      commands.push_back(export_command);
    }
    if (i < 3) same_line_if_fits(labels[i + 1]);
  }
  // At the end of a phone's column, said in words (no pointer to hover the buttons with).
  if (!in_toolbar && !fitted) note(export_hint(state).c_str(), kMuted);
}

void draw_toolbar(AppState& state, std::vector<Command>& commands, const UiFonts& fonts,
                  float scale) {
  ImGui::PushFont(fonts.large);
  ImGui::TextUnformatted("Materialist");
  ImGui::PopFont();
  const char* tagline = "chess piece values learned from game outcomes";
  ImGui::SameLine();
  if (ImGui::GetCursorPosX() + ImGui::CalcTextSize(tagline).x <= ImGui::GetContentRegionMax().x) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(to_vec4(kMuted), "%s", tagline);
  } else {
    ImGui::NewLine();
  }

  // Where files cannot be dropped (a phone), they are chosen.
  if (button(state, state.touch ? "Choose files…" : "Open files…", scale, true, "Open files…"))
    commands.push_back({Command::Kind::kOpenFiles});
  same_line_if_fits("Load sample");
  if (button(state, "Load sample", scale)) commands.push_back(load_sample(state));
  same_line_if_fits("Player…");
  if (button(state, "Player…", scale, !state.busy())) state.player_open = true;
  same_line_if_fits("Play-test…");
  if (button(state, "Play-test…", scale)) state.play.open = true;
  same_line_if_fits("Cancel");
  if (button(state, "Cancel", scale, state.busy())) commands.push_back({Command::Kind::kCancel});
  same_line_if_fits("Reset");
  // Always there (not only after a fit): it forgets the data and returns every setting to the
  // preset's, so a failed load or a stray filter never leaves the page stuck.
  if (button(state, "Reset", scale, !state.busy())) commands.push_back(reset_to_preset(state));
  same_line_if_fits("About");
  if (button(state, "About", scale)) state.about_open = true;
  same_line_if_fits("A− A+");
  // Text size: A− / A+ (a zoom control for screens where pinching is not at hand).
  const float zoom = state.zoom > 0 ? state.zoom : 1.0f;
  if (button(state, "A−", scale, zoom > 0.8f, "zoom:out"))
    state.zoom = std::max(0.8f, zoom - 0.15f);
  ImGui::SameLine(0, 2 * scale);
  if (button(state, "A+", scale, zoom < 1.9f, "zoom:in")) state.zoom = std::min(1.9f, zoom + 0.15f);

  // On a phone the exports wait at the end of the column: the values come first.
  if (ImGui::GetIO().DisplaySize.x >= 760 * scale) draw_exports(state, commands, scale, true);
}

void draw_status(AppState& state, std::vector<Command>& commands, float scale) {
  const protocol::Progress& p = state.progress;
  if (state.phase == protocol::Phase::kReading) {
    const float fraction =
        p.total_bytes > 0 ? static_cast<float>(std::min(1.0, p.bytes / p.total_bytes)) : 0.0f;
    char overlay[96];
    // A stream of unknown length (a player's games from a service): what has arrived so far.
    if (p.total_bytes > 0) {
      std::snprintf(overlay, sizeof overlay, "%s of %s", megabytes(p.bytes).c_str(),
                    megabytes(p.total_bytes).c_str());
    } else {
      std::snprintf(overlay, sizeof overlay, "%s so far", megabytes(p.bytes).c_str());
    }
    ImGui::ProgressBar(fraction, ImVec2(-1, 0), overlay);
    if (p.file.empty()) {  // no progress yet ("Asking chess.com for the games of …")
      ImGui::TextUnformatted(state.status.c_str());
    } else {
      ImGui::Text(
          "Reading %s (file %d of %d) · %s games · %s rows · %s skipped · %.1f MB/s · ETA %s",
          p.file.c_str(), p.file_index + 1, std::max(1, p.file_count), grouped(p.games).c_str(),
          grouped(p.rows).c_str(), grouped(p.skipped).c_str(), p.mb_per_s,
          duration(p.eta_s).c_str());
    }
  } else {
    ImGui::ProgressBar(state.phase == protocol::Phase::kIdle ? 0.0f : 1.0f, ImVec2(-1, 4 * scale),
                       "");
    // The banner below says it in full; the status line would only repeat it.
    const bool banner = !state.error.empty() && state.phase == protocol::Phase::kError;
    ImGui::PushStyleColor(ImGuiCol_Text,
                          to_vec4(state.phase == protocol::Phase::kError ? kBad : kMuted));
    ImGui::TextWrapped("%s", banner                 ? "Error (details below)"
                             : state.status.empty() ? "Ready."
                                                    : state.status.c_str());
    ImGui::PopStyleColor();
  }
  if (!state.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0.45f, 0.12f, 0.12f, 0.9f));
    // As tall as the wrapped message (a phone's narrow banner): never cut off at its bottom.
    const float wrap = ImGui::GetContentRegionAvail().x - 110 * scale;
    const float height = std::max(
        ImGui::GetTextLineHeightWithSpacing() * 2.2f,
        ImGui::CalcTextSize(state.error.c_str(), nullptr, false, wrap - 8 * scale).y + 14 * scale);
    ImGui::BeginChild("error-banner", ImVec2(-1, height), false);
    ImGui::SetCursorPos(ImVec2(8 * scale, 6 * scale));
    ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x - 110 * scale);
    ImGui::TextUnformatted(state.error.c_str());
    ImGui::PopTextWrapPos();
    ImGui::SameLine(ImGui::GetContentRegionMax().x - 90 * scale);
    if (button(state, "Dismiss", scale)) commands.push_back({Command::Kind::kDismissError});
    ImGui::EndChild();
    ImGui::PopStyleColor();
  }
}

// The settings: a panel that folds away (its header stays), the Fit group and the Read group.
void draw_settings_panel(AppState& state, std::vector<Command>& commands, float scale) {
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(kAccent));
  ImGui::SetNextItemOpen(state.settings_open);
  state.settings_open = ImGui::CollapsingHeader("Settings");
  ImGui::PopStyleColor();
  publish(state, "Settings", scale);
  if (!state.settings_open) {
    if (read_settings_pending(state)) note("■ read settings changed, not applied", kBad);
    return;
  }
  draw_fit_settings(state, commands, scale);
  draw_analysis_panel(state, commands, scale);
  // Room under the last row: scrolled to the end, its buttons stand clear of the panel's edge.
  ImGui::Dummy(ImVec2(0, 16 * scale));
}

// A pane whose content goes on below its edge says so: the rows it cuts fade out under
// "more below", so a half row never reads as the end (published as "more:results").
void more_below(AppState& state, float scale) {
  if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 1) return;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  const float right = pos.x + size.x - ImGui::GetStyle().ScrollbarSize;
  const float fade = 2.2f * ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 min(pos.x, pos.y + size.y - fade), max(right, pos.y + size.y);
  const ImU32 clear = IM_COL32(19, 21, 25, 0), solid = IM_COL32(19, 21, 25, 255);
  draw->PushClipRect(min, max, false);
  draw->AddRectFilledMultiColor(min, ImVec2(max.x, max.y - fade * 0.45f), clear, clear, solid,
                                solid);
  draw->AddRectFilled(ImVec2(min.x, max.y - fade * 0.45f), max, solid);
  const char* text = "↓ more below: scroll";
  const ImVec2 extent = ImGui::CalcTextSize(text);
  draw->AddText(ImVec2(max.x - extent.x - 8 * scale, max.y - extent.y - 3 * scale), kMuted, text);
  draw->PopClipRect();
  state.buttons.push_back({"more:results", min.x / scale, min.y / scale, (max.x - min.x) / scale,
                           (max.y - min.y) / scale});
}

// "Test these values": each ended fit's values against 1-3-3-5-9 in the play-test.
void draw_test_values(AppState& state, float scale) {
  if (!state.trajectory.done) return;
  const std::vector<protocol::Fit>& fits = state.trajectory.fits;
  for (std::size_t i = 0; i < fits.size(); ++i) {
    if (fits[i].state == "failed") continue;
    const play::ValueSet set =
        fit_value_set(fits[i], fit_set_name(fits[i], state.report.target, state.trajectory.solver));
    // A fit that identified no piece has nothing to test.
    if (!identifies_any_piece(set)) continue;
    ImGui::PushID(static_cast<int>(i));
    const std::string label =
        fits.size() == 1 ? std::string("Test these values") : "Test " + fits[i].name;
    if (button(state, label.c_str(), scale, true, ("test-values:" + std::to_string(i)).c_str())) {
      test_values(state, set, "fitted: " + fits[i].name);
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play these values against 1-3-3-5-9");
    ImGui::PopID();
    if (i + 1 < fits.size()) ImGui::SameLine();
  }
}

void draw_results(AppState& state, std::vector<Command>& commands, const UiFonts& fonts,
                  float scale) {
  draw_values(state, fonts, scale);
  draw_target_summary(state, commands, scale);
  draw_squares_summary(state, scale);
  draw_test_values(state, scale);
  draw_relations(state, scale);
  filtered_counts(state);
}

// The main chart: the trajectory, or the values with their intervals after an exact fit.
void draw_main_chart(AppState& state, PlotRenderer& renderer, ImVec2 size, float scale) {
  if (shows_band_chart(state)) {
    draw_band_chart(state, renderer, size, scale);
  } else if (shows_value_chart(state)) {
    draw_value_chart(state, renderer, size, scale);
  } else {
    draw_convergence(state, renderer, size, scale);
  }
}

void draw_toast(AppState& state, float scale) {
  if (state.toast.empty()) return;
  const double now = ImGui::GetTime();
  if (state.toast_since < 0) state.toast_since = now;
  if (now - state.toast_since > 3.0) {
    state.toast.clear();
    return;
  }
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const ImVec2 extent = ImGui::CalcTextSize(state.toast.c_str());
  const ImVec2 min((display.x - extent.x) * 0.5f - 18 * scale, display.y - extent.y - 60 * scale);
  const ImVec2 max(min.x + extent.x + 36 * scale, min.y + extent.y + 24 * scale);
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->AddRectFilled(min, max, IM_COL32(40, 90, 60, 240), 10 * scale);
  draw->AddText(ImVec2(min.x + 18 * scale, min.y + 12 * scale), IM_COL32(255, 255, 255, 255),
                state.toast.c_str());
  state.buttons.push_back(
      {"toast", min.x / scale, min.y / scale, (max.x - min.x) / scale, (max.y - min.y) / scale});
}

// What the window's body shows: its room, and whether the drop target or the live chart is up.
struct Layout {
  ImVec2 avail;
  bool live = false;
  bool drop_target_visible = false;
};

// The right column's charts: the main chart, the loss, and the balance (beside the outcome
// curves when there are some); the live estimates instead while reading.
void draw_chart_column(AppState& state, PlotRenderer& renderer, const Layout& layout, float scale) {
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  const ImVec2 plots = ImGui::GetContentRegionAvail();
  const float usable = plots.y - 2 * spacing;
  if (layout.live) {
    draw_estimates(state, renderer, ImVec2(plots.x, plots.y), scale);
    return;
  }
  draw_main_chart(state, renderer, ImVec2(plots.x, usable * 0.42f), scale);
  draw_loss(state, renderer, ImVec2(plots.x, usable * 0.2f), scale);
  // The charts under the loss take the room left: all of its share when the loss is a line of
  // text, less when a legend made a chart above taller than its share.
  const float lower = std::max(ImGui::GetContentRegionAvail().y, usable * 0.25f);
  if (has_outcome_curves(state)) {
    // Side by side: the data's balance chart and the model's outcome probabilities.
    const float half = (plots.x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    draw_balance(state, renderer, ImVec2(half, lower), scale);
    ImGui::SameLine();
    draw_outcome_curves(state, renderer, ImVec2(half, lower), scale);
  } else {
    draw_balance(state, renderer, ImVec2(plots.x, lower), scale);
  }
}

// A wide screen. Left: the answer (values, relations) pinned on top, the settings panel under it
// (folds away). Right: the charts, the main one first, the data report last.
void draw_wide_layout(AppState& state, std::vector<Command>& commands, PlotRenderer& renderer,
                      const UiFonts& fonts, const Layout& layout, float scale) {
  const ImVec2 avail = layout.avail;
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  const float left_width = std::clamp(avail.x * 0.40f, 430 * scale, 640 * scale);
  ImGui::BeginGroup();
  const float header = ImGui::GetFrameHeightWithSpacing() + spacing;
  const float settings_height = state.settings_open ? std::max(header, avail.y * 0.42f) : header;
  ImGui::BeginChild("results", ImVec2(left_width, avail.y - settings_height - spacing), false);
  draw_results(state, commands, fonts, scale);
  draw_report(state, scale);
  more_below(state, scale);
  ImGui::EndChild();
  ImGui::BeginChild("settings", ImVec2(left_width, settings_height), false);
  draw_settings_panel(state, commands, scale);
  ImGui::EndChild();
  // The scrolling panel's rectangle (tests scroll controls into it).
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  state.buttons.push_back({"panel:scroll", min.x / scale, min.y / scale, (max.x - min.x) / scale,
                           (max.y - min.y) / scale});
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginChild("right", ImVec2(0, avail.y), false, ImGuiWindowFlags_NoScrollbar);
  if (layout.drop_target_visible) {
    draw_drop_target(state, fonts, ImGui::GetContentRegionAvail(), scale);
  } else {
    draw_chart_column(state, renderer, layout, scale);
  }
  ImGui::EndChild();
}

// A phone: one scrolling column, the values first, then the main chart, the settings.
void draw_phone_layout(AppState& state, std::vector<Command>& commands, PlotRenderer& renderer,
                       const UiFonts& fonts, const Layout& layout, float scale) {
  const ImVec2 avail = layout.avail;
  ImGui::BeginChild("column", ImVec2(0, avail.y), false);
  const ImVec2 min = ImGui::GetWindowPos();
  state.buttons.push_back(
      {"panel:scroll", min.x / scale, min.y / scale, avail.x / scale, avail.y / scale});
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = std::max(240 * scale, avail.y * 0.42f);
  if (layout.drop_target_visible) {
    draw_drop_target(state, fonts, ImVec2(width, height * 0.8f), scale);
    draw_results(state, commands, fonts, scale);
  } else if (layout.live) {
    draw_results(state, commands, fonts, scale);
    draw_estimates(state, renderer, ImVec2(width, height), scale);
  } else {
    draw_results(state, commands, fonts, scale);
    draw_main_chart(state, renderer, ImVec2(width, height), scale);
  }
  draw_settings_panel(state, commands, scale);
  if (!layout.drop_target_visible && !layout.live) {
    draw_loss(state, renderer, ImVec2(width, height * 0.5f), scale);
    draw_balance(state, renderer, ImVec2(width, height), scale);
    if (has_outcome_curves(state))
      draw_outcome_curves(state, renderer, ImVec2(width, height), scale);
  }
  draw_report(state, scale);
  section("Export");
  draw_exports(state, commands, scale, false);
  ImGui::EndChild();
}

}  // namespace

// [SECTION] Style

void apply_style(float scale) {
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowPadding = ImVec2(14, 12);
  style.FramePadding = ImVec2(9, 5);
  style.ItemSpacing = ImVec2(9, 7);
  style.FrameRounding = 5;
  style.ChildRounding = 6;
  style.GrabRounding = 4;
  style.PopupRounding = 5;
  style.WindowBorderSize = 0;
  style.ScrollbarSize = 13;
  ImVec4* c = style.Colors;
  // The frame is cleared to the window colour; a transparent window background saves a full-screen
  // layer of fill (it matters with software WebGL).
  c[ImGuiCol_WindowBg] = ImVec4(0, 0, 0, 0);
  c[ImGuiCol_ChildBg] = ImVec4(0.095f, 0.102f, 0.122f, 1.0f);
  c[ImGuiCol_Button] = ImVec4(0.20f, 0.36f, 0.58f, 1.0f);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.26f, 0.46f, 0.74f, 1.0f);
  c[ImGuiCol_ButtonActive] = ImVec4(0.18f, 0.32f, 0.52f, 1.0f);
  c[ImGuiCol_FrameBg] = ImVec4(0.16f, 0.17f, 0.20f, 1.0f);
  c[ImGuiCol_Header] = ImVec4(0.20f, 0.36f, 0.58f, 0.55f);
  c[ImGuiCol_PlotHistogram] = ImVec4(0.36f, 0.67f, 1.0f, 1.0f);
  c[ImGuiCol_TableRowBgAlt] = ImVec4(1, 1, 1, 0.025f);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

// [SECTION] The window

std::vector<Command> draw_ui(AppState& state, PlotRenderer& renderer, const UiFonts& fonts,
                             float scale) {
  std::vector<Command> commands;
  state.buttons.clear();
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  const ImGuiWindowFlags window_flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                        ImGuiWindowFlags_NoSavedSettings |
                                        ImGuiWindowFlags_NoBringToFrontOnFocus;
  const bool narrow = io.DisplaySize.x < 760 * scale;
  // Touch and phone layouts: every control at least 44 CSS pixels tall.
  const bool large_targets = narrow || state.touch;
  if (large_targets) {
    const float pad = std::max(5.0f * scale, (44 * scale - ImGui::GetFontSize()) * 0.5f);
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(12 * scale, pad));
    ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, 18 * scale);
  }
  ImGui::Begin("Materialist", nullptr, window_flags);
  draw_toolbar(state, commands, fonts, scale);
  draw_status(state, commands, scale);

  Layout layout;
  layout.avail = ImGui::GetContentRegionAvail();
  // While reading with estimates, the live chart takes the plots' place (the data's charts come
  // with the fit at the end of the read).
  layout.live = state.phase == protocol::Phase::kReading && !state.estimates.empty();
  layout.drop_target_visible =
      !state.has_data() && state.trajectory.snapshots.empty() && !layout.live;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0, 0, 0, 0));  // layout only, no fill
  if (!narrow) {
    draw_wide_layout(state, commands, renderer, fonts, layout, scale);
  } else {
    draw_phone_layout(state, commands, renderer, fonts, layout, scale);
  }
  ImGui::PopStyleColor();
  ImGui::End();
  draw_about(state, scale);
  draw_player_panel(state, commands, scale);
  draw_target_compare(state, renderer, scale);
  draw_squares_window(state, commands, scale);
  draw_play_panel(state, fonts.large, scale);
  if (large_targets) ImGui::PopStyleVar(2);
  draw_drag_overlay(state, fonts, scale, layout.drop_target_visible);
  draw_toast(state, scale);
  return commands;
}

}  // namespace materialist::app
