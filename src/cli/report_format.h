// Formatting the CLI's reports share (text_report.cpp, comparison_report.cpp, fit_json.cpp):
// numbers in the chosen units, coefficient names, padded columns.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "learn/fit/models.h"

namespace materialist::cli::detail {

using learn::Coefficient;
using learn::Estimate;
using learn::ModelFit;

// n for printf's %llu.
unsigned long long u(std::uint64_t n);
// True when the five piece values are all identified.
bool all_pieces_identified(const ModelFit& fit);
// The standard error the model alone gives (positions independent): the reported one when the
// reported errors are model-based.
double model_se(const ModelFit& fit, double reported, double model);
// A coefficient's estimate in `units` ("pawn", "elo", "logodds"), and its unit's label.
const Estimate& in_units(const Coefficient& c, const std::string& units);
const char* unit_label(const Coefficient& c, const std::string& units);
// "288.478 ± 8.6" (full precision, the article's style) or "288.5 ± 8.6" (compact, for tables).
std::string format_estimate(const Estimate& e, bool compact = false);
// The five piece values (pawn = 100) in P N B R Q order.
std::array<double, 5> values_array(const ModelFit& fit);
// A coefficient's name in JSON: the model's column name, except the intercept from a player's
// point of view, "player-edge".
std::string coefficient_json_name(const std::string& name, bool player_view);
// A coefficient's label in text: learn::coefficient_label ("Knight", "Knight (middlegame)",
// "Bishop pair", from a player's point of view "Player's edge"), but the intercept of White's
// side reads "Intercept (White's first move)".
std::string coefficient_text_label(const std::string& name, bool player_view);
// "± game-clustered standard errors (2997 games)" or "± model-based standard errors (positions
// treated as independent)".
std::string error_kind_text(const ModelFit& fit);
// "Warning: <message>" for each of the fit's warnings.
void print_warnings(std::FILE* out, const ModelFit& fit, const std::string& prefix = "");
// Text padded with blanks to `width` characters (UTF-8: "±" is one character, two bytes).
std::string padded(std::string text, std::size_t width);

}  // namespace materialist::cli::detail
