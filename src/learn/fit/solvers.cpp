#include "learn/fit/solvers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "learn/fit/linear_algebra.h"
#include "learn/fit/uncertainty.h"
#include "learn/fit/numeric.h"

namespace materialist::learn {

namespace {

// The result a solver reports at `state`, with the Hessian there.
FitResult result_at(const FitState& state, double tolerance, std::vector<double> hessian,
                    double total_weight) {
  FitResult result;
  result.theta = state.theta;
  result.loss = state.loss;
  result.gradient_norm = state.gradient_norm;
  result.iterations = state.iteration;
  result.converged = state.gradient_norm < tolerance;
  result.hessian = std::move(hessian);
  result.total_weight = total_weight;
  return result;
}


}  // namespace

LogisticData make_logistic_data(const Design& design, DrawHandling draws) {
  // A row (x, t) costs exactly what (-x, 1 - t) costs, in J, ∇J and ∇²J, since σ(-z) = 1 - σ(z).
  // Each row is turned so that its first non-zero column is positive, and rows that then share
  // x merge (weights add, targets average by weight): mirror-image material balances become one
  // row, which halves every solver step.
  const int n = design.columns;
  struct Folded {
    std::vector<double> x;
    double weight = 0, score = 0;  // score: weight × target
  };
  std::map<std::vector<double>, std::size_t> index_of;
  std::vector<Folded> folded;
  for (std::size_t r = 0; r < design.rows(); ++r) {
    const auto& w = design.weights[r];
    const double white = w[static_cast<int>(Outcome::kWhiteWin)];
    const double black = w[static_cast<int>(Outcome::kBlackWin)];
    const double draw = draws == DrawHandling::kHalfPoint ? w[static_cast<int>(Outcome::kDraw)] : 0;
    const double weight = white + black + draw;
    if (weight <= 0) continue;
    std::vector<double> x(design.row(r), design.row(r) + n);
    double score = white + 0.5 * draw;
    const auto lead = std::find_if(x.begin(), x.end(), [](double v) { return v != 0; });
    if (lead != x.end() && *lead < 0) {
      for (double& v : x) v = -v;
      score = weight - score;
    }
    const auto [at, added] = index_of.try_emplace(x, folded.size());
    if (added) folded.push_back({std::move(x), 0, 0});
    folded[at->second].weight += weight;
    folded[at->second].score += score;
  }
  LogisticData data;
  data.columns = n;
  for (const Folded& row : folded) {  // in first-seen order, as the design's rows came
    data.x.insert(data.x.end(), row.x.begin(), row.x.end());
    data.weight.push_back(row.weight);
    data.target.push_back(row.score / row.weight);
    data.total_weight += row.weight;
  }
  return data;
}

double evaluate_objective(const LogisticData& data, double lambda, const double* theta,
                          double* gradient, double* hessian) {
  const int n = data.columns;
  if (gradient) std::fill(gradient, gradient + n, 0.0);
  if (hessian) std::fill(hessian, hessian + n * n, 0.0);
  double loss = 0;
  for (std::size_t r = 0; r < data.rows(); ++r) {
    const double* x = data.x.data() + r * n;
    double z = 0;
    for (int j = 0; j < n; ++j) z += theta[j] * x[j];
    // -[t log h + (1-t) log(1-h)] = softplus(z) - t z, with softplus computed without overflow.
    // log(1 + e) for e in (0, 1] is accurate to ~1e-16 absolute and far cheaper than log1p.
    const double e = std::exp(-std::fabs(z));
    const double softplus = std::max(z, 0.0) + std::log(1.0 + e);
    const double w = data.weight[r];
    loss += w * (softplus - data.target[r] * z);
    const double h = z >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
    if (gradient) {
      const double residual = w * (h - data.target[r]);
      for (int j = 0; j < n; ++j) gradient[j] += residual * x[j];
    }
    if (hessian) {
      const double curvature = w * h * (1.0 - h);
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j <= i; ++j) hessian[i * n + j] += curvature * x[i] * x[j];
      }
    }
  }
  const double m = data.total_weight > 0 ? data.total_weight : 1.0;
  double penalty = 0;
  for (int j = 0; j < n; ++j) penalty += theta[j] * theta[j];
  if (gradient) {
    for (int j = 0; j < n; ++j) gradient[j] = gradient[j] / m + 2 * lambda * theta[j];
  }
  if (hessian) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j <= i; ++j) {
        hessian[i * n + j] = hessian[i * n + j] / m + (i == j ? 2 * lambda : 0.0);
        hessian[j * n + i] = hessian[i * n + j];
      }
    }
  }
  return loss / m + lambda * penalty;
}

// ---- gradient descent ----

GradientDescent::GradientDescent(const LogisticData& data, GradientDescentOptions options)
    : data_(data),
      columns_(data.x.size()),
      options_(options),
      gradient_(data.columns, 0.0),
      z_(data.rows()),
      e_(data.rows()) {
  const std::size_t rows = data_.rows();
  for (std::size_t r = 0; r < rows; ++r) {
    for (int j = 0; j < data_.columns; ++j) columns_[j * rows + r] = data_.x[r * data_.columns + j];
  }
  state_.theta.assign(data_.columns, 0.0);
  state_.loss = evaluate(true);
  state_.gradient_norm = norm(gradient_);
}

double GradientDescent::evaluate(bool loss_wanted) {
  // The same sums, in the same order, as evaluate_objective, split into passes over the rows.
  const std::size_t rows = data_.rows();
  const int n = data_.columns;
  std::fill(z_.begin(), z_.end(), 0.0);
  for (int j = 0; j < n; ++j) {
    const double theta = state_.theta[j];
    const double* column = columns_.data() + j * rows;
    for (std::size_t r = 0; r < rows; ++r) z_[r] += theta * column[r];
  }
  for (std::size_t r = 0; r < rows; ++r) e_[r] = std::exp(-std::fabs(z_[r]));
  double loss = 0;
  if (loss_wanted) {
    for (std::size_t r = 0; r < rows; ++r) {
      const double softplus = std::max(z_[r], 0.0) + std::log(1.0 + e_[r]);
      loss += data_.weight[r] * (softplus - data_.target[r] * z_[r]);
    }
  }
  for (std::size_t r = 0; r < rows; ++r) {  // z_ now holds each row's weighted residual
    const double h = (z_[r] >= 0 ? 1.0 : e_[r]) / (1.0 + e_[r]);
    z_[r] = data_.weight[r] * (h - data_.target[r]);
  }
  const double m = data_.total_weight > 0 ? data_.total_weight : 1.0;
  double penalty = 0;
  for (int j = 0; j < n; ++j) {
    const double* column = columns_.data() + j * rows;
    double sum = 0;
    for (std::size_t r = 0; r < rows; ++r) sum += z_[r] * column[r];
    gradient_[j] = sum / m + 2 * options_.lambda * state_.theta[j];
    penalty += state_.theta[j] * state_.theta[j];
  }
  return loss_wanted ? loss / m + options_.lambda * penalty : 0.0;
}

bool GradientDescent::finished() const {
  return state_.iteration >= options_.iterations ||
         state_.gradient_norm < options_.gradient_tolerance;
}

int GradientDescent::step(int n) {
  int done = 0;
  while (done < n && !finished()) {
    for (int j = 0; j < data_.columns; ++j) {
      state_.theta[j] -= options_.learning_rate * gradient_[j];
    }
    ++state_.iteration;
    ++done;
    const bool last = done == n || state_.iteration >= options_.iterations;
    state_.loss = evaluate(last);
    state_.gradient_norm = norm(gradient_);
    if (!last && finished()) state_.loss = evaluate(true);  // converged before n steps
  }
  return done;
}

FitResult GradientDescent::result() const {
  std::vector<double> hessian(data_.columns * data_.columns, 0.0);
  evaluate_objective(data_, options_.lambda, state_.theta.data(), nullptr, hessian.data());
  FitResult result =
      result_at(state_, options_.gradient_tolerance, std::move(hessian), data_.total_weight);
  return result;
}

FitResult fit_gradient_descent(const LogisticData& data, const GradientDescentOptions& options,
                               const FitCallback& callback, int report_every) {
  GradientDescent descent(data, options);
  if (!callback) {
    descent.step(options.iterations);
  } else if (callback(descent.state())) {
    while (descent.step(std::max(report_every, 1)) > 0 && callback(descent.state())) {
    }
  }
  return descent.result();
}

// ---- Newton / IRLS ----

Expected<FitResult> fit_newton(const LogisticData& data, const NewtonOptions& options,
                               const FitCallback& callback) {
  const int n = data.columns;
  FitState state;
  state.theta.assign(n, 0.0);
  std::vector<double> gradient(n), hessian(n * n), step(n), trial(n);
  state.loss =
      evaluate_objective(data, options.lambda, state.theta.data(), gradient.data(), hessian.data());
  state.gradient_norm = norm(gradient);
  bool stopped = false;
  while (true) {
    if (callback && !callback(state)) {
      stopped = true;
      break;
    }
    if (state.gradient_norm < options.gradient_tolerance) break;
    if (state.iteration >= options.max_iterations) {
      return make_error(
          ErrorCode::kNotConverged,
          "Newton: no convergence in " + std::to_string(options.max_iterations) + " iterations");
    }
    step = gradient;
    if (!solve_symmetric(hessian, step, n)) {
      return make_error(ErrorCode::kNotConverged,
                        "Newton: the Hessian is singular (collinear or empty columns?)");
    }
    // Halve the step until J does not increase: plain Newton can overshoot far from the optimum.
    // Near the optimum J changes by less than its rounding error, so a step within that slack is
    // accepted and the (still accurate) gradient decides convergence; without it, bootstrap
    // replicates stall at |∇J| ≈ 2e-10 and report "no convergence".
    const double slack = 64 * std::numeric_limits<double>::epsilon() * std::fabs(state.loss);
    double scale = 1.0;
    double trial_loss = 0;
    for (int halving = 0; halving < 40; ++halving, scale *= 0.5) {
      for (int j = 0; j < n; ++j) trial[j] = state.theta[j] - scale * step[j];
      trial_loss = evaluate_objective(data, options.lambda, trial.data(), nullptr, nullptr);
      if (trial_loss <= state.loss + slack) break;
    }
    if (!(trial_loss <= state.loss + slack)) break;  // no descent left: as good as doubles allow
    state.theta = trial;
    state.loss = evaluate_objective(data, options.lambda, state.theta.data(), gradient.data(),
                                    hessian.data());
    state.gradient_norm = norm(gradient);
    ++state.iteration;
  }
  FitResult result = result_at(state, options.gradient_tolerance, hessian, data.total_weight);
  if (!result.converged && !stopped) {
    return make_error(ErrorCode::kNotConverged,
                      "Newton: stalled with |gradient| = " + std::to_string(state.gradient_norm));
  }
  return result;
}

std::vector<double> relative_values(const std::vector<double>& theta, int reference, double scale) {
  std::vector<double> values(theta.size(), 0.0);
  if (reference < 0 || reference >= static_cast<int>(theta.size()) || theta[reference] == 0) {
    return values;
  }
  for (std::size_t j = 0; j < theta.size(); ++j) values[j] = scale * theta[j] / theta[reference];
  return values;
}

}  // namespace materialist::learn
