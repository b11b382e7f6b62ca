#include "cli/text_report.h"

#include <array>
#include <cinttypes>
#include <cmath>

#include "learn/compare.h"
#include "learn/relations.h"
#include "learn/report_json.h"
#include "learn/uncertainty.h"

namespace materialist::cli {

namespace {

using learn::Coefficient;
using learn::Estimate;
using learn::ModelFit;

constexpr std::array<const char*, 5> kPieceLabels = {"Pawn", "Knight", "Bishop", "Rook", "Queen"};
constexpr std::array<const char*, 5> kPieceColumns = {"pawn", "knight", "bishop", "rook", "queen"};

unsigned long long u(std::uint64_t n) {
  return static_cast<unsigned long long>(n);
}

// "Knight" for "knight", "Knight (mg)" for "knight-mg", the name itself otherwise.
std::string label_of(const std::string& name) {
  for (std::size_t i = 0; i < kPieceColumns.size(); ++i) {
    const std::string column = kPieceColumns[i];
    if (name == column) return kPieceLabels[i];
    if (name == column + "-mg") return std::string(kPieceLabels[i]) + " (mg)";
    if (name == column + "-eg") return std::string(kPieceLabels[i]) + " (eg)";
  }
  if (name == "bishop-pair") return "Bishop pair";
  if (name == "intercept") return "White to start";
  if (name == "side-to-move") return "Side to move";
  if (name == "draw-margin") return "Draw margin";
  return name;
}

const Estimate& in_units(const Coefficient& c, const std::string& units) {
  if (units == "elo") return c.elo;
  if (units == "logodds") return c.theta;
  return std::isnan(c.value.value) ? c.elo : c.value;  // non-piece terms read in Elo
}

const char* unit_label(const Coefficient& c, const std::string& units) {
  if (units == "elo") return "Elo";
  if (units == "logodds") return "log-odds";
  return std::isnan(c.value.value) ? "Elo" : "";
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
                      const learn::AnalysisSettings& settings) {
  const learn::OutcomeCounts& t = histogram.totals();
  std::fprintf(out, "Rows: %llu (white wins %llu, draws %llu, black wins %llu; %zu distinct)\n",
               u(t.total()), u(t[learn::Outcome::kWhiteWin]), u(t[learn::Outcome::kDraw]),
               u(t[learn::Outcome::kBlackWin]), histogram.distinct());
  const int columns = static_cast<int>(learn::model_spec(settings.model).features.size());
  std::fprintf(out, "Loading dataset... [ %llu x %d ]\n", u(t.total()), columns);
  std::fprintf(
      out, "Solving (%s, %s)...\n",
      settings.solver == learn::SolverKind::kGradientDescent ? "gradient method" : "Newton",
      learn::outcome_model_name(settings.model.outcomes));
}

void print_iteration(std::FILE* out, const learn::FitState& state) {
  std::fprintf(out, "Iter %d: [", state.iteration);
  for (double theta : state.theta) std::fprintf(out, " %g", theta);
  std::fprintf(out, " ] -> %g\n", state.loss);
}

void print_fit(std::FILE* out, const ModelFit& fit, const learn::AnalysisSettings& settings,
               const std::string& units, const learn::BootstrapFit* bootstrap) {
  if (settings.solver == learn::SolverKind::kNewton) {
    std::fprintf(out, "Newton: %d iterations, loss %g\n", fit.iterations, fit.loss);
  }
  std::fprintf(out, "PIECE VALUES (%s):\n",
               units == "elo"       ? "Elo"
               : units == "logodds" ? "natural log-odds"
                                    : "pawn = 100");
  for (std::size_t i = 0; i < fit.coefficients.size(); ++i) {
    const Coefficient& c = fit.coefficients[i];
    const std::string label = label_of(c.name) + ":";
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
    std::fprintf(out, "  %-14s %s%s%s%s\n", label.c_str(),
                 format_estimate(in_units(c, units)).c_str(), unit.empty() ? "" : " ", unit.c_str(),
                 interval.c_str());
  }
  if (bootstrap != nullptr) {
    std::fprintf(
        out,
        "  (± inverse-Hessian standard errors; intervals from %d bootstrap replicates over games",
        bootstrap->replicates);
    if (bootstrap->failed > 0) std::fprintf(out, ", %d failed to converge", bootstrap->failed);
    std::fprintf(out, ")\n");
  }
  if (fit.rows_without_rating > 0) {
    std::fprintf(out, "  (%llu rows without both ratings left out by --elo-offset)\n",
                 u(fit.rows_without_rating));
  }
}

void print_relations(std::FILE* out, const ModelFit& fit) {
  const std::array<double, 5> values = values_array(fit);
  if (std::isnan(values[0])) return;  // phase-tapered models have no single piece values
  std::fprintf(out, "Capablanca's relations:\n");
  for (const learn::RelationCheck& check : learn::check_capablanca(values)) {
    std::fprintf(out, "  %-18s %-34s %s\n", check.relation.c_str(), check.numbers.c_str(),
                 check.holds ? "yes" : "no");
  }
}

void print_comparison(std::FILE* out, const std::vector<ComparedDataset>& datasets,
                      const std::string& units) {
  if (datasets.empty()) return;
  std::vector<learn::DatasetFit> sets;
  for (const ComparedDataset& d : datasets) sets.push_back({d.name, d.fit, d.bootstrap});
  const learn::ComparisonTable table = learn::compare_fits(sets);

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
    std::fprintf(out, "%-18s", label_of(row.name).c_str());
    for (const learn::ComparisonCell& cell : row.cells) {
      const std::string text =
          cell.present ? format_estimate(in_units(cell.coefficient, units), true) : "-";
      std::fprintf(out, " %*s", kWidth + 1, text.c_str());  // "±" is two bytes, one column
    }
    std::fputc('\n', out);
  }

  std::fprintf(out, "Capablanca's relations (margin in pawn = 100, verdict at 95%%):\n");
  const std::size_t relation_count = table.relations.empty() ? 0 : table.relations[0].size();
  for (std::size_t r = 0; r < relation_count; ++r) {
    std::fprintf(out, "%-18s", table.relations[0][r].relation.c_str());
    for (const auto& relations : table.relations) {
      std::string cell = "-";
      if (r < relations.size()) {
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
  std::fprintf(out, "Bishop - Knight (pawn = 100), each set against %s:\n",
               sets.front().name.c_str());
  for (const learn::DatasetFit& set : sets) {
    const Estimate e = learn::contrast_estimate(set.fit, bishop_minus_knight);
    std::fprintf(out, "  %-20s B-N = %s", set.name.c_str(), format_estimate(e, true).c_str());
    if (&set != &sets.front()) {
      const learn::DatasetDifference diff =
          learn::compare_contrast(set, sets.front(), bishop_minus_knight);
      std::fprintf(out, "   diff %+.1f ± %.1f, p = %.3g", diff.z_test.difference, diff.z_test.se,
                   diff.z_test.p_value);
      if (diff.has_bootstrap) std::fprintf(out, " (bootstrap p = %.3g)", diff.bootstrap_p);
      std::fprintf(out, "%s", diff.z_test.p_value < 0.05 ? "  significant" : "  not significant");
    }
    std::fputc('\n', out);
  }
}

void write_bootstrap_json(JsonWriter& json, const learn::BootstrapFit& bootstrap) {
  json.key("bootstrap").begin_object();
  json.field("replicates", bootstrap.replicates).field("failed", bootstrap.failed);
  json.key("value_intervals").begin_object();
  for (const learn::BootstrapCoefficient& c : bootstrap.coefficients) {
    if (std::isnan(c.value_interval.low)) continue;
    json.key(learn::piece_key(c.name)).begin_array();
    json.value(c.value_interval.low).value(c.value_interval.high).end_array();
  }
  json.end_object();
  json.key("theta_intervals").begin_object();
  for (const learn::BootstrapCoefficient& c : bootstrap.coefficients) {
    json.key(learn::piece_key(c.name)).begin_array();
    json.value(c.theta_interval.low).value(c.theta_interval.high).end_array();
  }
  json.end_object().end_object();
}

void write_fit_json(JsonWriter& json, const ModelFit& fit) {
  json.key("theta").begin_array();
  for (double theta : fit.theta) json.value(theta);
  json.end_array();
  json.field("loss", fit.loss).field("iterations", fit.iterations);
  json.field("weighted_rows", fit.total_weight);
  if (fit.has_margin()) json.field("draw_margin", fit.draw_margin);
  std::vector<std::string> names;
  std::vector<double> values, errors;
  for (const Coefficient& c : fit.coefficients) {
    if (std::isnan(c.value.value)) continue;
    names.push_back(c.name);
    values.push_back(c.value.value);
    errors.push_back(c.value.se);
  }
  learn::write_named_values(json, "values", names, values);
  learn::write_named_values(json, "values_se", names, errors);
  json.key("coefficients").begin_array();
  for (const Coefficient& c : fit.coefficients) {
    json.begin_object()
        .field("name", c.name)
        .field("theta", c.theta.value)
        .field("theta_se", c.theta.se)
        .field("elo", c.elo.value)
        .field("elo_se", c.elo.se)
        .field("value", c.value.value)
        .field("value_se", c.value.se)
        .end_object();
  }
  json.end_array();
  json.key("relations").begin_array();
  const std::array<double, 5> v = values_array(fit);
  if (!std::isnan(v[0])) {
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
