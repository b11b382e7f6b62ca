#include "cli/text_report.h"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <limits>
#include <optional>

#include "learn/fit/compare.h"
#include "learn/fit/relations.h"
#include "learn/fit/split_sides.h"
#include "learn/fit/uncertainty.h"
#include "learn/read/report_json.h"
#include "learn/vocabulary/coefficient_names.h"
#include "learn/vocabulary/imbalance.h"
#include "learn/vocabulary/pieces.h"

namespace materialist::cli {

namespace {

using learn::Coefficient;
using learn::Estimate;
using learn::ModelFit;

unsigned long long u(std::uint64_t n) {
  return static_cast<unsigned long long>(n);
}

bool all_pieces_identified(const ModelFit& fit) {
  return std::none_of(fit.coefficients.begin(), fit.coefficients.end(), [](const Coefficient& c) {
    return !c.identified && learn::piece_index(c.name).has_value();
  });
}

// The standard error the model alone gives (positions independent): the reported one when the
// reported errors are model-based.
double model_se(const ModelFit& fit, double reported, double model) {
  return fit.errors == learn::ErrorKind::kModel ? reported : model;
}

const Estimate& in_units(const Coefficient& c, const std::string& units) {
  if (units == "elo") return c.elo;
  if (units == "logodds") return c.theta;
  return std::isnan(c.value.value) ? c.elo : c.value;  // non-piece terms read in Elo
}

const char* unit_label(const Coefficient& c, const std::string& units) {
  if (units == "elo") return "Elo";
  if (units == "logodds") return "log-odds";
  if (std::isnan(c.value.value)) return "Elo";
  const int term = learn::imbalance_index(c.name);
  return term >= 0 ? learn::kImbalanceUnits[term] : "";
}

// "288.478 ± 8.6" (full precision, the article's style) or "288.5 ± 8.6" (compact, for tables).
std::string format_estimate(const Estimate& e, bool compact = false) {
  char value[32], se[32];
  const bool large = std::fabs(e.value) >= 10;
  std::snprintf(value, sizeof value, compact ? (large ? "%.1f" : "%.3f") : "%.6g", e.value);
  // The reference column (pawn = 100) has no spread of its own, only rounding noise.
  if (std::isnan(e.se) || e.se <= 1e-9 * std::fabs(e.value)) return value;
  std::snprintf(se, sizeof se, e.se >= 1 ? "%.1f" : "%.2g", e.se);
  return std::string(value) + " ± " + se;
}

std::array<double, 5> values_array(const ModelFit& fit) {
  const std::vector<double> values = learn::piece_values(fit);
  return {values[0], values[1], values[2], values[3], values[4]};
}

// A coefficient's name in JSON: the model's column name, except the intercept from a player's
// point of view, "player-edge".
std::string coefficient_json_name(const std::string& name, bool player_view) {
  return player_view && name == "intercept" ? "player-edge" : name;
}

// A coefficient's label in text: learn::coefficient_label ("Knight", "Knight (middlegame)",
// "Bishop pair", from a player's point of view "Player's edge"), but the intercept of White's
// side reads "Intercept (White's first move)".
std::string coefficient_text_label(const std::string& name, bool player_view) {
  if (name == "intercept" && !player_view) return "Intercept (White's first move)";
  return learn::coefficient_label(name, player_view);
}

// "± game-clustered standard errors (2997 games)" or "± model-based standard errors (positions
// treated as independent)".
std::string error_kind_text(const ModelFit& fit) {
  if (!fit.covariance_ok) return "no standard errors: the information matrix is singular";
  if (fit.errors == learn::ErrorKind::kClustered) {
    return "± game-clustered standard errors (" + std::to_string(fit.clusters) + " games)";
  }
  return "± model-based standard errors (positions treated as independent)";
}

// "Warning: <message>" for each of the fit's warnings.
void print_warnings(std::FILE* out, const ModelFit& fit, const std::string& prefix = "") {
  for (const learn::FitWarning& warning : fit.warnings) {
    std::fprintf(out, "Warning: %s%s\n", prefix.c_str(), warning.message.c_str());
  }
}

}  // namespace

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
      const double scale = units == "logodds" || as_value ? 1.0 : 400.0 / std::log(10.0);
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

namespace {

// Text padded with blanks to `width` characters (UTF-8: "±" is one character, two bytes).
std::string padded(std::string text, std::size_t width) {
  std::size_t characters = 0;
  for (const char c : text) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  if (characters < width) text.append(width - characters, ' ');
  return text;
}

}  // namespace

void print_sides(std::FILE* out, const ModelFit& fit, const std::string& units) {
  const std::vector<learn::SideComparison> sides = learn::compare_sides(fit);
  if (sides.empty()) return;
  // Elo = θ · 400 / ln 10 (models.h).
  const double theta_scale = units == "elo" ? 400.0 / std::log(10.0) : 1.0;
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

void print_comparison(std::FILE* out, const std::vector<ComparedDataset>& all_datasets,
                      const std::string& units) {
  for (const ComparedDataset& d : all_datasets) {
    if (!d.error.empty())
      std::fprintf(out, "%s: not fitted: %s\n", d.name.c_str(), d.error.c_str());
  }
  std::vector<ComparedDataset> datasets;  // the fitted ones
  for (const ComparedDataset& d : all_datasets) {
    if (d.error.empty()) datasets.push_back(d);
  }
  if (datasets.empty()) return;
  for (const ComparedDataset& d : datasets) print_warnings(out, d.fit, d.name + ": ");
  std::vector<learn::DatasetFit> sets;
  for (const ComparedDataset& d : datasets) sets.push_back({d.name, d.fit, d.bootstrap});
  const learn::ComparisonTable table = learn::compare_fits(sets);
  const bool all_player_view =
      std::all_of(datasets.begin(), datasets.end(), [](const auto& d) { return d.player_view; });
  const bool any_player_view =
      std::any_of(datasets.begin(), datasets.end(), [](const auto& d) { return d.player_view; });

  constexpr int kWidth = 22;
  std::fprintf(out, "%-18s", "");
  for (const ComparedDataset& d : datasets) {
    std::fprintf(out, " %*.*s", kWidth, kWidth, d.name.c_str());
  }
  std::fprintf(out, "\n%-18s", "games used");
  for (const ComparedDataset& d : datasets) {
    std::fprintf(out, " %*llu", kWidth,
                 u(d.report.games.games_used + d.report.games.games_partial));
  }
  std::fprintf(out, "\n%-18s", "rows");
  for (const ComparedDataset& d : datasets) std::fprintf(out, " %*llu", kWidth, u(d.report.rows));
  std::fputc('\n', out);
  for (const learn::ComparisonRow& row : table.rows) {
    // The intercept of a mix of points of view: White's first move for some, an edge for others.
    const std::string label = row.name == "intercept" && any_player_view && !all_player_view
                                  ? std::string("Intercept")
                              : row.name == "intercept" && !all_player_view
                                  ? std::string("Intercept (White)")
                                  : coefficient_text_label(row.name, all_player_view);
    std::fprintf(out, "%-18s", label.c_str());
    for (const learn::ComparisonCell& cell : row.cells) {
      const std::string text = !cell.present ? "-"
                               : !cell.coefficient.identified
                                   ? "not identified"
                                   : format_estimate(in_units(cell.coefficient, units), true);
      const bool plus_minus = text.find("±") != std::string::npos;  // two bytes, one column
      std::fprintf(out, " %*s", plus_minus ? kWidth + 1 : kWidth, text.c_str());
    }
    std::fputc('\n', out);
  }

  for (const ComparedDataset& d : datasets) {
    std::fprintf(out, "  (%s: %s)\n", d.name.c_str(), error_kind_text(d.fit).c_str());
  }
  std::fprintf(out, "Capablanca's relations (margin in pawn = 100, verdict at 95%%):\n");
  const std::size_t relation_count = table.relations.empty() ? 0 : table.relations[0].size();
  for (std::size_t r = 0; r < relation_count; ++r) {
    std::fprintf(out, "%-18s", table.relations[0][r].relation.c_str());
    for (std::size_t k = 0; k < table.relations.size(); ++k) {
      const auto& relations = table.relations[k];
      std::string cell = "-";
      if (r < relations.size() && all_pieces_identified(datasets[k].fit)) {
        const learn::RelationEstimate& e = relations[r];
        char text[64];
        const char* verdict = e.equality && e.verdict == learn::Verdict::kHolds
                                  ? "consistent"
                                  : learn::verdict_name(e.verdict);
        std::snprintf(text, sizeof text, "%s %+.0f", verdict, e.margin.value);
        cell = text;
      }
      std::fprintf(out, " %*s", kWidth, cell.c_str());
    }
    std::fputc('\n', out);
  }

  if (datasets.size() < 2) return;
  const learn::Contrast bishop_minus_knight = {{"bishop", 1.0}, {"knight", -1.0}};
  std::vector<const learn::ModelFit*> fits;
  for (const learn::DatasetFit& set : sets) fits.push_back(&set.fit);
  // Against the first set that determines B−N (a first band of one game determines none).
  const std::optional<std::size_t> reference = learn::reference_dataset(fits, bishop_minus_knight);
  if (!reference) {
    std::fprintf(out, "Bishop - Knight: no set determines it (a piece value is not identified)\n");
    return;
  }
  const learn::DatasetFit& base = sets[*reference];
  std::fprintf(out, "Bishop - Knight (pawn = 100), each set against %s:\n", base.name.c_str());
  for (const learn::DatasetFit& set : sets) {
    if (!learn::contrast_determined(set.fit, bishop_minus_knight)) {
      std::fprintf(out, "  %-20s B-N not shown (a piece value is not identified)\n",
                   set.name.c_str());
      continue;
    }
    const Estimate e = learn::contrast_estimate(set.fit, bishop_minus_knight);
    std::fprintf(out, "  %-20s B-N = %s", set.name.c_str(), format_estimate(e, true).c_str());
    if (&set != &base) {
      const learn::DatasetDifference diff = learn::compare_contrast(set, base, bishop_minus_knight);
      std::fprintf(out, "   diff %+.1f ± %.1f, p = %.3g", diff.z_test.difference, diff.z_test.se,
                   diff.z_test.p_value);
      if (diff.has_bootstrap) std::fprintf(out, " (bootstrap p = %.3g)", diff.bootstrap_p);
      std::fprintf(out, "%s", diff.z_test.p_value < 0.05 ? "  significant" : "  not significant");
    }
    std::fputc('\n', out);
  }
}

void print_target_comparison(std::FILE* out, const learn::TargetComparison& both, bool eval_first,
                             bool player_view, const std::string& units) {
  print_warnings(out, both.result, "result: ");
  print_warnings(out, both.eval, "eval: ");
  const bool values = units != "elo" && units != "logodds";
  const double scale = units == "elo" ? 400.0 / std::log(10.0) : 1.0;
  const char* first = eval_first ? "eval" : "result";
  const char* second = eval_first ? "result" : "eval";
  constexpr int kWidth = 18;
  std::size_t label_width = 18;
  for (const learn::TargetDifference& d : both.rows) {
    label_width = std::max(label_width, coefficient_text_label(d.name, player_view).size() + 1);
  }
  const int label = static_cast<int>(label_width);
  std::fprintf(out, "%-*s %*s %*s %*s\n", label,
               values           ? "pawn = 100"
               : units == "elo" ? "Elo"
                                : "natural log-odds",
               kWidth, first, kWidth, second, kWidth, "eval - result");
  const auto cell = [&](const ModelFit& fit, const Coefficient& c) {
    if (values)
      return c.identified ? format_estimate(c.value, true) : std::string("not identified");
    if (!fit.covariance_ok) return std::string("no error");
    return format_estimate(Estimate{c.theta.value * scale, c.theta.se * scale}, true);
  };
  for (std::size_t j = 0; j < both.rows.size(); ++j) {
    const learn::TargetDifference& d = both.rows[j];
    const std::string r = cell(both.result, d.result), e = cell(both.eval, d.eval);
    const std::string& a = eval_first ? e : r;
    const std::string& b = eval_first ? r : e;
    std::string diff = "-";
    char text[64];
    if (values && d.identified && !std::isnan(d.difference.value)) {
      if (d.result.reference == static_cast<int>(j)) {
        std::snprintf(text, sizeof text, "0");
      } else {
        std::snprintf(text, sizeof text, "%+.1f ± %.1f", d.difference.value, d.difference.se);
      }
      diff = text;
    } else if (!values && !std::isnan(d.theta_difference.value)) {
      std::snprintf(text, sizeof text, units == "elo" ? "%+.1f ± %.1f" : "%+.3f ± %.3f",
                    d.theta_difference.value * scale, d.theta_difference.se * scale);
      diff = text;
    }
    // "±" is two bytes in one column.
    const auto width = [](const std::string& t) {
      return t.find("±") != std::string::npos ? kWidth + 1 : kWidth;
    };
    std::fprintf(out, "%-*s %*s %*s %*s\n", label,
                 coefficient_text_label(d.name, player_view).c_str(), width(a), a.c_str(), width(b),
                 b.c_str(), width(diff), diff.c_str());
  }
  std::fprintf(out, "  (result: %s; eval: %s)\n", error_kind_text(both.result).c_str(),
               error_kind_text(both.eval).c_str());
  std::fprintf(out, "  (eval - result: %s)\n",
               both.joint_errors
                   ? "± game-clustered, with the two fits' covariance across the same games"
                   : "± as if the two fits were independent (their errors are not game-clustered)");
  const bool unidentified = std::any_of(both.rows.begin(), both.rows.end(), [](const auto& d) {
    return !d.result.identified || !d.eval.identified;
  });
  if (values && unidentified) {
    std::fprintf(out,
                 "  (a value not identified: --units logodds compares the coefficients "
                 "themselves)\n");
  }
}

void write_target_comparison_json(JsonWriter& json, const learn::TargetComparison& both,
                                  bool eval_first, bool player_view) {
  json.key("targets").begin_array();
  json.value(eval_first ? "eval" : "result").value(eval_first ? "result" : "eval");
  json.end_array();
  json.key("fits").begin_object();
  json.key("result").begin_object();
  write_fit_json(json, both.result, player_view);
  json.end_object();
  json.key("eval").begin_object();
  write_fit_json(json, both.eval, player_view);
  json.end_object();
  json.end_object();
  const auto side = [&json](const char* key, const ModelFit& fit, const Coefficient& c) {
    json.key(key).begin_object();
    json.field("theta", c.theta.value)
        .field("thetaSe", c.theta.se)
        .field("value", c.identified ? c.value.value : std::numeric_limits<double>::quiet_NaN())
        .field("valueSe", c.identified ? c.value.se : std::numeric_limits<double>::quiet_NaN())
        .field("identified", c.identified);
    json.end_object();
  };
  json.key("coefficients").begin_array();
  for (const learn::TargetDifference& d : both.rows) {
    json.begin_object().field("name", d.name);
    side("result", both.result, d.result);
    side("eval", both.eval, d.eval);
    json.key("difference").begin_object();
    json.field("value", d.difference.value).field("se", d.difference.se).end_object();
    json.key("thetaDifference").begin_object();
    json.field("value", d.theta_difference.value).field("se", d.theta_difference.se);
    json.end_object().end_object();
  }
  json.end_array();
  json.field("differenceErrors", both.joint_errors ? "game-clustered" : "independent");
}

void write_bootstrap_json(JsonWriter& json, const learn::BootstrapFit& bootstrap) {
  json.key("bootstrap").begin_object();
  json.field("replicates", bootstrap.replicates).field("failed", bootstrap.failed);
  if (!bootstrap.error.empty()) json.field("error", bootstrap.error);
  json.key("valueIntervals").begin_object();
  for (const learn::BootstrapCoefficient& c : bootstrap.coefficients) {
    if (std::isnan(c.value_interval.low)) continue;
    json.key(learn::piece_key(c.name)).begin_array();
    json.value(c.value_interval.low).value(c.value_interval.high).end_array();
  }
  json.end_object();
  json.key("thetaIntervals").begin_object();
  for (const learn::BootstrapCoefficient& c : bootstrap.coefficients) {
    json.key(learn::piece_key(c.name)).begin_array();
    json.value(c.theta_interval.low).value(c.theta_interval.high).end_array();
  }
  json.end_object().end_object();
}

void write_error_json(JsonWriter& json, const std::string& code, const std::string& message) {
  json.key("error").begin_object().field("code", code).field("message", message).end_object();
}

void write_fit_json(JsonWriter& json, const ModelFit& fit, bool player_view) {
  constexpr double kNull = std::numeric_limits<double>::quiet_NaN();  // written as null
  json.field("converged", fit.converged);
  json.key("warnings").begin_array();
  for (const learn::FitWarning& warning : fit.warnings) {
    json.begin_object().field("code", warning.code).field("message", warning.message).end_object();
  }
  json.end_array();
  json.field("errors", learn::error_kind_name(fit.errors)).field("clusteredGames", fit.clusters);

  // θ per column (the draw margin is separate), null where not identified.
  const auto theta_column = [&](const char* key, auto get) {
    json.key(key).begin_array();
    for (std::size_t i = 0; i < fit.theta.size(); ++i) {
      const bool known = i < fit.coefficients.size() && fit.coefficients[i].identified;
      json.value(known ? get(fit.coefficients[i]) : kNull);
    }
    json.end_array();
  };
  theta_column("theta", [](const Coefficient& c) { return c.theta.value; });
  theta_column("thetaSe", [](const Coefficient& c) { return c.theta.se; });
  theta_column("thetaSeModel",
               [&](const Coefficient& c) { return model_se(fit, c.theta.se, c.model_theta_se); });
  json.field("loss", fit.loss).field("iterations", fit.iterations);
  json.field("weightedRows", fit.total_weight);
  if (fit.has_margin()) json.field("drawMargin", fit.draw_margin);
  std::vector<std::string> names;
  std::vector<double> values, errors, model_errors;
  for (const Coefficient& c : fit.coefficients) {
    if (std::isnan(c.value.value)) continue;
    names.push_back(coefficient_json_name(c.name, player_view));
    values.push_back(c.identified ? c.value.value : kNull);
    errors.push_back(c.identified ? c.value.se : kNull);
    model_errors.push_back(c.identified ? model_se(fit, c.value.se, c.model_value_se) : kNull);
  }
  learn::write_named_values(json, "values", names, values);
  learn::write_named_values(json, "valuesSe", names, errors);
  learn::write_named_values(json, "valuesSeModel", names, model_errors);
  json.key("coefficients").begin_array();
  for (const Coefficient& c : fit.coefficients) {
    const auto number = [&](double x) { return c.identified ? x : kNull; };
    json.begin_object()
        .field("name", coefficient_json_name(c.name, player_view))
        .field("identified", c.identified)
        .field("theta", number(c.theta.value))
        .field("thetaSe", number(c.theta.se))
        .field("thetaSeModel", number(model_se(fit, c.theta.se, c.model_theta_se)))
        .field("elo", number(c.elo.value))
        .field("eloSe", number(c.elo.se))
        .field("value", number(c.value.value))
        .field("valueSe", number(c.value.se))
        .field("valueSeModel", number(model_se(fit, c.value.se, c.model_value_se)))
        .end_object();
  }
  json.end_array();
  const std::vector<learn::SideComparison> sides = learn::compare_sides(fit);
  if (!sides.empty()) {
    json.key("sides").begin_array();
    for (const learn::SideComparison& side : sides) {
      const auto number = [&](double x) { return side.identified ? x : kNull; };
      json.begin_object()
          .field("piece", learn::kPieces[side.piece].column)
          .field("identified", side.identified)
          .field("own", number(side.own.value))
          .field("ownSe", number(side.own.se))
          .field("opponent", number(side.opponent.value))
          .field("opponentSe", number(side.opponent.se))
          .field("difference", number(side.difference.value))
          .field("differenceSe", number(side.difference.se))
          .field("ownTheta", number(side.own_theta.value))
          .field("ownThetaSe", number(side.own_theta.se))
          .field("opponentTheta", number(side.opponent_theta.value))
          .field("opponentThetaSe", number(side.opponent_theta.se))
          .field("differenceTheta", number(side.difference_theta.value))
          .field("differenceThetaSe", number(side.difference_theta.se))
          .field("pValue", number(side.p_value))
          .end_object();
    }
    json.end_array();
  }
  json.key("relations").begin_array();
  const std::array<double, 5> v = values_array(fit);
  if (!std::isnan(v[0]) && all_pieces_identified(fit)) {
    for (const learn::RelationCheck& check : learn::check_capablanca(v)) {
      json.begin_object()
          .field("relation", check.relation)
          .field("holds", check.holds)
          .end_object();
    }
  }
  json.end_array();
}

}  // namespace materialist::cli
