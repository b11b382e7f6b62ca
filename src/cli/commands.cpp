#include "cli/commands.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "cli/band_report.h"
#include "cli/command_support.h"
#include "cli/compare_command.h"
#include "cli/elo_command.h"
#include "cli/help.h"
#include "cli/match_command.h"
#include "cli/player_input.h"
#include "cli/read_files.h"
#include "cli/replay_command.h"
#include "cli/squares_text.h"
#include "cli/stats_command.h"
#include "cli/text_report.h"
#include "core/json.h"
#include "core/text.h"
#include "learn/filter/bands.h"
#include "learn/fit/analysis.h"
#include "learn/fit/squares.h"
#include "learn/fit/squares_report.h"
#include "learn/fit/target_compare.h"
#include "learn/read/dataset.h"
#include "learn/read/dataset_split.h"
#include "learn/read/report_json.h"
#include "learn/stats/mat_io.h"

namespace materialist::cli {

namespace {

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

// positions: every recorded position as "EPD [score]", in game order (Texel-style tuners' form).
int run_positions(const CliOptions& options, std::FILE* out, std::FILE* err) {
  if (auto refusal = eval_refusal(options))
    return report_failure(err, bad_options(refusal->message));
  if (has_stats_inputs(options.files)) {
    return report_failure(err, bad_options("positions reads games, not .mstats files"));
  }
  std::string buffer;
  std::uint64_t without_board = 0;
  std::uint64_t written = 0;
  const learn::RowSink sink = [&](const learn::Row& row) {
    if (!row.board.valid()) {
      ++without_board;
      return;
    }
    if (options.split != "all" &&
        learn::held_out_game(row.game_hash) != (options.split == "held-out")) {
      return;
    }
    const bool evaluation = row.target != learn::kNoTarget;
    const double score = evaluation ? learn::target_score(row.target)
                         : row.outcome == learn::Outcome::kWhiteWin ? 1.0
                         : row.outcome == learn::Outcome::kDraw     ? 0.5
                                                                    : 0.0;
    learn::append_labelled_epd(buffer, row.board, score, evaluation);
    ++written;
    if (buffer.size() >= (1 << 16)) {
      std::fwrite(buffer.data(), 1, buffer.size(), out);
      buffer.clear();
    }
  };
  LoadedDataset dataset =
      load_dataset(options, nullptr, nullptr, options.progress ? err : nullptr, false, sink);
  std::fwrite(buffer.data(), 1, buffer.size(), out);
  if (dataset.failure) return report_failure(err, *dataset.failure);
  if (options.progress) print_dataset_summary(err, dataset.builder().report());
  if (without_board > 0) {
    std::fprintf(err, "materialist: %llu .mat rows carry no board: left out\n",
                 static_cast<unsigned long long>(without_board));
  }
  if (written == 0)
    return report_failure(err, Failure{FailureCode::kNoRows, "no position to write"});
  return kExitOk;
}

// The data a fit reads: the files read (and perhaps exported as .mat), or statistics files merged.
struct FitData {
  LoadedDataset dataset;
  LoadedStats stats;
  bool from_stats = false;

  const learn::Histogram& histogram() const {
    return from_stats ? stats.stats->histogram : dataset.builder().histogram();
  }
  const learn::DatasetReport& report() const {
    return from_stats ? stats.stats->report : dataset.builder().report();
  }
  const learn::GamePairs* pairs() const {
    return from_stats ? &stats.stats->pairs : dataset.builder().pairs();
  }
  const learn::BootstrapHistograms* replicates() const {
    return from_stats ? stats.stats->bootstrap.get() : dataset.builder().bootstrap();
  }
};

// Step 1: the data, or the failure before anything was fitted (a file the export cannot write,
// options that read no statistics file, statistics that do not merge).
std::optional<Failure> load_fit_data(const CliOptions& options,
                                     const learn::AnalysisSettings& analysis, std::FILE* err,
                                     FitData& data, learn::RowSink also) {
  std::unique_ptr<std::FILE, FileCloser> mat_file;
  if (!options.export_mat.empty()) {
    mat_file.reset(std::fopen(options.export_mat.c_str(), "wb"));
    if (!mat_file)
      return Failure{FailureCode::kUnwritableFile, "cannot write " + options.export_mat};
  }
  data.from_stats = has_stats_inputs(options.files);
  if (!data.from_stats) {
    data.dataset =
        load_dataset(options, &analysis.model, mat_file.get(),
                     options.progress && !options.json ? err : nullptr, false, std::move(also));
    return std::nullopt;
  }
  if (also) return bad_options("--model squares reads games (where the pieces stand), not .mstats");
  if (mat_file) return bad_options("--export-mat needs games, not .mstats");
  if (options.max_games != 0 || options.max_megabytes > 0) {
    return bad_options(
        "--max-games and --max-mb limit a read of games: statistics files are merged whole");
  }
  const auto start = Clock::now();
  data.stats = load_stats(options.files, split_options(options, &analysis.model), analysis.model);
  data.dataset.seconds = seconds_since(start);
  if (!data.stats.failure) return std::nullopt;
  return data.stats.failure;
}

// Step 3 (text): the fit's tables, relations and the sides' values.
void print_fit_text(std::FILE* out, const learn::ModelFit& fit, const DatasetSettings& settings,
                    const CliOptions& options, const learn::BootstrapFit* bootstrap,
                    const learn::DatasetReport& report) {
  print_fit(out, fit, settings.analysis, options.units, bootstrap, settings.player_view);
  if (fit.errors == learn::ErrorKind::kClustered && report.mat.rows > 0) {
    std::fprintf(out, "  (.mat rows carry no game: each counts as a game of its own)\n");
  }
  print_relations(out, fit, options.units);
  print_sides(out, fit, options.units);
}

// Step 3 (--json): one object with the settings, the data, the fit and the timings.
// The squares model beside the material fit (--model squares): its data and its fit, or why
// there is none.
struct SquaresRun {
  learn::SquaresOptions options;
  std::optional<learn::SquaresData> data;
  std::optional<Expected<learn::SquaresFit>> fit;
  double seconds = 0;
};

learn::SquaresOptions squares_options_of(const CliOptions& options,
                                         const learn::AnalysisSettings& analysis) {
  learn::SquaresOptions squares;
  squares.target = analysis.model.target;
  squares.outcomes = analysis.model.outcomes;
  squares.max_positions = options.max_positions;
  if (options.squares_lambda) squares.lambdas = {*options.squares_lambda};
  return squares;
}

void write_squares_run_json(JsonWriter& json, const SquaresRun& run, const std::string& units) {
  json.field("model", "squares");
  if (run.fit) {
    learn::write_squares_result_json(json, *run.data, *run.fit, units, run.options);
  } else {
    learn::write_squares_data_json(json, *run.data, run.options);
  }
  json.field("squaresSeconds", run.seconds);
}

void print_fit_json(std::FILE* out, const learn::ModelFit& fit, const DatasetSettings& settings,
                    const FitData& data, const learn::BootstrapFit* bootstrap, double fit_seconds,
                    const SquaresRun* squares, const std::string& units) {
  const learn::AnalysisSettings& analysis = settings.analysis;
  JsonWriter json;
  json.begin_object();
  json.field("preset", analysis.preset).field("solver", learn::solver_name(analysis.solver));
  json.field("outcomes", learn::outcome_model_name(analysis.model.outcomes));
  json.field("target", learn::target_name(analysis.model.target));
  json.field("pointOfView", settings.player_view ? "player" : "white");
  write_model_terms_json(json, analysis.model);
  write_data_json(json, data.report(), data.histogram(), 50);
  write_fit_json(json, fit, settings.player_view);
  if (bootstrap != nullptr) write_bootstrap_json(json, *bootstrap);
  if (squares != nullptr) write_squares_run_json(json, *squares, units);
  json.field("parseSeconds", data.dataset.seconds)
      .field("fitSeconds", fit_seconds)
      .field("seconds", data.dataset.seconds + fit_seconds)
      .end_object();
  std::fprintf(out, "%s\n", json.str().c_str());
}

// fit: settings, data (step 1), the fit and its bootstrap (step 2), the report (step 3).
int run_fit(const CliOptions& options, std::FILE* out, std::FILE* err) {
  const bool text = !options.json;
  auto settings = dataset_settings(options);
  if (!settings) return fail_early(options, out, err, settings_failure(settings.error()));
  const learn::AnalysisSettings& analysis = settings->analysis;
  SquaresRun squares;
  learn::RowSink squares_sink;
  if (options.model == "squares") {
    squares.options = squares_options_of(options, analysis);
    if (squares.options.outcomes == learn::OutcomeModel::kOrdinal) {
      return fail_early(options, out, err,
                        bad_options("--model squares fits draws left out or as 1/2 (--outcomes "
                                    "draws-out or fractional), not the ordinal model"));
    }
    squares.data.emplace(squares.options);
    squares_sink = [&squares](const learn::Row& row) { squares.data->add(row); };
  }
  FitData data;
  if (auto failure = load_fit_data(options, analysis, err, data, std::move(squares_sink)))
    return fail_early(options, out, err, *failure);
  const learn::Histogram& histogram = data.histogram();
  const learn::DatasetReport& report = data.report();
  std::optional<Failure> failure = data.dataset.failure;
  if (!failure) failure = nothing_to_fit(report, histogram);
  if (failure) {
    if (!text) return fail_json(out, err, *failure, report, histogram);
    if (!data.dataset.failure) print_dataset_summary(out, report);  // what the files gave
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
      options.log_every, data.pairs());
  const double fit_seconds = seconds_since(fit_start);
  if (!fit) {
    const Failure failed{FailureCode::kFitFailed, "the fit failed: " + fit.error().message};
    if (!text) return fail_json(out, err, failed, report, histogram);
    return report_failure(err, failed);
  }
  std::optional<learn::BootstrapFit> bootstrap;
  if (const learn::BootstrapHistograms* replicates = data.replicates()) {
    if (options.progress && text) {
      std::fprintf(err, "Bootstrap: refitting %d replicates...\n", replicates->replicate_count());
    }
    bootstrap = learn::bootstrap_model(*replicates, analysis.model);
  }
  const learn::BootstrapFit* boot = bootstrap ? &*bootstrap : nullptr;
  if (squares.data) {
    if (options.progress && text) std::fprintf(err, "Fitting values by square...\n");
    const auto squares_start = Clock::now();
    squares.fit = learn::fit_squares(*squares.data, squares.options);
    squares.seconds = seconds_since(squares_start);
  }
  if (text) {
    print_fit_text(out, *fit, *settings, options, boot, report);
  } else {
    print_fit_json(out, *fit, *settings, data, boot, fit_seconds, squares.data ? &squares : nullptr,
                   options.units);
  }
  if (!squares.fit) return kExitOk;
  if (!*squares.fit) {  // the material fit stands; the squares model could not be fitted
    if (text)
      std::fprintf(out, "\nValues by square: not fitted: %s\n",
                   squares.fit->error().message.c_str());
    return report_failure(err, Failure{FailureCode::kSquaresNotFitted,
                                       "values by square: " + squares.fit->error().message});
  }
  const learn::SquaresUnit unit = learn::squares_unit(options.units, **squares.fit);
  if (text) print_squares_text(out, **squares.fit, *squares.data, unit, squares.options);
  if (!options.export_squares.empty()) {
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(options.export_squares.c_str(), "wb"));
    const std::string body =
        learn::squares_export_text(options.export_squares, **squares.fit, unit, squares.options);
    if (!file || std::fwrite(body.data(), 1, body.size(), file.get()) != body.size()) {
      return report_failure(
          err, Failure{FailureCode::kUnwritableFile, "cannot write " + options.export_squares});
    }
  }
  return kExitOk;
}

int run_stats_command(const CliOptions& options, std::FILE* err) {
  auto settings = dataset_settings(options);
  if (!settings) return report_failure(err, settings_failure(settings.error()));
  return run_stats(options, split_options(options, &settings->analysis.model), err);
}

// rows, fit, compare and stats: their options, a player's games as inputs, then the command.
int run_file_command(Verb verb, const std::vector<std::string>& args, std::FILE* out,
                     std::FILE* err) {
  auto parsed = parse_options(args);
  // --lichess / --chesscom: the player's addresses become inputs (chess.com's list is fetched).
  const bool player = parsed && (!parsed->lichess.empty() || !parsed->chesscom.empty());
  const auto options = player ? with_player_inputs(*parsed) : std::move(parsed);
  if (!options && options.error().code != ErrorCode::kInvalidArgument) {
    CliOptions json_options;
    json_options.json = parsed && parsed->json;
    return fail_early(json_options, out, err,
                      {input_failure_code(options.error().code), options.error().message});
  }
  if (!options) {
    // fit --json and compare --json print their one object even for bad options.
    const bool json_wanted =
        (verb == Verb::kFit || verb == Verb::kCompare) &&
        std::find(args.begin(), args.end(), std::string("--json")) != args.end();
    if (json_wanted) {
      CliOptions json_options;
      json_options.json = true;
      return fail_early(json_options, out, err, bad_options(options.error().message));
    }
    std::fprintf(err, "materialist %s: %s\n", verb_name(verb), options.error().message.c_str());
    return kExitBadOptions;
  }
  switch (options->command) {
    case Command::kRows:
      return run_rows(*options, out, err);
    case Command::kFit:
      return run_fit(*options, out, err);
    case Command::kCompare:
      return run_compare(*options, out, err);
    case Command::kStats:
      return run_stats_command(*options, err);
    case Command::kPositions:
      return run_positions(*options, out, err);
    case Command::kHelp:
    case Command::kVersion:
      break;
  }
  return kExitBadOptions;
}

}  // namespace

int run_command(const std::vector<std::string>& args, std::FILE* out, std::FILE* err) {
  // docs/CLI.md's reference section (scripts/update-cli-reference.sh).
  if (args.size() == 2 && args[0] == "help" && args[1] == "--reference") {
    std::fputs(reference_markdown().c_str(), out);
    return kExitOk;
  }
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    const std::optional<Verb> topic = args.size() > 1 ? verb_named(args[1]) : std::nullopt;
    std::fputs((topic ? command_help(*topic) : global_help()).c_str(), out);
    return kExitOk;
  }
  if (args[0] == "--version") {
    std::fputs("materialist 0.1.0\n", out);
    return kExitOk;
  }
  const std::optional<Verb> verb = verb_named(args[0]);
  if (!verb) {
    std::fprintf(err, "materialist: unknown command '%s' (try materialist --help)\n",
                 printable(args[0]).c_str());
    return kExitBadOptions;
  }
  if (const auto parsed = parse_arguments(*verb, std::span(args).subspan(1));
      parsed && parsed->help) {
    std::fputs(command_help(*verb).c_str(), out);
    return kExitOk;
  }
  switch (*verb) {
    case Verb::kReplay:
      return run_replay(args, out, err);  // the tests' oracle
    case Verb::kElo:
      return run_elo(args, out, err);  // match statistics
    case Verb::kMatch:
      return run_match(args, out, err);
    case Verb::kAnalyse:
      return run_analyse(args, out, err);
    case Verb::kBook:
      return run_book(args, out, err);
    case Verb::kSelfplay:
      return run_selfplay(args, out, err);
    case Verb::kUci:
      return run_uci(args, stdin, out, err);
    case Verb::kRows:
    case Verb::kFit:
    case Verb::kCompare:
    case Verb::kStats:
    case Verb::kPositions:
      break;
  }
  return run_file_command(*verb, args, out, err);
}

}  // namespace materialist::cli
