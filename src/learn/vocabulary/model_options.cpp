#include "learn/vocabulary/model_options.h"

#include "core/enum_names.h"

namespace materialist::learn {

const char* outcome_model_name(OutcomeModel model) {
  return name_of(kOutcomeModelNames, model);
}

std::optional<OutcomeModel> parse_outcome_model(std::string_view name) {
  return value_named<OutcomeModel>(kOutcomeModelNames, name);
}

bool needs_counts(const ModelOptions& options) {
  return options.imbalances != 0 || options.split_sides;
}

std::string model_conflict(const ModelOptions& options) {
  if (options.split_sides && options.phase_tapered) {
    return "split sides and tapered values cannot be combined: choose one";
  }
  if (options.target == Target::kEval) {
    if (options.outcomes == OutcomeModel::kOrdinal) {
      return "the evaluation target is an expected score, with no draws to model: the ordinal "
             "model's draw margin does not apply (use draws-out or fractional, which both fit "
             "the expected score)";
    }
    if (options.rating_offset) {
      return "the evaluation target does not take the rating offset: the engine's evaluation "
             "does not depend on the players' ratings";
    }
  }
  return "";
}

}  // namespace materialist::learn
