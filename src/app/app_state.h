// The app's state: plain structs owned by the app. Worker messages (decoded at the web seam) update
// them once per frame; UI code only reads and edits them and returns commands for the worker.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "learn/game_filter.h"

namespace materialist::app {

inline constexpr int kPieceCount = 5;  // P N B R Q
inline constexpr std::array<const char*, kPieceCount> kPieceNames = {"Pawn", "Knight", "Bishop",
                                                                     "Rook", "Queen"};
inline constexpr std::array<const char*, kPieceCount> kPieceLetters = {"P", "N", "B", "R", "Q"};
using PieceValues = std::array<double, kPieceCount>;  // pawn = 100

// Mirrors the page's data-state: what the worker is doing now.
enum class Phase : std::uint8_t { kIdle, kReading, kFitting, kDone, kError };

enum class Solver : std::uint8_t { kGradientDescent, kNewton };
enum class DrawHandling : std::uint8_t { kExclude, kHalfPoint };  // draws left out, or y = 1/2
enum class UnknownResult : std::uint8_t { kSkip, kAsDraw };       // "*" and other results

// The fit settings the worker applies to the kept histogram (no re-reading of files).
struct FitSettings {
  int preset = 0;  // index into kPresets; kCustomPreset once the user edits a field
  Solver solver = Solver::kGradientDescent;
  double step = 1.0;  // gradient descent step α (doubles: exactly what the user chose)
  int iterations = 10000;
  double lambda = 1e-6;
  DrawHandling draws = DrawHandling::kExclude;
  UnknownResult unknown = UnknownResult::kAsDraw;
  bool operator==(const FitSettings&) const = default;
};

struct Preset {
  const char* id;     // the protocol name ("article")
  const char* label;  // what the combo shows
  FitSettings settings;
};
inline constexpr int kCustomPreset = 2;
inline constexpr std::array<Preset, 3> kPresets = {{
    {"article",
     "Article (GD, α=1, 10 000 steps, draws out)",
     {0, Solver::kGradientDescent, 1.0, 10000, 1e-6, DrawHandling::kExclude,
      UnknownResult::kAsDraw}},
    {"exact",
     "Exact (Newton, draws = ½ point)",
     {1, Solver::kNewton, 1.0, 50, 1e-6, DrawHandling::kHalfPoint, UnknownResult::kSkip}},
    {"custom",
     "Custom",
     {kCustomPreset, Solver::kGradientDescent, 1.0, 10000, 1e-6, DrawHandling::kExclude,
      UnknownResult::kSkip}},
}};

// [SECTION] Analysis beyond the article (web/PROTOCOL.md, last section)

enum class Outcomes : std::uint8_t { kDrawsOut, kFractional, kOrdinal };
enum class Units : std::uint8_t { kPawn, kElo, kLogOdds };
enum class DatasetMode : std::uint8_t { kMerge, kPerFile, kPerFilter };

// The model's columns and outcome coding: a change refits the kept histogram.
struct ModelOptions {
  Outcomes outcomes = Outcomes::kDrawsOut;
  bool intercept = false;    // White's first-move advantage
  bool bishop_pair = false;  // a bonus for two bishops
  bool phase = false;        // tapered: middlegame and endgame columns per piece
  bool elo_offset = false;   // the rating difference as a column (Elo)
  bool operator==(const ModelOptions&) const = default;
};

// Which positions become rows.
struct QuietOptions {
  int plies = 2;             // a position counts after this many quiet plies
  bool checks_break = true;  // a check breaks quietness
  bool distinct = true;      // one row per distinct material vector per game
  int skip_first = 0;        // plies skipped at the start of each game
  bool operator==(const QuietOptions&) const = default;
};

// The options that decide which games and positions are read: a change re-reads the files.
struct ReadOptions {
  int bootstrap = 0;  // replicates over games; 0: none
  QuietOptions quiet;
  std::string filter;  // the compact text of learn/game_filter.h ("" keeps every game)
  DatasetMode datasets = DatasetMode::kMerge;
  std::vector<std::string> each_filter;  // one dataset per entry with kPerFilter
  bool operator==(const ReadOptions&) const = default;
};

struct AnalysisSettings {
  ModelOptions model;
  Units units = Units::kPawn;  // display only: every unit is always sent
  ReadOptions read;            // what the Analysis panel shows (applied with its button)
  bool operator==(const AnalysisSettings&) const = default;
};

// One coefficient of a fit; low/high: bootstrap 95% interval in pawn units (NaN without).
struct Coefficient {
  std::string name;   // "pawn", "knight", ..., "bishop-pair", "intercept", "draw-margin", ...
  std::string label;  // what people read ("Bishop pair", "Player's edge", ...)
  bool identified = true;  // false: the data say (almost) nothing about it; no number is shown
  double value = 0, value_se = 0, elo = 0, elo_se = 0, theta = 0, theta_se = 0;
  double value_se_model = 0;  // the model-based error (positions independent), for comparison
  double low = 0, high = 0;
  bool has_interval = false;
};

struct RelationVerdict {
  std::string relation;
  double margin = 0, se = 0;
  std::string verdict;  // "holds", "violated", "undecided"
  bool equality = false;
};

struct CurvePoint {
  double pawns = 0, win = 0, draw = 0, loss = 0;
};

// One fitted dataset (several with datasets per file or per filter).
struct DatasetFit {
  std::string name;
  std::uint64_t games = 0, used = 0, rows = 0, decisive_rows = 0;
  double loss = 0;
  int iterations = 0;
  std::string state;                  // "fitted", "warnings" or "failed"
  std::string error;                  // why there is no fit ("failed")
  std::vector<std::string> warnings;  // one sentence each
  std::string errors;                 // "game-clustered" or "model"
  std::uint64_t clusters = 0;         // games behind clustered errors
  bool converged = true;
  std::vector<Coefficient> coefficients;  // the draw margin is one of them (ordinal)
  std::vector<RelationVerdict> relations;
  std::vector<CurvePoint> curve;
  const Coefficient* find(const std::string& coefficient) const {
    for (const Coefficient& c : coefficients) {
      if (c.name == coefficient) return &c;
    }
    return nullptr;
  }
};

// A contrast between two datasets (B − N of `b` against `a`).
struct DatasetDifference {
  int a = 0, b = 0;
  std::string contrast;
  double diff = 0, se = 0, p = 1, bootstrap_p = 0;
  bool has_bootstrap_p = false;
};

struct FilteredCount {
  std::string reason;
  std::uint64_t games = 0;
};

struct DatasetSummary {
  std::string name;
  std::uint64_t games = 0, used = 0, filtered = 0, rows = 0;
};

struct ReadProgress {
  double bytes = 0, total_bytes = 0;
  std::uint64_t games = 0, used = 0, skipped = 0, rows = 0;
  double mb_per_s = 0, eta_s = -1;  // eta < 0: unknown
  std::string file;
  int file_index = 0, file_count = 0;
};

struct SkippedGame {
  std::string file;
  std::uint64_t line = 0;
  std::string reason;
};

struct DataReport {
  bool present = false;
  std::uint64_t games = 0, used = 0, partial = 0, skipped = 0, filtered = 0;
  std::uint64_t rows = 0, draw_rows = 0, decisive_rows = 0, unknown_rows = 0, distinct_rows = 0;
  double bytes = 0, seconds = 0, mb_per_s = 0;
  std::vector<std::string> files;
  std::vector<std::string> file_errors;  // whole files rejected (not PGN, empty, ...)
  std::vector<SkippedGame> skipped_games;
  std::uint64_t skipped_listed_total = 0;  // skipped games known, even if the list is capped
  std::vector<FilteredCount> filtered_by;  // games each filter removed (report.filteredBy)
  std::vector<DatasetSummary> datasets;    // with several datasets
};

struct FitSnapshot {
  int iteration = 0;
  std::array<double, kPieceCount> theta{};
  PieceValues values{};
  PieceValues value_se{};  // standard errors, on the final snapshot only
  bool has_se = false;
  double loss = 0;
  int dataset = 0;  // which dataset's fit (gradient descent runs them one after the other)
};

// The live convergence view: every snapshot received for the current fit.
struct Trajectory {
  Solver solver = Solver::kGradientDescent;
  std::string preset;
  int planned_iterations = 0;
  bool done = false;
  std::string reason;  // why the worker chose its solver (fit-begin)
  std::vector<FitSnapshot> snapshots;
  std::vector<DatasetFit> fits;  // fit-done: one per dataset
  std::vector<DatasetDifference> differences;
};

// The article's first chart: points scored by White per material balance ΔM (1-3-3-5-9).
struct BalanceBin {
  int balance = 0;  // ΔM in pawns
  double white_wins = 0, draws = 0, black_wins = 0;
  double count() const { return white_wins + draws + black_wins; }
  double score() const { return count() > 0 ? (white_wins + 0.5 * draws) / count() : 0.5; }
};
struct BalanceChart {
  std::vector<BalanceBin> bins;
  double alpha = 0;  // fitted p = 1/(1+exp(-αΔM)); 0 when not fitted
  bool fitted = false;
};

// Screen rectangles (CSS pixels) of the main buttons, published for tests that click them.
struct ButtonRect {
  std::string label;
  float x = 0, y = 0, w = 0, h = 0;
};

struct AppState {
  Phase phase = Phase::kIdle;
  std::string status;  // one line: what is happening
  std::string error;   // last error shown in a banner until dismissed or a new read starts
  bool drag_over = false;
  int drag_file_count = 0;
  ReadProgress progress;
  DataReport report;
  Trajectory trajectory;
  BalanceChart balance;
  FitSettings settings;
  AnalysisSettings analysis;
  ReadOptions applied_read;              // the read options the worker has (last Apply)
  learn::GameFilterOptions filter_form;  // the filter as the panel edits it
  std::string filter_error;              // a filter text that did not parse (share link)
  std::string terminations_text;         // "Time forfeit, Abandoned" as typed
  bool settings_restored = false;        // the page passed settings (a share link)
  std::vector<ButtonRect> buttons;       // filled by the UI every frame
  float wheel_x = 0, wheel_y = 0;        // mouse wheel notches since the last frame (positive = up)
  bool has_data() const { return report.present && report.rows > 0; }
  // Values from one player's point of view (the applied filter names a player, pov on): the
  // sides are "the player" and "the opponent", the intercept is the player's edge.
  bool player_view() const {
    const auto filter = learn::parse_game_filter(applied_read.filter);
    return filter && filter->player_perspective && !filter->player.empty();
  }
  bool busy() const { return phase == Phase::kReading || phase == Phase::kFitting; }
};

// What the UI asks the worker (through the page) to do.
struct Command {
  enum class Kind : std::uint8_t {
    kOpenFiles,     // show the file picker
    kLoadSample,    // read the bundled sample
    kCancel,        // stop reading or fitting
    kFit,           // refit with `settings` from the kept histogram
    kExport,        // `format`: "mat", "csv", "json", "png"
    kReset,         // forget all data
    kDismissError,  // clear the error banner (app-only; the page resets data-state)
    kShare          // the page writes a share link of `settings` + `analysis`
  };
  Kind kind;
  FitSettings settings{};
  AnalysisSettings analysis{};  // with `read` as applied (kFit, kShare)
  std::string format{};
};

}  // namespace materialist::app
