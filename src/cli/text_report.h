// The CLI's human-readable output: the dataset summary, the article-style iteration log and
// values table, the Capablanca relations, and comparison tables; plus a fit's JSON fields.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "learn/analysis.h"
#include "learn/dataset.h"

namespace materialist::cli {

struct ComparedDataset {
  std::string name;
  learn::DatasetReport report;
  learn::ModelFit fit;
  learn::Histogram histogram;
  std::optional<learn::BootstrapFit> bootstrap;
};

void print_dataset_summary(std::FILE* out, const learn::DatasetReport& report);
void print_fit_header(std::FILE* out, const learn::Histogram& histogram,
                      const learn::AnalysisSettings& settings);
// "Iter 1000: [ 0.703733 1.89849 2.31532 3.16993 6.9148 ] -> 0.470379", as the article logs.
void print_iteration(std::FILE* out, const learn::FitState& state);
// The values table; units "pawn" (pawn = 100), "elo" or "logodds".
// `bootstrap` (may be null) adds 95% intervals over games.
void print_fit(std::FILE* out, const learn::ModelFit& fit, const learn::AnalysisSettings& settings,
               const std::string& units, const learn::BootstrapFit* bootstrap = nullptr);
void print_relations(std::FILE* out, const learn::ModelFit& fit);
void print_comparison(std::FILE* out, const std::vector<ComparedDataset>& datasets,
                      const std::string& units);

// Writes theta, loss, iterations, values {P..Q}, values_se, coefficients (and the draw margin).
void write_fit_json(JsonWriter& json, const learn::ModelFit& fit);
// Writes "bootstrap": {replicates, failed, value_intervals {P: [low, high], ...}}.
void write_bootstrap_json(JsonWriter& json, const learn::BootstrapFit& bootstrap);

}  // namespace materialist::cli
