// `materialist stats` (statistics files, learn/read/mstats.h) and the .mstats inputs of fit and
// compare.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "cli/failure.h"
#include "cli/options.h"
#include "core/error.h"
#include "learn/fit/models.h"
#include "learn/read/dataset_split.h"
#include "learn/read/mstats.h"

namespace materialist::cli {

// Reads the inputs (PGN files whole, one --range of one, or .mstats files to merge) with the
// split's settings and writes options.output. Returns the exit status; messages go to `err`.
int run_stats(const CliOptions& options, const learn::SplitOptions& split, std::FILE* err);

// True when any input is a statistics file (by its name: .mstats).
bool has_stats_inputs(const std::vector<std::string>& files);

// The .mstats files read and merged (learn::merge_stats) for a fit with these settings: the
// files' settings must be the split's (the key fields: cover the model's; the bootstrap: the
// same replicates and seed when asked, dropped when not). Every input must be a .mstats file.
struct LoadedStats {
  std::optional<learn::Statistics> stats;
  std::optional<Failure> failure;  // bad options, unreadable, corrupt or incompatible
};
LoadedStats load_stats(const std::vector<std::string>& files, const learn::SplitOptions& split,
                       const learn::ModelOptions& model);

}  // namespace materialist::cli
