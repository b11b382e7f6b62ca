// The app's state: plain structs owned by the app. Worker messages (decoded at the web seam) update
// them once per frame; UI code only reads and edits them and returns commands for the worker.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

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
  float step = 1.0f;  // gradient descent step α
  int iterations = 10000;
  float lambda = 1e-6f;
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
     {0, Solver::kGradientDescent, 1.0f, 10000, 1e-6f, DrawHandling::kExclude,
      UnknownResult::kAsDraw}},
    {"exact",
     "Exact (Newton, draws = ½ point)",
     {1, Solver::kNewton, 1.0f, 50, 1e-6f, DrawHandling::kHalfPoint, UnknownResult::kSkip}},
    {"custom",
     "Custom",
     {kCustomPreset, Solver::kGradientDescent, 1.0f, 10000, 1e-6f, DrawHandling::kExclude,
      UnknownResult::kSkip}},
}};

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
};

struct FitSnapshot {
  int iteration = 0;
  std::array<double, kPieceCount> theta{};
  PieceValues values{};
  PieceValues value_se{};  // standard errors, on the final snapshot only
  bool has_se = false;
  double loss = 0;
};

// The live convergence view: every snapshot received for the current fit.
struct Trajectory {
  Solver solver = Solver::kGradientDescent;
  std::string preset;
  int planned_iterations = 0;
  bool done = false;
  std::vector<FitSnapshot> snapshots;
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
  std::vector<ButtonRect> buttons;  // filled by the UI every frame
  float wheel_x = 0, wheel_y = 0;   // mouse wheel notches since the last frame (positive = up)
  bool has_data() const { return report.present && report.rows > 0; }
  bool busy() const { return phase == Phase::kReading || phase == Phase::kFitting; }
};

// What the UI asks the worker (through the page) to do.
struct Command {
  enum class Kind : std::uint8_t {
    kOpenFiles,    // show the file picker
    kLoadSample,   // read the bundled sample
    kCancel,       // stop reading or fitting
    kFit,          // refit with `settings` from the kept histogram
    kExport,       // `format`: "mat", "csv", "json", "png"
    kReset,        // forget all data
    kDismissError  // clear the error banner (app-only; the page resets data-state)
  };
  Kind kind;
  FitSettings settings{};
  std::string format{};
};

}  // namespace materialist::app
