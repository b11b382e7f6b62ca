#include "learn/fit/clustered.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/hash.h"
#include "learn/fit/models.h"
#include "learn/fit/numeric.h"

namespace materialist::learn {
namespace {

// x of a key and h = σ(θ·x) at the fit.
double fitted_row(const ModelFit& fit, std::uint64_t packed, std::vector<double>& x) {
  const RowKey key = RowKey::unpack(packed);
  double eta = 0;
  for (std::size_t j = 0; j < fit.theta.size(); ++j) {
    x[j] = fit.spec.features[j].value(key);
    eta += fit.theta[j] * x[j];
  }
  return 1.0 / (1.0 + std::exp(-eta));
}


}  // namespace

double eval_pair_moment(const OutcomeCounts& counts, const PairMoments& m, double h_a, double h_b) {
  double qn = 0, nq = 0;
  for (int o = 0; o < kOutcomeCount; ++o) {
    qn += static_cast<double>(m.qn[o]);
    nq += static_cast<double>(m.nq[o]);
  }
  return static_cast<double>(m.qq) / (kUnit * kUnit) - h_b * qn / kUnit - h_a * nq / kUnit +
         h_a * h_b * static_cast<double>(counts.total());
}

void add_eval_meat(const GamePairs& pairs, const ModelFit& fit, std::vector<double>& meat) {
  const int n = static_cast<int>(fit.theta.size());
  std::vector<double> xa(n), xb(n);
  // s_g = Σ_k x_k (Q_k − n_k h_k): the products of two keys' terms, summed over games, are the
  // pair's moments; summed in sorted pair order (independent of how pairs were gathered).
  pairs.for_each_moments_sorted([&](std::uint64_t a, std::uint64_t b, const OutcomeCounts& counts,
                                    const PairMoments& moments) {
    const double h_a = fitted_row(fit, a, xa);
    if (a == b) {
      const double c = eval_pair_moment(counts, moments, h_a, h_a);
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j <= i; ++j) meat[i * n + j] += c * xa[i] * xa[j];
      }
      return;
    }
    const double h_b = fitted_row(fit, b, xb);
    const double c = eval_pair_moment(counts, moments, h_a, h_b);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j <= i; ++j) meat[i * n + j] += c * (xa[i] * xb[j] + xb[i] * xa[j]);
    }
  });
}

namespace {

// A row's score s = (d log p/dη) x, then d log p/dc (ordinal), of the result target's fit.
void row_score(const ModelFit& fit, std::uint64_t packed, int outcome, std::vector<double>& x,
               std::vector<double>& s) {
  const ModelOptions& options = fit.options;
  const int columns = static_cast<int>(fit.theta.size());
  const RowKey key = RowKey::unpack(packed);
  s.assign(fit.parameter_count(), 0.0);
  if (options.rating_offset && !key.rating_known) return;
  double eta = options.rating_offset ? kLogOddsPerElo * key.rating_diff : 0.0;
  for (int j = 0; j < columns; ++j) {
    x[j] = fit.spec.features[j].value(key);
    eta += fit.theta[j] * x[j];
  }
  const RowScore score =
      options.outcomes == OutcomeModel::kOrdinal
          ? ordinal_row_score(eta, fit.draw_margin, static_cast<Outcome>(outcome))
          : binary_row_score(eta, static_cast<Outcome>(outcome),
                             options.outcomes == OutcomeModel::kFractional
                                 ? DrawHandling::kHalfPoint
                                 : DrawHandling::kLeaveOut);
  for (int j = 0; j < columns; ++j) s[j] = score.eta * x[j];
  if (fit.has_margin()) s[columns] = score.margin;
}

// Σ_g s_g s_gᵀ of the result target's fit into `meat` (lower triangle), summed in sorted pair
// order: the result does not depend on how the pairs were gathered.
void add_result_meat(const GamePairs& pairs, const ModelFit& fit, std::vector<double>& meat) {
  const int n = fit.parameter_count();
  const std::size_t columns = fit.theta.size();
  std::vector<double> xa(columns), xb(columns), sa, sb;
  pairs.for_each_sorted([&](std::uint64_t a, std::uint64_t b, const OutcomeCounts& counts) {
    for (int o = 0; o < kOutcomeCount; ++o) {
      const std::uint64_t count = counts.by_outcome[o];
      if (count == 0) continue;
      row_score(fit, a, o, xa, sa);
      const double w = static_cast<double>(count);
      if (a == b) {
        for (int i = 0; i < n; ++i) {
          for (int j = 0; j <= i; ++j) meat[i * n + j] += w * sa[i] * sa[j];
        }
      } else {
        row_score(fit, b, o, xb, sb);
        for (int i = 0; i < n; ++i) {
          for (int j = 0; j <= i; ++j) meat[i * n + j] += w * (sa[i] * sb[j] + sb[i] * sa[j]);
        }
      }
    }
  });
}

// c · B M B, symmetrised (B is symmetric; rounding is not).
std::vector<double> sandwich(const std::vector<double>& bread, const std::vector<double>& meat,
                             double correction, int n) {
  std::vector<double> bm(static_cast<std::size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; ++k) {
      const double bik = bread[i * n + k];
      if (bik == 0) continue;
      for (int j = 0; j < n; ++j) bm[i * n + j] += bik * meat[k * n + j];
    }
  }
  std::vector<double> covariance(static_cast<std::size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int k = 0; k < n; ++k) sum += bm[i * n + k] * bread[k * n + j];
      covariance[i * n + j] = correction * sum;
    }
  }
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const double mean = 0.5 * (covariance[i * n + j] + covariance[j * n + i]);
      covariance[i * n + j] = covariance[j * n + i] = mean;
    }
  }
  return covariance;
}

}  // namespace

Expected<ClusteredCovariance> clustered_covariance(const GamePairs& pairs, const ModelFit& fit,
                                                   const std::vector<double>& bread) {
  const ModelOptions& options = fit.options;
  if (!pairs.fields().covers(options)) {
    return make_error(ErrorCode::kInvalidArgument,
                      "the game pairs do not keep every field this model reads");
  }
  const int n = fit.parameter_count();
  if (static_cast<int>(bread.size()) != n * n) {
    return make_error(ErrorCode::kInvalidArgument, "clustered errors need the inverse information");
  }
  std::vector<double> meat(static_cast<std::size_t>(n) * n, 0.0);
  if (options.target == Target::kEval) {
    if (!pairs.has_targets()) {
      return make_error(ErrorCode::kInvalidArgument,
                        "the game pairs were not read for the evaluation target");
    }
    add_eval_meat(pairs, fit, meat);
  } else {
    add_result_meat(pairs, fit, meat);
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < i; ++j) meat[j * n + i] = meat[i * n + j];
  }

  ClusteredCovariance result;
  result.clusters = pairs.clusters(options);
  const double g = static_cast<double>(result.clusters);
  const double rows = fit.total_weight;
  if (!(g > 1) || !(rows > n)) {
    return make_error(ErrorCode::kInvalidArgument,
                      "clustered errors need more than one game and more rows than parameters");
  }
  result.correction = g / (g - 1.0) * (rows - 1.0) / (rows - n);
  result.covariance = sandwich(bread, meat, result.correction, n);
  result.meat = std::move(meat);
  return result;
}

}  // namespace materialist::learn
