#include "cli/options.h"

#include "cli/argument_error.h"
#include "cli/arguments.h"
#include "learn/vocabulary/imbalance.h"

namespace materialist::cli {

namespace {

// A file command's Verb is its Command: both enums list rows, fit, compare and stats first.
static_assert(static_cast<int>(Command::kRows) == static_cast<int>(Verb::kRows) &&
              static_cast<int>(Command::kFit) == static_cast<int>(Verb::kFit) &&
              static_cast<int>(Command::kCompare) == static_cast<int>(Verb::kCompare) &&
              static_cast<int>(Command::kStats) == static_cast<int>(Verb::kStats) &&
              static_cast<int>(Command::kPositions) == static_cast<int>(Verb::kPositions));

std::optional<int> optional_int(const Arguments& args, Opt id) {
  if (!args.has(id)) return std::nullopt;
  return static_cast<int>(args.integer(id, 0));
}

std::optional<double> optional_number(const Arguments& args, Opt id) {
  if (!args.has(id)) return std::nullopt;
  return args.number(id, 0);
}

// Every value was checked by its declaration: here they only move into the struct.
void read_data_and_model(const Arguments& args, CliOptions& options) {
  options.preset = args.text_or(Opt::kPreset, options.preset);
  options.quiet_plies = optional_int(args, Opt::kQuietPlies);
  options.checks_are_quiet = args.has(Opt::kChecksQuiet);
  options.every_position = args.has(Opt::kEveryPosition);
  options.skip_plies = static_cast<int>(args.integer(Opt::kSkipPlies, 0));
  options.filter = args.text_or(Opt::kFilter, "");
  options.each_filter = args.all(Opt::kEach);
  options.by = args.text_or(Opt::kBy, "");
  options.solver = args.text_or(Opt::kSolver, "");
  options.outcomes = args.text_or(Opt::kOutcomes, "");
  options.target = args.text_or(Opt::kTarget, options.target);
  if (const auto targets = args.text(Opt::kTargets)) options.targets = *parse_target_pair(*targets);
  options.iterations = optional_int(args, Opt::kIterations);
  options.alpha = optional_number(args, Opt::kAlpha);
  options.lambda = optional_number(args, Opt::kLambda);
  if (args.has(Opt::kIntercept)) options.intercept = true;
  if (args.has(Opt::kNoIntercept)) options.intercept = false;
  options.side_to_move = args.has(Opt::kSideToMove);
  options.bishop_pair = args.has(Opt::kBishopPair);
  options.phase = args.has(Opt::kPhase);
  options.elo_offset = args.has(Opt::kEloOffset);
  if (const auto terms = args.text(Opt::kImbalance))
    options.imbalances = *learn::parse_imbalance_list(*terms);
  options.split_sides = args.has(Opt::kSplitSides);
  options.model = args.text_or(Opt::kModel, options.model);
  options.max_positions = static_cast<std::uint64_t>(
      args.integer(Opt::kMaxPositions, static_cast<std::int64_t>(options.max_positions)));
  options.squares_lambda = optional_number(args, Opt::kSquaresLambda);
  options.split = args.text_or(Opt::kSplit, options.split);
  options.units = args.text_or(Opt::kUnits, options.units);
  options.bootstrap = static_cast<int>(args.integer(Opt::kBootstrap, 0));
  options.seed = static_cast<std::uint64_t>(args.integer(Opt::kSeed, 1));
}

void read_output_and_reading(const Arguments& args, CliOptions& options) {
  options.game_ids = args.has(Opt::kGameIds);
  options.export_mat = args.text_or(Opt::kExportMat, "");
  options.export_squares = args.text_or(Opt::kExportSquares, "");
  options.json = args.has(Opt::kJson);
  options.log_every = static_cast<int>(args.integer(Opt::kLogEvery, options.log_every));
  options.progress = !args.has(Opt::kNoProgress);
  options.jobs = static_cast<int>(args.integer(Opt::kJobs, 0));
  options.chunk_bytes = static_cast<std::size_t>(
      args.integer(Opt::kChunkBytes, static_cast<std::int64_t>(options.chunk_bytes)));
  options.max_games = static_cast<std::uint64_t>(args.integer(Opt::kMaxGames, 0));
  options.max_megabytes = args.number(Opt::kMaxMb, 0);
  options.output = args.text_or(Opt::kOutput, "");
  if (const auto range = args.text(Opt::kRange)) options.range = *parse_byte_range(*range);
  options.file_index = static_cast<std::uint64_t>(args.integer(Opt::kFileIndex, 0));
  options.lichess = args.text_or(Opt::kLichess, "");
  options.chesscom = args.text_or(Opt::kChesscom, "");
  options.speed = args.text_or(Opt::kSpeed, "");
  options.since = args.text_or(Opt::kSince, "");
  options.until = args.text_or(Opt::kUntil, "");
  options.rated = args.has(Opt::kRated);
  options.both_sides = args.has(Opt::kBothSides);
}

// The rules between options, checked once all are read.
std::optional<Error> check_combinations(const Arguments& args, const CliOptions& options) {
  if (args.has(Opt::kIntercept) && args.has(Opt::kNoIntercept)) {
    return bad_argument("--intercept and --no-intercept: give one of them");
  }
  if (args.has(Opt::kBy) && args.has(Opt::kEach))
    return bad_argument("--by and --each: give one of them");
  if (options.model != "squares") {
    for (const Opt id : {Opt::kMaxPositions, Opt::kExportSquares, Opt::kSquaresLambda}) {
      if (args.has(id))
        return bad_argument(std::string(spec_of(id).name) + " needs --model squares");
    }
  }
  if (options.files.empty() && options.lichess.empty() && options.chesscom.empty()) {
    return bad_argument("no input files (" + help_hint(args.verb) + ")");
  }
  return std::nullopt;
}

}  // namespace

Expected<CliOptions> parse_options(const std::vector<std::string>& args) {
  CliOptions options;
  if (args.empty()) return options;
  const std::string& word = args[0];
  if (word == "--help" || word == "-h" || word == "help") return options;
  if (word == "--version") {
    options.command = Command::kVersion;
    return options;
  }
  const std::optional<Verb> verb = verb_named(word);
  if (!verb || static_cast<int>(*verb) > static_cast<int>(Verb::kPositions)) {
    return bad_argument("unknown command '" + word + "' (try materialist --help)");
  }
  options.command = static_cast<Command>(*verb);
  auto parsed = parse_arguments(*verb, std::span(args).subspan(1));
  if (!parsed) return parsed.error();
  if (parsed->help) {
    options.command = Command::kHelp;
    return options;
  }
  options.files = std::move(parsed->operands);
  read_data_and_model(*parsed, options);
  read_output_and_reading(*parsed, options);
  if (auto error = check_combinations(*parsed, options)) return *error;
  return options;
}

}  // namespace materialist::cli
