// What the CLI's commands share: the failures and their exit statuses, the options turned into
// the read's request and the model's settings (learn::ReadRequest, learn::AnalysisSettings), the
// files read into datasets, and the JSON of their data and failures.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/failure.h"
#include "cli/file_closer.h"
#include "cli/options.h"
#include "core/error.h"
#include "core/json.h"
#include "learn/fit/analysis.h"
#include "learn/read/dataset.h"
#include "learn/read/dataset_split.h"

namespace materialist::cli {

using Clock = std::chrono::steady_clock;

// Seconds since `start`, for the reports' timings.
double seconds_since(Clock::time_point start);

// The imbalance terms and split sides, written only when on (other models' JSON unchanged).
void write_model_terms_json(JsonWriter& json, const learn::ModelOptions& model);

// The target the files are read for: --target, or eval for compare --targets (both fits read the
// annotated positions).
learn::Target read_target(const CliOptions& options);

// Why the evaluation target cannot be read as asked, or nullopt.
std::optional<Error> eval_refusal(const CliOptions& options);

// Data options → the read's request (preset first, then explicit flags); `model`, when given,
// says which key fields to keep.
learn::ReadRequest read_request(const CliOptions& options, const learn::ModelOptions* model,
                                learn::SplitMode mode = learn::SplitMode::kMerge);

// The ingest's options of the read's request.
Expected<learn::IngestOptions> ingest_options(const CliOptions& options);

// Model options → analysis settings (preset first, then explicit flags). The intercept is on by
// default from a player's point of view.
Expected<learn::AnalysisSettings> analysis_settings(const CliOptions& options,
                                                    bool from_player_view);

// One dataset's settings: its ingest options, whether it is from a player's point of view, and
// the model and solver.
struct DatasetSettings {
  learn::IngestOptions ingest;
  bool player_view = false;
  learn::AnalysisSettings analysis;
};

// The settings the options give, or why they cannot work.
Expected<DatasetSettings> dataset_settings(const CliOptions& options);

// Reads the files into the split (read_files.h): the failure, with the command's exit status.
[[nodiscard]] std::optional<Failure> read_files(const std::vector<std::string>& files,
                                                learn::DatasetSplit& split,
                                                const CliOptions& options, std::FILE* progress);

// Rows of decisive games (what the article's model fits).
std::uint64_t decisive_rows(const learn::Histogram& histogram);

// "a.pgn: no games found: is this a PGN file?; b.pgn: ..." for the files with a whole-file
// problem.
std::string file_problems(const learn::DatasetReport& report);

// Why a dataset cannot be fitted before any solver runs: no rows (nothing read, every game
// filtered out, every game skipped) or no decisive row.
[[nodiscard]] std::optional<Failure> nothing_to_fit(const learn::DatasetReport& report,
                                                    const learn::Histogram& histogram);

// The datasets the files are read into: the merged one, or (compare) one per file or filter. The
// game pairs (for game-clustered errors) and the bootstrap keep the key fields the model reads
// (`model` null: the defaults). The filter was parsed with the settings: it cannot fail here.
learn::SplitOptions split_options(const CliOptions& options, const learn::ModelOptions* model,
                                  learn::SplitMode mode = learn::SplitMode::kMerge);

// A split made with split_options; an --each filter that does not parse is its error.
Expected<learn::DatasetSplit> make_split(const CliOptions& options,
                                         const learn::ModelOptions* model,
                                         learn::SplitMode mode = learn::SplitMode::kMerge);

// The merged dataset read from the files, optionally writing its rows as .mat text to `mat_out`.
// `failure` is set when a file could not be read (the split holds what was read before).
struct LoadedDataset {
  std::optional<learn::DatasetSplit> split;
  std::optional<Failure> failure;
  double seconds = 0;

  const learn::DatasetBuilder& builder() const { return split->merged(); }
};

// Reads the files into a merged dataset; --game-ids adds each row's game id to the .mat text.
LoadedDataset load_dataset(const CliOptions& options, const learn::ModelOptions* model,
                           std::FILE* mat_out, std::FILE* progress, bool game_ids = false,
                           learn::RowSink also = {});

// The evaluation target's counts: what was annotated and what was left out.
void write_eval_counts_json(JsonWriter& json, const learn::IngestReport& games);

// The data a dataset gave, for --json: the report's fields and the histogram's row counts.
void write_data_json(JsonWriter& json, const learn::DatasetReport& report,
                     const learn::Histogram& histogram, std::size_t max_issues);

// Says why on `err` and returns the failure's exit status.
int report_failure(std::FILE* err, const Failure& failure);

// --json's one object when nothing could be fitted: the data read so far and the error.
int fail_json(std::FILE* out, std::FILE* err, const Failure& failure,
              const learn::DatasetReport& report, const learn::Histogram& histogram);

// A failure before any file was read (bad options, an unwritable export): with --json, the one
// object holds an empty data report and the error.
int fail_early(const CliOptions& options, std::FILE* out, std::FILE* err, const Failure& failure);

// Settings that cannot work: a bad filter, a model the solver cannot fit.
Failure settings_failure(const Error& error);

}  // namespace materialist::cli
