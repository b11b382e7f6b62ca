#include "cli/options.h"

#include <algorithm>
#include <cstdlib>

#include "core/enum_names.h"
#include "core/text.h"
#include "learn/filter/bands.h"
#include "learn/fit/analysis.h"

namespace materialist::cli {

namespace {

constexpr std::int64_t kMaxJobs = 1024;

Expected<double> parse_double(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) {
    return make_error(ErrorCode::kInvalidArgument, flag + " expects a number, got '" + text + "'");
  }
  return value;
}

Expected<std::int64_t> integer_option(const std::string& flag, const std::string& text,
                                      std::int64_t minimum, std::int64_t maximum) {
  const std::optional<std::int64_t> value = parse_integer(text, minimum, maximum);
  if (!value) {
    return make_error(ErrorCode::kInvalidArgument,
                      flag + " expects a whole number from " + std::to_string(minimum) + " to " +
                          std::to_string(maximum) + ", got '" + text + "'");
  }
  return *value;
}

template <std::size_t N>
Expected<std::string> one_of(const std::string& flag, const std::string& text,
                             const std::array<const char*, N>& choices) {
  if (value_named<int>(choices, text)) return text;
  return make_error(ErrorCode::kInvalidArgument,
                    flag + " expects one of " + listed(choices) + ", got '" + text + "'");
}

// The flags without a value that set a bool.
struct Switch {
  const char* flag;
  bool CliOptions::*member;
  bool value;
};
constexpr Switch kSwitches[] = {
    {"--checks-quiet", &CliOptions::checks_are_quiet, true},
    {"--every-position", &CliOptions::every_position, true},
    {"--side-to-move", &CliOptions::side_to_move, true},
    {"--bishop-pair", &CliOptions::bishop_pair, true},
    {"--phase", &CliOptions::phase, true},
    {"--elo-offset", &CliOptions::elo_offset, true},
    {"--split-sides", &CliOptions::split_sides, true},
    {"--game-ids", &CliOptions::game_ids, true},
    {"--json", &CliOptions::json, true},
    {"--no-progress", &CliOptions::progress, false},
    {"--rated", &CliOptions::rated, true},
    {"--both-sides", &CliOptions::both_sides, true},
};

const Switch* find_switch(const std::string& arg) {
  for (const Switch& flag : kSwitches) {
    if (arg == flag.flag) return &flag;
  }
  return nullptr;
}

// The flags whose value is one of a list of names, kept as text.
struct Choice {
  const char* flag;
  std::string CliOptions::*member;
  std::vector<std::string> (*names)();
};
template <std::size_t N>
std::vector<std::string> names_of(const std::array<const char*, N>& choices) {
  return {choices.begin(), choices.end()};
}
const Choice kChoices[] = {
    {"--preset", &CliOptions::preset, [] { return names_of(learn::kPresetNames); }},
    {"--solver", &CliOptions::solver, [] { return names_of(learn::kSolverNames); }},
    {"--outcomes", &CliOptions::outcomes, [] { return names_of(learn::kOutcomeModelNames); }},
    {"--target", &CliOptions::target, [] { return names_of(learn::kTargetNames); }},
    {"--units", &CliOptions::units, [] { return names_of(kUnitNames); }},
};

// The flags whose value is a whole number in a range.
struct Integer {
  const char* flag;
  std::int64_t minimum, maximum;
  void (*set)(CliOptions&, std::int64_t);
};
const Integer kIntegers[] = {
    {"--iterations", 0, 100'000'000,
     [](CliOptions& o, std::int64_t v) { o.iterations = static_cast<int>(v); }},
    {"--quiet-plies", 0, 100,
     [](CliOptions& o, std::int64_t v) { o.quiet_plies = static_cast<int>(v); }},
    {"--skip-plies", 0, 1000,
     [](CliOptions& o, std::int64_t v) { o.skip_plies = static_cast<int>(v); }},
    {"--bootstrap", 0, 10'000,
     [](CliOptions& o, std::int64_t v) { o.bootstrap = static_cast<int>(v); }},
    {"--seed", 0, INT64_MAX,
     [](CliOptions& o, std::int64_t v) { o.seed = static_cast<std::uint64_t>(v); }},
    {"--log-every", 1, 100'000'000,
     [](CliOptions& o, std::int64_t v) { o.log_every = static_cast<int>(v); }},
    {"-j", 1, kMaxJobs, [](CliOptions& o, std::int64_t v) { o.jobs = static_cast<int>(v); }},
    {"--jobs", 1, kMaxJobs, [](CliOptions& o, std::int64_t v) { o.jobs = static_cast<int>(v); }},
    {"--max-games", 1, INT64_MAX,
     [](CliOptions& o, std::int64_t v) { o.max_games = static_cast<std::uint64_t>(v); }},
    {"--chunk-bytes", 1, std::int64_t{1} << 30,
     [](CliOptions& o, std::int64_t v) { o.chunk_bytes = static_cast<std::size_t>(v); }},
    {"--file-index", 0, (std::int64_t{1} << 23) - 1,
     [](CliOptions& o, std::int64_t v) { o.file_index = static_cast<std::uint64_t>(v); }},
};

// The flags whose value is kept as it is.
struct Text {
  const char* flag;
  std::string CliOptions::*member;
};
constexpr Text kTexts[] = {
    {"-o", &CliOptions::output},
    {"--output", &CliOptions::output},
    {"--export-mat", &CliOptions::export_mat},
    {"--filter", &CliOptions::filter},
    {"--lichess", &CliOptions::lichess},
    {"--chesscom", &CliOptions::chesscom},
    {"--speed", &CliOptions::speed},
    {"--since", &CliOptions::since},
    {"--until", &CliOptions::until},
};

// --targets result,eval: both targets, each once.
std::optional<Error> parse_targets(const std::string& flag, const std::string& text,
                                   CliOptions& options) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    auto v = one_of(flag, text.substr(start, comma - start), learn::kTargetNames);
    if (!v) return v.error();
    if (std::find(names.begin(), names.end(), *v) != names.end()) {
      return Error{ErrorCode::kInvalidArgument, "--targets: " + *v + " twice"};
    }
    names.push_back(*v);
    start = comma + 1;
  }
  if (names.size() != 2) {
    return Error{ErrorCode::kInvalidArgument,
                 "--targets needs both targets: result,eval (or eval,result)"};
  }
  options.targets = std::move(names);
  return std::nullopt;
}

// --range START:END, byte offsets with START < END.
std::optional<Error> parse_range(const std::string& flag, const std::string& text,
                                 CliOptions& options) {
  const std::size_t colon = text.find(':');
  const auto start = parse_integer(text.substr(0, colon), 0, INT64_MAX);
  std::optional<std::int64_t> end;
  if (colon != std::string::npos) end = parse_integer(text.substr(colon + 1), 0, INT64_MAX);
  if (!start || !end || *start >= *end) {
    return Error{ErrorCode::kInvalidArgument,
                 flag + " expects START:END, byte offsets with START < END, got '" + text + "'"};
  }
  options.range = ByteRange{static_cast<std::uint64_t>(*start), static_cast<std::uint64_t>(*end)};
  return std::nullopt;
}

// A flag with its value, by the tables, then the flags with rules of their own.
std::optional<Error> parse_valued_flag(const std::string& flag, const std::string& text,
                                       CliOptions& options) {
  for (const Choice& choice : kChoices) {
    if (flag != choice.flag) continue;
    const std::vector<std::string> names = choice.names();
    if (std::find(names.begin(), names.end(), text) == names.end()) {
      std::string list;
      for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
      return Error{ErrorCode::kInvalidArgument,
                   flag + " expects one of " + list + ", got '" + text + "'"};
    }
    options.*(choice.member) = text;
    return std::nullopt;
  }
  for (const Integer& integer : kIntegers) {
    if (flag != integer.flag) continue;
    auto v = integer_option(flag, text, integer.minimum, integer.maximum);
    if (!v) return v.error();
    integer.set(options, *v);
    return std::nullopt;
  }
  for (const Text& field : kTexts) {
    if (flag != field.flag) continue;
    options.*(field.member) = text;
    return std::nullopt;
  }
  if (flag == "--targets") return parse_targets(flag, text, options);
  if (flag == "--range") return parse_range(flag, text, options);
  if (flag == "--max-mb" || flag == "--alpha" || flag == "--lambda") {
    auto v = parse_double(flag, text);
    if (!v) return v.error();
    if (flag == "--max-mb") {
      if (!(*v > 0)) return Error{ErrorCode::kInvalidArgument, flag + " must be positive"};
      options.max_megabytes = *v;
      return std::nullopt;
    }
    if (*v < 0) return Error{ErrorCode::kInvalidArgument, flag + " must not be negative"};
    (flag == "--alpha" ? options.alpha : options.lambda) = *v;
    return std::nullopt;
  }
  if (flag == "--imbalance") {
    auto v = learn::parse_imbalance_list(text);
    if (!v) return Error{ErrorCode::kInvalidArgument, flag + ": " + v.error().message};
    options.imbalances = *v;
    return std::nullopt;
  }
  if (flag == "--each") {
    options.each_filter.push_back(text);
    return std::nullopt;
  }
  if (flag == "--by") {
    if (auto spec = learn::parse_band_spec(text); !spec) return spec.error();
    options.by = text;
    return std::nullopt;
  }
  return Error{ErrorCode::kInvalidArgument, "unknown option '" + flag + "' (try --help)"};
}

}  // namespace

const char* usage_text() {
  return R"(materialist: learn chess piece values from PGN games (logistic regression on material).

Usage:
  materialist rows [data options] FILE...      print the quiet material rows (.mat format)
  materialist fit [options] FILE...            fit piece values (.pgn and .mat files, '-' = stdin)
  materialist compare [options] FILE...        fit each file as its own dataset, side by side
  materialist compare --each SPEC... FILE...   one dataset per filter over the same files
  materialist compare --by elo:200|speed FILE...
                                               values by rating band or by speed, one pass
  materialist compare --targets result,eval FILE...
                                               the result and the engine's evaluation fitted
                                               on the same annotated positions, side by side
  materialist stats [data options] FILE... -o OUT.mstats
                                               the statistics a fit needs, to merge later
  materialist match --values SET --vs SET [--vs SET...] [play options]
                                               play value sets against each other: Elo, SPRT
  materialist analyse --fen FEN [--values SET] [--vs SET...] [--nodes K | --depth D | --movetime MS]
                                               the play engine's best move and score (each set's)
  materialist selfplay [--values SET] [--rounds N] [--pairs N] [--out DIR]
                                               learn, play, learn again (round-N.pgn in DIR)
  materialist uci [--values SET] [--nodes K]   the play engine with a value set as a UCI engine
                                               (cutechess-cli, fastchess, GUIs)
  materialist book FILE [--book-plies N]       a PGN's openings N plies in (EPD: its lines)
  materialist elo --penta N0,N1,N2,N3,N4 | --wdl W,D,L [--sprt ELO0,ELO1[,A,B]] [--json]
                                               the statistics of results from any match runner
  materialist --help | --version

Data options:
  --preset article|default|exact
                             article: the founding article's exact procedure (unknown results
                             count as draws, draws out of the fit, gradient descent);
                             default: unknown results skipped, Newton fit;
                             exact: as default, with draws as half points (the app's Exact)
  --quiet-plies N            quiet plies before a position is recorded (article: 2)
  --checks-quiet             checks do not break quietness
  --every-position           record every quiet position, not one per distinct material vector
  --skip-plies K             ignore the first K plies of each game
  --filter SPEC              game filter, e.g. "player=Carlsen;elo=2000-2800;tc=blitz,rapid"
  --each SPEC                (compare, repeatable) a dataset per filter, e.g. --each tc=bullet
                             --each tc=blitz; the files are read once for all of them
  --by BANDS                 (compare) a dataset per band, read once: elo:WIDTH (by the
                             average rating, or the player's with --filter "player=NAME"),
                             elo:WIDTH:average, elo:WIDTH:player, or speed; bands of 800 to
                             2800 (open below and above), empty bands left out

Model options:
  --solver gd|newton         gradient descent (article) or exact Newton/IRLS
  --outcomes draws-out|fractional|ordinal
  --target result|eval       what is fitted: the game's result (default) or the engine's
                             evaluation, the [%eval] annotation of the move that led to each
                             position as White's expected score 1/(1+exp(-0.00368208*cp)),
                             cp clamped to +-1000, mates 1 or 0 (lichess); positions without
                             one are left out and counted (fit, compare, rows, stats)
  --targets result,eval      (compare) both targets on the same annotated positions, side by
                             side with their differences and errors
  --iterations N  --alpha A  --lambda L      gradient-descent settings (10000, 1, 1e-6)
  --intercept                fit White's first-move advantage (from a player's point of view,
                             --filter "player=NAME;pov=1": the player's edge, on by default)
  --no-intercept             no intercept, even from a player's point of view
  --side-to-move             a side-to-move term (+1 White to move, -1 Black) beside the values
  --bishop-pair  --phase     extra features (bishop pair; middlegame/endgame tapered values)
  --elo-offset               add ln10/400 * (WhiteElo - BlackElo) to the log-odds
  --imbalance TERM,...|all   imbalance terms beside the values (White's minus Black's):
                             knight-pawns, rook-pawns (value per knight/rook per own pawn
                             beyond 5), rook-pair, queen-rook, minor-pair (two minors, not
                             the bishop pair), exchange-minors, exchange-no-minors, and
                             the article's queen-knight, rook-bishop (a side has both),
                             opposite-bishops (the 1-3-3-5-9 balance's weight when each side
                             has one bishop, on opposite colours), last-pawn (a side's one
                             pawn left in the endgame, phase <= 6)
  --split-sides              (with --filter "player=NAME;pov=1") own and opponent's pieces as
                             separate columns, compared piece by piece
  --units pawn|elo|logodds   how values are reported (pawn = 100 by default)
  --bootstrap B  --seed S    B bootstrap replicates over games for 95% intervals

Output options:
  --game-ids                 (rows) a last column (7th; 8th after --target eval's target
                             column): the row's game id, file index * 2^40 + the
                             game's 1-based number in its file (a .mat row: its row number)
  --export-mat FILE          also write the rows in .mat format
  --json                     one JSON object on stdout
  --log-every N              iteration log interval for gradient descent (1000)
  --no-progress              no progress on stderr (on a terminal: one line with the percent
                             read, MB/s, games and the time left; else a line every 64 MB)

Reading options:
  -j N, --jobs N             parse with N threads (default: one per core; 1: no threads); one
                             more thread reads and decompresses; the results are the same
  --chunk-bytes N            with -j: the text is cut at game starts into chunks of about N
                             bytes, each parsed on its own (default 1048576)
  --max-games N              read only the first N games (over all files), in one thread
  --max-mb X                 read only the first X MB of the files (as stored: compressed bytes
                             of an archive), to the end of the game being read, in one thread

A player's games (docs/SERVICES.md; the real services, over HTTPS):
  --lichess NAME             read NAME's games from lichess (newest first; --max-games N asks
                             lichess for N) instead of or beside files; with --target eval
                             (or --targets) its export includes the evaluations (evals=true)
  --chesscom NAME            read NAME's monthly archives from chess.com, newest month first
  --speed S  --rated         lichess's filters: bullet, blitz, rapid, classical (comma list);
                             rated games only (chess.com: --speed is a time-control filter)
  --since DAY  --until DAY   the first and last day, YYYY-MM-DD (chess.com: their months)
  --both-sides               both sides as White and Black; by default the fit is from the
                             player's side (--filter player=NAME;pov=1: + is their material)
  The services' addresses: MATERIALIST_LICHESS_URL, MATERIALIST_CHESSCOM_URL (tests).

Statistics options (stats; docs/MSTATS.md):
  -o FILE, --output FILE     the statistics file to write (.mstats); fit and compare read
                             .mstats inputs, merged by addition (the same data options needed)
  --range START:END          read only bytes START to END of the one (plain PGN) input, each end
                             moved to the next game start: ranges made apart tile the file
  --file-index N             the first input's place in the whole collection (0): the games'
                             bootstrap ids, and the order of the merged report
  The model options decide which row fields are kept (e.g. --bishop-pair); --bootstrap B keeps
  B replicates (then --range must start at 0). stats also reads .mstats inputs (a merge).

Input: .pgn or .mat text, also compressed: zstd (.pgn.zst, as the lichess database), gzip,
bzip2, or a zip archive (its .pgn entries, in order, named archive.zip:entry.pgn), recognised
by their first bytes, not their names, and decompressed as they are read. xz, 7z and rar are
refused (unsupported-format): decompress them first. Corrupt or truncated compressed data stops
the command (corrupt-archive), saying at which byte.

--json: fit and compare print exactly one JSON object on stdout (camelCase keys), whatever
happens: the data
report (games, used, partial, skipped and why, rows, decisiveRows, files) and either the fit
(compare: one per dataset) or "error": {"code", "message"}. Error codes: bad-options,
unreadable-file, unsupported-format, corrupt-archive, corrupt-stats, incompatible-stats,
unwritable-file, no-games, no-rows,
filtered-out, no-decisive-rows, fit-failed (compare: dataset-not-fitted, each dataset with its
own error).

Play options (match, analyse, selfplay):
  SET                        P,N,B,R,Q in centipawns (100,300,300,500,900), NAME:P,N,B,R,Q, a
                             named set (classic, kaufman, article-12.5, article-a, article-b,
                             article-c, learned-sample) or a `fit --json` output file (.json):
                             its phases, bishop pair and imbalance terms are played too
  --pairs N                  game pairs per pairing, each opening played with both colours (50)
  --round-robin              every set against every other (default: --values against each --vs)
  --nodes K | --depth D | --movetime MS
                             the limit a move (default --nodes 20000: the same games on any
                             machine; --movetime is not reproducible)
  --material-only            the evaluation without its piece-square tables
  --sprt ELO0,ELO1[,A,B]     stop when the generalized SPRT decides (normalized Elo bounds;
                             alpha = beta = 0.05); --logistic after it: logistic Elo bounds
  --book FILE                openings: a PGN (positions --book-plies in, default 8) or an EPD
                             file (default: the bundled sample's 1292 positions 8 plies in)
  --draw movenumber=40,movecount=8,score=10 | --no-draw-adjudication
  --resign movecount=3,score=600 | --no-resign
  --max-plies N              a draw after N plies (400; 0: none); --no-adjudication: all off
  --seed S                   shuffles the book (the games are fixed by it); -j N threads (all
                             cores by default: the same games and statistics whatever N)
  --pgn OUT                  write the games (valid input for fit; [%eval] comments)
  --json                     one JSON object: pentanomial, wins, draws, losses, score, elo,
                             eloError95, nelo, neloError95, los, sprt; several opponents add
                             matches and ratings

Exit status:
  0  done: rows written, or fitted (also a fit with warnings: read them)
  1  no result: a file could not be read (missing, a directory, an unsupported format
     such as xz, corrupt or truncated compressed data), the data gave
     nothing to fit (no games, no rows, every game filtered out, no decisive row) or the fit
     failed; compare: any dataset not fitted (the others are still shown)
  2  bad options: unknown or malformed options, a bad --filter, a model the solver cannot fit
  3  a game service could not give the games: unknown user, rate limit (the message says how
     long to wait), no network, a service error
)";
}

Expected<CliOptions> parse_options(const std::vector<std::string>& args) {
  CliOptions options;
  if (args.empty()) return options;

  const std::string& verb = args[0];
  if (const auto command = value_named<Command>(kCommandVerbs, verb))
    options.command = *command;
  else if (verb == "--help" || verb == "-h" || verb == "help")
    return options;
  else if (verb == "--version") {
    options.command = Command::kVersion;
    return options;
  } else {
    return make_error(ErrorCode::kInvalidArgument, "unknown command '" + verb + "' (try --help)");
  }

  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.size() > 2 && arg.rfind("-j", 0) == 0) {  // -j8
      auto v = integer_option("-j", arg.substr(2), 1, kMaxJobs);
      if (!v) return v.error();
      options.jobs = static_cast<int>(*v);
      continue;
    }
    if (arg == "-" || (arg.rfind("--", 0) != 0 && arg != "-j" && arg != "-o")) {
      options.files.push_back(arg);
      continue;
    }
    // Flags without a value.
    if (const Switch* flag = find_switch(arg)) {
      options.*(flag->member) = flag->value;
      continue;
    }
    if (arg == "--intercept" || arg == "--no-intercept") {
      options.intercept = arg == "--intercept";
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      options.command = Command::kHelp;
      return options;
    }

    if (i + 1 >= args.size()) {
      return make_error(ErrorCode::kInvalidArgument, arg + " needs a value (try --help)");
    }
    if (auto error = parse_valued_flag(arg, args[++i], options)) return *error;
  }
  if (!options.by.empty() &&
      (options.command != Command::kCompare || !options.each_filter.empty())) {
    return make_error(ErrorCode::kInvalidArgument, "--by is for compare, without --each");
  }
  if (options.files.empty() && options.lichess.empty() && options.chesscom.empty()) {
    return make_error(ErrorCode::kInvalidArgument, "no input files (try --help)");
  }
  return options;
}

}  // namespace materialist::cli
