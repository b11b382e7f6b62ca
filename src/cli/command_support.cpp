#include "cli/command_support.h"

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

}  // namespace

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

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

learn::Target read_target(const CliOptions& options) {
  if (!options.targets.empty()) return learn::Target::kEval;
  return learn::parse_target(options.target).value_or(learn::Target::kResult);
}

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

learn::ReadRequest read_request(const CliOptions& options, const learn::ModelOptions* model,
                                learn::SplitMode mode) {
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
  request.keep_boards = options.model == "squares" || options.command == Command::kPositions;
  return request;
}

Expected<learn::IngestOptions> ingest_options(const CliOptions& options) {
  return learn::ingest_options_for(read_request(options, nullptr));
}

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

std::optional<Failure> read_files(const std::vector<std::string>& files, learn::DatasetSplit& split,
                                  const CliOptions& options, std::FILE* progress) {
  ReadSettings settings;
  settings.jobs = options.jobs;
  settings.chunk_bytes = options.chunk_bytes;
  settings.max_megabytes = options.max_megabytes;
  // "The first N games" are those of a reading in order: one thread.
  if (options.max_games != 0 || options.max_megabytes > 0) settings.jobs = 1;
  settings.progress = progress;
  return cli::read_files(files, split, settings);
}

std::uint64_t decisive_rows(const learn::Histogram& histogram) {
  const learn::OutcomeCounts& totals = histogram.totals();
  return totals[learn::Outcome::kWhiteWin] + totals[learn::Outcome::kBlackWin];
}

std::string file_problems(const learn::DatasetReport& report) {
  std::string text;
  for (const learn::FileReport& file : report.files) {
    if (file.error.empty()) continue;
    text += (text.empty() ? "" : "; ") + file.name + ": " + file.error;
  }
  return text;
}

std::optional<Failure> nothing_to_fit(const learn::DatasetReport& report,
                                      const learn::Histogram& histogram) {
  const learn::IngestReport& games = report.games;
  const std::string problems = file_problems(report);
  const std::string because = problems.empty() ? "" : " (" + problems + ")";
  if (histogram.totals().total() == 0) {
    if (histogram.has_targets() && games.games_read > games.games_filtered &&
        games.games_used + games.games_partial > 0) {
      return Failure{FailureCode::kNoEvaluations,
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
      return Failure{FailureCode::kFilteredOut, "the filter removed every game (" +
                                                    std::to_string(games.games_read) +
                                                    " games read; removed by " + reasons + ")"};
    }
    if (games.games_read == 0 && report.mat.rows == 0) {
      return Failure{FailureCode::kNoGames, "no games and no .mat rows were found" + because};
    }
    return Failure{FailureCode::kNoRows,
                   "no rows to fit: " + std::to_string(games.games_read) +
                       " games read, none gave a quiet position with a known result" + because};
  }
  if (decisive_rows(histogram) == 0 && !histogram.has_targets()) {
    return Failure{FailureCode::kNoDecisiveRows,
                   std::to_string(histogram.totals().total()) +
                       " rows, none decisive (every row is a draw): piece values cannot be "
                       "fitted from draws alone"};
  }
  return std::nullopt;
}

learn::SplitOptions split_options(const CliOptions& options, const learn::ModelOptions* model,
                                  learn::SplitMode mode) {
  return std::move(learn::split_options_for(read_request(options, model, mode))).value();
}

Expected<learn::DatasetSplit> make_split(const CliOptions& options,
                                         const learn::ModelOptions* model, learn::SplitMode mode) {
  return learn::DatasetSplit::create(split_options(options, model, mode));
}

LoadedDataset load_dataset(const CliOptions& options, const learn::ModelOptions* model,
                           std::FILE* mat_out, std::FILE* progress, bool game_ids,
                           learn::RowSink also) {
  LoadedDataset dataset;
  dataset.split = std::move(make_split(options, model)).value();  // merge: nothing to parse
  learn::DatasetBuilder& merged = dataset.split->merged();
  std::string buffer;
  GameIds ids;
  if (mat_out != nullptr) {
    const learn::DatasetBuilder* builder = &merged;
    merged.set_row_sink([&buffer, &ids, mat_out, game_ids, builder, &also](const learn::Row& row) {
      if (also) also(row);
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
  if (mat_out == nullptr && also) merged.set_row_sink(also);
  const auto start = Clock::now();
  dataset.failure = read_files(options.files, *dataset.split, options, progress);
  if (mat_out != nullptr) std::fwrite(buffer.data(), 1, buffer.size(), mat_out);
  if (mat_out != nullptr || also) merged.set_row_sink({});
  dataset.seconds = seconds_since(start);
  return dataset;
}

void write_eval_counts_json(JsonWriter& json, const learn::IngestReport& games) {
  json.key("evaluations").begin_object();
  json.field("annotatedPositions", games.rows)
      .field("unannotatedPositions", games.rows_without_eval)
      .field("gamesWithEvaluations", games.games_with_evals)
      .field("gamesWithoutEvaluations", games.games_without_evals)
      .field("malformedEvaluations", games.malformed_evals);
  json.end_object();
}

void write_data_json(JsonWriter& json, const learn::DatasetReport& report,
                     const learn::Histogram& histogram, std::size_t max_issues) {
  learn::write_dataset_fields(json, report, max_issues);
  json.field("decisiveRows", decisive_rows(histogram))
      .field("draws", histogram.totals()[learn::Outcome::kDraw])
      .field("distinctRows", static_cast<std::uint64_t>(histogram.distinct()));
  if (histogram.has_targets()) write_eval_counts_json(json, report.games);
}

int report_failure(std::FILE* err, const Failure& failure) {
  std::fprintf(err, "materialist: %s\n", failure.message.c_str());
  return failure.status();
}

int fail_json(std::FILE* out, std::FILE* err, const Failure& failure,
              const learn::DatasetReport& report, const learn::Histogram& histogram) {
  JsonWriter json;
  json.begin_object();
  write_data_json(json, report, histogram, 50);
  write_error_json(json, failure.code_name(), failure.message);
  json.end_object();
  std::fprintf(out, "%s\n", json.str().c_str());
  return report_failure(err, failure);
}

int fail_early(const CliOptions& options, std::FILE* out, std::FILE* err, const Failure& failure) {
  if (!options.json) return report_failure(err, failure);
  return fail_json(out, err, failure, learn::DatasetReport{}, learn::Histogram{});
}

Failure settings_failure(const Error& error) {
  return bad_options(error.message);
}

}  // namespace materialist::cli
