#include "learn/fit/balance_curve.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace materialist::learn {
namespace {

constexpr int kMaxNewtonSteps = 60;
constexpr double kTolerance = 1e-12;

// log(1 + e^z) without overflow.
double balance_softplus(double z) {
  return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
}

// Mean negative log-likelihood per row, with its first and second derivatives in α.
struct Objective {
  double loss = 0, slope = 0, curvature = 0;
};

Objective evaluate(const std::vector<BalanceBin>& bins, double alpha, double rows) {
  Objective o;
  for (const BalanceBin& bin : bins) {
    const double n = static_cast<double>(bin.rows());
    if (n == 0) continue;
    const double x = bin.balance, s = bin.score(), z = alpha * x;
    const double p = 1 / (1 + std::exp(-z));
    // −[s log p + (1 − s) log(1 − p)] = softplus(z) − s z
    o.loss += n * (balance_softplus(z) - s * z);
    o.slope += n * (p - s) * x;
    o.curvature += n * p * (1 - p) * x * x;
  }
  o.loss /= rows;
  o.slope /= rows;
  o.curvature /= rows;
  return o;
}

}  // namespace

double BalanceBin::score() const {
  const double n = static_cast<double>(rows());
  if (n == 0) return 0.5;
  if (targets) return *targets / n;
  return (static_cast<double>(counts[Outcome::kWhiteWin]) +
          0.5 * static_cast<double>(counts[Outcome::kDraw])) /
         n;
}

std::vector<BalanceBin> balance_bins(const Histogram& histogram,
                                     const std::array<int, kPieceKinds>& scale) {
  std::map<int, std::pair<OutcomeCounts, TargetSum>> by_balance;
  histogram.for_each_target([&](const RowKey& key, const OutcomeCounts& counts, TargetSum target) {
    int balance = 0;
    for (int i = 0; i < kPieceKinds; ++i) balance += scale[i] * key.delta[i];
    by_balance[balance].first += counts;
    by_balance[balance].second += target;
  });
  std::vector<BalanceBin> bins;
  bins.reserve(by_balance.size());
  for (const auto& [balance, sums] : by_balance) {
    bins.push_back({balance, sums.first, std::nullopt});
    if (histogram.has_targets()) bins.back().targets = target_sum_value(sums.second);
  }
  return bins;
}

Expected<BalanceFit> fit_balance_alpha(const std::vector<BalanceBin>& bins) {
  double rows = 0, informative = 0;
  for (const BalanceBin& bin : bins) {
    rows += static_cast<double>(bin.rows());
    if (bin.balance != 0) informative += static_cast<double>(bin.rows());
  }
  if (informative == 0) {
    return make_error(ErrorCode::kInvalidArgument, "no row with a material imbalance: α undefined");
  }
  BalanceFit fit;
  Objective at = evaluate(bins, 0, rows);
  for (int step = 1; step <= kMaxNewtonSteps; ++step) {
    if (!(at.curvature > 0)) break;
    double delta = -at.slope / at.curvature;
    // Step halving keeps every step a descent step, even from a far start.
    Objective next = evaluate(bins, fit.alpha + delta, rows);
    for (int halvings = 0; halvings < 40 && !(next.loss <= at.loss + 1e-15); ++halvings) {
      delta *= 0.5;
      next = evaluate(bins, fit.alpha + delta, rows);
    }
    fit.alpha += delta;
    at = next;
    fit.iterations = step;
    if (std::fabs(at.slope) < kTolerance || std::fabs(delta) < kTolerance) {
      fit.loss = at.loss;
      return fit;
    }
  }
  if (std::fabs(at.slope) < 1e-8) {
    fit.loss = at.loss;
    return fit;
  }
  return make_error(ErrorCode::kNotConverged, "α did not converge (the scores may be all 0 or 1)");
}

}  // namespace materialist::learn
