#include "cli/report_format.h"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <limits>
#include <optional>

#include "learn/fit/analysis.h"
#include "learn/fit/compare.h"
#include "learn/fit/relations.h"
#include "learn/fit/split_sides.h"
#include "learn/fit/uncertainty.h"
#include "learn/read/report_json.h"
#include "learn/vocabulary/coefficient_names.h"
#include "learn/vocabulary/imbalance.h"
#include "learn/vocabulary/pieces.h"

namespace materialist::cli::detail {

unsigned long long u(std::uint64_t n) {
  return static_cast<unsigned long long>(n);
}

bool all_pieces_identified(const ModelFit& fit) {
  return std::none_of(fit.coefficients.begin(), fit.coefficients.end(), [](const Coefficient& c) {
    return !c.identified && learn::piece_index(c.name).has_value();
  });
}

// The standard error the model alone gives (positions independent): the reported one when the
// reported errors are model-based.
double model_se(const ModelFit& fit, double reported, double model) {
  return fit.errors == learn::ErrorKind::kModel ? reported : model;
}

const Estimate& in_units(const Coefficient& c, const std::string& units) {
  if (units == "elo") return c.elo;
  if (units == "logodds") return c.theta;
  return std::isnan(c.value.value) ? c.elo : c.value;  // non-piece terms read in Elo
}

const char* unit_label(const Coefficient& c, const std::string& units) {
  if (units == "elo") return "Elo";
  if (units == "logodds") return "log-odds";
  if (std::isnan(c.value.value)) return "Elo";
  const int term = learn::imbalance_index(c.name);
  return term >= 0 ? learn::kImbalanceUnits[term] : "";
}

// "288.478 ± 8.6" (full precision, the article's style) or "288.5 ± 8.6" (compact, for tables).
std::string format_estimate(const Estimate& e, bool compact) {
  char value[32], se[32];
  const bool large = std::fabs(e.value) >= 10;
  std::snprintf(value, sizeof value, compact ? (large ? "%.1f" : "%.3f") : "%.6g", e.value);
  // The reference column (pawn = 100) has no spread of its own, only rounding noise.
  if (std::isnan(e.se) || e.se <= 1e-9 * std::fabs(e.value)) return value;
  std::snprintf(se, sizeof se, e.se >= 1 ? "%.1f" : "%.2g", e.se);
  return std::string(value) + " ± " + se;
}

std::array<double, 5> values_array(const ModelFit& fit) {
  const std::vector<double> values = learn::piece_values(fit);
  return {values[0], values[1], values[2], values[3], values[4]};
}

// A coefficient's name in JSON: the model's column name, except the intercept from a player's
// point of view, "player-edge".
std::string coefficient_json_name(const std::string& name, bool player_view) {
  return player_view && name == "intercept" ? "player-edge" : name;
}

// A coefficient's label in text: learn::coefficient_label ("Knight", "Knight (middlegame)",
// "Bishop pair", from a player's point of view "Player's edge"), but the intercept of White's
// side reads "Intercept (White's first move)".
std::string coefficient_text_label(const std::string& name, bool player_view) {
  if (name == "intercept" && !player_view) return "Intercept (White's first move)";
  return learn::coefficient_label(name, player_view);
}

// "± game-clustered standard errors (2997 games)" or "± model-based standard errors (positions
// treated as independent)".
std::string error_kind_text(const ModelFit& fit) {
  if (!fit.covariance_ok) return "no standard errors: the information matrix is singular";
  if (fit.errors == learn::ErrorKind::kClustered) {
    return "± game-clustered standard errors (" + std::to_string(fit.clusters) + " games)";
  }
  return "± model-based standard errors (positions treated as independent)";
}

// "Warning: <message>" for each of the fit's warnings.
void print_warnings(std::FILE* out, const ModelFit& fit, const std::string& prefix) {
  for (const learn::FitWarning& warning : fit.warnings) {
    std::fprintf(out, "Warning: %s%s\n", prefix.c_str(), warning.message.c_str());
  }
}

// Text padded with blanks to `width` characters (UTF-8: "±" is one character, two bytes).
std::string padded(std::string text, std::size_t width) {
  std::size_t characters = 0;
  for (const char c : text) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  if (characters < width) text.append(width - characters, ' ');
  return text;
}

}  // namespace materialist::cli::detail
