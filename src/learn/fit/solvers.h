// Logistic fits of a Design: the article's gradient descent (METHOD.md §2), exactly, and an exact
// Newton / IRLS solver for the same objective.
//
//   LogisticData data = make_logistic_data(design, DrawHandling::kLeaveOut);
//   FitResult gd = fit_gradient_descent(data, {}, [](const FitState& s) { return true; });
//   Expected<FitResult> exact = fit_newton(data, {});
//   std::vector<double> v = relative_values(gd.theta, model.pawn_column());  // pawn = 100
//
// Objective, with h(x) = 1 / (1 + e^(-θ·x)), row weights w and targets t ∈ [0, 1]:
//   J(θ) = -(1/m) Σ w [t log h + (1 - t) log(1 - h)] + λ Σ θj²,   m = Σ w
//   ∇J   =  (1/m) Σ w (h - t) x + 2λθ
//   ∇²J  =  (1/m) Σ w h (1 - h) x xᵀ + 2λI
// A row with w white wins and b black wins is one row of weight w + b and target w / (w + b):
// the same J as w + b separate 0/1 rows, so the article's m (decisive rows) is Σ w.
#pragma once

#include <functional>
#include <vector>

#include "core/error.h"
#include "learn/fit/design.h"

namespace materialist::learn {

enum class DrawHandling : std::uint8_t {
  kLeaveOut,   // the article: draws do not enter the fit; white win y = 1, black win y = 0
  kHalfPoint,  // the fractional target: y ∈ {0, ½, 1}
};

// The rows a binary logistic fit sees; rows of zero weight are dropped.
struct LogisticData {
  int columns = 0;
  std::vector<double> x;       // rows × columns, row-major
  std::vector<double> weight;  // per row
  std::vector<double> target;  // per row, in [0, 1]
  double total_weight = 0;     // m

  std::size_t rows() const { return weight.size(); }
};

LogisticData make_logistic_data(const Design& design, DrawHandling draws);

// J, and optionally ∇J (columns values) and ∇²J (columns² values, row-major), at θ.
double evaluate_objective(const LogisticData& data, double lambda, const double* theta,
                          double* gradient, double* hessian);

// Where a solver is: θ after `iteration` steps, J(θ) and |∇J(θ)|.
struct FitState {
  std::vector<double> theta;
  double loss = 0;
  double gradient_norm = 0;
  int iteration = 0;
};

// Called with every state (iteration 0 first); returning false stops the solver there.
using FitCallback = std::function<bool(const FitState&)>;

struct FitResult {
  std::vector<double> theta;
  double loss = 0;
  double gradient_norm = 0;
  int iterations = 0;
  bool converged = false;       // |∇J| fell below the tolerance
  std::vector<double> hessian;  // ∇²J at θ, columns², row-major (the per-row mean, as J is)
  double total_weight = 0;      // m: m × (∇²J - 2λI) is the Fisher information of the sum
};

struct GradientDescentOptions {
  double learning_rate = 1.0;  // α
  double lambda = 1e-6;        // λ of λ Σ θ²
  int iterations = 10000;
  double gradient_tolerance = 0.0;  // stop once |∇J| is below this; 0 runs every iteration
};

// Step-wise gradient descent from θ = 0, so a UI can animate it: state() is iteration 0 at
// construction; step(n) makes n moves θ ← θ - α∇J and evaluates J once, at the end. The rows are
// kept column by column so the per-iteration passes vectorise.
class GradientDescent {
 public:
  GradientDescent(const LogisticData& data, GradientDescentOptions options = {});

  // Runs up to n more iterations (never beyond options.iterations or convergence); returns how
  // many ran. The state's loss is J at the new θ.
  int step(int n = 1);
  bool finished() const;
  const FitState& state() const { return state_; }
  // ∇J at the current θ, and the rows being fitted.
  const std::vector<double>& gradient() const { return gradient_; }
  const LogisticData& data() const { return data_; }
  // The result at the current state, with the Hessian there.
  FitResult result() const;

 private:
  // Evaluates ∇J at θ into gradient_ (and returns J when wanted; else 0).
  double evaluate(bool loss_wanted);

  LogisticData data_;
  std::vector<double> columns_;  // x stored column-major: columns × rows
  GradientDescentOptions options_;
  FitState state_;
  std::vector<double> gradient_;
  std::vector<double> z_, e_;  // per-row scratch, allocated once
};

// Runs the article's procedure to the end. `callback` (if set) sees iteration 0 and then every
// `report_every`-th iteration and the last one; J is only computed at those iterations.
FitResult fit_gradient_descent(const LogisticData& data, const GradientDescentOptions& options = {},
                               const FitCallback& callback = {}, int report_every = 1);

struct NewtonOptions {
  double lambda = 1e-6;
  double gradient_tolerance = 1e-10;
  int max_iterations = 100;
};

// Newton's method (IRLS) with step halving; converges in about ten steps from θ = 0.
// Fails (kNotConverged) when the Hessian is singular or the tolerance is not reached.
Expected<FitResult> fit_newton(const LogisticData& data, const NewtonOptions& options = {},
                               const FitCallback& callback = {});

// Values relative to one coefficient: scale × θj / θ[reference] (the article: pawn = 100); all
// zero while θ[reference] is 0 (at iteration 0).
std::vector<double> relative_values(const std::vector<double>& theta, int reference = 0,
                                    double scale = 100.0);

}  // namespace materialist::learn
