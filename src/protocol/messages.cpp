#include "protocol/messages.h"

namespace materialist::protocol {

bool ReadOptions::operator==(const ReadOptions& other) const {
  return unknown == other.unknown && filter == other.filter &&
         quiet.quiet_plies == other.quiet.quiet_plies &&
         quiet.checks_break_quiet == other.quiet.checks_break_quiet &&
         quiet.distinct_per_game == other.quiet.distinct_per_game &&
         quiet.skip_first_plies == other.quiet.skip_first_plies && bootstrap == other.bootstrap &&
         seed == other.seed && datasets == other.datasets && each_filter == other.each_filter &&
         keep_rating == other.keep_rating && keep_rows == other.keep_rows &&
         hash_files == other.hash_files;
}

learn::ModelOptions FitSettings::model_options() const {
  learn::ModelOptions options;
  if (model.outcomes == learn::OutcomeModel::kDrawsOut) {
    options.outcomes = draws == learn::DrawHandling::kHalfPoint ? learn::OutcomeModel::kFractional
                                                                : learn::OutcomeModel::kDrawsOut;
  } else {
    options.outcomes = model.outcomes;
  }
  options.intercept = model.intercept;
  options.bishop_pair = model.bishop_pair;
  options.phase_tapered = model.phase;
  options.rating_offset = model.elo_offset;
  options.side_to_move = model.side_to_move;
  options.lambda = lambda;
  return options;
}

const Coefficient* Fit::find(std::string_view coefficient) const {
  for (const Coefficient& c : coefficients) {
    if (c.name == coefficient) return &c;
  }
  return nullptr;
}

namespace {

FitSettings preset_fit(const char* id, learn::SolverKind solver, int iterations,
                       learn::DrawHandling draws) {
  FitSettings fit;
  fit.preset = id;
  fit.solver = solver;
  fit.step = 1.0;
  fit.iterations = iterations;
  fit.lambda = 1e-6;
  fit.draws = draws;
  return fit;
}

}  // namespace

const std::vector<Preset>& presets() {
  // Constants built once (FitSettings holds a std::string, so this cannot be constexpr).
  static const std::vector<Preset> kPresets = {
      {"article", "Article (GD, α=1, 10 000 steps, draws out)",
       preset_fit("article", learn::SolverKind::kGradientDescent, 10000,
                  learn::DrawHandling::kLeaveOut),
       learn::UnknownResultPolicy::kTreatAsDraw},
      {"exact", "Exact (Newton, draws = ½ point)",
       preset_fit("exact", learn::SolverKind::kNewton, 50, learn::DrawHandling::kHalfPoint),
       learn::UnknownResultPolicy::kSkip},
      {"custom", "Custom",
       preset_fit("custom", learn::SolverKind::kGradientDescent, 10000,
                  learn::DrawHandling::kLeaveOut),
       learn::UnknownResultPolicy::kSkip},
  };
  return kPresets;
}

const Preset* find_preset(std::string_view id) {
  for (const Preset& preset : presets()) {
    if (id == preset.id) return &preset;
  }
  return nullptr;
}

}  // namespace materialist::protocol
