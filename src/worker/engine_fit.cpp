// The engine's fitting: one FitSession per fit (worker/fit_session.h), replaced as a whole, and
// the comparison of both targets.
#include <algorithm>

#include "learn/filter/game_filter.h"
#include "learn/fit/design.h"
#include "learn/fit/target_compare.h"
#include "learn/vocabulary/coefficient_names.h"
#include "worker/engine.h"

namespace materialist::worker {

Expected<int> Engine::begin_fit(const FitSettings& settings) {
  fit_ = FitSession{};
  if (!has_data())
    return make_error(ErrorCode::kInvalidArgument, "no data to fit: read games first");
  return fit_.begin(settings, read_options().target, learn::player_view(read_options().filter),
                    fit_targets());
}

Snapshot Engine::step(int n) {
  return fit_.step(n);
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
