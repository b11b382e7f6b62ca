// The settings that re-read the files (bootstrap, positions, game filters, datasets, read
// limits), grouped with their "Apply (re-reads the files)" button and a visible "changed, not
// applied" state; then the sharing buttons (share link, provenance JSON, values as code).
#pragma once

#include <vector>

#include "app/app_state.h"

namespace materialist::app {

void draw_analysis_panel(AppState& state, std::vector<Command>& commands, float scale);

// Edits to the read settings wait for Apply.
bool read_settings_pending(const AppState& state);

// "Removed by the filters: ..." of the last read (nothing when none were removed).
void filtered_counts(const AppState& state);

}  // namespace materialist::app
