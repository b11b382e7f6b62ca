// One definition of every message and result that crosses the worker boundary: the engine
// fills these structs, protocol/codec.h turns them into JSON and back (the same code in the
// engine's WebAssembly module and the app's), and the app keeps them as its state. Field names
// on the wire are camelCase, as in every JSON document the project writes; web/PROTOCOL.md has
// one table per message.
//
//   protocol::Settings settings;                     // what a share link holds
//   std::string text = protocol::encode(settings);   // {"preset":"article",...}
//   Expected<protocol::Settings> back = protocol::decode_settings(text);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "learn/fit/analysis.h"
#include "learn/fit/models.h"
#include "learn/fit/solvers.h"
#include "learn/stats/key_fields.h"
#include "learn/vocabulary/eval_target.h"
#include "learn/vocabulary/imbalance.h"
#include "learn/vocabulary/quiet_filter.h"
#include "learn/vocabulary/result.h"

namespace materialist::protocol {

// How the sources of one read become datasets.
enum class DatasetMode : std::uint8_t { kMerge, kPerFile, kPerFilter };
// Display units of values (every unit is always sent).
enum class Units : std::uint8_t { kPawn, kElo, kLogOdds };
// What the worker is doing (the page's data-state).
enum class Phase : std::uint8_t { kIdle, kReading, kFitting, kDone, kError };

// ---- settings: what the user chose ----

// Which games and positions become rows: a change re-reads the files.
struct ReadOptions {
  learn::UnknownResultPolicy unknown = learn::UnknownResultPolicy::kTreatAsDraw;
  std::string filter;  // learn/filter/game_filter.h compact text; "" keeps every game
  learn::QuietFilterOptions quiet;
  int bootstrap = 0;  // replicates over games (0: none)
  std::uint64_t seed = 1;
  DatasetMode datasets = DatasetMode::kMerge;
  std::vector<std::string> each_filter;  // kPerFilter: one dataset each, combined with `filter`
  // Stop after this many games, or after the game being read when this many megabytes of the
  // files (as stored: compressed bytes for an archive) have been read (0: no limit).
  std::uint64_t max_games = 0;
  double max_megabytes = 0;
  // What the fit predicts: the game's result, or the engine's [%eval] of each position (only
  // annotated positions become rows, learn/vocabulary/eval_target.h).
  learn::Target target = learn::Target::kResult;
  // Engine-side switches (not part of a share link):
  // The row-key fields the histogram, game pairs and bootstrap keep: what the models to be
  // fitted read (learn/stats/key_fields.h); a model that needs more needs a new read.
  learn::KeyFields keep = learn::KeyFields::none();
  bool keep_rows = false;   // collect the rows in order as .mat text (Engine::take_mat_text)
  bool hash_files = false;  // SHA-256 while reading (else at export, as the browser does)

  bool operator==(const ReadOptions& other) const;
};

// The model's columns and outcome coding: a change refits the kept histogram.
struct ModelChoice {
  // kDrawsOut lets FitSettings::draws decide (draws = ½ point: fractional), as the presets do.
  learn::OutcomeModel outcomes = learn::OutcomeModel::kDrawsOut;
  bool intercept = false;  // White's first move, or the player's edge from one player's side
  bool bishop_pair = false;
  bool phase = false;                  // tapered middlegame and endgame values
  bool elo_offset = false;             // the rating difference as a fixed offset
  bool side_to_move = false;           // +1 White to move, −1 Black to move
  learn::ImbalanceSet imbalances = 0;  // imbalance terms (learn/vocabulary/imbalance.h)
  bool split_sides = false;            // own and opponent's pieces apart (a player's side)
  // Values by square beside the material fit (learn/fit/squares.h): the read keeps the boards.
  bool squares = false;

  bool operator==(const ModelChoice&) const = default;
};

// How the kept histogram is fitted.
struct FitSettings {
  std::string preset = "article";  // "article", "exact" or "custom"
  learn::SolverKind solver = learn::SolverKind::kGradientDescent;
  double step = 1.0;  // gradient descent α
  int iterations = 10000;
  double lambda = 1e-6;
  learn::DrawHandling draws = learn::DrawHandling::kLeaveOut;
  ModelChoice model;

  // The learn model these settings ask for, fitting `target` (the read's).
  learn::ModelOptions model_options(learn::Target target = learn::Target::kResult) const;
  bool operator==(const FitSettings&) const = default;
};

// Everything a share link restores and the app's controls hold.
struct Settings {
  FitSettings fit;
  ReadOptions read;
  Units units = Units::kPawn;

  bool operator==(const Settings&) const = default;
};

// A named bundle of settings (the app's Preset combo); `custom` keeps what the user typed.
struct Preset {
  const char* id;     // the wire name
  const char* label;  // what the combo shows
  FitSettings fit;
  learn::UnknownResultPolicy unknown;
};
// "article" (the founding article exactly), "exact" (Newton, draws as half points), "custom".
const std::vector<Preset>& presets();
const Preset* find_preset(std::string_view id);

// ---- results: what the engine sends ----

struct Snapshot {
  int iteration = 0;
  int dataset = 0;                   // the dataset this state belongs to (0: the first)
  std::vector<std::string> columns;  // the model's columns: pawn knight bishop rook queen ...
  std::vector<double> theta;         // one per column
  std::vector<double> values;        // pawn = 100
  std::vector<double> value_se;      // standard errors of the values (final state only)
  double loss = 0;
  double gradient_norm = 0;

  bool operator==(const Snapshot&) const = default;
};

struct Progress {
  double bytes = 0, total_bytes = 0;  // of every file of this read
  std::uint64_t games = 0, used = 0, partial = 0, skipped = 0, rows = 0;
  double mb_per_s = 0, eta_s = -1;  // eta < 0: unknown
  std::string file;
  int file_index = 0, file_count = 0;

  bool operator==(const Progress&) const = default;
};

// A skipped or partial game: where and why.
struct GameIssue {
  std::string file;
  std::uint64_t line = 0, game = 0;
  std::string reason;  // "skipped, illegal-move: Nf9 (3 rows kept)"

  bool operator==(const GameIssue&) const = default;
};

struct FilteredCount {
  std::string reason;  // learn::filter_reason_name
  std::uint64_t games = 0;

  bool operator==(const FilteredCount&) const = default;
};

struct DatasetSummary {
  std::string name;
  std::uint64_t games = 0, used = 0, filtered = 0, rows = 0;

  bool operator==(const DatasetSummary&) const = default;
};

// The data report of a read (committed or not).
struct DataReport {
  std::uint64_t games = 0, used = 0, partial = 0, skipped = 0, filtered = 0;
  std::uint64_t rows = 0, draw_rows = 0, decisive_rows = 0, white_win_rows = 0, black_win_rows = 0,
                distinct_rows = 0, plies = 0;
  bool stopped_at_limit = false;  // a read limit (max_games, max_megabytes) ended the read
  double bytes = 0, seconds = 0, mb_per_s = 0;
  std::vector<std::string> files;
  std::vector<std::string> file_errors;  // whole files rejected (not PGN, empty, ...)
  std::vector<GameIssue> issues;         // the first partial and skipped games
  std::uint64_t issue_total = 0;         // partial + skipped games, exact
  std::vector<FilteredCount> filtered_by;
  std::vector<DatasetSummary> datasets;  // with several datasets
  // The evaluation target's counts (target kEval): `rows` are the annotated positions; these
  // are what was left out (learn::IngestReport).
  learn::Target target = learn::Target::kResult;
  std::uint64_t unannotated_rows = 0, games_with_evals = 0, games_without_evals = 0,
                malformed_evals = 0;
  // A read without rows: why, as a code (learn::empty_read_code) and a sentence ("" otherwise).
  std::string empty_read, empty_read_message;
  // Statistics files (.mstats) loaded instead of games: the data settings they were made with,
  // which the page's controls then show (nullopt when games were read).
  std::optional<ReadOptions> made_with;

  bool operator==(const DataReport&) const = default;
};

struct Coefficient {
  std::string name;   // "pawn", ..., "bishop-pair", "intercept", "draw-margin", "rook-eg"
  std::string label;  // "Bishop pair", "Player's edge", ...
  bool identified = true;
  double value = 0, value_se = 0, value_se_model = 0;  // pawn = 100
  double elo = 0, elo_se = 0;
  double theta = 0, theta_se = 0, theta_se_model = 0;
  std::optional<double> low, high;  // bootstrap 95% interval (pawn = 100)

  bool operator==(const Coefficient&) const = default;
};

struct Relation {
  std::string relation;  // "B > N", "B + N = R + 1.5P", ...
  double margin = 0, se = 0;
  std::string verdict;  // "holds", "violated", "undecided"
  bool equality = false;

  bool operator==(const Relation&) const = default;
};

struct CurvePoint {
  double pawns = 0, win = 0, draw = 0, loss = 0;

  bool operator==(const CurvePoint&) const = default;
};

// The article's first chart: rows per 1-3-3-5-9 balance, and the fitted α.
struct BalanceBin {
  int dm = 0;
  double white = 0, draws = 0, black = 0;

  double count() const { return white + draws + black; }
  double score() const { return count() > 0 ? (white + 0.5 * draws) / count() : 0.5; }
  bool operator==(const BalanceBin&) const = default;
};
struct Balance {
  std::vector<BalanceBin> bins;
  std::optional<double> alpha;  // none when it could not be fitted

  bool operator==(const Balance&) const = default;
};

struct Warning {
  std::string code;  // learn::FitWarning codes
  std::string message;

  bool operator==(const Warning&) const = default;
};

// Split sides: one piece's own against opponent's value (pawn = 100 in the player's pawns), the
// difference with its error and the p-value of "own = opponent's" (learn/fit/split_sides.h).
struct SideRow {
  std::string piece;  // "pawn" … "queen"
  bool identified = true;
  double own = 0, own_se = 0, opponent = 0, opponent_se = 0, difference = 0, difference_se = 0;
  // The same in log-odds (θ); Elo is θ · 400 / ln 10.
  double own_theta = 0, own_theta_se = 0, opponent_theta = 0, opponent_theta_se = 0;
  double difference_theta = 0, difference_theta_se = 0;
  double p = 1;

  bool operator==(const SideRow&) const = default;
};

// One dataset's fit.
struct Fit {
  std::string name;
  std::uint64_t games = 0, used = 0, rows = 0, decisive_rows = 0;
  std::string state = "failed";  // "fitted", "warnings" or "failed"
  std::string error;             // why there is no fit ("failed")
  std::vector<Warning> warnings;
  std::string errors = "model";  // "game-clustered" or "model"
  std::uint64_t clusters = 0;    // games behind clustered errors
  double loss = 0;
  int iterations = 0;
  bool converged = true;
  int replicates = 0, failed_replicates = 0;
  std::string bootstrap_error;
  std::vector<Coefficient> coefficients;  // the draw margin is one of them (ordinal)
  std::vector<Relation> relations;
  std::vector<CurvePoint> curve;
  Balance balance;
  std::vector<SideRow> sides;  // split-sides models only (written only when not empty)

  const Coefficient* find(std::string_view coefficient) const;
  bool operator==(const Fit&) const = default;
};

// B − N of dataset `b` against dataset `a`.
struct Difference {
  int a = 0, b = 0;
  std::string contrast;
  double diff = 0, se = 0, p = 1;
  std::optional<double> bootstrap_p;

  bool operator==(const Difference&) const = default;
};

struct FitBegin {
  learn::SolverKind solver = learn::SolverKind::kGradientDescent;
  std::string preset;
  int planned = 0;
  std::string reason;  // why the solver differs from the one asked for

  bool operator==(const FitBegin&) const = default;
};

struct FitDone {
  std::string reason;
  std::vector<Fit> fits;  // one per dataset
  std::vector<Difference> differences;
  Snapshot snapshot;  // the first dataset's final state

  bool operator==(const FitDone&) const = default;
};

// An exact fit of the data read so far (while reading).
struct Estimate {
  std::uint64_t games = 0, rows = 0;
  double bytes = 0;
  std::vector<Fit> fits;

  bool operator==(const Estimate&) const = default;
};

// The two targets side by side: the result and the evaluation fitted on the same annotated
// positions (learn/fit/target_compare.h). Values in pawn = 100; the difference is eval − result.
struct TargetRow {
  std::string name;   // "pawn", ..., "bishop-pair", "intercept"
  std::string label;  // "Pawn", "Bishop pair", ...
  bool identified = true;
  double result = 0, result_se = 0, eval = 0, eval_se = 0, difference = 0, difference_se = 0;
  // The same in log-odds (θ): defined also when the pawn, the unit of values, is not identified.
  double result_theta = 0, result_theta_se = 0, eval_theta = 0, eval_theta_se = 0;
  double theta_difference = 0, theta_difference_se = 0;

  bool operator==(const TargetRow&) const = default;
};

struct TargetCompare {
  std::uint64_t positions = 0, games = 0;  // annotated positions, games with evaluations
  std::string outcomes;                    // the result fit's outcome model ("fractional")
  std::string difference_errors;           // "game-clustered" or "independent"
  std::string error;                       // why there is no comparison ("" when there is one)
  std::vector<TargetRow> rows;

  bool operator==(const TargetCompare&) const = default;
};

}  // namespace materialist::protocol
