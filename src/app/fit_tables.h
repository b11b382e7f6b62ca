// The fitted values with their uncertainty (value ± standard error, and the bootstrap interval
// [low, high] when there is one) in the chosen units, every coefficient of the model listed;
// with two or more datasets, a comparison table: one column per dataset, Capablanca's relations
// per dataset, and the B − N differences with p-values.
#pragma once

#include <string>

#include "app/app_state.h"
#include "app/ui.h"

namespace materialist::app {

// One dataset's coefficients: the fit's (fits[0]), or the estimate's while reading.
// Beside each piece: the article's, the 1-3-3-5-9 and Capablanca's values (in the same unit).
void draw_fit_values(AppState& state, const protocol::Fit& fit, const UiFonts& fonts, float scale);

// Shown when there are two or more fits.
void draw_comparison(AppState& state, float scale);

// Which errors the ± are, and every warning of the fit, in full: shown under its values, each
// warning wrapped and published as "warning:<k>" ("warning:<dataset>:<k>" when several).
void draw_fit_notes(AppState& state, const protocol::Fit& fit, bool several, float scale);

}  // namespace materialist::app
