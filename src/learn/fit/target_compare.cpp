#include "learn/fit/target_compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include "learn/fit/numeric.h"

namespace materialist::learn {
namespace {


// x of a key and σ(θ·x) for one fit.
double fitted(const ModelFit& fit, const RowKey& key, std::vector<double>& x) {
  double eta = 0;
  for (std::size_t j = 0; j < fit.theta.size(); ++j) {
    x[j] = fit.spec.features[j].value(key);
    eta += fit.theta[j] * x[j];
  }
  return 1.0 / (1.0 + std::exp(-eta));
}

// The result target of an outcome (and whether its rows are in the likelihood).
bool result_target(const ModelOptions& model, int outcome, double& y) {
  switch (static_cast<Outcome>(outcome)) {
    case Outcome::kWhiteWin:
      y = 1;
      return true;
    case Outcome::kBlackWin:
      y = 0;
      return true;
    case Outcome::kDraw:
      y = 0.5;
      return model.outcomes == OutcomeModel::kFractional;
    default:
      return false;
  }
}

// The small-sample factor of a clustered covariance: G/(G − 1) · (N − 1)/(N − K).
double correction(const GamePairs& pairs, const ModelFit& fit) {
  const double g = static_cast<double>(pairs.clusters(fit.options));
  const double n = fit.total_weight;
  const double k = static_cast<double>(fit.parameter_count());
  return g / (g - 1.0) * (n - 1.0) / (n - k);
}

// The gradient of 100 θ_j / θ_r with respect to one fit's θ (zero for the pawn itself).
std::vector<double> value_gradient(const ModelFit& fit, int column) {
  std::vector<double> g(fit.theta.size(), 0.0);
  const int reference = fit.coefficients[column].reference;
  if (reference < 0 || reference == column) return g;
  const double tr = fit.theta[reference];
  g[column] = 100.0 / tr;
  g[reference] = -100.0 * fit.theta[column] / (tr * tr);
  return g;
}

double quadratic(const std::vector<double>& a, const std::vector<double>& m,
                 const std::vector<double>& b) {
  const std::size_t n = a.size();
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) sum += a[i] * m[i * n + j] * b[j];
  }
  return sum;
}

}  // namespace

std::vector<double> cross_target_meat(const GamePairs& pairs, const ModelFit& result,
                                      const ModelFit& eval) {
  const int n = static_cast<int>(result.theta.size());
  std::vector<double> meat(static_cast<std::size_t>(n) * n, 0.0);
  std::vector<double> xa(n), xb(n), unused(n);
  pairs.for_each_moments_sorted([&](std::uint64_t a, std::uint64_t b, const OutcomeCounts& counts,
                                    const PairMoments& m) {
    const RowKey key_a = RowKey::unpack(a), key_b = RowKey::unpack(b);
    const double hr_a = fitted(result, key_a, xa), hr_b = fitted(result, key_b, xb);
    const double he_a = fitted(eval, key_a, unused), he_b = fitted(eval, key_b, unused);
    // Σ_g n_a (y − h^r_a)(Q_b − n_b h^e_b), and the same with a and b swapped.
    double ab = 0, ba = 0;
    for (int o = 0; o < kOutcomeCount; ++o) {
      double y = 0;
      if (counts.by_outcome[o] == 0 || !result_target(result.options, o, y)) continue;
      const double nn = static_cast<double>(counts.by_outcome[o]);
      ab += (y - hr_a) * (static_cast<double>(m.nq[o]) / kUnit - he_b * nn);
      ba += (y - hr_b) * (static_cast<double>(m.qn[o]) / kUnit - he_a * nn);
    }
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        meat[i * n + j] += a == b ? ab * xa[i] * xa[j] : ab * xa[i] * xb[j] + ba * xb[i] * xa[j];
      }
    }
  });
  return meat;
}

Expected<TargetComparison> compare_targets(const Histogram& histogram,
                                           const AnalysisSettings& settings,
                                           const GamePairs* pairs) {
  if (!histogram.has_targets()) {
    return make_error(ErrorCode::kInvalidArgument,
                      "both targets need the positions read with their evaluations");
  }
  if (settings.model.outcomes == OutcomeModel::kOrdinal || settings.model.rating_offset) {
    return make_error(ErrorCode::kInvalidArgument,
                      "the targets are compared with binary models: the ordinal draw margin and "
                      "the rating offset have no evaluation counterpart");
  }
  TargetComparison out;
  AnalysisSettings result = settings, eval = settings;
  result.model.target = Target::kResult;
  eval.model.target = Target::kEval;
  auto result_fit = run_analysis(histogram, result, {}, 1, pairs);
  if (!result_fit) {
    return make_error(result_fit.error().code, "result: " + result_fit.error().message);
  }
  auto eval_fit = run_analysis(histogram, eval, {}, 1, pairs);
  if (!eval_fit) return make_error(eval_fit.error().code, "eval: " + eval_fit.error().message);
  out.result = std::move(*result_fit);
  out.eval = std::move(*eval_fit);

  const int n = static_cast<int>(out.result.theta.size());
  const std::size_t size = static_cast<std::size_t>(n) * n;
  // The cross covariance c · B_r M_re B_e (zero when the errors are not both clustered).
  std::vector<double> cross(size, 0.0);
  out.joint_errors =
      pairs != nullptr && pairs->has_targets() && out.result.errors == ErrorKind::kClustered &&
      out.eval.errors == ErrorKind::kClustered && out.result.model_covariance.size() == size &&
      out.eval.model_covariance.size() == size;
  if (out.joint_errors) {
    const std::vector<double> meat = cross_target_meat(*pairs, out.result, out.eval);
    const double c = std::sqrt(correction(*pairs, out.result) * correction(*pairs, out.eval));
    const std::vector<double>& br = out.result.model_covariance;
    const std::vector<double>& be = out.eval.model_covariance;
    std::vector<double> bm(size, 0.0);
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < n; ++k) {
        for (int j = 0; j < n; ++j) bm[i * n + j] += br[i * n + k] * meat[k * n + j];
      }
    }
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        double sum = 0;
        for (int k = 0; k < n; ++k) sum += bm[i * n + k] * be[k * n + j];
        cross[i * n + j] = c * sum;
      }
    }
  }
  for (int j = 0; j < n; ++j) {
    TargetDifference d;
    d.result = out.result.coefficients[j];
    d.eval = out.eval.coefficients[j];
    d.name = d.result.name;
    d.identified = d.result.identified && d.eval.identified && d.result.reference >= 0;
    d.difference = {kNaN, kNaN};
    d.theta_difference = {kNaN, kNaN};
    if (out.result.covariance_ok && out.eval.covariance_ok &&
        out.result.covariance.size() == size && out.eval.covariance.size() == size) {
      const double variance = out.eval.covariance[j * n + j] + out.result.covariance[j * n + j] -
                              2.0 * cross[j * n + j];
      d.theta_difference = {out.eval.theta[j] - out.result.theta[j],
                            std::sqrt(std::max(variance, 0.0))};
    }
    if (d.identified && out.result.covariance.size() == size &&
        out.eval.covariance.size() == size) {
      const std::vector<double> gr = value_gradient(out.result, j);
      const std::vector<double> ge = value_gradient(out.eval, j);
      // Var(v_e − v_r) = g_eᵀ V_e g_e + g_rᵀ V_r g_r − 2 g_rᵀ C g_e.
      const double variance = quadratic(ge, out.eval.covariance, ge) +
                              quadratic(gr, out.result.covariance, gr) -
                              2.0 * quadratic(gr, cross, ge);
      d.difference.value = d.eval.value.value - d.result.value.value;
      d.difference.se = std::sqrt(std::max(variance, 0.0));
    }
    out.rows.push_back(std::move(d));
  }
  return out;
}

}  // namespace materialist::learn
