// The Fit panel's controls for the imbalance terms (a compact group of checkboxes, one per term,
// published as "model:imbalance:<term>") and the split-sides model ("model:split-sides", only
// from a player's point of view: the filter's player=NAME;pov=1).
#pragma once

#include "app/app_state.h"

namespace materialist::app {

// True when a term was switched.
bool imbalance_checkboxes(AppState& state, float scale);
// True when switched; disabled (and its setting cleared) without a player's point of view.
bool split_sides_checkbox(AppState& state, float scale);

}  // namespace materialist::app
