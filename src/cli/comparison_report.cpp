// The CLI's comparisons: datasets side by side, and the two targets side by side (text, JSON).
#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <limits>
#include <optional>

#include "cli/report_format.h"
#include "cli/text_report.h"
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

namespace {

constexpr int kWidth = 22;  // a dataset's column

// The values table: a column per dataset, a row per coefficient.
void print_value_rows(std::FILE* out, const std::vector<ComparedDataset>& datasets,
                      const learn::ComparisonTable& table, const std::string& units) {
  const bool all_player_view =
      std::all_of(datasets.begin(), datasets.end(), [](const auto& d) { return d.player_view; });
  const bool any_player_view =
      std::any_of(datasets.begin(), datasets.end(), [](const auto& d) { return d.player_view; });
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
}

// Capablanca's relations, a column per dataset (where its five values are identified).
void print_relation_rows(std::FILE* out, const std::vector<ComparedDataset>& datasets,
                         const learn::ComparisonTable& table) {
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
}

// Bishop − Knight of each set against the first set that determines it (a first band of one
// game determines none), with the difference's test.
void print_bishop_minus_knight(std::FILE* out, const std::vector<learn::DatasetFit>& sets) {
  const learn::Contrast bishop_minus_knight = {{"bishop", 1.0}, {"knight", -1.0}};
  std::vector<const learn::ModelFit*> fits;
  for (const learn::DatasetFit& set : sets) fits.push_back(&set.fit);
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

}  // namespace

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
  print_value_rows(out, datasets, table, units);
  print_relation_rows(out, datasets, table);
  if (datasets.size() >= 2) print_bishop_minus_knight(out, sets);
}

void print_target_comparison(std::FILE* out, const learn::TargetComparison& both, bool eval_first,
                             bool player_view, const std::string& units) {
  print_warnings(out, both.result, "result: ");
  print_warnings(out, both.eval, "eval: ");
  const bool values = units != "elo" && units != "logodds";
  const double scale = units == "elo" ? kEloPerLogOdds : 1.0;
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
  const auto side = [&json](const char* key, const Coefficient& c) {
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
    side("result", d.result);
    side("eval", d.eval);
    json.key("difference").begin_object();
    json.field("value", d.difference.value).field("se", d.difference.se).end_object();
    json.key("thetaDifference").begin_object();
    json.field("value", d.theta_difference.value).field("se", d.theta_difference.se);
    json.end_object().end_object();
  }
  json.end_array();
  json.field("differenceErrors", both.joint_errors ? "game-clustered" : "independent");
}

}  // namespace materialist::cli
