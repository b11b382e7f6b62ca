#include "protocol/messages.h"

namespace materialist::protocol {

bool ReadOptions::operator==(const ReadOptions& other) const {
  return unknown == other.unknown && filter == other.filter &&
         quiet.quiet_plies == other.quiet.quiet_plies &&
         quiet.checks_break_quiet == other.quiet.checks_break_quiet &&
         quiet.distinct_per_game == other.quiet.distinct_per_game &&
         quiet.skip_first_plies == other.quiet.skip_first_plies && bootstrap == other.bootstrap &&
         seed == other.seed && datasets == other.datasets && each_filter == other.each_filter &&
         max_games == other.max_games && max_megabytes == other.max_megabytes &&
         target == other.target && keep == other.keep && keep_rows == other.keep_rows &&
         hash_files == other.hash_files;
}

learn::ModelOptions FitSettings::model_options(learn::Target target) const {
  learn::ModelOptions options;
  options.target = target;
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
  options.imbalances = model.imbalances;
  options.split_sides = model.split_sides;
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

// The app's view of one of learn's presets (learn::kPresets: the one table).
Preset app_preset(const char* name) {
  const learn::Preset& preset = *learn::find_preset(name);
  const learn::AnalysisSettings analysis = preset.settings();
  FitSettings fit;
  fit.preset = preset.name;
  fit.solver = analysis.solver;
  fit.step = analysis.gd.learning_rate;
  fit.iterations = analysis.gd.iterations;
  fit.lambda = analysis.model.lambda;
  fit.draws = analysis.model.outcomes == learn::OutcomeModel::kFractional
                  ? learn::DrawHandling::kHalfPoint
                  : learn::DrawHandling::kLeaveOut;
  return {preset.name, preset.label, fit, preset.unknown};
}

}  // namespace

const std::vector<Preset>& presets() {
  // Built once from learn's table (FitSettings holds a std::string: not constexpr). "custom" is
  // the app's name for settings edited away from a preset: the article's values to start from.
  static const std::vector<Preset> kAppPresets = [] {
    std::vector<Preset> list = {app_preset("article"), app_preset("exact")};
    Preset custom = app_preset("article");
    custom.id = "custom";
    custom.label = "Custom";
    custom.fit.preset = "custom";
    custom.unknown = learn::UnknownResultPolicy::kSkip;
    list.push_back(custom);
    return list;
  }();
  return kAppPresets;
}

const Preset* find_preset(std::string_view id) {
  for (const Preset& preset : presets()) {
    if (id == preset.id) return &preset;
  }
  return nullptr;
}

}  // namespace materialist::protocol
