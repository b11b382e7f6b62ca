// The CLI's text output of one fit: the dataset summary, the iteration log, the values table,
// the relations and the sides.
#include "cli/text_report.h"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <limits>
#include <optional>

#include "cli/report_format.h"
#include "core/statistics.h"
#include "learn/fit/compare.h"
#include "learn/fit/relations.h"
#include "learn/fit/split_sides.h"
#include "learn/fit/uncertainty.h"
#include "learn/read/report_json.h"
#include "learn/vocabulary/coefficient_names.h"
#include "learn/vocabulary/imbalance.h"
#include "learn/vocabulary/pieces.h"

namespace materialist::cli {

using namespace detail;  // the reports' shared formatting
using learn::Coefficient;
using learn::Estimate;
using learn::ModelFit;

void print_dataset_summary(std::FILE* out, const learn::DatasetReport& report) {
  const learn::IngestReport& g = report.games;
  if (g.games_read > 0 || report.mat.rows == 0) {
    std::fprintf(out, "Games: %llu (used %llu, partial %llu, skipped %llu, filtered %llu)\n",
                 u(g.games_read), u(g.games_used), u(g.games_partial), u(g.games_skipped),
                 u(g.games_filtered));
  }
  const auto print_reasons = [&](const char* what, const auto& counts) {
    bool first = true;
    for (int i = 0; i < learn::kIssueReasonCount; ++i) {
      if (counts[i] == 0) continue;
      std::fprintf(out, "%s %s %llu", first ? what : ",",
                   learn::issue_reason_name(static_cast<learn::IssueReason>(i)), u(counts[i]));
      first = false;
    }
    if (!first) std::fputc('\n', out);
  };
  print_reasons("  skipped:", g.skipped_by_reason);
  print_reasons("  partial:", g.partial_by_reason);
  if (g.games_filtered > 0) {
    std::fprintf(out, "  filtered:");
    for (int i = 1; i < learn::kFilterReasonCount; ++i) {
      const auto reason = static_cast<learn::FilterReason>(i);
      if (g.filter_tally.count(reason) == 0) continue;
      std::fprintf(out, " %s %llu", learn::filter_reason_name(reason),
                   u(g.filter_tally.count(reason)));
    }
    std::fputc('\n', out);
  }
  if (g.games_with_evals + g.games_without_evals > 0 || g.malformed_evals > 0) {
    std::fprintf(out,
                 "Evaluations: %llu annotated positions, %llu left out (no [%%eval] on their "
                 "move); games with evaluations %llu, without %llu",
                 u(g.rows), u(g.rows_without_eval), u(g.games_with_evals),
                 u(g.games_without_evals));
    if (g.malformed_evals > 0) std::fprintf(out, "; malformed [%%eval] %llu", u(g.malformed_evals));
    std::fputc('\n', out);
  }
  constexpr std::size_t kShown = 10;
  for (std::size_t i = 0; i < g.issues.size() && i < kShown; ++i) {
    const learn::GameIssue& issue = g.issues[i];
    std::fprintf(out, "  game %llu, line %llu: %s (%s) %s\n", u(issue.game), u(issue.line),
                 learn::game_status_name(issue.status), learn::issue_reason_name(issue.reason),
                 issue.detail.c_str());
  }
  if (g.issue_count > kShown) {
    std::fprintf(out, "  ... %llu more (--json lists them)\n", u(g.issue_count - kShown));
  }
  if (report.mat.rows > 0 || report.mat.bad_lines > 0) {
    std::fprintf(out, "Rows from .mat files: %llu (%llu bad lines)\n", u(report.mat.rows),
                 u(report.mat.bad_lines));
    for (const learn::MatBadLine& bad : report.mat.first_bad_lines) {
      std::fprintf(out, "  line %llu: %s\n", u(bad.line), bad.reason.c_str());
    }
  }
  for (const learn::FileReport& file : report.files) {
    if (!file.error.empty()) std::fprintf(out, "  %s: %s\n", file.name.c_str(), file.error.c_str());
  }
}

void print_fit_header(std::FILE* out, const learn::Histogram& histogram,
                      const learn::AnalysisSettings& settings, bool player_view) {
  const learn::OutcomeCounts& t = histogram.totals();
  // From a player's point of view the ingest turned the player's games to White's side.
  std::fprintf(out, "Rows: %llu (%s wins %llu, draws %llu, %s wins %llu; %zu distinct)\n",
               u(t.total()), player_view ? "the player" : "white", u(t[learn::Outcome::kWhiteWin]),
               u(t[learn::Outcome::kDraw]), player_view ? "the opponent" : "black",
               u(t[learn::Outcome::kBlackWin]), histogram.distinct());
  if (player_view) {
    std::fprintf(out, "(rows from the player's point of view: + is the player's material)\n");
  }
  const int columns = static_cast<int>(learn::model_spec(settings.model).features.size());
  std::fprintf(out, "Loading dataset... [ %llu x %d ]\n", u(t.total()), columns);
  if (settings.model.target == learn::Target::kEval) {
    std::fprintf(out, "Target: the engine's evaluation (White's expected score), mean %.4f\n",
                 t.total() > 0 ? learn::target_sum_value(histogram.target_total()) /
                                     static_cast<double>(t.total())
                               : 0.0);
  }
  std::fprintf(
      out, "Solving (%s, %s)...\n",
      settings.solver == learn::SolverKind::kGradientDescent ? "gradient method" : "Newton",
      settings.model.target == learn::Target::kEval
          ? "evaluation target"
          : learn::outcome_model_name(settings.model.outcomes));
}

void print_iteration(std::FILE* out, const learn::FitState& state) {
  std::fprintf(out, "Iter %d: [", state.iteration);
  for (double theta : state.theta) std::fprintf(out, " %g", theta);
  std::fprintf(out, " ] -> %g\n", state.loss);
}

void print_fit(std::FILE* out, const ModelFit& fit, const learn::AnalysisSettings& settings,
               const std::string& units, const learn::BootstrapFit* bootstrap, bool player_view) {
  print_warnings(out, fit);
  if (settings.solver == learn::SolverKind::kNewton) {
    std::fprintf(out, "Newton: %d iterations%s, loss %g\n", fit.iterations,
                 fit.converged ? "" : " (not converged)", fit.loss);
  }
  const char* unit_title = units == "elo"       ? "Elo"
                           : units == "logodds" ? "natural log-odds"
                                                : "pawn = 100";
  if (fit.warnings.empty()) {
    std::fprintf(out, "PIECE VALUES (%s):\n", unit_title);
  } else {
    std::fprintf(out,
                 "PIECE VALUES (%s), NOT A PLAIN FIT: read them with the %zu warning%s above:\n",
                 unit_title, fit.warnings.size(), fit.warnings.size() == 1 ? "" : "s");
  }
  std::size_t width = 14;
  for (const Coefficient& c : fit.coefficients) {
    width = std::max(width, coefficient_text_label(c.name, player_view).size() + 1);
  }
  for (std::size_t i = 0; i < fit.coefficients.size(); ++i) {
    const Coefficient& c = fit.coefficients[i];
    const std::string label = coefficient_text_label(c.name, player_view) + ":";
    if (!c.identified) {
      std::fprintf(out, "  %-*s not identified\n", static_cast<int>(width), label.c_str());
      continue;
    }
    const std::string unit = unit_label(c, units);
    std::string interval;
    if (bootstrap != nullptr && i < bootstrap->coefficients.size() && c.name != "pawn") {
      const learn::BootstrapCoefficient& b = bootstrap->coefficients[i];
      const bool as_value = units == "pawn" && !std::isnan(c.value.value);
      const double scale = units == "logodds" || as_value ? 1.0 : kEloPerLogOdds;
      const learn::Interval& range = as_value ? b.value_interval : b.theta_interval;
      char text[64];
      std::snprintf(text, sizeof text, "   95%% [%.4g, %.4g]", range.low * scale,
                    range.high * scale);
      interval = text;
    }
    std::fprintf(out, "  %-*s %s%s%s%s\n", static_cast<int>(width), label.c_str(),
                 format_estimate(in_units(c, units)).c_str(), unit.empty() ? "" : " ", unit.c_str(),
                 interval.c_str());
  }
  std::fprintf(out, "  (%s", error_kind_text(fit).c_str());
  if (bootstrap != nullptr) {
    std::fprintf(out, "; 95%% intervals from %d bootstrap replicates over games",
                 bootstrap->replicates);
    if (bootstrap->failed > 0) std::fprintf(out, ", %d failed to converge", bootstrap->failed);
    if (!bootstrap->error.empty()) std::fprintf(out, ": %s", bootstrap->error.c_str());
  }
  std::fprintf(out, ")\n");
  if (fit.rows_without_rating > 0) {
    std::fprintf(out, "  (%llu rows without both ratings left out by --elo-offset)\n",
                 u(fit.rows_without_rating));
  }
}

void print_relations(std::FILE* out, const ModelFit& fit, const std::string& units) {
  std::array<double, 5> values = values_array(fit);
  if (std::isnan(values[0])) return;  // phase-tapered models have no single piece values
  if (!all_pieces_identified(fit)) {
    std::fprintf(out, "Capablanca's relations: not checked (a piece value is not identified)\n");
    return;
  }
  // In the units of the table above, by a positive factor (the verdicts stay the same); pawn = 100
  // when the pawn gives none.
  const auto pawn = std::find_if(fit.coefficients.begin(), fit.coefficients.end(),
                                 [](const Coefficient& c) { return c.name == "pawn"; });
  const double per_value = units != "pawn" && pawn != fit.coefficients.end()
                               ? in_units(*pawn, units).value / 100
                               : std::nan("");
  const bool scaled = std::isfinite(per_value) && per_value > 0;
  if (scaled) {
    for (double& value : values) value *= per_value;
  }
  std::fprintf(out, "Capablanca's relations (%s):\n",
               !scaled          ? "pawn = 100"
               : units == "elo" ? "Elo"
                                : "log-odds");
  for (const learn::RelationCheck& check :
       learn::check_capablanca(values, scaled && units == "logodds" ? 2 : 0)) {
    std::fprintf(out, "  %-18s %-34s %s\n", check.relation.c_str(), check.numbers.c_str(),
                 check.holds ? "yes" : "no");
  }
}

void print_sides(std::FILE* out, const ModelFit& fit, const std::string& units) {
  const std::vector<learn::SideComparison> sides = learn::compare_sides(fit);
  if (sides.empty()) return;
  // Elo = θ · 400 / ln 10 (models.h).
  const double theta_scale = units == "elo" ? kEloPerLogOdds : 1.0;
  const bool pawns = units != "elo" && units != "logodds";
  const auto shown = [&](const Estimate& value, const Estimate& theta) {
    return pawns ? value : Estimate{theta.value * theta_scale, theta.se * theta_scale};
  };
  std::fprintf(out, "Own against opponent's pieces (%s; p: own = opponent's):\n",
               units == "elo"       ? "Elo"
               : units == "logodds" ? "natural log-odds"
                                    : "pawn = 100, own pawns");
  std::fprintf(out, "  %-8s %-18s %-18s %-18s %s\n", "", "own", "opponent's", "difference", "p");
  for (const learn::SideComparison& side : sides) {
    const char* label = learn::kPieces[side.piece].label.data();
    if (!side.identified) {
      std::fprintf(out, "  %-8s not identified\n", label);
      continue;
    }
    std::fprintf(
        out, "  %-8s %s %s %s %.3g\n", label,
        padded(format_estimate(shown(side.own, side.own_theta), true), 18).c_str(),
        padded(format_estimate(shown(side.opponent, side.opponent_theta), true), 18).c_str(),
        padded(format_estimate(shown(side.difference, side.difference_theta), true), 18).c_str(),
        side.p_value);
  }
}

}  // namespace materialist::cli
