#include "app/target_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "app/fit_panel.h"
#include "app/theme.h"
#include "app/value_chart.h"
#include "app/widgets.h"
#include "core/statistics.h"
#include "learn/fit/models.h"

namespace materialist::app {
namespace {

// "96 of 999 games carry evaluations; 31,204 positions without one were left out".
std::string counts_text(const protocol::DataReport& r) {
  const std::uint64_t games = r.games_with_evals + r.games_without_evals;
  std::string text =
      grouped(r.games_with_evals) + " of " + grouped(games) +
      (games == 1 ? " game carries" : " games carry") + " evaluations; " + grouped(r.rows) +
      " annotated positions are the rows, " + grouped(r.unannotated_rows) +
      (r.unannotated_rows == 1 ? " position" : " positions") + " without one were left out";
  if (r.malformed_evals > 0) {
    text += " (" + grouped(r.malformed_evals) + " [%eval] comments could not be read)";
  }
  return text;
}

// What a file without any [%eval] needs, in words.
constexpr const char* kNoEvalsHelp =
    "No game carries an engine evaluation ([%eval] comments after the moves). Read games with "
    "evaluations: lichess exports its server analysis with evals=true in the API, or \"Include "
    "analysis\" when downloading; its database files keep them for analysed games. Or choose "
    "Target: game result in Settings (Read).";

// A value with its error: "301 ± 12" (pawn = 100) or "1.52 ± 0.31" (log-odds), "—" when absent;
// `tight` without the blanks (a phone's narrow table).
std::string with_error(double value, double se, bool log_odds, bool tight) {
  if (!std::isfinite(value)) return "—";
  char text[64];
  if (std::isfinite(se) && se > 0) {
    const char* format =
        log_odds ? (tight ? "%.2f±%.2f" : "%.2f ± %.2f") : (tight ? "%.0f±%.0f" : "%.0f ± %.0f");
    std::snprintf(text, sizeof text, format, value, se);
  } else {
    std::snprintf(text, sizeof text, log_odds ? "%.2f" : "%.0f", value);
  }
  return text;
}

// Values in pawn = 100 when both fits identify them all; else the coefficients themselves, in
// log-odds (a fit whose pawn is not identified has no unit to give values in).
bool in_log_odds(const protocol::TargetCompare& both) {
  return std::any_of(both.rows.begin(), both.rows.end(),
                     [](const protocol::TargetRow& row) { return !row.identified; });
}

// The two value sets as fits the value chart draws.
std::vector<protocol::Fit> chart_fits(const protocol::TargetCompare& both) {
  std::vector<protocol::Fit> fits(2);
  fits[0].name = "game result";
  fits[1].name = "engine evaluation";
  for (const protocol::TargetRow& row : both.rows) {
    const auto coefficient = [&row](double value, double se, double theta, double theta_se) {
      protocol::Coefficient c;
      c.name = row.name;
      c.label = row.label;
      c.value = value;
      c.value_se = se;
      c.theta = theta;
      c.theta_se = theta_se;
      return c;
    };
    fits[0].coefficients.push_back(
        coefficient(row.result, row.result_se, row.result_theta, row.result_theta_se));
    fits[1].coefficients.push_back(
        coefficient(row.eval, row.eval_se, row.eval_theta, row.eval_theta_se));
  }
  return fits;
}

void compare_table(AppState& state, const protocol::TargetCompare& both, float scale) {
  const bool log_odds = in_log_odds(both);
  const bool tight = ImGui::GetContentRegionAvail().x < 32 * ImGui::GetFontSize();
  // Each column as wide as its widest cell: the numbers are never cut.
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerH;
  if (!ImGui::BeginTable("target-compare", 4, flags)) return;
  ImGui::TableSetupColumn("term");
  ImGui::TableSetupColumn("result");
  ImGui::TableSetupColumn("evaluation");
  ImGui::TableSetupColumn("eval − result");
  ImGui::TableHeadersRow();
  for (const protocol::TargetRow& row : both.rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.label.c_str());
    const auto cell = [log_odds, tight](double value, double se) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(with_error(value, se, log_odds, tight).c_str());
    };
    cell(log_odds ? row.result_theta : row.result, log_odds ? row.result_theta_se : row.result_se);
    cell(log_odds ? row.eval_theta : row.eval, log_odds ? row.eval_theta_se : row.eval_se);
    ImGui::TableNextColumn();
    // A difference beyond two errors stands out.
    const double difference = log_odds ? row.theta_difference : row.difference;
    const double se = log_odds ? row.theta_difference_se : row.difference_se;
    const bool apart = std::isfinite(se) && se > 0 && std::abs(difference) > kZ95 * se;
    const std::string text = with_error(difference, se, log_odds, tight);
    ImGui::TextColored(to_vec4(apart ? kAccent : kMuted), "%s%s", difference > 0 ? "+" : "",
                       text.c_str());
  }
  publish_table_columns(state, "target-compare", scale);
  ImGui::EndTable();
}

// What was compared, how, and in which unit.
void compare_note(const protocol::TargetCompare& both) {
  const std::string about =
      "Both targets fitted on the same " + grouped(both.positions) + " annotated positions of " +
      grouped(both.games) + " games (the result with " +
      (both.outcomes == "fractional" ? "draws as half points" : "draws left out") +
      "). eval − result with its " +
      (both.difference_errors == "game-clustered" ? "game-clustered error" : "error") +
      ", in blue beyond two errors.";
  note(about.c_str(), kMuted);
  if (in_log_odds(both)) {
    note("In log-odds: a fit's pawn is not identified, so it has no pawn = 100 scale.", kAccent);
  }
}

}  // namespace

std::string target_refusal(const AppState& state) {
  if (state.applied_read.target != learn::Target::kEval) return {};
  return learn::model_conflict(state.settings.fit.model_options(learn::Target::kEval));
}

void draw_target_summary(AppState& state, std::vector<Command>& commands, float scale) {
  const protocol::DataReport& r = state.report;
  if (!state.has_report || r.target != learn::Target::kEval) return;
  if (r.games_with_evals == 0) {
    note(kNoEvalsHelp, kBad);
    return;
  }
  note(("Target: the engine's evaluation. " + counts_text(r) + ".").c_str(), kMuted);
  const bool enabled = state.has_data() && !state.busy();
  const std::string why = enabled ? std::string() : "after the read and the fit";
  if (button_or_why(state, "Result vs evaluation", scale, enabled, why, "compare-targets")) {
    Command compare{Command::Kind::kCompareTargets};
    compare.settings = applied_settings(state);
    commands.push_back(compare);
    state.target_compare.reset();
    state.target_compare_open = true;
    state.target_compare_waiting = true;
  }
  if (ImGui::IsItemHovered()) {
    tooltip(
        "Fit both targets, the game's result and the engine's evaluation, on the "
        "same annotated positions, and compare the values");
  }
}

void draw_target_compare(AppState& state, PlotRenderer& renderer, float scale) {
  if (!state.target_compare_open) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  begin_centred_window("Result vs evaluation",
                       ImVec2(std::min(display.x - 16 * scale, 760 * scale),
                              std::min(display.y - 16 * scale, 820 * scale)));
  if (button(state, "Close", scale, true, "target-compare:close")) {
    state.target_compare_open = false;
  }
  const std::optional<protocol::TargetCompare>& both = state.target_compare;
  if (!both) {
    note("Fitting both targets on the annotated positions…", kMuted);
  } else if (!both->error.empty()) {
    note(("No comparison: " + both->error).c_str(), kBad);
  } else {
    compare_note(*both);
    compare_table(state, *both, scale);
    ImGui::Spacing();
    const bool log_odds = in_log_odds(*both);
    const float height = std::max(220 * scale, ImGui::GetContentRegionAvail().y - 8 * scale);
    draw_fit_values(chart_fits(*both),
                    log_odds ? protocol::Units::kLogOdds : protocol::Units::kPawn,
                    log_odds ? std::nullopt : std::optional<double>(1.0),
                    log_odds ? "Coefficients by target, with 95% intervals (log-odds)"
                             : "Piece values by target, with 95% intervals (pawn = 100)",
                    renderer, ImVec2(ImGui::GetContentRegionAvail().x, height), scale,
                    "fitted (dots) with 95% intervals (bars)");
  }
  end_centred_window();
}

}  // namespace materialist::app
