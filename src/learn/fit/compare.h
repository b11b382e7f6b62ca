// Several datasets side by side, like the article's table of three players: values ± errors per
// dataset, Capablanca's relations with their uncertainty, and tests of differences between sets.
//
//   std::vector<DatasetFit> sets = {{"Anand", anand_fit, anand_boot}, {"Carlsen", carlsen_fit}};
//   ComparisonTable table = compare_fits(sets);
//   DatasetDifference d = compare_contrast(sets[0], sets[1], {{"bishop", 1}, {"knight", -1}});
//   // d.z_test.p_value: is Bishop − Knight different between the two sets?
//
// Relations are contrasts of pawn-normalised values: margin = 100 (cᵀθ) / θP with a delta-method
// se. An inequality (B > N) holds when its margin is above z·se, is violated below −z·se, and is
// undecided between; an equality (B + N = R + 1.5P) is consistent when |margin| ≤ z·se.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/statistics.h"
#include "learn/fit/models.h"
#include "learn/fit/uncertainty.h"

namespace materialist::learn {

enum class Verdict : std::uint8_t { kHolds, kViolated, kUndecided };
inline constexpr std::array kVerdictNames = {"holds", "violated", "undecided"};
static_assert(kVerdictNames.size() == static_cast<std::size_t>(Verdict::kUndecided) + 1);
const char* verdict_name(Verdict verdict);  // "holds", "violated", "undecided"

// A linear combination of named columns ("bishop" 1, "knight" −1), in pawn = 100 units.
using Contrast = std::vector<std::pair<std::string, double>>;

struct RelationEstimate {
  std::string relation;  // "B > N", "B + N = R + 1.5P", ...
  bool equality = false;
  Estimate margin;  // left − right, pawn = 100
  double z = 0;     // margin / se
  Verdict verdict = Verdict::kUndecided;
};

// The five relations (B > N, B > 3P, N > 3P, B + N = R + 1.5P, Q + P = 2R) on the plain piece
// columns, or with `suffix` "-mg" / "-eg" on a tapered model's columns; empty when absent.
std::vector<RelationEstimate> capablanca_relations(const ModelFit& fit, double z_critical = kZ95,
                                                   const std::string& suffix = "");

// A contrast's value (pawn = 100) with its delta-method se; NaN when a column is missing.
Estimate contrast_estimate(const ModelFit& fit, const Contrast& contrast);

struct DatasetFit {
  std::string name;
  ModelFit fit;
  std::optional<BootstrapFit> bootstrap;
};

struct ComparisonCell {
  bool present = false;       // the dataset's model has this coefficient
  Coefficient coefficient;    // θ, Elo and pawn units with standard errors
  Interval value_interval{};  // bootstrap 95% of the pawn-unit value (NaN without bootstrap)
  Interval theta_interval{};
};

struct ComparisonRow {
  std::string name;
  std::vector<ComparisonCell> cells;  // one per dataset
};

struct ComparisonTable {
  std::vector<std::string> datasets;
  std::vector<ComparisonRow> rows;  // every coefficient name, in first-seen order
  std::vector<std::vector<RelationEstimate>> relations;  // per dataset
};

ComparisonTable compare_fits(const std::vector<DatasetFit>& sets, double z_critical = kZ95);

struct DatasetDifference {
  Estimate a, b;          // the contrast in each dataset
  DifferenceTest z_test;  // from the standard errors (independent datasets)
  bool has_bootstrap = false;
  Interval bootstrap_interval{};  // percentile interval of (a − b) over paired replicates
  double bootstrap_p = 1;         // 2 × the smaller tail fraction of (a − b) around 0
};

DatasetDifference compare_contrast(const DatasetFit& a, const DatasetFit& b,
                                   const Contrast& contrast, double level = 0.95);

// Whether a fit determines the contrast: every column it names is identified, and its value and
// standard error are finite. A difference with an undetermined side would read "± nan".
bool contrast_determined(const ModelFit& fit, const Contrast& contrast);

// The dataset differences are taken against: the first whose contrast is determined (a first
// rating band of one game determines none), or nullopt when none does. Null entries are skipped.
std::optional<std::size_t> reference_dataset(const std::vector<const ModelFit*>& fits,
                                             const Contrast& contrast);

}  // namespace materialist::learn
