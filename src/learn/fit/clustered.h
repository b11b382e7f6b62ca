// The game-clustered sandwich covariance of a fit, from the game pairs' counts
// (learn/stats/game_pairs.h) alone: positions of one game are not independent observations.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/error.h"
#include "learn/stats/game_pairs.h"

namespace materialist::learn {

struct ModelOptions;
struct ModelFit;

// The game-clustered sandwich of a fit:
//   V = c · B M B,   M = Σ_g s_g s_gᵀ,   c = G/(G − 1) · (N − 1)/(N − K)
// with B = `bread`, the inverse of the unpenalised observed information the model covariance
// uses (λ's term left out, as for fit.model_covariance), s_g the sum over game g's rows of each
// row's log-likelihood gradient at the fitted parameters, G the model's clusters
// (GamePairs::clusters), N = fit.total_weight (the rows in the likelihood) and K the parameter
// count: statsmodels' default small-sample factor for cov_type="cluster" (use_correction=True).
struct ClusteredCovariance {
  std::vector<double> covariance;  // parameters², row-major
  std::vector<double> meat;        // M, without c
  std::uint64_t clusters = 0;      // G
  double correction = 1;           // c
};
// With the evaluation target (fit.options.target kEval) s_g = Σ_rows x (t − h), t the rows'
// expected scores, from the pairs' moments (the pairs must have targets).
// kInvalidArgument when the pairs do not cover the model, or G ≤ 1, or N ≤ K.
// Σ_g (Q_a − n_a h_a)(Q_b − n_b h_b) over the games of a pair (a, b) (targets as scores in 0..1).
double eval_pair_moment(const OutcomeCounts& counts, const PairMoments& moments, double h_a,
                        double h_b);
// Adds Σ_g s_g s_gᵀ of the evaluation target's fit into `meat` (columns², lower triangle).
void add_eval_meat(const GamePairs& pairs, const ModelFit& fit, std::vector<double>& meat);
Expected<ClusteredCovariance> clustered_covariance(const GamePairs& pairs, const ModelFit& fit,
                                                   const std::vector<double>& bread);

}  // namespace materialist::learn
