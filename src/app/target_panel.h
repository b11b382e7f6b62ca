// The fit's target in the page: the evaluation target's counts under the values (how many games
// carry [%eval] and how many positions were left out), the refusal of models that make no sense
// for it, and "Result vs evaluation": both targets fitted on the same annotated positions, in a
// table of values, differences and errors and a chart of both.
#pragma once

#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/plot_renderer.h"

namespace materialist::app {

// Under the values, for data read with the evaluation target: its counts and the "Result vs
// evaluation" button (a kCompareTargets command; opens the window).
void draw_target_summary(AppState& state, std::vector<Command>& commands, float scale);

// Why the chosen model cannot be fitted for the applied target ("" when it can): the evaluation
// target refuses the ordinal draw margin and the rating offset (learn::model_conflict).
std::string target_refusal(const AppState& state);

// The "Result vs evaluation" window while state.target_compare_open.
void draw_target_compare(AppState& state, PlotRenderer& renderer, float scale);

}  // namespace materialist::app
