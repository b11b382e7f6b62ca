// A fit's state machine: begin, the steps of gradient descent or Newton's iterates, the finished
// fits of every dataset and their bootstraps.
#include "worker/fit_session.h"

#include <algorithm>
#include <utility>

#include "learn/fit/design.h"
#include "learn/fit/uncertainty.h"

namespace materialist::worker {

const learn::ModelFit* FitSession::fit(std::size_t dataset) const {
  if (!finished || dataset >= fits.size() || !fits[dataset]) return nullptr;
  return &*fits[dataset];
}

Expected<int> FitSession::begin(const protocol::FitSettings& fit_settings, learn::Target target,
                                bool player_view, std::vector<FitTarget> fit_targets) {
  settings = fit_settings;
  analysis = learn::AnalysisSettings::article();
  analysis.preset = settings.preset;
  analysis.model = settings.model_options(target);
  analysis.gd.learning_rate = settings.step;
  analysis.gd.iterations = settings.iterations;
  analysis.solver = settings.solver;
  if (settings.solver == learn::SolverKind::kGradientDescent) {
    if (auto why = learn::check_gradient_descent(analysis.model)) {
      analysis.solver = learn::SolverKind::kNewton;
      reason = why->message;
    }
  }
  spec = learn::model_spec(analysis.model);
  targets = std::move(fit_targets);
  if (auto why_not = problem(player_view)) return *why_not;
  return analysis.solver == learn::SolverKind::kGradientDescent ? start_descent() : start_newton();
}

std::optional<Error> FitSession::problem(bool player_view) const {
  const FitSession& run = *this;
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
  if (run.analysis.model.split_sides && !player_view) {
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

Expected<int> FitSession::start_descent() {
  FitSession& run = *this;
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
  if (run.first->finished()) finish();  // zero iterations asked for
  return run.settings.iterations;
}

// Newton: fit the first dataset now; binary models show their iterates one by one.
Expected<int> FitSession::start_newton() {
  FitSession& run = *this;
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
  if (run.newton_next >= run.newton_states.size()) finish();
  return static_cast<int>(run.newton_states.size()) - 1;
}

protocol::Snapshot FitSession::step(int n) {
  FitSession& run = *this;
  if (run.finished) return run.last.value_or(protocol::Snapshot{});
  if (run.first) {
    run.first->step(std::max(1, n));
    for (auto& other : run.others) {
      if (other) other->step(std::max(1, n));
    }
    run.last = snapshot_from(run.first->state());
    if (run.first->finished()) finish();
  } else if (run.newton_next < run.newton_states.size()) {
    ++run.newton_next;
    run.last = snapshot_from(run.newton_states[run.newton_next - 1]);
    if (run.newton_next == run.newton_states.size()) finish();
  }
  return run.last.value_or(protocol::Snapshot{});
}

std::vector<protocol::Snapshot> FitSession::other_snapshots() const {
  std::vector<protocol::Snapshot> snapshots;
  for (std::size_t i = 0; i < others.size(); ++i) {
    if (!others[i]) continue;
    protocol::Snapshot s = snapshot_from(others[i]->state());
    s.dataset = static_cast<int>(i + 1);
    snapshots.push_back(std::move(s));
  }
  return snapshots;
}

void FitSession::finish() {
  FitSession& run = *this;
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

protocol::Snapshot FitSession::snapshot_from(const learn::FitState& state) const {
  protocol::Snapshot s;
  s.iteration = state.iteration;
  s.theta = state.theta;
  s.values = learn::relative_values(state.theta, std::max(0, spec.pawn_column()));
  s.loss = state.loss;
  s.gradient_norm = state.gradient_norm;
  for (const learn::Feature& feature : spec.features) s.columns.push_back(feature.name());
  return s;
}

}  // namespace materialist::worker
