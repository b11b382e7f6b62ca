#include "learn/fit/ordinal.h"

#include <cmath>
#include <limits>
#include <string>

#include "learn/fit/linear_algebra.h"
#include "learn/fit/uncertainty.h"
#include "learn/fit/numeric.h"

namespace materialist::learn {
namespace {

constexpr int kBlack = static_cast<int>(Outcome::kBlackWin);
constexpr int kDraw = static_cast<int>(Outcome::kDraw);
constexpr int kWhite = static_cast<int>(Outcome::kWhiteWin);

double sigmoid(double z) {
  if (z >= 0) return 1.0 / (1.0 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1.0 + e);
}

// log σ(z) without overflow.
double log_sigmoid(double z) {
  return z >= 0 ? -std::log1p(std::exp(-z)) : z - std::log1p(std::exp(z));
}

// σ'(z) = σ(z)σ(−z); σ''(z) = σ'(z)(1 − 2σ(z)).
double sigmoid_slope(double z) {
  return sigmoid(z) * sigmoid(-z);
}
double sigmoid_curvature(double z) {
  return sigmoid_slope(z) * (1.0 - 2.0 * sigmoid(z));
}

// P(draw) = σ(η + c) − σ(η − c), computed on the side where both terms are small.
double draw_probability(double eta, double c) {
  const double e = std::fabs(eta);
  return sigmoid(c - e) - sigmoid(-c - e);
}


// Per-row derivatives of a negative log-likelihood with respect to η (and c).
struct RowTerms {
  double loss = 0, d_eta = 0, d_c = 0, h_eta_eta = 0, h_eta_c = 0, h_c_c = 0;
};

RowTerms binary_terms(double eta, const std::array<double, kOutcomeCount>& w, bool half) {
  const double weight = w[kWhite] + w[kBlack] + (half ? w[kDraw] : 0.0);
  RowTerms t;
  if (weight == 0) return t;
  const double score = w[kWhite] + (half ? 0.5 * w[kDraw] : 0.0);  // weight × target
  t.loss = -(score * log_sigmoid(eta) + (weight - score) * log_sigmoid(-eta));
  const double h = sigmoid(eta);
  t.d_eta = weight * h - score;
  t.h_eta_eta = weight * sigmoid_slope(eta);
  return t;
}

RowTerms ordinal_terms(double eta, double c, const std::array<double, kOutcomeCount>& w) {
  RowTerms t;
  const double a = eta + c, b = eta - c;  // P(W) = σ(b), P(B) = σ(−a), P(D) = σ(a) − σ(b)
  if (w[kWhite] > 0) {                    // −log σ(b)
    const double s = sigmoid_slope(b);
    t.loss -= w[kWhite] * log_sigmoid(b);
    t.d_eta -= w[kWhite] * sigmoid(-b);
    t.d_c += w[kWhite] * sigmoid(-b);
    t.h_eta_eta += w[kWhite] * s;
    t.h_eta_c -= w[kWhite] * s;
    t.h_c_c += w[kWhite] * s;
  }
  if (w[kBlack] > 0) {  // −log σ(−a)
    const double s = sigmoid_slope(a);
    t.loss -= w[kBlack] * log_sigmoid(-a);
    t.d_eta += w[kBlack] * sigmoid(a);
    t.d_c += w[kBlack] * sigmoid(a);
    t.h_eta_eta += w[kBlack] * s;
    t.h_eta_c += w[kBlack] * s;
    t.h_c_c += w[kBlack] * s;
  }
  if (w[kDraw] > 0) {  // −log p with p = σ(a) − σ(b): ∇²(−log p) = g gᵀ/p² − H/p
    const double p = draw_probability(eta, c);
    if (!(p > 0)) {
      t.loss = INFINITY;
      return t;
    }
    const double g_eta = sigmoid_slope(a) - sigmoid_slope(b);
    const double g_c = sigmoid_slope(a) + sigmoid_slope(b);
    const double h_ee = sigmoid_curvature(a) - sigmoid_curvature(b);
    const double h_ec = sigmoid_curvature(a) + sigmoid_curvature(b);
    const double h_cc = h_ee;
    t.loss -= w[kDraw] * std::log(p);
    t.d_eta -= w[kDraw] * g_eta / p;
    t.d_c -= w[kDraw] * g_c / p;
    t.h_eta_eta += w[kDraw] * (g_eta * g_eta / (p * p) - h_ee / p);
    t.h_eta_c += w[kDraw] * (g_eta * g_c / (p * p) - h_ec / p);
    t.h_c_c += w[kDraw] * (g_c * g_c / (p * p) - h_cc / p);
  }
  return t;
}

// An objective: fills gradient / hessian (params, params²) when non-null; returns +inf when the
// parameters are outside the model's domain.
template <typename RowFunction>
double evaluate(const OutcomeRows& rows, const std::vector<double>& p, int columns, bool has_margin,
                double lambda, double total_weight, RowFunction row_terms,
                std::vector<double>* gradient, std::vector<double>* hessian) {
  const int n = columns + (has_margin ? 1 : 0);
  const double c = has_margin ? p[columns] : 0.0;
  if (has_margin && !(c > 0)) return INFINITY;
  if (gradient) gradient->assign(n, 0.0);
  if (hessian) hessian->assign(static_cast<std::size_t>(n) * n, 0.0);
  double loss = 0;
  for (std::size_t r = 0; r < rows.rows(); ++r) {
    const double* x = rows.x.data() + r * columns;
    double eta = rows.offset[r];
    for (int j = 0; j < columns; ++j) eta += p[j] * x[j];
    const RowTerms t = row_terms(eta, c, rows.weights[r]);
    loss += t.loss;
    if (gradient) {
      for (int j = 0; j < columns; ++j) (*gradient)[j] += t.d_eta * x[j];
      if (has_margin) (*gradient)[columns] += t.d_c;
    }
    if (hessian) {
      for (int i = 0; i < columns; ++i) {
        for (int j = 0; j <= i; ++j) (*hessian)[i * n + j] += t.h_eta_eta * x[i] * x[j];
        if (has_margin) (*hessian)[columns * n + i] += t.h_eta_c * x[i];
      }
      if (has_margin) (*hessian)[columns * n + columns] += t.h_c_c;
    }
  }
  const double inverse_m = 1.0 / total_weight;
  loss *= inverse_m;
  for (int j = 0; j < columns; ++j) loss += lambda * p[j] * p[j];
  if (gradient) {
    for (int j = 0; j < n; ++j) (*gradient)[j] *= inverse_m;
    for (int j = 0; j < columns; ++j) (*gradient)[j] += 2 * lambda * p[j];
  }
  if (hessian) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j <= i; ++j) {
        (*hessian)[i * n + j] *= inverse_m;
        (*hessian)[j * n + i] = (*hessian)[i * n + j];
      }
      if (i < columns) (*hessian)[i * n + i] += 2 * lambda;
    }
  }
  return loss;
}

template <typename RowFunction>
Expected<NewtonFit> newton(const OutcomeRows& rows, std::vector<double> p, bool has_margin,
                           double total_weight, const NewtonSettings& settings,
                           RowFunction row_terms) {
  const int columns = rows.columns;
  const int n = static_cast<int>(p.size());
  std::vector<double> gradient, hessian, step, trial;
  auto full = [&](const std::vector<double>& at) {
    return evaluate(rows, at, columns, has_margin, settings.lambda, total_weight, row_terms,
                    &gradient, &hessian);
  };
  NewtonFit fit;
  fit.total_weight = total_weight;
  double loss = full(p);
  if (!std::isfinite(loss)) {
    return make_error(ErrorCode::kInvalidArgument, "Newton: the start point has no likelihood");
  }
  int iteration = 0;
  while (norm(gradient) >= settings.gradient_tolerance) {
    if (iteration >= settings.max_iterations) break;  // reported by converged = false
    step = gradient;
    if (!solve_symmetric(hessian, step, n)) {
      return make_error(ErrorCode::kNotConverged,
                        "Newton: the Hessian is singular (collinear or empty columns?)");
    }
    // Near the optimum J changes by less than its rounding error: accept such steps, so the
    // gradient (which is still accurate there) decides convergence.
    const double slack = 64 * std::numeric_limits<double>::epsilon() * std::fabs(loss);
    double scale = 1.0, trial_loss = INFINITY;
    trial.resize(n);
    for (int halving = 0; halving < 60; ++halving, scale *= 0.5) {
      for (int j = 0; j < n; ++j) trial[j] = p[j] - scale * step[j];
      trial_loss = evaluate(rows, trial, columns, has_margin, settings.lambda, total_weight,
                            row_terms, nullptr, nullptr);
      if (trial_loss <= loss + slack) break;
    }
    if (!(trial_loss <= loss + slack)) break;  // no descent left: as good as doubles allow
    p = trial;
    loss = full(p);
    ++iteration;
  }
  fit.gradient_norm = norm(gradient);
  fit.converged = fit.gradient_norm < settings.gradient_tolerance;
  fit.parameters = p;
  fit.loss = loss;
  fit.iterations = iteration;
  fit.information = hessian;
  for (int i = 0; i < columns; ++i) fit.information[i * n + i] -= 2 * settings.lambda;
  for (double& value : fit.information) value *= total_weight;
  return fit;
}

}  // namespace

OutcomeRows make_outcome_rows(const Design& design, int offset_column, double offset_scale) {
  OutcomeRows rows;
  const bool has_offset = offset_column >= 0 && offset_column < design.columns;
  rows.columns = design.columns - (has_offset ? 1 : 0);
  rows.weights = design.weights;
  rows.offset.assign(design.rows(), 0.0);
  rows.x.reserve(design.rows() * rows.columns);
  for (std::size_t r = 0; r < design.rows(); ++r) {
    const double* x = design.row(r);
    for (int j = 0; j < design.columns; ++j) {
      if (has_offset && j == offset_column) {
        rows.offset[r] = offset_scale * x[j];
      } else {
        rows.x.push_back(x[j]);
      }
    }
  }
  return rows;
}

Expected<NewtonFit> fit_binary_offset(const OutcomeRows& rows, DrawHandling draws,
                                      const NewtonSettings& settings) {
  const bool half = draws == DrawHandling::kHalfPoint;
  double total = 0;
  for (const auto& w : rows.weights) total += w[kWhite] + w[kBlack] + (half ? w[kDraw] : 0.0);
  if (!(total > 0) || rows.columns == 0) {
    return make_error(ErrorCode::kInvalidArgument, "binary fit: no rows or no columns");
  }
  auto row_terms = [half](double eta, double, const std::array<double, kOutcomeCount>& w) {
    return binary_terms(eta, w, half);
  };
  return newton(rows, std::vector<double>(rows.columns, 0.0), false, total, settings, row_terms);
}

Expected<NewtonFit> fit_ordinal(const OutcomeRows& rows, const NewtonSettings& settings) {
  double draws = 0, total = 0;
  for (const auto& w : rows.weights) {
    draws += w[kDraw];
    total += w[kWhite] + w[kBlack] + w[kDraw];
  }
  if (!(draws > 0) || !(total > draws)) {
    return make_error(ErrorCode::kInvalidArgument,
                      "ordinal fit: needs at least one draw and one decisive result");
  }
  auto row_terms = [](double eta, double c, const std::array<double, kOutcomeCount>& w) {
    return ordinal_terms(eta, c, w);
  };
  // Start at θ = 0 with the margin that reproduces the overall draw rate: 2σ(c) − 1 = d.
  const double draw_rate = draws / total;
  std::vector<double> start(rows.columns + 1, 0.0);
  start.back() = std::log((1.0 + draw_rate) / (1.0 - draw_rate));
  return newton(rows, start, true, total, settings, row_terms);
}

double binary_negative_log_likelihood(const OutcomeRows& rows, DrawHandling draws,
                                      const std::vector<double>& parameters) {
  const bool half = draws == DrawHandling::kHalfPoint;
  auto row_terms = [half](double eta, double, const std::array<double, kOutcomeCount>& w) {
    return binary_terms(eta, w, half);
  };
  return evaluate(rows, parameters, rows.columns, false, 0.0, 1.0, row_terms, nullptr, nullptr);
}

double ordinal_negative_log_likelihood(const OutcomeRows& rows,
                                       const std::vector<double>& parameters) {
  auto row_terms = [](double eta, double c, const std::array<double, kOutcomeCount>& w) {
    return ordinal_terms(eta, c, w);
  };
  return evaluate(rows, parameters, rows.columns, true, 0.0, 1.0, row_terms, nullptr, nullptr);
}

RowScore binary_row_score(double eta, Outcome outcome, DrawHandling draws) {
  if (outcome == Outcome::kUnknown) return {};
  std::array<double, kOutcomeCount> w{};
  w[static_cast<int>(outcome)] = 1.0;
  const RowTerms t = binary_terms(eta, w, draws == DrawHandling::kHalfPoint);
  return {-t.d_eta, 0.0};
}

RowScore ordinal_row_score(double eta, double draw_margin, Outcome outcome) {
  if (outcome == Outcome::kUnknown) return {};
  std::array<double, kOutcomeCount> w{};
  w[static_cast<int>(outcome)] = 1.0;
  const RowTerms t = ordinal_terms(eta, draw_margin, w);
  return {-t.d_eta, -t.d_c};
}

OutcomeProbabilities ordinal_probabilities(double eta, double draw_margin) {
  OutcomeProbabilities p;
  p.white_win = sigmoid(eta - draw_margin);
  p.black_win = sigmoid(-eta - draw_margin);
  p.draw = draw_probability(eta, draw_margin);
  return p;
}

}  // namespace materialist::learn
