// The two targets side by side: the result and the engine's evaluation fitted on the same
// positions (those with an [%eval]), their values, and each difference (eval − result) with a
// game-clustered standard error that counts the two fits' correlation: both are estimated from
// the same games, so their scores are stacked per game, s_g = (s_g^result, s_g^eval), and the
// cross block of the sandwich, c · B_r (Σ_g s_g^r s_g^eᵀ) B_e, comes from the game pairs'
// moments (learn/fit/clustered.h) like the fits' own.
//
//   TargetComparison both = compare_targets(histogram, settings, &pairs);  // an eval read
//   for (const TargetDifference& d : both.rows) print(d.name, d.result.value, d.eval.value,
//                                                     d.difference);
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "learn/fit/analysis.h"
#include "learn/fit/clustered.h"
#include "learn/fit/models.h"

namespace materialist::learn {

struct TargetDifference {
  std::string name;    // the column ("knight", "bishop-pair", "intercept", ...)
  Coefficient result;  // the result fit's coefficient
  Coefficient eval;    // the evaluation fit's
  // eval − result in pawn = 100 (each in its own fit's pawns); NaN when a side is not
  // identified or has no pawn reference.
  Estimate difference{};
  bool identified = false;  // both sides identified
  // eval − result in natural log-odds (θ), with its joint error: defined whenever both fits have
  // standard errors, also when the pawn (the unit of values) is not identified.
  Estimate theta_difference{};
};

struct TargetComparison {
  ModelFit result, eval;
  std::vector<TargetDifference> rows;  // one per column of the model
  // True when the differences' errors hold the fits' game-clustered cross covariance; false
  // when the fits' errors are not both game-clustered (then the two are taken as independent).
  bool joint_errors = false;
};

// Fits settings.model with the result target and with the evaluation target on one histogram
// read for the evaluation target (its counts by outcome are the annotated positions' results),
// with the pairs' game-clustered errors when given. The model must be binary (no ordinal draw
// margin, no rating offset).
Expected<TargetComparison> compare_targets(const Histogram& histogram,
                                           const AnalysisSettings& settings,
                                           const GamePairs* pairs);

// Σ_g s_g^result s_g^evalᵀ (columns², row-major) of two fits of the same columns.
std::vector<double> cross_target_meat(const GamePairs& pairs, const ModelFit& result,
                                      const ModelFit& eval);

}  // namespace materialist::learn
