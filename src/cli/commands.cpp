#include "cli/commands.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/band_report.h"
#include "cli/elo_command.h"
#include "cli/match_command.h"
#include "cli/player_input.h"
#include "cli/read_files.h"
#include "cli/replay_command.h"
#include "cli/stats_command.h"
#include "cli/text_report.h"
#include "core/json.h"
#include "learn/filter/bands.h"
#include "learn/fit/analysis.h"
#include "learn/fit/target_compare.h"
#include "learn/read/dataset.h"
#include "learn/read/dataset_split.h"
#include "learn/read/report_json.h"
#include "learn/stats/mat_io.h"

namespace materialist::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Why a command gave no fit: a stable code (the JSON "error" object's), a message for people
// and the exit status (see --help).
struct Failure {
  std::string code;
  std::string message;
  int status = kExitNoResult;
};

Failure bad_options(const std::string& message) {
  return {"bad-options", message, kExitBadOptions};
}

// A service's failures (cli/http_input.h) exit with 3, others with 1.
int service_status(const std::string& code) {
  for (const ErrorCode service : {ErrorCode::kUnknownUser, ErrorCode::kRateLimited,
                                  ErrorCode::kNoNetwork, ErrorCode::kServiceError}) {
    if (code == error_code_name(service)) return kExitService;
  }
  return kExitNoResult;
}

// The imbalance terms and split sides, written only when on (other models' JSON unchanged).
void write_model_terms_json(JsonWriter& json, const learn::ModelOptions& model) {
  if (model.imbalances != 0) {
    json.key("imbalances").begin_array();
    for (int term = 0; term < learn::kImbalanceTerms; ++term) {
      if (learn::has_term(model.imbalances, static_cast<learn::ImbalanceTerm>(term))) {
        json.value(learn::kImbalanceNames[term]);
      }
    }
    json.end_array();
  }
  if (model.split_sides) json.field("splitSides", true);
}

// The target the files are read for: --target, or eval for compare --targets (both fits read the
// annotated positions).
learn::Target read_target(const CliOptions& options) {
  if (!options.targets.empty()) return learn::Target::kEval;
  return learn::parse_target(options.target).value_or(learn::Target::kResult);
}

// Why the evaluation target cannot be read as asked, or nullopt.
std::optional<Error> eval_refusal(const CliOptions& options) {
  if (read_target(options) != learn::Target::kEval) return std::nullopt;
  for (const std::string& file : options.files) {
    if (learn::file_kind_of(file) == learn::FileKind::kMat) {
      return Error{
          ErrorCode::kInvalidArgument,
          file + ": .mat rows carry no evaluations: read the PGN games with --target eval"};
    }
    if (learn::is_stats_name(file) && !options.targets.empty()) {
      return Error{ErrorCode::kInvalidArgument,
                   file +
                       ": compare --targets reads PGN games (fit --target eval reads "
                       "statistics files made with stats --target eval)"};
    }
  }
  if (!options.targets.empty() && options.command != Command::kCompare) {
    return Error{ErrorCode::kInvalidArgument, "--targets is for compare (--target for the others)"};
  }
  if (!options.targets.empty() && (!options.each_filter.empty() || !options.by.empty())) {
    return Error{ErrorCode::kInvalidArgument,
                 "--targets compares the two targets on one dataset: drop --each and --by (or "
                 "use --target eval with them)"};
  }
  return std::nullopt;
}

// Data options → the read's request (preset first, then explicit flags); `model`, when given,
// says which key fields to keep.
learn::ReadRequest read_request(const CliOptions& options, const learn::ModelOptions* model,
                                learn::SplitMode mode = learn::SplitMode::kMerge) {
  learn::ReadRequest request;
  const learn::Preset* preset = learn::find_preset(options.preset);
  if (preset != nullptr) request.unknown = preset->unknown;
  if (options.quiet_plies) request.quiet.quiet_plies = *options.quiet_plies;
  request.quiet.checks_break_quiet = !options.checks_are_quiet;
  request.quiet.distinct_per_game = !options.every_position;
  request.quiet.skip_first_plies = options.skip_plies;
  request.filter = options.filter;
  request.filter_label = "--filter";
  request.target = read_target(options);
  request.mode = mode;
  request.each_filter = options.each_filter;
  if (model != nullptr) request.keep = learn::KeyFields::for_model(*model);
  request.bootstrap = options.bootstrap;
  request.seed = options.seed;
  request.subset_max_issues = request.max_reported_issues;
  request.keep_merged = mode == learn::SplitMode::kMerge;  // compare fits the subsets only
  request.max_games = options.max_games;
  request.first_file_index = options.file_index;
  return request;
}

Expected<learn::IngestOptions> ingest_options(const CliOptions& options) {
  return learn::ingest_options_for(read_request(options, nullptr));
}

// Model options → analysis settings (preset first, then explicit flags). The intercept is on by
// default from a player's point of view.
Expected<learn::AnalysisSettings> analysis_settings(const CliOptions& options,
                                                    bool from_player_view) {
  learn::AnalysisSettings settings = *learn::AnalysisSettings::preset_named(options.preset);
  if (!options.solver.empty()) settings.solver = *learn::parse_solver(options.solver);
  if (!options.outcomes.empty())
    settings.model.outcomes = *learn::parse_outcome_model(options.outcomes);
  if (options.iterations) settings.gd.iterations = *options.iterations;
  if (options.alpha) settings.gd.learning_rate = *options.alpha;
  if (options.lambda) settings.model.lambda = *options.lambda;
  settings.model.intercept = options.intercept.value_or(from_player_view);
  settings.model.side_to_move = options.side_to_move;
  settings.model.bishop_pair = options.bishop_pair;
  settings.model.phase_tapered = options.phase;
  settings.model.rating_offset = options.elo_offset;
  settings.model.imbalances = options.imbalances;
  settings.model.split_sides = options.split_sides;
  settings.model.target = read_target(options);
  if (options.split_sides && !from_player_view) {
    return make_error(ErrorCode::kInvalidArgument,
                      "--split-sides needs a player's point of view: add --filter "
                      "\"player=NAME;pov=1\" (own and opponent's pieces are the player's and "
                      "the opponents')");
  }
  if (const std::string conflict = learn::model_conflict(settings.model); !conflict.empty()) {
    return make_error(ErrorCode::kInvalidArgument, conflict);
  }
  if (settings.solver == learn::SolverKind::kGradientDescent) {
    if (auto error = learn::check_gradient_descent(settings.model)) return *error;
  }
  return settings;
}

// One dataset's settings: its ingest options, whether it is from a player's point of view, and
// the model and solver.
struct DatasetSettings {
  learn::IngestOptions ingest;
  bool player_view = false;
  learn::AnalysisSettings analysis;
};

Expected<DatasetSettings> dataset_settings(const CliOptions& options) {
  if (auto refusal = eval_refusal(options)) return *refusal;
  auto ingest = ingest_options(options);
  if (!ingest) return ingest.error();
  DatasetSettings settings;
  settings.ingest = *ingest;
  // player=NAME;pov=1 turns every game to the player's side: the ingest negates the rows of the
  // games where the player has Black and swaps their result, so "White" reads "the player".
  settings.player_view = learn::player_view(ingest->games);
  auto analysis = analysis_settings(options, settings.player_view);
  if (!analysis) return analysis.error();
  settings.analysis = *analysis;
  return settings;
}

// Reads the files into the split (read_files.h): the failure, with the command's exit status.
std::optional<Failure> read_files(const std::vector<std::string>& files, learn::DatasetSplit& split,
                                  const CliOptions& options, std::FILE* progress) {
  ReadSettings settings;
  settings.jobs = options.jobs;
  settings.chunk_bytes = options.chunk_bytes;
  settings.max_megabytes = options.max_megabytes;
  // "The first N games" are those of a reading in order: one thread.
  if (options.max_games != 0 || options.max_megabytes > 0) settings.jobs = 1;
  settings.progress = progress;
  std::optional<ReadFailure> failure = cli::read_files(files, split, settings);
  if (!failure) return std::nullopt;
  return Failure{failure->code, failure->message, service_status(failure->code)};
}

std::uint64_t decisive_rows(const learn::Histogram& histogram) {
  const learn::OutcomeCounts& totals = histogram.totals();
  return totals[learn::Outcome::kWhiteWin] + totals[learn::Outcome::kBlackWin];
}

// "a.pgn: no games found: is this a PGN file?; b.pgn: ..." for the files with a whole-file
// problem.
std::string file_problems(const learn::DatasetReport& report) {
  std::string text;
  for (const learn::FileReport& file : report.files) {
    if (file.error.empty()) continue;
    text += (text.empty() ? "" : "; ") + file.name + ": " + file.error;
  }
  return text;
}

// Why a dataset cannot be fitted before any solver runs: no rows (nothing read, every game
// filtered out, every game skipped) or no decisive row.
std::optional<Failure> nothing_to_fit(const learn::DatasetReport& report,
                                      const learn::Histogram& histogram) {
  const learn::IngestReport& games = report.games;
  const std::string problems = file_problems(report);
  const std::string because = problems.empty() ? "" : " (" + problems + ")";
  if (histogram.totals().total() == 0) {
    if (histogram.has_targets() && games.games_read > games.games_filtered &&
        games.games_used + games.games_partial > 0) {
      return Failure{"no-evaluations",
                     "no annotated positions to fit: " +
                         std::to_string(games.games_used + games.games_partial) + " games used, " +
                         std::to_string(games.games_without_evals) + " without evaluations, " +
                         std::to_string(games.rows_without_eval) +
                         " positions without one (the evaluation target reads lichess's "
                         "[%eval] annotations)" +
                         because};
    }
    if (games.games_read > 0 && games.games_filtered == games.games_read && report.mat.rows == 0) {
      std::string reasons;
      for (int i = 1; i < learn::kFilterReasonCount; ++i) {
        const auto reason = static_cast<learn::FilterReason>(i);
        const std::uint64_t count = games.filter_tally.count(reason);
        if (count == 0) continue;
        reasons += (reasons.empty() ? "" : ", ") + std::string(learn::filter_reason_name(reason)) +
                   " " + std::to_string(count);
      }
      return Failure{"filtered-out", "the filter removed every game (" +
                                         std::to_string(games.games_read) +
                                         " games read; removed by " + reasons + ")"};
    }
    if (games.games_read == 0 && report.mat.rows == 0) {
      return Failure{"no-games", "no games and no .mat rows were found" + because};
    }
    return Failure{"no-rows", "no rows to fit: " + std::to_string(games.games_read) +
                                  " games read, none gave a quiet position with a known result" +
                                  because};
  }
  if (decisive_rows(histogram) == 0 && !histogram.has_targets()) {
    return Failure{"no-decisive-rows",
                   std::to_string(histogram.totals().total()) +
                       " rows, none decisive (every row is a draw): piece values cannot be "
                       "fitted from draws alone"};
  }
  return std::nullopt;
}

// The --game-ids column: (file index << 40) | the game's 1-based number in its file; rows without
// a game (.mat input) count as games of their own, numbered by row within their file.
struct GameIds {
  std::size_t file = ~std::size_t{0};
  std::uint64_t mat_rows = 0;

  std::uint64_t next(std::size_t file_index, std::uint64_t game) {
    if (file_index != file) {
      file = file_index;
      mat_rows = 0;
    }
    const std::uint64_t number = game != 0 ? game : ++mat_rows;
    return (static_cast<std::uint64_t>(file_index) << 40) | number;
  }
};

// The datasets the files are read into: the merged one, or (compare) one per file or filter. The
// game pairs (for game-clustered errors) and the bootstrap keep the key fields the model reads
// (`model` null: the defaults).
// The split's options (the filter was parsed when the settings were: it parses again here).
learn::SplitOptions split_options(const CliOptions& options, const learn::ModelOptions* model,
                                  learn::SplitMode mode = learn::SplitMode::kMerge) {
  return std::move(learn::split_options_for(read_request(options, model, mode))).value();
}

Expected<learn::DatasetSplit> make_split(const CliOptions& options,
                                         const learn::ModelOptions* model,
                                         learn::SplitMode mode = learn::SplitMode::kMerge) {
  return learn::DatasetSplit::create(split_options(options, model, mode));
}

// The merged dataset read from the files, optionally writing its rows as .mat text to `mat_out`.
// `failure` is set when a file could not be read (the split holds what was read before).
struct LoadedDataset {
  std::optional<learn::DatasetSplit> split;
  std::optional<Failure> failure;
  double seconds = 0;

  const learn::DatasetBuilder& builder() const { return split->merged(); }
};

LoadedDataset load_dataset(const CliOptions& options, const learn::ModelOptions* model,
                           std::FILE* mat_out, std::FILE* progress, bool game_ids = false) {
  LoadedDataset dataset;
  dataset.split = std::move(make_split(options, model)).value();  // merge: nothing to parse
  learn::DatasetBuilder& merged = dataset.split->merged();
  std::string buffer;
  GameIds ids;
  if (mat_out != nullptr) {
    const learn::DatasetBuilder* builder = &merged;
    merged.set_row_sink([&buffer, &ids, mat_out, game_ids, builder](const learn::Row& row) {
      learn::append_mat_row(buffer, row.key.delta, row.outcome);
      if (row.target != learn::kNoTarget) {  // --target eval: White's expected score
        char text[32];
        std::snprintf(text, sizeof text, " %.12g\n", learn::target_score(row.target));
        buffer.pop_back();
        buffer += text;
      }
      if (game_ids) {
        buffer.back() = ' ';
        buffer += std::to_string(ids.next(builder->report().files.size(), row.game));
        buffer.push_back('\n');
      }
      if (buffer.size() >= (1 << 16)) {
        std::fwrite(buffer.data(), 1, buffer.size(), mat_out);
        buffer.clear();
      }
    });
  }
  const auto start = Clock::now();
  dataset.failure = read_files(options.files, *dataset.split, options, progress);
  if (mat_out != nullptr) {
    std::fwrite(buffer.data(), 1, buffer.size(), mat_out);
    merged.set_row_sink({});
  }
  dataset.seconds = seconds_since(start);
  return dataset;
}

struct FileCloser {
  void operator()(std::FILE* file) const {
    if (file != nullptr) std::fclose(file);
  }
};

// The evaluation target's counts: what was annotated and what was left out.
void write_eval_counts_json(JsonWriter& json, const learn::IngestReport& games) {
  json.key("evaluations").begin_object();
  json.field("annotatedPositions", games.rows)
      .field("unannotatedPositions", games.rows_without_eval)
      .field("gamesWithEvaluations", games.games_with_evals)
      .field("gamesWithoutEvaluations", games.games_without_evals)
      .field("malformedEvaluations", games.malformed_evals);
  json.end_object();
}

// The data a dataset gave, for --json: the report's fields and the histogram's row counts.
void write_data_json(JsonWriter& json, const learn::DatasetReport& report,
                     const learn::Histogram& histogram, std::size_t max_issues) {
  learn::write_dataset_fields(json, report, max_issues);
  json.field("decisiveRows", decisive_rows(histogram))
      .field("draws", histogram.totals()[learn::Outcome::kDraw])
      .field("distinctRows", static_cast<std::uint64_t>(histogram.distinct()));
  if (histogram.has_targets()) write_eval_counts_json(json, report.games);
}

// Says why on `err` and returns the failure's exit status.
int report_failure(std::FILE* err, const Failure& failure) {
  std::fprintf(err, "materialist: %s\n", failure.message.c_str());
  return failure.status;
}

// --json's one object when nothing could be fitted: the data read so far and the error.
int fail_json(std::FILE* out, std::FILE* err, const Failure& failure,
              const learn::DatasetReport& report, const learn::Histogram& histogram) {
  JsonWriter json;
  json.begin_object();
  write_data_json(json, report, histogram, 50);
  write_error_json(json, failure.code, failure.message);
  json.end_object();
  std::fprintf(out, "%s\n", json.str().c_str());
  return report_failure(err, failure);
}

// A failure before any file was read (bad options, an unwritable export): with --json, the one
// object holds an empty data report and the error.
int fail_early(const CliOptions& options, std::FILE* out, std::FILE* err, const Failure& failure) {
  if (!options.json) return report_failure(err, failure);
  return fail_json(out, err, failure, learn::DatasetReport{}, learn::Histogram{});
}

// Settings that cannot work: a bad filter, a model the solver cannot fit.
Failure settings_failure(const Error& error) {
  return bad_options(error.message);
}

int run_rows(const CliOptions& options, std::FILE* out, std::FILE* err) {
  if (auto refusal = eval_refusal(options))
    return report_failure(err, bad_options(refusal->message));
  auto ingest = ingest_options(options);
  if (!ingest) return report_failure(err, bad_options(ingest.error().message));
  LoadedDataset dataset =
      load_dataset(options, nullptr, out, options.progress ? err : nullptr, options.game_ids);
  if (dataset.failure) return report_failure(err, *dataset.failure);
  if (options.progress) print_dataset_summary(err, dataset.builder().report());
  return kExitOk;
}

int run_fit(const CliOptions& options, std::FILE* out, std::FILE* err) {
  const bool text = !options.json;
  auto settings = dataset_settings(options);
  if (!settings) return fail_early(options, out, err, settings_failure(settings.error()));
  const learn::AnalysisSettings& analysis = settings->analysis;

  std::unique_ptr<std::FILE, FileCloser> mat_file;
  if (!options.export_mat.empty()) {
    mat_file.reset(std::fopen(options.export_mat.c_str(), "wb"));
    if (!mat_file) {
      return fail_early(options, out, err,
                        {"unwritable-file", "cannot write " + options.export_mat, kExitNoResult});
    }
  }
  // The data: the files read, or the statistics files merged.
  LoadedDataset dataset;
  LoadedStats stats;
  const bool from_stats = has_stats_inputs(options.files);
  if (from_stats) {
    if (mat_file) {
      return fail_early(options, out, err, bad_options("--export-mat needs games, not .mstats"));
    }
    if (options.max_games != 0 || options.max_megabytes > 0) {
      return fail_early(options, out, err,
                        bad_options("--max-games and --max-mb limit a read of games: statistics "
                                    "files are merged whole"));
    }
    const auto start = Clock::now();
    stats = load_stats(options.files, split_options(options, &analysis.model), analysis.model);
    dataset.seconds = seconds_since(start);
    if (stats.failure) {
      const int status = stats.failure->code == "bad-options" ? kExitBadOptions : kExitNoResult;
      return fail_early(options, out, err, {stats.failure->code, stats.failure->message, status});
    }
  } else {
    dataset = load_dataset(options, &analysis.model, mat_file.get(),
                           options.progress && text ? err : nullptr);
  }
  mat_file.reset();
  const learn::Histogram& histogram =
      from_stats ? stats.stats->histogram : dataset.builder().histogram();
  const learn::DatasetReport& report =
      from_stats ? stats.stats->report : dataset.builder().report();
  const learn::GamePairs* pairs = from_stats ? &stats.stats->pairs : dataset.builder().pairs();
  const learn::BootstrapHistograms* replicates =
      from_stats ? stats.stats->bootstrap.get() : dataset.builder().bootstrap();

  std::optional<Failure> failure = dataset.failure;
  if (!failure) failure = nothing_to_fit(report, histogram);
  if (failure) {
    if (!text) return fail_json(out, err, *failure, report, histogram);
    if (!dataset.failure) print_dataset_summary(out, report);  // what the files gave
    return report_failure(err, *failure);
  }

  if (text) {
    print_dataset_summary(out, report);
    print_fit_header(out, histogram, analysis, settings->player_view);
  }
  const auto fit_start = Clock::now();
  const auto fit = learn::run_analysis(
      histogram, analysis,
      [&](const learn::FitState& state) {
        if (text) print_iteration(out, state);
        return true;
      },
      options.log_every, pairs);
  const double fit_seconds = seconds_since(fit_start);
  if (!fit) {
    const Failure failed{"fit-failed", "the fit failed: " + fit.error().message, kExitNoResult};
    if (!text) return fail_json(out, err, failed, report, histogram);
    return report_failure(err, failed);
  }

  std::optional<learn::BootstrapFit> bootstrap;
  if (replicates != nullptr) {
    if (options.progress && text) {
      std::fprintf(err, "Bootstrap: refitting %d replicates...\n", replicates->replicate_count());
    }
    bootstrap = learn::bootstrap_model(*replicates, analysis.model);
  }

  if (text) {
    print_fit(out, *fit, analysis, options.units, bootstrap ? &*bootstrap : nullptr,
              settings->player_view);
    if (fit->errors == learn::ErrorKind::kClustered && report.mat.rows > 0) {
      std::fprintf(out, "  (.mat rows carry no game: each counts as a game of its own)\n");
    }
    print_relations(out, *fit, options.units);
    print_sides(out, *fit, options.units);
    return kExitOk;
  }
  JsonWriter json;
  json.begin_object();
  json.field("preset", analysis.preset).field("solver", learn::solver_name(analysis.solver));
  json.field("outcomes", learn::outcome_model_name(analysis.model.outcomes));
  json.field("target", learn::target_name(analysis.model.target));
  json.field("pointOfView", settings->player_view ? "player" : "white");
  write_model_terms_json(json, analysis.model);
  write_data_json(json, report, histogram, 50);
  write_fit_json(json, *fit, settings->player_view);
  if (bootstrap) write_bootstrap_json(json, *bootstrap);
  json.field("parseSeconds", dataset.seconds)
      .field("fitSeconds", fit_seconds)
      .field("seconds", dataset.seconds + fit_seconds)
      .end_object();
  std::fprintf(out, "%s\n", json.str().c_str());
  return kExitOk;
}

// One dataset of a comparison, before its fit: read from files, or merged statistics files.
struct CompareSource {
  std::string name;
  const learn::DatasetReport* report;
  const learn::Histogram* histogram;
  const learn::GamePairs* pairs;
  const learn::BootstrapHistograms* bootstrap;
  bool player_view = false;
};

// Fits every source and prints the comparison (text or --json), as a table of bands when
// `bands` is given; returns the exit status.
int fit_and_compare(const CliOptions& options, const learn::AnalysisSettings& first,
                    const std::vector<CompareSource>& sources, std::FILE* out, std::FILE* err,
                    const BandTable* bands = nullptr) {
  const bool text = !options.json;
  int status = kExitOk;
  std::vector<ComparedDataset> compared;
  for (const CompareSource& source : sources) {
    ComparedDataset& d = compared.emplace_back();
    d.name = source.name;
    d.report = *source.report;
    d.histogram = *source.histogram;
    d.player_view = source.player_view;
    // The base settings' model (checked), the intercept by this dataset's point of view.
    // (--split-sides is refused for a dataset without a player's point of view.)
    const Expected<learn::AnalysisSettings> settings = analysis_settings(options, d.player_view);
    const learn::AnalysisSettings analysis = settings ? *settings : first;
    std::optional<Failure> failure =
        settings ? nothing_to_fit(d.report, d.histogram)
                 : std::optional<Failure>(Failure{"dataset-not-fitted", settings.error().message});
    if (!failure) {
      auto fit = learn::run_analysis(d.histogram, analysis, {}, 1, source.pairs);
      if (fit) {
        d.fit = *fit;
        if (source.bootstrap != nullptr) {
          d.bootstrap = learn::bootstrap_model(*source.bootstrap, analysis.model);
        }
      } else {
        failure = Failure{"fit-failed", "the fit failed: " + fit.error().message, kExitNoResult};
      }
    }
    if (failure) {
      d.error_code = failure->code;
      d.error = failure->message;
      status = failure->status;
      std::fprintf(err, "materialist: %s: %s\n", d.name.c_str(), failure->message.c_str());
    }
  }

  if (text) {
    if (bands != nullptr) {
      print_band_table(out, *bands, compared, options.units);
    } else {
      print_comparison(out, compared, options.units);
    }
    return status;
  }
  JsonWriter json;
  json.begin_object().field("preset", first.preset);
  json.field("solver", learn::solver_name(first.solver));
  json.field("outcomes", learn::outcome_model_name(first.model.outcomes));
  json.field("target", learn::target_name(first.model.target));
  if (bands != nullptr) write_band_table_json(json, *bands, compared, options.units);
  json.key("datasets").begin_array();
  for (const ComparedDataset& d : compared) {
    json.begin_object().field("name", d.name);
    json.field("pointOfView", d.player_view ? "player" : "white");
    write_model_terms_json(json, first.model);
    write_data_json(json, d.report, d.histogram, 0);
    if (d.error.empty()) {
      write_fit_json(json, d.fit, d.player_view);
      if (d.bootstrap) write_bootstrap_json(json, *d.bootstrap);
    } else {
      write_error_json(json, d.error_code, d.error);
    }
    json.end_object();
  }
  json.end_array();
  if (status != kExitOk) {
    write_error_json(json, "dataset-not-fitted",
                     "one or more datasets could not be fitted (see their \"error\")");
  }
  json.end_object();
  std::fprintf(out, "%s\n", json.str().c_str());
  return status;
}

// compare A.mstats B.mstats: one dataset per statistics file, named by it.
int compare_stats(const CliOptions& options, const DatasetSettings& base, std::FILE* out,
                  std::FILE* err) {
  if (!options.each_filter.empty()) {
    return fail_early(options, out, err,
                      bad_options("--each filters games: .mstats inputs hold none (make one "
                                  "statistics file per filter with stats --filter)"));
  }
  std::vector<learn::Statistics> all;
  for (const std::string& path : options.files) {
    LoadedStats loaded =
        load_stats({path}, split_options(options, &base.analysis.model), base.analysis.model);
    if (loaded.failure) {
      const int status = loaded.failure->code == "bad-options" ? kExitBadOptions : kExitNoResult;
      return fail_early(options, out, err, {loaded.failure->code, loaded.failure->message, status});
    }
    all.push_back(std::move(*loaded.stats));
  }
  std::vector<CompareSource> sources;
  for (std::size_t i = 0; i < all.size(); ++i) {
    sources.push_back({options.files[i], &all[i].report, &all[i].histogram, &all[i].pairs,
                       all[i].bootstrap.get(), base.player_view});
  }
  return fit_and_compare(options, base.analysis, sources, out, err);
}

// compare --targets result,eval: one read of the annotated positions, both targets fitted on
// them. Without --outcomes the result fit takes draws as half points (fractional), so that both
// fits read every annotated position.
int run_compare_targets(const CliOptions& options, DatasetSettings base, std::FILE* out,
                        std::FILE* err) {
  const bool text = !options.json;
  if (options.outcomes.empty()) base.analysis.model.outcomes = learn::OutcomeModel::kFractional;
  LoadedDataset dataset = load_dataset(options, &base.analysis.model, nullptr,
                                       options.progress && text ? err : nullptr);
  const learn::Histogram& histogram = dataset.builder().histogram();
  const learn::DatasetReport& report = dataset.builder().report();
  std::optional<Failure> failure = dataset.failure;
  if (!failure) failure = nothing_to_fit(report, histogram);
  const auto both =
      failure ? Expected<learn::TargetComparison>(learn::TargetComparison{})
              : learn::compare_targets(histogram, base.analysis, dataset.builder().pairs());
  if (!failure && !both) {
    failure = Failure{"fit-failed", "the fit failed: " + both.error().message, kExitNoResult};
  }
  if (failure) {
    if (!text) return fail_json(out, err, *failure, report, histogram);
    if (!dataset.failure) print_dataset_summary(out, report);
    return report_failure(err, *failure);
  }
  const bool eval_first = options.targets.front() == "eval";
  if (text) {
    print_dataset_summary(out, report);
    std::fprintf(out, "Both targets on the same %llu annotated positions of %llu games (%s, %s):\n",
                 static_cast<unsigned long long>(histogram.totals().total()),
                 static_cast<unsigned long long>(report.games.games_with_evals),
                 learn::solver_name(base.analysis.solver),
                 base.analysis.model.outcomes == learn::OutcomeModel::kFractional
                     ? "the result with draws as half points"
                     : "the result without draws");
    print_target_comparison(out, *both, eval_first, base.player_view, options.units);
    return kExitOk;
  }
  JsonWriter json;
  json.begin_object().field("preset", base.analysis.preset);
  json.field("solver", learn::solver_name(base.analysis.solver));
  json.field("outcomes", learn::outcome_model_name(base.analysis.model.outcomes));
  json.field("pointOfView", base.player_view ? "player" : "white");
  write_model_terms_json(json, base.analysis.model);
  write_data_json(json, report, histogram, 50);
  write_target_comparison_json(json, *both, eval_first, base.player_view);
  json.field("seconds", dataset.seconds).end_object();
  std::fprintf(out, "%s\n", json.str().c_str());
  return kExitOk;
}

int run_compare(const CliOptions& options, std::FILE* out, std::FILE* err) {
  const bool text = !options.json;
  std::FILE* progress = options.progress && text ? err : nullptr;
  auto base = dataset_settings(options);
  if (!base) return fail_early(options, out, err, settings_failure(base.error()));
  if (!options.targets.empty()) return run_compare_targets(options, *base, out, err);
  if (has_stats_inputs(options.files)) {
    if (!options.by.empty()) {
      return fail_early(options, out, err,
                        bad_options("--by splits games: .mstats inputs hold none"));
    }
    return compare_stats(options, *base, out, err);
  }
  // --by: one --each filter per band.
  std::optional<BandTable> bands;
  CliOptions read_options = options;
  if (!options.by.empty()) {
    const learn::BandSpec spec = *learn::parse_band_spec(options.by);  // checked by the parse
    auto made = learn::make_bands(spec, base->ingest.games);
    if (!made) return fail_early(options, out, err, bad_options("--by: " + made.error().message));
    bands = BandTable{options.by, learn::band_axis_title(spec, base->ingest.games), {}, {}};
    for (const learn::Band& band : *made) read_options.each_filter.push_back(band.filter);
    bands->shown = std::move(*made);
  }
  // One dataset per file, or one per --each filter over all the files, read in one pass.
  auto split = make_split(
      read_options, &base->analysis.model,
      read_options.each_filter.empty() ? learn::SplitMode::kPerFile : learn::SplitMode::kPerFilter);
  if (!split) return fail_early(options, out, err, bad_options("--each " + split.error().message));
  // A file that could not be read ends the reading.
  if (const std::optional<Failure> read_failure =
          read_files(options.files, *split, options, progress)) {
    if (!text) {
      // The data read before the failure, in the one object.
      const auto& subsets = split->subsets();
      return fail_json(out, err, *read_failure,
                       subsets.empty() ? learn::DatasetReport{} : subsets.back().builder->report(),
                       subsets.empty() ? learn::Histogram{} : subsets.back().builder->histogram());
    }
    return report_failure(err, *read_failure);
  }
  std::vector<CompareSource> sources;
  std::vector<learn::Band> shown;
  for (std::size_t i = 0; i < split->subsets().size(); ++i) {
    const learn::DatasetBuilder& builder = *split->subsets()[i].builder;
    std::string name = split->subsets()[i].name;
    if (bands) {
      // A band no game fell in is left out of the table, and named under it.
      if (builder.report().games.filter_tally.kept() == 0) {
        bands->omitted.push_back(bands->shown[i].label);
        continue;
      }
      shown.push_back(bands->shown[i]);
      name = bands->shown[i].label;
    }
    sources.push_back({name, &builder.report(), &builder.histogram(), builder.pairs(),
                       builder.bootstrap(), learn::player_view(builder.options().games)});
  }
  if (bands) {
    bands->shown = std::move(shown);
    if (sources.empty()) {
      const learn::DatasetBuilder& first = *split->subsets().front().builder;
      const Failure none{"filtered-out",
                         "no game fell in any band (games without the band's rating or speed are "
                         "in none)"};
      if (!text) return fail_json(out, err, none, first.report(), first.histogram());
      return report_failure(err, none);
    }
  }
  return fit_and_compare(options, base->analysis, sources, out, err, bands ? &*bands : nullptr);
}

int run_stats_command(const CliOptions& options, std::FILE* err) {
  auto settings = dataset_settings(options);
  if (!settings) return report_failure(err, settings_failure(settings.error()));
  return run_stats(options, split_options(options, &settings->analysis.model), err);
}

}  // namespace

int run_command(const std::vector<std::string>& args, std::FILE* out, std::FILE* err) {
  if (!args.empty() && args[0] == "replay") return run_replay(args, out, err);  // tests' oracle
  if (!args.empty() && args[0] == "elo") return run_elo(args, out, err);        // match statistics
  if (!args.empty() && args[0] == "match") return run_match(args, out, err);
  if (!args.empty() && args[0] == "analyse") return run_analyse(args, out, err);
  if (!args.empty() && args[0] == "book") return run_book(args, out, err);
  if (!args.empty() && args[0] == "selfplay") return run_selfplay(args, out, err);
  if (!args.empty() && args[0] == "uci") return run_uci(args, stdin, out, err);
  auto parsed = parse_options(args);
  // --lichess / --chesscom: the player's addresses become inputs (chess.com's list is fetched).
  const bool player = parsed && (!parsed->lichess.empty() || !parsed->chesscom.empty());
  const auto options = player ? with_player_inputs(*parsed) : std::move(parsed);
  if (!options && options.error().code != ErrorCode::kInvalidArgument) {
    CliOptions json_options;
    json_options.json = parsed && parsed->json;
    return fail_early(json_options, out, err,
                      {error_code_name(options.error().code), options.error().message,
                       service_status(error_code_name(options.error().code))});
  }
  if (!options) {
    // fit --json and compare --json print their one object even for bad options.
    const bool json_wanted =
        !args.empty() && (args[0] == "fit" || args[0] == "compare") &&
        std::find(args.begin(), args.end(), std::string("--json")) != args.end();
    CliOptions json_options;
    json_options.json = json_wanted;
    return fail_early(json_options, out, err, bad_options(options.error().message));
  }
  switch (options->command) {
    case Command::kHelp:
      std::fputs(usage_text(), out);
      return kExitOk;
    case Command::kVersion:
      std::fputs("materialist 0.1.0\n", out);
      return kExitOk;
    case Command::kRows:
      return run_rows(*options, out, err);
    case Command::kFit:
      return run_fit(*options, out, err);
    case Command::kCompare:
      return run_compare(*options, out, err);
    case Command::kStats:
      return run_stats_command(*options, err);
  }
  return kExitBadOptions;
}

}  // namespace materialist::cli
