// The three plots: piece values and loss against iterations (drawn live as snapshots arrive) and
// the article's chart of White's score against the material balance, with the fitted logistic.
#pragma once

#include "app/app_state.h"
#include "app/plot_renderer.h"
#include "app/value_chart.h"

namespace materialist::app {

void draw_convergence(const AppState& state, PlotRenderer& renderer, ImVec2 size, float scale);
// Whether the loss has steps to plot (else draw_loss writes it as a line of text).
bool has_loss_plot(const AppState& state);
void draw_loss(AppState& state, PlotRenderer& renderer, ImVec2 size, float scale);
// While reading: each value of the exact fit so far against the games read (log scale), with its
// 95% band narrowing as data arrives.
void draw_estimates(const AppState& state, PlotRenderer& renderer, ImVec2 size, float scale);
void draw_balance(AppState& state, PlotRenderer& renderer, ImVec2 size, float scale);

// The fitted P(win), P(draw), P(loss) curves of every dataset (fits[].curve), overlaid.
bool has_outcome_curves(const AppState& state);
void draw_outcome_curves(AppState& state, PlotRenderer& renderer, ImVec2 size, float scale);

}  // namespace materialist::app
