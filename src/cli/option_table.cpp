#include "cli/option_table.h"

#include <algorithm>

#include "cli/option_checks.h"
#include "learn/fit/analysis.h"
#include "learn/vocabulary/eval_target.h"
#include "learn/vocabulary/model_options.h"

namespace materialist::cli {

namespace {

using enum Verb;
using enum ValueKind;

// The commands that read games (or rows, or statistics files); those that fit a model; those
// that play games with the engine.
constexpr VerbSet kReaders{kRows, kFit, kCompare, kStats, kPositions};
constexpr VerbSet kModels{kFit, kCompare, kStats};
constexpr VerbSet kFits{kFit, kCompare};
constexpr VerbSet kEngines{kMatch, kAnalyse, kSelfplay, kUci};
constexpr VerbSet kGames{kMatch, kSelfplay};

constexpr std::array kUnitChoices = {"pawn", "elo", "logodds"};
constexpr std::array kModelChoices = {"material", "squares"};
constexpr std::array kPositionFormats = {"epd"};
constexpr std::array kSplitChoices = {"all", "training", "held-out"};
constexpr std::int64_t kInt64Max = INT64_MAX;

constexpr OptionSpec integer(Opt id, std::string_view name, std::string_view value_name,
                             VerbSet verbs, Section section, std::int64_t minimum,
                             std::int64_t maximum, std::string_view default_text,
                             std::string_view help) {
  return {.id = id,
          .name = name,
          .kind = kInteger,
          .value_name = value_name,
          .verbs = verbs,
          .section = section,
          .help = help,
          .default_text = default_text,
          .minimum = minimum,
          .maximum = maximum};
}
constexpr OptionSpec number(Opt id, std::string_view name, std::string_view value_name,
                            VerbSet verbs, Section section, NumberRule rule,
                            std::string_view default_text, std::string_view help) {
  return {.id = id,
          .name = name,
          .kind = kNumber,
          .value_name = value_name,
          .verbs = verbs,
          .section = section,
          .help = help,
          .default_text = default_text,
          .number_rule = rule};
}
constexpr OptionSpec flag(Opt id, std::string_view name, VerbSet verbs, Section section,
                          std::string_view help) {
  return {
      .id = id, .name = name, .kind = kSwitch, .verbs = verbs, .section = section, .help = help};
}
constexpr OptionSpec text(Opt id, std::string_view name, std::string_view value_name, VerbSet verbs,
                          Section section, std::string_view help, ValueCheck check = nullptr,
                          bool repeatable = false) {
  return {.id = id,
          .name = name,
          .kind = kText,
          .value_name = value_name,
          .verbs = verbs,
          .section = section,
          .help = help,
          .check = check,
          .repeatable = repeatable};
}
template <std::size_t N>
constexpr OptionSpec choice(Opt id, std::string_view name, VerbSet verbs, Section section,
                            const std::array<const char*, N>& choices,
                            std::string_view default_text, std::string_view help) {
  return {.id = id,
          .name = name,
          .kind = kChoice,
          .value_name = "NAME",
          .verbs = verbs,
          .section = section,
          .help = help,
          .default_text = default_text,
          .choices = choices};
}
constexpr OptionSpec with_alias(OptionSpec spec, std::string_view alias) {
  spec.alias = alias;
  return spec;
}

constexpr std::array<OptionSpec, static_cast<std::size_t>(Opt::kCount)> kOptions = {{
    // ---- data
    choice(Opt::kPreset, "--preset", kReaders, Section::kData, learn::kPresetNames, "default",
           "article: the founding article's exact procedure (unknown results count as draws,\n"
           "draws out of the fit, gradient descent); default: unknown results skipped, Newton;\n"
           "exact: as default, with draws as half points (the app's Exact)"),
    integer(Opt::kQuietPlies, "--quiet-plies", "N", kReaders, Section::kData, 0, 100,
            "the preset's: 2",
            "quiet plies (no capture, check or promotion) before a position is recorded"),
    flag(Opt::kChecksQuiet, "--checks-quiet", kReaders, Section::kData,
         "checks do not break quietness"),
    flag(Opt::kEveryPosition, "--every-position", kReaders, Section::kData,
         "record every quiet position, not one per distinct material vector"),
    integer(Opt::kSkipPlies, "--skip-plies", "K", kReaders, Section::kData, 0, 1000, "0",
            "ignore the first K plies of each game"),
    text(Opt::kFilter, "--filter", "SPEC", kReaders, Section::kData,
         "game filter, e.g. \"player=Carlsen;elo=2000-2800;tc=blitz,rapid\" (docs/CLI.md)",
         check_game_filter),
    text(Opt::kEach, "--each", "SPEC", {kCompare}, Section::kData,
         "a dataset per filter (repeatable), added to --filter: --each tc=bullet --each\n"
         "tc=blitz; the files are read once for all of them",
         check_game_filter, true),
    text(Opt::kBy, "--by", "BANDS", {kCompare}, Section::kData,
         "a dataset per band, read once: elo:WIDTH (the average rating, or the player's with\n"
         "--filter \"player=NAME\"), elo:WIDTH:average, elo:WIDTH:player, or speed; bands of\n"
         "800 to 2800 (open below and above), empty bands left out; not with --each",
         check_band_spec),
    // ---- model
    choice(Opt::kSolver, "--solver", kModels, Section::kModel, learn::kSolverNames, "the preset's",
           "gradient descent (the article's) or exact Newton/IRLS"),
    choice(Opt::kOutcomes, "--outcomes", kModels, Section::kModel, learn::kOutcomeModelNames,
           "the preset's", "how results become the fitted target"),
    choice(Opt::kTarget, "--target", kReaders, Section::kModel, learn::kTargetNames, "result",
           "what is fitted: the game's result, or the engine's evaluation, the [%eval] of the\n"
           "move that led to each position as White's expected score 1/(1+exp(-0.00368208*cp)),\n"
           "cp clamped to +-1000, mates 1 or 0 (lichess); positions without one are left out\n"
           "and counted"),
    text(Opt::kTargets, "--targets", "result,eval", {kCompare}, Section::kModel,
         "both targets on the same annotated positions, side by side with their differences\n"
         "and errors",
         check_target_pair),
    integer(Opt::kIterations, "--iterations", "N", kModels, Section::kModel, 0, 100'000'000,
            "10000", "gradient-descent iterations"),
    number(Opt::kAlpha, "--alpha", "A", kModels, Section::kModel, NumberRule::kNonNegative, "1",
           "gradient-descent step"),
    number(Opt::kLambda, "--lambda", "L", kModels, Section::kModel, NumberRule::kNonNegative,
           "1e-6", "gradient descent's L2 penalty"),
    flag(Opt::kIntercept, "--intercept", kModels, Section::kModel,
         "fit White's first-move advantage (from a player's point of view, --filter\n"
         "\"player=NAME;pov=1\": the player's edge, on by default)"),
    flag(Opt::kNoIntercept, "--no-intercept", kModels, Section::kModel,
         "no intercept, even from a player's point of view"),
    flag(Opt::kSideToMove, "--side-to-move", kModels, Section::kModel,
         "a side-to-move term (+1 White to move, -1 Black) beside the values"),
    flag(Opt::kBishopPair, "--bishop-pair", kModels, Section::kModel, "a bishop-pair term"),
    flag(Opt::kPhase, "--phase", kModels, Section::kModel,
         "middlegame and endgame values, tapered by phase"),
    flag(Opt::kEloOffset, "--elo-offset", kModels, Section::kModel,
         "add ln10/400 * (WhiteElo - BlackElo) to the log-odds"),
    text(Opt::kImbalance, "--imbalance", "TERM,...|all", kModels, Section::kModel,
         "imbalance terms beside the values (White's minus Black's): knight-pawns, rook-pawns\n"
         "(per knight or rook per own pawn beyond 5), rook-pair, queen-rook, minor-pair (two\n"
         "minors, not the bishop pair), exchange-minors, exchange-no-minors, the article's\n"
         "queen-knight and rook-bishop (a side has both), opposite-bishops, last-pawn",
         check_imbalance_list),
    flag(Opt::kSplitSides, "--split-sides", kModels, Section::kModel,
         "own and opponent's pieces as separate columns (needs --filter \"player=NAME;pov=1\")"),
    choice(Opt::kModel, "--model", {kFit}, Section::kModel, kModelChoices, "material",
           "material: piece values (and the terms above); squares: besides them, a middlegame\n"
           "and an endgame value for each piece on each square, tapered by phase, its penalty\n"
           "chosen on a held-out tenth of the games (docs/SQUARES.md)"),
    integer(Opt::kMaxPositions, "--max-positions", "N", {kFit}, Section::kModel, 1000, 100'000'000,
            "1000000",
            "--model squares: at most N positions kept (about 40 bytes each); more are\n"
            "sampled uniformly, and the report says so"),
    number(Opt::kSquaresLambda, "--squares-lambda", "L", {kFit}, Section::kModel,
           NumberRule::kPositive, "chosen",
           "--model squares: this penalty, instead of the one of 4096, 1024, ..., 1 with the\n"
           "lowest held-out log-loss"),
    choice(Opt::kUnits, "--units", kFits, Section::kModel, kUnitChoices, "pawn",
           "how values are reported: pawn = 100, Elo, or natural log-odds"),
    integer(Opt::kBootstrap, "--bootstrap", "B", kModels, Section::kModel, 0, 10'000, "0",
            "B bootstrap replicates over games for 95% intervals"),
    // ---- output
    flag(Opt::kGameIds, "--game-ids", {kRows}, Section::kOutput,
         "a last column: the row's game id, file index * 2^40 + the game's 1-based number in\n"
         "its file (a .mat row: its row number)"),
    text(Opt::kExportMat, "--export-mat", "FILE", {kFit}, Section::kOutput,
         "also write the rows in .mat format"),
    text(Opt::kExportSquares, "--export-squares", "FILE", {kFit}, Section::kOutput,
         "--model squares: also write the tables, by the name's ending: .csv (a row per piece,\n"
         "phase and square), .h or .hpp (a C++ header of constexpr arrays), else JSON"),
    choice(Opt::kFormat, "--format", {kPositions}, Section::kOutput, kPositionFormats, "epd",
           "epd: a line per position, its four EPD fields and White's score in brackets,\n"
           "[1.0], [0.5] or [0.0] (--target eval: the evaluation's expected score)"),
    choice(Opt::kSplit, "--split", {kPositions}, Section::kOutput, kSplitChoices, "all",
           "the positions of every game, or of the games --model squares trains on, or of the\n"
           "tenth it holds out (by a hash of each game's moves)"),
    integer(Opt::kLogEvery, "--log-every", "N", kFits, Section::kOutput, 1, 100'000'000, "1000",
            "gradient descent's iteration log interval"),
    // ---- reading
    integer(Opt::kChunkBytes, "--chunk-bytes", "N", kReaders, Section::kReading, 1,
            std::int64_t{1} << 30, "1048576",
            "with -j: the text is cut at game starts into chunks of about N bytes"),
    integer(Opt::kMaxGames, "--max-games", "N", kReaders, Section::kReading, 1, kInt64Max, "all",
            "read only the first N games (over all files), in one thread"),
    number(Opt::kMaxMb, "--max-mb", "X", kReaders, Section::kReading, NumberRule::kPositive, "all",
           "read only the first X MB of the files (as stored), to the end of the game being\n"
           "read, in one thread"),
    // ---- a player's games
    text(Opt::kLichess, "--lichess", "NAME", kReaders, Section::kPlayer,
         "NAME's games from lichess (newest first; --max-games N asks for N), beside files"),
    text(Opt::kChesscom, "--chesscom", "NAME", kReaders, Section::kPlayer,
         "NAME's monthly archives from chess.com, newest month first"),
    text(Opt::kSpeed, "--speed", "S", kReaders, Section::kPlayer,
         "lichess's speeds: bullet, blitz, rapid, classical (comma list; chess.com: a\n"
         "time-control filter)"),
    flag(Opt::kRated, "--rated", kReaders, Section::kPlayer, "rated games only"),
    text(Opt::kSince, "--since", "DAY", kReaders, Section::kPlayer,
         "the first day, YYYY-MM-DD (chess.com: its month)"),
    text(Opt::kUntil, "--until", "DAY", kReaders, Section::kPlayer,
         "the last day, YYYY-MM-DD (chess.com: its month)"),
    flag(Opt::kBothSides, "--both-sides", kReaders, Section::kPlayer,
         "both sides as White and Black (by default from the player's side)"),
    // ---- statistics files
    with_alias(text(Opt::kOutput, "--output", "FILE", {kStats}, Section::kStatistics,
                    "the statistics file to write (.mstats; docs/MSTATS.md)"),
               "-o"),
    text(Opt::kRange, "--range", "START:END", {kStats}, Section::kStatistics,
         "read only bytes START to END of the one (plain PGN) input, each end moved to the next\n"
         "game start: ranges made apart tile the file",
         check_byte_range),
    integer(Opt::kFileIndex, "--file-index", "N", {kStats}, Section::kStatistics, 0,
            (std::int64_t{1} << 23) - 1, "0",
            "the first input's place in the whole collection: the games' bootstrap ids"),
    // ---- value sets and the engine
    text(Opt::kValues, "--values", "SET", kEngines, Section::kEngine,
         "the set under test: P,N,B,R,Q in centipawns (100,300,300,500,900), NAME:P,N,B,R,Q,\n"
         "a named set (classic, kaufman, article-12.5, article-a, article-b, article-c,\n"
         "learned-sample, simplified: Michniewski's values and piece-square tables) or a\n"
         "`fit --json` output file (.json; with --model squares, its tables)",
         nullptr),
    text(Opt::kVs, "--vs", "SET", {kMatch, kAnalyse}, Section::kEngine,
         "an opponent (repeatable), a SET as for --values", nullptr, true),
    flag(Opt::kRoundRobin, "--round-robin", {kMatch}, Section::kEngine,
         "every set against every other (default: --values against each --vs)"),
    integer(Opt::kNodes, "--nodes", "K", kEngines, Section::kEngine, 1, 1'000'000'000,
            "20000; analyse: 1000000",
            "nodes a move: the same games on any machine (one of --nodes, --depth, --movetime)"),
    integer(Opt::kDepth, "--depth", "D", kEngines, Section::kEngine, 1, 100, "", "plies a move"),
    integer(Opt::kMovetime, "--movetime", "MS", kEngines, Section::kEngine, 1, 600'000, "",
            "milliseconds a move (not reproducible)"),
    flag(Opt::kMaterialOnly, "--material-only", kEngines, Section::kEngine,
         "the evaluation without its shared piece-square tables (a set of tables keeps its own)"),
    integer(Opt::kHashMb, "--hash-mb", "MB", kEngines, Section::kEngine, 1, 1024, "1",
            "the transposition table's size"),
    text(Opt::kFen, "--fen", "FEN", {kAnalyse}, Section::kEngine, "the position to analyse",
         check_fen),
    // ---- matches
    integer(Opt::kPairs, "--pairs", "N", kGames, Section::kPlaying, 1, 1'000'000, "50",
            "game pairs per pairing (selfplay: per round), each opening played with both colours"),
    integer(Opt::kRounds, "--rounds", "N", {kSelfplay}, Section::kPlaying, 1, 1000, "3",
            "rounds of learn, play, learn again"),
    text(Opt::kBook, "--book", "FILE", kGames, Section::kPlaying,
         "openings: a PGN (positions --book-plies in) or an EPD file (default: the bundled\n"
         "sample's 1292 positions 8 plies in)"),
    integer(Opt::kBookPlies, "--book-plies", "N", {kMatch, kSelfplay, kBook}, Section::kPlaying, 0,
            40, "8", "plies into each game of a PGN book"),
    text(Opt::kDraw, "--draw", "RULE", kGames, Section::kPlaying,
         "draw adjudication: movenumber=40,movecount=8,score=10 (the default)", check_draw_rule),
    flag(Opt::kNoDrawAdjudication, "--no-draw-adjudication", kGames, Section::kPlaying,
         "no draw adjudication"),
    text(Opt::kResign, "--resign", "RULE", kGames, Section::kPlaying,
         "resign adjudication: movecount=3,score=600 (the default)", check_resign_rule),
    flag(Opt::kNoResign, "--no-resign", kGames, Section::kPlaying, "no resign adjudication"),
    integer(Opt::kMaxPlies, "--max-plies", "N", kGames, Section::kPlaying, 0, 100'000, "400",
            "a draw after N plies (0: no limit)"),
    flag(Opt::kNoAdjudication, "--no-adjudication", kGames, Section::kPlaying,
         "no adjudication at all (no draw, resign or ply limit)"),
    text(Opt::kPgn, "--pgn", "OUT", {kMatch}, Section::kPlaying,
         "write the games (valid input for fit; [%eval] comments)"),
    text(Opt::kOut, "--out", "DIR", {kSelfplay}, Section::kPlaying, "the folder for round-N.pgn"),
    // ---- match statistics
    text(Opt::kSprt, "--sprt", "ELO0,ELO1[,A,B]", {kMatch, kElo}, Section::kMatchStatistics,
         "the generalized SPRT with bounds in normalized Elo (alpha = beta = 0.05 by\n"
         "default); match: stop when it decides",
         check_sprt),
    flag(Opt::kLogistic, "--logistic", {kMatch, kElo}, Section::kMatchStatistics,
         "--sprt's bounds are logistic Elo"),
    text(Opt::kPenta, "--penta", "N0,N1,N2,N3,N4", {kElo}, Section::kMatchStatistics,
         "game pairs scoring 0, 1/2, 1, 1 1/2, 2 for the first side", check_penta),
    text(Opt::kWdl, "--wdl", "W,D,L", {kElo}, Section::kMatchStatistics,
         "the first side's wins, draws and losses", check_wdl),
    integer(Opt::kSets, "--sets", "N", {kElo}, Section::kMatchStatistics, 2, 1000, "",
            "ratings of N sets from pairwise results"),
    text(Opt::kPair, "--pair", "I,J,W,D,L", {kElo}, Section::kMatchStatistics,
         "with --sets: set I's wins, draws and losses against set J (repeatable)", check_pair,
         true),
    text(Opt::kPairPenta, "--pair-penta", "I,J,N0,...,N4", {kElo}, Section::kMatchStatistics,
         "with --sets: set I's game pairs against set J (repeatable)", check_pair_penta, true),
    integer(Opt::kAnchor, "--anchor", "I", {kElo}, Section::kMatchStatistics, 0, 999, "",
            "with --sets: set I is rated --level"),
    number(Opt::kLevel, "--level", "ELO", {kElo}, Section::kMatchStatistics, NumberRule::kAny, "0",
           "with --sets: the mean rating (or the anchor's)"),
    // ---- shared
    integer(Opt::kSeed, "--seed", "S", kModels | kGames, Section::kGeneral, 0, kInt64Max, "1",
            "the random seed: the bootstrap's replicates; match, selfplay: the book's shuffle"),
    with_alias(integer(Opt::kJobs, "--jobs", "N", kReaders | kGames, Section::kGeneral, 1, 1024,
                       "one per core",
                       "threads: parse (one more reads and decompresses) or play; the results\n"
                       "are the same whatever N"),
               "-j"),
    flag(Opt::kJson, "--json", kFits | VerbSet{kMatch, kAnalyse, kSelfplay, kElo},
         Section::kGeneral, "one JSON object on stdout (camelCase keys), whatever happens"),
    flag(Opt::kNoProgress, "--no-progress", kReaders | kGames, Section::kGeneral,
         "no progress on stderr (on a terminal: one line redrawn; else a line every 64 MB)"),
}};

constexpr bool options_in_order() {
  for (std::size_t i = 0; i < kOptions.size(); ++i) {
    if (kOptions[i].id != static_cast<Opt>(i)) return false;
  }
  return true;
}
static_assert(options_in_order(), "kOptions lists the options in Opt order");

constexpr std::array<CommandSpec, kVerbNames.size()> kCommands = {{
    {kRows, "print the quiet material rows (the article's .mat format)", "rows [options] FILE...",
     "", "FILE..."},
    {kFit, "fit piece values (.pgn, .mat and .mstats files; '-' = stdin)", "fit [options] FILE...",
     "Text by default: the data report, the fit's table with game-clustered errors, warnings.\n"
     "--json: one object with the data report and the fit, or \"error\": {code, message}.",
     "FILE..."},
    {kCompare, "fit several datasets side by side: files, filters, bands or targets",
     "compare [options] FILE...          one dataset per file\n"
     "compare --each SPEC... FILE...     one dataset per filter over the same files\n"
     "compare --by elo:200|speed FILE... values by rating band or by speed, one pass\n"
     "compare --targets result,eval FILE...",
     "", "FILE..."},
    {kStats, "the statistics a fit needs, written to merge later (docs/MSTATS.md)",
     "stats [options] FILE... -o OUT.mstats",
     "The model options decide which row fields are kept (e.g. --bishop-pair); --bootstrap B\n"
     "keeps B replicates (then --range must start at 0). stats also reads .mstats inputs.",
     "FILE..."},
    {kPositions, "write the quiet positions a fit reads, labelled, for Texel-style tuners",
     "positions [--format epd] [options] FILE... > positions.epd",
     "One line per recorded position (the data options choose them, as for fit), in game order:\n"
     "\"FEN [1.0]\" with White's score. The progress goes to standard error.",
     "FILE..."},
    {kMatch, "play value sets against each other: pentanomial Elo, LOS, SPRT",
     "match --values SET --vs SET [--vs SET...] [options]", "", ""},
    {kAnalyse, "the play engine's best move and score in a position (each set's)",
     "analyse --fen FEN [--values SET] [--vs SET...]\n"
     "        [--nodes K | --depth D | --movetime MS]",
     "", ""},
    {kSelfplay, "learn, play, learn again: values from the engine's own games",
     "selfplay [--values SET] [--rounds N] [--pairs N] [--out DIR] [options]", "", ""},
    {kUci, "the play engine with a value set as a UCI engine (GUIs, match runners)",
     "uci [--values SET] [--nodes K | --depth D | --movetime MS] [--hash-mb MB]",
     "The options set the engine's UCI options' first values; `setoption` changes them.\n"
     "docs/CLI.md lists the UCI options and the go words.",
     ""},
    {kBook, "a PGN's openings N plies in, as EPD lines", "book [--book-plies N] FILE", "", "FILE"},
    {kElo, "the statistics of results from any match runner",
     "elo --penta N0,N1,N2,N3,N4 [--wdl W,D,L] [--sprt ELO0,ELO1[,A,B]] [--logistic]\n"
     "elo --wdl W,D,L [--sprt ...] [--logistic] [--json]\n"
     "elo --sets N (--pair I,J,W,D,L | --pair-penta I,J,N0,...,N4)...\n"
     "    [--anchor I] [--level ELO]",
     "", ""},
    {kReplay, "replay PGN games move by move (the tests' oracle): FEN after every ply",
     "replay FILE... ('-' = stdin)", "", "FILE..."},
}};

constexpr std::array<ExitStatusSpec, 4> kExitStatuses = {{
    {kExitOk, "done: rows written, fitted (also a fit with warnings: read them), played"},
    {kExitNoResult,
     "no result: a file could not be read (missing, unsupported or corrupt), the data gave "
     "nothing to fit, or the fit failed; compare: any dataset not fitted"},
    {kExitBadOptions,
     "bad options: unknown or malformed options, a bad --filter, a model the solver cannot fit"},
    {kExitService,
     "a game service could not give the games: unknown user, rate limit, no network, a "
     "service error"},
}};

}  // namespace

std::span<const OptionSpec> option_specs() {
  return kOptions;
}

const OptionSpec& spec_of(Opt id) {
  return kOptions[static_cast<std::size_t>(id)];
}

const OptionSpec* find_option(std::string_view name) {
  for (const OptionSpec& spec : kOptions) {
    if (spec.name == name || (!spec.alias.empty() && spec.alias == name)) return &spec;
  }
  return nullptr;
}

std::span<const CommandSpec> command_specs() {
  return kCommands;
}

const CommandSpec& spec_of(Verb verb) {
  return kCommands[static_cast<std::size_t>(verb)];
}

std::optional<Verb> verb_named(std::string_view name) {
  for (std::size_t i = 0; i < kVerbNames.size(); ++i) {
    if (name == kVerbNames[i]) return static_cast<Verb>(i);
  }
  return std::nullopt;
}

std::span<const ExitStatusSpec> exit_statuses() {
  return kExitStatuses;
}

}  // namespace materialist::cli
