// The engine's fit state machine: one FitRun per fit, replaced as a whole.
#include <algorithm>

#include "learn/filter/game_filter.h"
#include "learn/fit/design.h"
#include "learn/fit/target_compare.h"
#include "learn/vocabulary/coefficient_names.h"
#include "worker/engine.h"

namespace materialist::worker {

const learn::ModelFit* Engine::fit(std::size_t dataset) const {
  if (!fit_.finished || dataset >= fit_.fits.size() || !fit_.fits[dataset]) return nullptr;
  return &*fit_.fits[dataset];
}

Expected<int> Engine::begin_fit(const FitSettings& settings) {
  fit_ = FitRun{};
  if (!has_data())
    return make_error(ErrorCode::kInvalidArgument, "no data to fit: read games first");
  FitRun& run = fit_;
  run.settings = settings;
  run.analysis = learn::AnalysisSettings::article();
  run.analysis.preset = settings.preset;
  run.analysis.model = settings.model_options(read_options().target);
  run.analysis.gd.learning_rate = settings.step;
  run.analysis.gd.iterations = settings.iterations;
  run.analysis.solver = settings.solver;
  if (settings.solver == learn::SolverKind::kGradientDescent) {
    if (auto why = learn::check_gradient_descent(run.analysis.model)) {
      run.analysis.solver = learn::SolverKind::kNewton;
      run.reason = why->message;
    }
  }
  run.spec = learn::model_spec(run.analysis.model);
  run.targets = fit_targets();
  if (auto problem = fit_problem()) return *problem;
  return run.analysis.solver == learn::SolverKind::kGradientDescent ? start_descent()
                                                                    : start_newton();
}

std::optional<Error> Engine::fit_problem() const {
  const FitRun& run = fit_;
  if (run.targets.empty()) {
    return Error{ErrorCode::kInvalidArgument,
                 "no dataset has rows: every game was filtered out of every dataset"};
  }
  const FitTarget& first = run.targets.front();
  // The histogram keeps only the key fields its read was made for (learn/stats/key_fields.h).
  if (const std::string missing = first.pairs->fields().missing_for(run.analysis.model);
      !missing.empty()) {
    return Error{ErrorCode::kInvalidArgument,
                 "the data was read without " + missing +
                     " (a read keeps only what its model uses): read the files again"};
  }
  if (run.analysis.model.split_sides && !learn::player_view(read_options().filter)) {
    return Error{ErrorCode::kInvalidArgument,
                 "own against opponent's pieces needs a player's point of view: filter "
                 "player=NAME;pov=1"};
  }
  const learn::OutcomeCounts& totals = first.histogram->totals();
  if (run.analysis.model.outcomes == learn::OutcomeModel::kDrawsOut &&
      totals[learn::Outcome::kDraw] == totals.total()) {
    return Error{ErrorCode::kInvalidArgument,
                 "every row is a draw: nothing to fit with draws left out"};
  }
  return std::nullopt;
}

Expected<int> Engine::start_descent() {
  FitRun& run = fit_;
  const FitTarget& first = run.targets.front();
  auto descent = learn::GradientDescentRun::start(*first.histogram, run.analysis, first.pairs);
  if (!descent) return descent.error();
  run.first.emplace(std::move(*descent));
  for (std::size_t i = 1; i < run.targets.size(); ++i) {
    auto other = learn::GradientDescentRun::start(*run.targets[i].histogram, run.analysis,
                                                  run.targets[i].pairs);
    run.others.push_back(other ? std::optional(std::move(*other)) : std::nullopt);
  }
  run.last = snapshot_from(run.first->state());
  if (run.first->finished()) finish_fits();  // zero iterations asked for
  return run.settings.iterations;
}

// Newton: fit the first dataset now; binary models show their iterates one by one.
Expected<int> Engine::start_newton() {
  FitRun& run = fit_;
  const FitTarget& first = run.targets.front();
  Expected<learn::ModelFit> exact =
      learn::fit_model(*first.histogram, run.analysis.model, first.pairs);
  if (!exact) return exact.error();
  run.fits.assign(run.targets.size(), std::nullopt);
  run.fits[0] = std::move(*exact);
  const learn::ModelOptions& model = run.analysis.model;
  if (model.outcomes != learn::OutcomeModel::kOrdinal && !model.rating_offset) {
    const learn::LogisticData data = learn::make_logistic_data(
        learn::build_design(*first.histogram, run.spec),
        model.outcomes == learn::OutcomeModel::kFractional ? learn::DrawHandling::kHalfPoint
                                                           : learn::DrawHandling::kLeaveOut);
    learn::NewtonOptions options;
    options.lambda = model.lambda;
    std::vector<learn::FitState> states;
    const Expected<learn::FitResult> result =
        learn::fit_newton(data, options, [&states](const learn::FitState& state) {
          states.push_back(state);
          return true;
        });
    if (result.ok()) run.newton_states = std::move(states);
  }
  if (run.newton_states.empty()) {
    // No iterates to show (ordinal, rating offset): only the fit itself. A line from θ = 0 would
    // be made up, and the ordinal loss at θ = 0 is not even finite.
    learn::FitState final_state;
    final_state.iteration = run.fits[0]->iterations;
    final_state.theta = run.fits[0]->theta;
    final_state.loss = run.fits[0]->loss;
    run.newton_states = {final_state};
  }
  run.last = snapshot_from(run.newton_states.front());
  run.newton_next = 1;
  if (run.newton_next >= run.newton_states.size()) finish_fits();
  return static_cast<int>(run.newton_states.size()) - 1;
}

Snapshot Engine::step(int n) {
  FitRun& run = fit_;
  if (run.finished) return run.last.value_or(Snapshot{});
  if (run.first) {
    run.first->step(std::max(1, n));
    for (auto& other : run.others) {
      if (other) other->step(std::max(1, n));
    }
    run.last = snapshot_from(run.first->state());
    if (run.first->finished()) finish_fits();
  } else if (run.newton_next < run.newton_states.size()) {
    ++run.newton_next;
    run.last = snapshot_from(run.newton_states[run.newton_next - 1]);
    if (run.newton_next == run.newton_states.size()) finish_fits();
  }
  return run.last.value_or(Snapshot{});
}

bool Engine::fit_finished() const {
  return fit_.finished;
}

std::vector<Snapshot> Engine::other_snapshots() const {
  std::vector<Snapshot> snapshots;
  for (std::size_t i = 0; i < fit_.others.size(); ++i) {
    if (!fit_.others[i]) continue;
    Snapshot s = snapshot_from(fit_.others[i]->state());
    s.dataset = static_cast<int>(i + 1);
    snapshots.push_back(std::move(s));
  }
  return snapshots;
}

void Engine::finish_fits() {
  FitRun& run = fit_;
  const std::size_t n = run.targets.size();
  run.fits.resize(n);
  run.errors.assign(n, "");
  if (run.first) run.fits[0] = run.first->fit();
  for (std::size_t i = 1; i < n; ++i) {
    if (i - 1 < run.others.size() && run.others[i - 1]) {
      run.fits[i] = run.others[i - 1]->fit();  // stepped alongside the first: the same iterations
      continue;
    }
    const FitTarget& target = run.targets[i];
    Expected<learn::ModelFit> fit =
        learn::run_analysis(*target.histogram, run.analysis, {}, 1, target.pairs);
    if (fit) {
      run.fits[i] = std::move(*fit);
    } else {
      run.errors[i] = fit.error().message;
    }
  }
  run.bootstraps.assign(n, std::nullopt);
  run.bootstrap_errors.assign(n, "");
  for (std::size_t i = 0; i < n; ++i) {
    if (run.targets[i].bootstrap == nullptr || !run.fits[i]) continue;
    run.bootstraps[i] = learn::bootstrap_model(*run.targets[i].bootstrap, run.analysis.model);
  }
  run.finished = true;
  if (run.last && run.fits[0]) {
    // The final snapshot: the fit's θ (identical to the last state) with standard errors.
    run.last->value_se.clear();
    for (std::size_t j = 0; j < run.last->theta.size() && j < run.fits[0]->coefficients.size();
         ++j) {
      run.last->value_se.push_back(run.fits[0]->coefficients[j].value.se);
    }
  }
}

Snapshot Engine::snapshot_from(const learn::FitState& state) const {
  Snapshot s;
  s.iteration = state.iteration;
  s.theta = state.theta;
  s.values = learn::relative_values(state.theta, std::max(0, fit_.spec.pawn_column()));
  s.loss = state.loss;
  s.gradient_norm = state.gradient_norm;
  for (const learn::Feature& feature : fit_.spec.features) s.columns.push_back(feature.name());
  return s;
}

protocol::TargetCompare Engine::compare_targets(const FitSettings& settings) const {
  protocol::TargetCompare out;
  out.difference_errors = "independent";
  if (!has_data() || read_options().target != learn::Target::kEval) {
    out.error =
        "read the games with the evaluation target first (Settings, Read: Target engine "
        "evaluation): both fits use the positions that carry an [%eval]";
    return out;
  }
  learn::AnalysisSettings analysis = learn::AnalysisSettings::article();
  analysis.preset = settings.preset;
  analysis.model = settings.model_options(learn::Target::kEval);
  if (analysis.model.outcomes == learn::OutcomeModel::kDrawsOut) {
    analysis.model.outcomes = learn::OutcomeModel::kFractional;
  }
  analysis.gd.learning_rate = settings.step;
  analysis.gd.iterations = settings.iterations;
  analysis.solver = settings.solver;
  out.outcomes = learn::outcome_model_name(analysis.model.outcomes);
  const bool player = learn::player_view(read_options().filter);
  const std::vector<FitTarget> targets = fit_targets();
  const FitTarget& data = targets.front();
  out.positions = data.histogram->totals().total();
  out.games = data.report->games.games_with_evals;
  const Expected<learn::TargetComparison> both =
      learn::compare_targets(*data.histogram, analysis, data.pairs);
  if (!both) {
    out.error = both.error().message;
    return out;
  }
  out.difference_errors = both->joint_errors ? "game-clustered" : "independent";
  for (const learn::TargetDifference& d : both->rows) {
    protocol::TargetRow row;
    row.name = d.name;
    row.label = learn::coefficient_label(d.name, player);
    row.identified = d.identified;
    row.result = d.result.value.value;
    row.result_se = d.result.value.se;
    row.eval = d.eval.value.value;
    row.eval_se = d.eval.value.se;
    row.difference = d.difference.value;
    row.difference_se = d.difference.se;
    row.result_theta = d.result.theta.value;
    row.result_theta_se = d.result.theta.se;
    row.eval_theta = d.eval.theta.value;
    row.eval_theta_se = d.eval.theta.se;
    row.theta_difference = d.theta_difference.value;
    row.theta_difference_se = d.theta_difference.se;
    out.rows.push_back(std::move(row));
  }
  return out;
}

}  // namespace materialist::worker
