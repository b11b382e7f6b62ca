#include "learn/fit/analysis.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/enum_names.h"
#include "learn/fit/uncertainty.h"
#include "learn/vocabulary/pieces.h"

namespace materialist::learn {

const char* solver_name(SolverKind solver) {
  return name_of(kSolverNames, solver);
}

std::optional<SolverKind> parse_solver(std::string_view name) {
  return value_named<SolverKind>(kSolverNames, name);
}

AnalysisSettings AnalysisSettings::article() {
  AnalysisSettings settings;
  settings.preset = "article";
  settings.solver = SolverKind::kGradientDescent;
  settings.model.outcomes = OutcomeModel::kDrawsOut;
  settings.model.lambda = 1e-6;
  settings.gd.learning_rate = 1.0;
  settings.gd.iterations = 10000;
  return settings;
}

AnalysisSettings AnalysisSettings::defaults() {
  AnalysisSettings settings;
  settings.preset = "default";
  settings.solver = SolverKind::kNewton;
  return settings;
}

AnalysisSettings AnalysisSettings::exact() {
  AnalysisSettings settings = defaults();
  settings.preset = "exact";
  settings.model.outcomes = OutcomeModel::kFractional;
  return settings;
}

const Preset* find_preset(std::string_view name) {
  for (const Preset& preset : kPresets) {
    if (name == preset.name) return &preset;
  }
  return nullptr;
}

std::optional<AnalysisSettings> AnalysisSettings::preset_named(std::string_view name) {
  const Preset* preset = find_preset(name);
  if (preset == nullptr) return std::nullopt;
  return preset->settings();
}

std::optional<Error> check_gradient_descent(const ModelOptions& model) {
  if (model.outcomes == OutcomeModel::kOrdinal) {
    return make_error(
        ErrorCode::kInvalidArgument,
        "gradient descent fits binary models: use the Newton solver for the ordinal model");
  }
  if (model.rating_offset) {
    return make_error(ErrorCode::kInvalidArgument,
                      "gradient descent does not take the rating offset: use the Newton solver");
  }
  // Their columns (e.g. knights × pawns, up to ±16) would need another step size than α = 1.
  if (needs_counts(model)) {
    return make_error(ErrorCode::kInvalidArgument,
                      "gradient descent does not fit the imbalance terms or split sides: use the "
                      "Newton solver");
  }
  return std::nullopt;
}

Expected<GradientDescentRun> GradientDescentRun::start(const Histogram& histogram,
                                                       const AnalysisSettings& settings,
                                                       const GamePairs* pairs) {
  if (auto error = check_gradient_descent(settings.model)) return *error;
  if (settings.model.target == Target::kEval && !histogram.has_targets()) {
    return make_error(ErrorCode::kInvalidArgument,
                      "the evaluation target needs positions read with their evaluations "
                      "(--target eval): these rows carry only results");
  }
  ModelSpec spec = model_spec(settings.model);
  const DrawHandling draws = settings.model.outcomes == OutcomeModel::kFractional
                                 ? DrawHandling::kHalfPoint
                                 : DrawHandling::kLeaveOut;
  LogisticData data = make_logistic_data(build_design(histogram, spec), draws);
  if (data.rows() == 0) {
    return make_error(ErrorCode::kInvalidArgument, "no rows with a usable outcome to fit");
  }
  GradientDescentOptions gd = settings.gd;
  gd.lambda = settings.model.lambda;
  return GradientDescentRun(settings.model, std::move(spec), GradientDescent(std::move(data), gd),
                            pairs);
}

ModelFit GradientDescentRun::fit() const {
  const FitResult result = descent_.result();
  ModelFit fit;
  fit.options = model_;
  fit.spec = spec_;
  fit.theta = result.theta;
  fit.loss = result.loss;
  fit.iterations = result.iterations;
  fit.total_weight = result.total_weight;
  const int n = columns();
  FitEvidence evidence;
  // Observed information of the summed log-likelihood: m × (∇²J − 2λI).
  evidence.information = result.hessian;
  for (int i = 0; i < n; ++i) evidence.information[i * n + i] -= 2 * model_.lambda;
  for (double& value : evidence.information) value *= result.total_weight;
  // Where Newton would still go from here: (∇²J)⁻¹∇J (NaN when ∇²J is singular).
  evidence.remaining_step = descent_.gradient();
  if (!solve_symmetric(result.hessian, evidence.remaining_step, n)) {
    evidence.remaining_step.assign(n, std::numeric_limits<double>::quiet_NaN());
  }
  const LogisticData& data = descent_.data();
  evidence.column_support.assign(n, 0.0);
  for (std::size_t r = 0; r < data.rows(); ++r) {
    for (int j = 0; j < n; ++j) {
      if (data.x[r * n + j] != 0) evidence.column_support[j] += data.weight[r];
    }
  }
  finish_fit(fit, evidence, pairs_);
  return fit;
}

Expected<ModelFit> run_analysis(const Histogram& histogram, const AnalysisSettings& settings,
                                const FitCallback& on_iteration, int report_every,
                                const GamePairs* pairs) {
  if (settings.solver == SolverKind::kNewton) return fit_model(histogram, settings.model, pairs);
  auto run = GradientDescentRun::start(histogram, settings, pairs);
  if (!run) return run.error();
  if (on_iteration && !on_iteration(run->state())) return run->fit();
  while (!run->finished()) {
    if (run->step(on_iteration ? std::max(report_every, 1) : settings.gd.iterations) == 0) break;
    if (on_iteration && !on_iteration(run->state())) break;
  }
  return run->fit();
}

std::vector<double> piece_values(const ModelFit& fit) {
  std::vector<double> values(kPieceKinds, std::numeric_limits<double>::quiet_NaN());
  for (const Coefficient& c : fit.coefficients) {
    if (const std::optional<int> piece = piece_index(c.name)) values[*piece] = c.value.value;
  }
  return values;
}

}  // namespace materialist::learn
