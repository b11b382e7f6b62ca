#include "app/results_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/charts.h"
#include "app/fit_tables.h"
#include "app/player_form.h"
#include "app/sides_table.h"
#include "app/theme.h"
#include "app/widgets.h"
#include "learn/fit/relations.h"

namespace materialist::app {

namespace {

// What the values panel says before it has a value: what it waits for.
const char* no_values_text(protocol::Phase phase) {
  switch (phase) {
    case protocol::Phase::kReading:
      return "Reading: the values appear with the first estimate, after the first games.";
    case protocol::Phase::kFitting:
      return "Fitting: the values appear with the solver's first step.";
    default:
      return "No fit yet: drop PGN files or load the sample.";
  }
}

// The fit's verdicts on the relations ("verdicts"): each relation, its margin in the chosen unit,
// its verdict.
void draw_relation_verdicts(AppState& state, const std::vector<protocol::Relation>& relations,
                            float scale) {
  // Every cell measured first: the columns have their width on the frame the fit ends.
  std::vector<std::string> margins;
  float widths[3] = {0, 0, ImGui::CalcTextSize("✓ consistent").x};
  // Margins come pawn = 100: shown in the chosen unit like the values (when it has a scale).
  const std::optional<double> unit = unit_scale(state);
  const double k = unit.value_or(1.0);
  const bool fine = unit && state.settings.units == protocol::Units::kLogOdds;
  for (const protocol::Relation& v : relations) {
    char text[64];
    std::snprintf(text, sizeof text, fine ? "margin %+.2f ± %.2f" : "margin %+.0f ± %.0f",
                  v.margin * k, v.se * k);
    margins.push_back(text);
    widths[0] = std::max(widths[0], ImGui::CalcTextSize(v.relation.c_str()).x);
    widths[1] = std::max(widths[1], ImGui::CalcTextSize(text).x);
    widths[2] = std::max(widths[2], ImGui::CalcTextSize(v.verdict.c_str()).x);
  }
  if (!ImGui::BeginTable("verdicts", 3, ImGuiTableFlags_SizingFixedFit)) return;
  for (int i = 0; i < 3; ++i)
    ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthFixed, widths[i] + 1);
  std::size_t row = 0;
  for (const protocol::Relation& v : relations) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(v.relation.c_str());
    ImGui::TableNextColumn();
    ImGui::TextColored(to_vec4(kMuted), "%s", margins[row++].c_str());
    ImGui::TableNextColumn();
    const ImU32 color = v.verdict == "holds" ? kGood : v.verdict == "violated" ? kBad : kMuted;
    const bool consistent = v.equality && v.verdict == "holds";
    ImGui::TextColored(to_vec4(color), "%s", consistent ? "consistent" : v.verdict.c_str());
  }
  publish_table_columns(state, "relations", scale);
  ImGui::EndTable();
}

// The relations checked on the latest values ("relations"): each relation, its numbers, yes/no.
void draw_relation_checks(AppState& state, float scale) {
  const protocol::Snapshot& last = state.trajectory.snapshots.back();
  // The snapshot's values come pawn = 100: shown in the chosen unit once the fit gives its scale
  // (a positive factor: the verdicts stay the same), else as they come.
  const std::optional<double> unit = unit_scale(state);
  PieceValues values{};
  for (int i = 0; i < kPieceCount; ++i) values[i] = entry(last.values, i) * unit.value_or(1.0);
  const bool fine = unit && state.settings.units == protocol::Units::kLogOdds;
  const auto checks = learn::check_capablanca(values, fine ? 2 : 0);
  float widths[3] = {0, 0, ImGui::CalcTextSize("✗ no").x};
  for (const learn::RelationCheck& check : checks) {
    widths[0] = std::max(widths[0], ImGui::CalcTextSize(check.relation.c_str()).x);
    widths[1] = std::max(widths[1], ImGui::CalcTextSize(check.numbers.c_str()).x);
  }
  if (!ImGui::BeginTable("relations", 3, ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn("relation", ImGuiTableColumnFlags_WidthFixed, widths[0] + 1);
  ImGui::TableSetupColumn("numbers", ImGuiTableColumnFlags_WidthFixed, widths[1] + 1);
  ImGui::TableSetupColumn("holds", ImGuiTableColumnFlags_WidthFixed, widths[2] + 1);
  for (const learn::RelationCheck& check : checks) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(check.relation.c_str());
    ImGui::TableNextColumn();
    ImGui::TextColored(to_vec4(kMuted), "%s", check.numbers.c_str());
    ImGui::TableNextColumn();
    ImGui::TextColored(to_vec4(check.holds ? kGood : kBad), "%s", check.holds ? "✓ yes" : "✗ no");
  }
  publish_table_columns(state, "relations", scale);
  ImGui::EndTable();
}

// The data report's table of counts: two name/value pairs a row where they fit, else one.
void draw_report_table(const protocol::DataReport& r) {
  // Two pairs a row where they fit side by side, else one (a phone): a name never runs into
  // its value.
  const float pair_width = ImGui::CalcTextSize("decisive rows").x +
                           ImGui::CalcTextSize("00,000,000").x +
                           4 * ImGui::GetStyle().CellPadding.x + ImGui::GetStyle().ItemSpacing.x;
  const int columns = ImGui::GetContentRegionAvail().x >= 2 * pair_width ? 4 : 2;
  if (!ImGui::BeginTable("report", columns, ImGuiTableFlags_SizingStretchSame)) return;
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

// A read stopped at its limit says so, and where to clear it.
void draw_report_limit(const AppState& state) {
  if (!state.report.stopped_at_limit) return;
  const protocol::ReadOptions& limit = state.applied_read;
  std::string what = limit.max_games ? grouped(limit.max_games) + " games" : std::string();
  if (limit.max_megabytes > 0) {
    what += (what.empty() ? "" : " or ") + megabytes(limit.max_megabytes * 1e6);
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextColored(to_vec4(kAccent),
                     "Read stopped at the limit (%s): the rest of the files "
                     "was not read. Clear it in Settings (Read) to read everything.",
                     what.c_str());
  ImGui::PopTextWrapPos();
}

// The partial (k = 0) or skipped (k = 1) games listed: where each is and why, in a scrolling box.
void draw_report_issues(const protocol::DataReport& r, int k, std::uint64_t total, float scale) {
  const char* kinds[] = {"partial", "skipped"};
  const std::string prefix = std::string(kinds[k]) + ", ";
  std::vector<const protocol::GameIssue*> listed;
  for (const protocol::GameIssue& game : r.issues) {
    if (game.reason.rfind(prefix, 0) == 0) listed.push_back(&game);
  }
  if (listed.empty()) return;
  const std::string title =
      k == 0 ? "Partial games: replay stopped at a bad move, the rows before it kept"
             : "Skipped games: no row kept";
  const std::string heading =
      title + " (" + (listed.size() < total ? "first " + grouped(listed.size()) + " of " : "") +
      grouped(total) + ")";
  note(heading.c_str(), kMuted);
  const float rows = std::clamp(static_cast<float>(listed.size()), 1.0f, 6.0f) * 3.0f;
  ImGui::PushID(k);
  ImGui::BeginChild("issues", ImVec2(-1, ImGui::GetTextLineHeightWithSpacing() * rows + 8 * scale),
                    true);
  ImGui::PushTextWrapPos(0);
  for (const protocol::GameIssue* game : listed) {
    ImGui::TextColored(to_vec4(kMuted), "%s:%llu", game->file.c_str(),
                       static_cast<unsigned long long>(game->line));
    ImGui::SameLine();
    ImGui::TextUnformatted(game->reason.c_str() + prefix.size());
  }
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
  ImGui::PopID();
}

}  // namespace

void draw_values(AppState& state, const UiFonts& fonts, float scale) {
  section(values_title(state).c_str());
  const Trajectory& t = state.trajectory;
  const protocol::Snapshot* last = t.snapshots.empty() ? nullptr : &t.snapshots.back();
  if (last != nullptr) {
    ImGui::Text("%s, %s iterations, loss %.6f%s", solver_label(t.solver),
                grouped(static_cast<std::uint64_t>(last->iteration)).c_str(), last->loss,
                t.done ? "" : " (running)");
    if (!t.reason.empty()) note(t.reason.c_str(), kMuted);
    if (const std::string compared = comparison_note(state); !compared.empty()) {
      note(compared.c_str(), kAccent);
      publish(state, "note:comparison", scale);
    }
  } else if (state.estimates.empty()) {
    note(no_values_text(state.phase), kMuted);
  }
  // The worker's fits carry every coefficient with its uncertainty.
  if (t.done && t.fits.size() >= 2) {
    draw_comparison(state, scale);
    return;
  }
  if (t.done && t.fits.size() == 1 && !t.fits.front().coefficients.empty()) {
    draw_fit_values(state, t.fits.front(), fonts, scale);
    draw_sides_table(state, t.fits.front(), scale);
    return;
  }
  // While reading: the exact fit of the games read so far.
  if (state.phase == protocol::Phase::kReading && !state.estimate.fits.empty()) {
    ImGui::TextColored(to_vec4(kAccent), "Estimate from the first %s games read (exact fit)",
                       grouped(state.estimate.games).c_str());
    draw_fit_values(state, state.estimate.fits.front(), fonts, scale);
    return;
  }
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("values", 5, flags)) return;
  // Fixed widths measured from the widest cell: right on the first frame.
  ImGui::PushFont(fonts.large);
  const float learned = ImGui::CalcTextSize("0000").x;
  ImGui::PopFont();
  ImGui::TableSetupColumn("Piece", ImGuiTableColumnFlags_WidthFixed,
                          ImGui::CalcTextSize("■ Knight").x + 1);
  ImGui::TableSetupColumn("Learned", ImGuiTableColumnFlags_WidthFixed,
                          learned + ImGui::CalcTextSize(" ± 000").x + 1);
  ImGui::TableSetupColumn("Article", ImGuiTableColumnFlags_WidthFixed,
                          ImGui::CalcTextSize("Article").x + 1);
  ImGui::TableSetupColumn("1-3-3-5-9", ImGuiTableColumnFlags_WidthFixed,
                          ImGui::CalcTextSize("1-3-3-5-9").x + 1);
  ImGui::TableSetupColumn("Capablanca", ImGuiTableColumnFlags_WidthFixed,
                          ImGui::CalcTextSize("Capablanca").x + 1);
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
  publish_table_columns(state, "values", scale);
  ImGui::EndTable();
}

void draw_relations(AppState& state, float scale) {
  if (state.trajectory.snapshots.empty() || state.trajectory.fits.size() >= 2) return;
  section("Capablanca's relations");
  if (state.trajectory.fits.size() == 1) {
    const protocol::Fit& fit = state.trajectory.fits.front();
    const bool unidentified = std::any_of(
        fit.coefficients.begin(), fit.coefficients.end(),
        [](const protocol::Coefficient& c) { return !c.identified && c.name != "draw-margin"; });
    if (unidentified) {
      note("No verdicts: they need piece values these games do not identify.", kMuted);
      return;
    }
  }
  if (state.trajectory.fits.size() == 1 && !state.trajectory.fits.front().relations.empty()) {
    // The worker's verdicts weigh each margin against its standard error.
    draw_relation_verdicts(state, state.trajectory.fits.front().relations, scale);
    return;
  }
  draw_relation_checks(state, scale);
}

void draw_report(const AppState& state, float scale) {
  const protocol::DataReport& r = state.report;
  if (!state.has_report) return;
  section("Data");
  draw_report_table(r);
  draw_report_limit(state);
  for (const std::string& error : r.file_errors) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(to_vec4(kBad), "%s", error.c_str());
    ImGui::PopTextWrapPos();
  }
  if (r.issues.empty()) return;
  // Partial games (replay stopped, the rows before kept) and skipped games (no row) apart.
  draw_report_issues(r, 0, r.partial, scale);
  draw_report_issues(r, 1, r.skipped, scale);
}

}  // namespace materialist::app
