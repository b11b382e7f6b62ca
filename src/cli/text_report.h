// The CLI's human-readable output: the dataset summary, the article-style iteration log and
// values table, the Capablanca relations, and comparison tables; plus a fit's JSON fields.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "learn/fit/analysis.h"
#include "learn/fit/target_compare.h"
#include "learn/read/dataset.h"

namespace materialist::cli {

// `player_view`: the rows are from one player's point of view (--filter "player=...;pov=1"), so
// "White" reads "the player", "Black" "the opponent" and the intercept is the player's edge.

struct ComparedDataset {
  std::string name;
  learn::DatasetReport report;
  learn::ModelFit fit;
  learn::Histogram histogram;
  std::optional<learn::BootstrapFit> bootstrap;
  bool player_view = false;
  std::string error_code;  // non-empty: not fitted, for the reason in `error`
  std::string error;
};

void print_dataset_summary(std::FILE* out, const learn::DatasetReport& report);
void print_fit_header(std::FILE* out, const learn::Histogram& histogram,
                      const learn::AnalysisSettings& settings, bool player_view = false);
// "Iter 1000: [ 0.703733 1.89849 2.31532 3.16993 6.9148 ] -> 0.470379", as the article logs.
void print_iteration(std::FILE* out, const learn::FitState& state);
// The warnings, then the values table (units "pawn" (pawn = 100), "elo" or "logodds") and the
// kind of its standard errors; a coefficient the data do not identify reads "not identified".
// `bootstrap` (may be null) adds 95% intervals over games.
void print_fit(std::FILE* out, const learn::ModelFit& fit, const learn::AnalysisSettings& settings,
               const std::string& units, const learn::BootstrapFit* bootstrap = nullptr,
               bool player_view = false);
// Capablanca's relations, when the five piece values exist and are identified; their numbers in
// `units` (pawn, elo, logodds), like the table above.
void print_relations(std::FILE* out, const learn::ModelFit& fit, const std::string& units);
// Split sides: own against opponent's value per piece, the difference and its p-value.
void print_sides(std::FILE* out, const learn::ModelFit& fit, const std::string& units);
void print_comparison(std::FILE* out, const std::vector<ComparedDataset>& datasets,
                      const std::string& units);
// compare --targets: each coefficient by result and by evaluation (pawn = 100) and the
// difference eval − result with its error, in the order `eval_first` says.
// `units`: "pawn" (values, pawn = 100), "logodds" (θ) or "elo" (θ · 400 / ln 10); θ is shown
// whenever the fit has standard errors, also when the pawn is not identified.
void print_target_comparison(std::FILE* out, const learn::TargetComparison& both, bool eval_first,
                             bool player_view, const std::string& units);
// Writes "targets": [...], "fits": {"result": {...}, "eval": {...}} (write_fit_json each),
// "coefficients": [{name, result: {theta, thetaSe, value, valueSe, identified}, eval: {...},
// difference: {value, se} (eval − result, pawn = 100; null when a side is not identified),
// thetaDifference: {value, se}}] and "differenceErrors": "game-clustered" (joint, with the fits'
// covariance) or "independent".
void write_target_comparison_json(JsonWriter& json, const learn::TargetComparison& both,
                                  bool eval_first, bool player_view);

// Writes converged, warnings [{code, message}], errors ("game-clustered" | "model"),
// clusteredGames, theta, thetaSe, thetaSeModel, loss, iterations, weightedRows, drawMargin,
// values {P..Q}, valuesSe, valuesSeModel, coefficients [{name, identified, theta, ...,
// valueSeModel}] and relations (camelCase keys, as every JSON document of the project).
// Numbers of a coefficient that is not identified are null.
void write_fit_json(JsonWriter& json, const learn::ModelFit& fit, bool player_view = false);
// Writes "error": {"code": ..., "message": ...}.
void write_error_json(JsonWriter& json, const std::string& code, const std::string& message);
// Writes "bootstrap": {replicates, failed, valueIntervals {P: [low, high], ...}, thetaIntervals}.
void write_bootstrap_json(JsonWriter& json, const learn::BootstrapFit& bootstrap);

}  // namespace materialist::cli
