// The answer: the learned values with their errors beside the reference sets (the article,
// 1-3-3-5-9, Capablanca), Capablanca's relations, and the data report (partial and skipped games
// in separate lists). Every table is sized to its content on the frame it first appears.
#pragma once

#include "app/app_state.h"
#include "app/ui.h"

namespace materialist::app {

void draw_values(AppState& state, const UiFonts& fonts, float scale);
void draw_relations(AppState& state, float scale);
void draw_report(const AppState& state, float scale);

}  // namespace materialist::app
