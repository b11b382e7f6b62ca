#include "app/ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/analysis_panel.h"
#include "app/charts.h"
#include "app/fit_tables.h"
#include "app/theme.h"
#include "app/widgets.h"
#include "learn/relations.h"

namespace materialist::app {
namespace {

// [SECTION] Toolbar and status

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

  if (button(state, "Open files…", scale)) commands.push_back({Command::Kind::kOpenFiles});
  ImGui::SameLine();
  if (button(state, "Load sample", scale)) commands.push_back({Command::Kind::kLoadSample});
  ImGui::SameLine();
  if (button(state, "Cancel", scale, state.busy())) commands.push_back({Command::Kind::kCancel});
  ImGui::SameLine();
  if (button(state, "Reset", scale, state.has_data() && !state.busy())) {
    commands.push_back({Command::Kind::kReset});
  }

  // Exports, right-aligned.
  const char* labels[] = {"Export .mat", "Values CSV", "Values JSON", "PNG"};
  const char* formats[] = {"mat", "csv", "json", "png"};
  float width = 0;
  for (const char* label : labels) {
    width += ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2 +
             ImGui::GetStyle().ItemSpacing.x;
  }
  const bool fitted = !state.trajectory.snapshots.empty();
  // Right-aligned on the same line when they fit, else on a line of their own (narrow windows).
  ImGui::SameLine();
  const float right = ImGui::GetContentRegionMax().x - width;
  if (ImGui::GetCursorPosX() <= right) {
    ImGui::SetCursorPosX(right);
  } else {
    ImGui::NewLine();
  }
  for (int i = 0; i < 4; ++i) {
    const bool enabled = i == 3 || (i == 0 ? state.has_data() : fitted);
    if (button(state, labels[i], scale,
               enabled && !(i < 3 && state.phase == protocol::Phase::kReading))) {
      Command export_command{Command::Kind::kExport};
      export_command.format = formats[i];
      commands.push_back(export_command);
    }
    if (i < 3) ImGui::SameLine();
  }
}

void draw_status(AppState& state, std::vector<Command>& commands, float scale) {
  const protocol::Progress& p = state.progress;
  if (state.phase == protocol::Phase::kReading) {
    const float fraction =
        p.total_bytes > 0 ? static_cast<float>(std::min(1.0, p.bytes / p.total_bytes)) : 0.0f;
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%s of %s", megabytes(p.bytes).c_str(),
                  megabytes(p.total_bytes).c_str());
    ImGui::ProgressBar(fraction, ImVec2(-1, 0), overlay);
    ImGui::Text("Reading %s (file %d of %d) · %s games · %s rows · %s skipped · %.1f MB/s · ETA %s",
                p.file.c_str(), p.file_index + 1, std::max(1, p.file_count),
                grouped(p.games).c_str(), grouped(p.rows).c_str(), grouped(p.skipped).c_str(),
                p.mb_per_s, duration(p.eta_s).c_str());
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
    const float height = ImGui::GetTextLineHeightWithSpacing() * 2.2f;
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

// [SECTION] Left column: settings, values, relations, data report

namespace {

// The fit settings and unknown-result policy equal a preset's (the model is not part of one).
bool matches_preset(const protocol::FitSettings& fit, learn::UnknownResultPolicy unknown,
                    const protocol::Preset& preset) {
  protocol::FitSettings as_preset = preset.fit;
  as_preset.model = fit.model;
  as_preset.preset = fit.preset;
  return fit == as_preset && unknown == preset.unknown;
}

// Any edit away from the preset's values makes the settings custom.
void mark_custom(AppState& state) {
  const std::vector<protocol::Preset>& presets = protocol::presets();
  const protocol::Preset& preset = presets[static_cast<std::size_t>(state.preset_index())];
  if (!matches_preset(state.settings.fit, state.settings.read.unknown, preset))
    state.settings.fit.preset = presets.back().id;
}

}  // namespace

void draw_settings(AppState& state, std::vector<Command>& commands, float scale) {
  section("Fit");
  protocol::FitSettings& s = state.settings.fit;
  const protocol::FitSettings before = s;
  const learn::UnknownResultPolicy unknown_before = state.settings.read.unknown;
  const std::vector<protocol::Preset>& presets = protocol::presets();
  bool apply_now = false;
  const float field = std::min(230 * scale, ImGui::GetContentRegionAvail().x * 0.42f);

  ImGui::SetNextItemWidth(field * 1.6f);
  // The combo and its items are published like buttons ("Preset", "preset:exact") for tests.
  const int current = state.preset_index();
  if (ImGui::BeginCombo("Preset", presets[static_cast<std::size_t>(current)].label)) {
    for (int i = 0; i < static_cast<int>(presets.size()); ++i) {
      const protocol::Preset& preset = presets[static_cast<std::size_t>(i)];
      const bool picked = ImGui::Selectable(preset.label, current == i);
      publish(state, (std::string("preset:") + preset.id).c_str(), scale);
      if (picked && current != i) {
        const protocol::ModelChoice model = s.model;
        s = preset.fit;
        s.model = model;
        state.settings.read.unknown = preset.unknown;
        apply_now = true;
      }
    }
    ImGui::EndCombo();
  } else {
    publish(state, "Preset", scale);
  }
  int solver = static_cast<int>(s.solver);
  if (ImGui::RadioButton("Gradient descent", &solver, 0)) apply_now = true;
  ImGui::SameLine();
  if (ImGui::RadioButton("Newton (exact)", &solver, 1)) apply_now = true;
  s.solver = static_cast<learn::SolverKind>(solver);

  bool edited = false;
  ImGui::BeginDisabled(s.solver == learn::SolverKind::kNewton);
  ImGui::SetNextItemWidth(field * 0.7f);
  ImGui::InputDouble("step α", &s.step, 0.25, 1.0, "%.3g");
  edited |= ImGui::IsItemDeactivatedAfterEdit();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field * 0.7f);
  ImGui::InputInt("iterations", &s.iterations, 1000, 10000);
  edited |= ImGui::IsItemDeactivatedAfterEdit();
  ImGui::EndDisabled();
  ImGui::SetNextItemWidth(field * 0.7f);
  ImGui::InputDouble("λ (L2)", &s.lambda, 0, 0, "%.3g");
  edited |= ImGui::IsItemDeactivatedAfterEdit();
  s.step = std::clamp(s.step, 1e-4, 100.0);
  s.iterations = std::clamp(s.iterations, 1, 1000000);
  s.lambda = std::clamp(s.lambda, 0.0, 10.0);

  const char* draw_modes[] = {"draws left out (article)", "draws = ½ point"};
  int draws = static_cast<int>(s.draws);
  ImGui::SetNextItemWidth(field);
  if (ImGui::Combo("draws", &draws, draw_modes, 2)) apply_now = true;
  s.draws = static_cast<learn::DrawHandling>(draws);
  const char* unknown_modes[] = {"skip \"*\" games", "\"*\" as draw (article)"};
  int unknown = static_cast<int>(state.settings.read.unknown);
  ImGui::SetNextItemWidth(field);
  if (ImGui::Combo("unknown results", &unknown, unknown_modes, 2)) apply_now = true;
  state.settings.read.unknown = static_cast<learn::UnknownResultPolicy>(unknown);

  if ((!(s == before) || state.settings.read.unknown != unknown_before) &&
      s.preset == before.preset)
    mark_custom(state);
  const bool can_fit = state.has_data() && state.phase != protocol::Phase::kReading;
  // Sent even without data: the worker keeps the settings for the next read.
  if (apply_now || edited) commands.push_back(fit_command(state));
  if (button(state, "Refit", scale, can_fit)) commands.push_back(fit_command(state));
  ImGui::SameLine();
  if (button(state, "Newton", scale, can_fit)) {
    s.solver = learn::SolverKind::kNewton;
    mark_custom(state);
    commands.push_back(fit_command(state));
  }
  ImGui::SameLine();
  ImGui::TextColored(to_vec4(kMuted), "refits the kept histogram: no re-reading");
}

void draw_values(const AppState& state, const UiFonts& fonts) {
  section("Piece values");
  const Trajectory& t = state.trajectory;
  const protocol::Snapshot* last = t.snapshots.empty() ? nullptr : &t.snapshots.back();
  if (last != nullptr) {
    ImGui::Text("%s, %s iterations, loss %.6f%s", solver_label(t.solver),
                grouped(static_cast<std::uint64_t>(last->iteration)).c_str(), last->loss,
                t.done ? "" : " (running)");
    if (!t.reason.empty()) ImGui::TextColored(to_vec4(kMuted), "%s", t.reason.c_str());
  } else if (state.estimates.empty()) {
    ImGui::TextColored(to_vec4(kMuted), "No fit yet: drop PGN files or load the sample.");
  }
  // The worker's fits carry every coefficient with its uncertainty.
  if (t.done && t.fits.size() >= 2) {
    draw_comparison(state);
    return;
  }
  if (t.done && t.fits.size() == 1 && !t.fits.front().coefficients.empty()) {
    draw_fit_values(state, t.fits.front(), fonts);
    return;
  }
  // While reading: the exact fit of the games read so far.
  if (state.phase == protocol::Phase::kReading && !state.estimate.fits.empty()) {
    ImGui::TextColored(to_vec4(kAccent), "Estimate from the first %s games read (exact fit)",
                       grouped(state.estimate.games).c_str());
    draw_fit_values(state, state.estimate.fits.front(), fonts);
    return;
  }
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("values", 5, flags)) return;
  ImGui::TableSetupColumn("Piece", ImGuiTableColumnFlags_WidthStretch, 1.3f);
  ImGui::TableSetupColumn("Learned", ImGuiTableColumnFlags_WidthStretch, 1.9f);
  ImGui::TableSetupColumn("Article", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("1-3-3-5-9", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("Capablanca", ImGuiTableColumnFlags_WidthStretch, 1.1f);
  ImGui::TableHeadersRow();
  for (int i = 0; i < kPieceCount; ++i) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextColored(to_vec4(kPieceColors[i]), "■ %s", piece_name(i).c_str());
    ImGui::TableNextColumn();
    if (last != nullptr) {
      ImGui::PushFont(fonts.large);
      ImGui::Text("%.0f", entry(last->values, i));
      ImGui::PopFont();
      if (i > 0 && std::isfinite(entry(last->value_se, i))) {
        ImGui::SameLine();
        ImGui::TextColored(to_vec4(kMuted), "± %.0f", entry(last->value_se, i));
      }
    } else {
      ImGui::TextColored(to_vec4(kMuted), "–");
    }
    ImGui::TableNextColumn();
    ImGui::Text("%.0f", kArticle[i]);
    ImGui::TableNextColumn();
    ImGui::Text("%.0f", kTextbook[i]);
    ImGui::TableNextColumn();
    ImGui::Text("%.0f", kCapablancaSet[i]);
  }
  ImGui::EndTable();
}

void draw_relations(const AppState& state) {
  if (state.trajectory.snapshots.empty() || state.trajectory.fits.size() >= 2) return;
  section("Capablanca's relations");
  if (state.trajectory.fits.size() == 1) {
    const protocol::Fit& fit = state.trajectory.fits.front();
    const bool unidentified = std::any_of(
        fit.coefficients.begin(), fit.coefficients.end(),
        [](const protocol::Coefficient& c) { return !c.identified && c.name != "draw-margin"; });
    if (unidentified) {
      ImGui::TextColored(to_vec4(kMuted),
                         "No verdicts: they need piece values these games do not identify.");
      return;
    }
  }
  if (state.trajectory.fits.size() == 1 && !state.trajectory.fits.front().relations.empty()) {
    // The worker's verdicts weigh each margin against its standard error.
    if (!ImGui::BeginTable("verdicts", 3, ImGuiTableFlags_SizingStretchProp)) return;
    for (const protocol::Relation& v : state.trajectory.fits.front().relations) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(v.relation.c_str());
      ImGui::TableNextColumn();
      ImGui::TextColored(to_vec4(kMuted), "margin %+.0f ± %.0f", v.margin, v.se);
      ImGui::TableNextColumn();
      const ImU32 color = v.verdict == "holds" ? kGood : v.verdict == "violated" ? kBad : kMuted;
      const bool consistent = v.equality && v.verdict == "holds";
      ImGui::TextColored(to_vec4(color), "%s", consistent ? "consistent" : v.verdict.c_str());
    }
    ImGui::EndTable();
    return;
  }
  const protocol::Snapshot& last = state.trajectory.snapshots.back();
  PieceValues values{};
  for (int i = 0; i < kPieceCount; ++i) values[i] = entry(last.values, i);
  const auto checks = learn::check_capablanca(values);
  if (!ImGui::BeginTable("relations", 3, ImGuiTableFlags_SizingStretchProp)) return;
  ImGui::TableSetupColumn("relation", ImGuiTableColumnFlags_WidthStretch, 1.1f);
  ImGui::TableSetupColumn("numbers", ImGuiTableColumnFlags_WidthStretch, 2.2f);
  ImGui::TableSetupColumn("holds", ImGuiTableColumnFlags_WidthStretch, 0.5f);
  for (const learn::RelationCheck& check : checks) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(check.relation.c_str());
    ImGui::TableNextColumn();
    ImGui::TextColored(to_vec4(kMuted), "%s", check.numbers.c_str());
    ImGui::TableNextColumn();
    ImGui::TextColored(to_vec4(check.holds ? kGood : kBad), "%s", check.holds ? "✓ yes" : "✗ no");
  }
  ImGui::EndTable();
}

void draw_report(const AppState& state, float scale) {
  const protocol::DataReport& r = state.report;
  if (!state.has_report) return;
  section("Data");
  if (ImGui::BeginTable("report", 4, ImGuiTableFlags_SizingStretchSame)) {
    auto pair = [](const char* name, const std::string& value) {
      ImGui::TableNextColumn();
      ImGui::TextColored(to_vec4(kMuted), "%s", name);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(value.c_str());
    };
    char speed[48];
    std::snprintf(speed, sizeof speed, "%.1f MB/s", r.mb_per_s);
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f s", r.seconds);
    pair("games read", grouped(r.games));
    pair("games used", grouped(r.used));
    pair("partial", grouped(r.partial));
    pair("skipped", grouped(r.skipped));
    pair("rows", grouped(r.rows));
    pair("distinct rows", grouped(r.distinct_rows));
    pair("draw rows", grouped(r.draw_rows));
    pair("decisive rows", grouped(r.decisive_rows));
    pair("bytes", megabytes(r.bytes));
    pair("time", seconds);
    pair("throughput", speed);
    pair("files", grouped(r.files.size()));
    ImGui::EndTable();
  }
  if (r.stopped_at_limit) {
    const protocol::ReadOptions& limit = state.applied_read;
    std::string what = limit.max_games ? grouped(limit.max_games) + " games" : std::string();
    if (limit.max_megabytes > 0) {
      what += (what.empty() ? "" : " or ") + megabytes(limit.max_megabytes * 1e6);
    }
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(to_vec4(kAccent),
                       "Read stopped at the limit (%s): the rest of the files "
                       "was not read. Clear it in Analysis to read everything.",
                       what.c_str());
    ImGui::PopTextWrapPos();
  }
  for (const std::string& error : r.file_errors) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(to_vec4(kBad), "%s", error.c_str());
    ImGui::PopTextWrapPos();
  }
  if (r.issues.empty()) return;
  if (r.issue_total > r.issues.size()) {
    ImGui::Text("Skipped games (first %s of %s):", grouped(r.issues.size()).c_str(),
                grouped(r.issue_total).c_str());
  } else {
    ImGui::Text("Skipped games (%s):", grouped(r.issues.size()).c_str());
  }
  // Room for up to eight entries (and a horizontal scrollbar: reasons can be long).
  const float rows = std::clamp(static_cast<float>(r.issues.size()), 2.0f, 8.0f) + 1.0f;
  ImGui::BeginChild("skipped", ImVec2(-1, ImGui::GetTextLineHeightWithSpacing() * rows + 8 * scale),
                    true, ImGuiWindowFlags_HorizontalScrollbar);
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(r.issues.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const protocol::GameIssue& game = r.issues[static_cast<std::size_t>(i)];
      ImGui::TextColored(to_vec4(kMuted), "%s:%llu", game.file.c_str(),
                         static_cast<unsigned long long>(game.line));
      ImGui::SameLine();
      ImGui::TextUnformatted(game.reason.c_str());
    }
  }
  ImGui::EndChild();
}

std::string drop_headline(const AppState& state) {
  if (!state.drag_over && state.phase == protocol::Phase::kReading) {
    const protocol::Progress& p = state.progress;
    const int percent = p.total_bytes > 0 ? static_cast<int>(100 * p.bytes / p.total_bytes) : 0;
    return "Reading " + p.file + ": " + std::to_string(percent) + "%";
  }
  if (!state.drag_over) return "Drop PGN files here";
  if (state.drag_file_count <= 0) return "Release to read the files";
  return "Release to read " + std::to_string(state.drag_file_count) +
         (state.drag_file_count == 1 ? " file" : " files");
}

void draw_drop_target(const AppState& state, const UiFonts& fonts, ImVec2 size, float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
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
  const char* lines[] = {
      "or Open files… (several at once), or Load sample: the article's 2,997 engine games",
      "Files are read as streams in a Web Worker: multi-GB collections never sit whole in memory.",
      "Gradient descent is animated as it converges; Newton gives the exact fit in one click."};
  float y = centre.y + 4 * scale;
  for (const char* line : lines) {
    const ImVec2 extent = ImGui::CalcTextSize(line);
    draw->AddText(ImVec2(centre.x - extent.x * 0.5f, y), kMuted, line);
    y += ImGui::GetTextLineHeightWithSpacing();
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

void draw_left_column(AppState& state, std::vector<Command>& commands, const UiFonts& fonts,
                      float scale) {
  draw_settings(state, commands, scale);
  draw_analysis_panel(state, commands, scale);
  draw_values(state, fonts);
  draw_relations(state);
  draw_report(state, scale);
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
  ImGui::Begin("Materialist", nullptr, window_flags);
  draw_toolbar(state, commands, fonts, scale);
  draw_status(state, commands, scale);

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // While reading with estimates, the live chart takes the plots' place (the data's charts come
  // with the fit at the end of the read).
  const bool live = state.phase == protocol::Phase::kReading && !state.estimates.empty();
  const bool drop_target_visible = !state.has_data() && state.trajectory.snapshots.empty() && !live;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0, 0, 0, 0));  // layout only, no fill
  if (avail.x >= 760 * scale) {
    // Side by side: settings, values and report on the left, the plots filling the right.
    const float left_width = std::clamp(avail.x * 0.38f, 400 * scale, 600 * scale);
    ImGui::BeginChild("left", ImVec2(left_width, avail.y), false);
    draw_left_column(state, commands, fonts, scale);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("right", ImVec2(0, avail.y), false, ImGuiWindowFlags_NoScrollbar);
    const ImVec2 plots = ImGui::GetContentRegionAvail();
    if (drop_target_visible) {
      draw_drop_target(state, fonts, plots, scale);
    } else {
      const float usable = plots.y - 2 * ImGui::GetStyle().ItemSpacing.y;
      if (live) {
        draw_estimates(state, renderer, ImVec2(plots.x, plots.y), scale);
      } else if (has_outcome_curves(state)) {
        draw_convergence(state, renderer, ImVec2(plots.x, usable * 0.42f), scale);
        draw_loss(state, renderer, ImVec2(plots.x, usable * 0.2f), scale);
        // Side by side: the data's balance chart and the model's outcome probabilities.
        const float half = (plots.x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
        draw_balance(state, renderer, ImVec2(half, usable * 0.38f), scale);
        ImGui::SameLine();
        draw_outcome_curves(state, renderer, ImVec2(half, usable * 0.38f), scale);
      } else {
        draw_convergence(state, renderer, ImVec2(plots.x, usable * 0.42f), scale);
        draw_loss(state, renderer, ImVec2(plots.x, usable * 0.2f), scale);
        draw_balance(state, renderer, ImVec2(plots.x, usable * 0.38f), scale);
      }
    }
    ImGui::EndChild();
  } else {
    // A narrow window (a phone, a split screen): one scrolling column, plots first.
    ImGui::BeginChild("column", ImVec2(0, avail.y), false);
    const float width = ImGui::GetContentRegionAvail().x;
    const float height = std::max(220 * scale, avail.y * 0.45f);
    if (drop_target_visible) {
      draw_drop_target(state, fonts, ImVec2(width, height), scale);
    } else {
      if (live) {
        draw_estimates(state, renderer, ImVec2(width, height), scale);
      } else {
        draw_convergence(state, renderer, ImVec2(width, height), scale);
        draw_loss(state, renderer, ImVec2(width, height * 0.5f), scale);
        draw_balance(state, renderer, ImVec2(width, height), scale);
        if (has_outcome_curves(state))
          draw_outcome_curves(state, renderer, ImVec2(width, height), scale);
      }
    }
    draw_left_column(state, commands, fonts, scale);
    ImGui::EndChild();
  }
  ImGui::PopStyleColor();
  ImGui::End();
  draw_drag_overlay(state, fonts, scale, drop_target_visible);
  return commands;
}

}  // namespace materialist::app
