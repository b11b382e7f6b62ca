// Values by square: a tapered piece-square model fitted from the quiet positions' boards.
//
// For each piece type t (P N B R Q K) and square s (White's view, a1 = 0 ... h8 = 63) a
// middlegame value θmg[t][s] and an endgame value θeg[t][s] in natural log-odds. A position's
// log-odds of White's win are Σ over White's pieces of f·θmg[t][s] + (1 − f)·θeg[t][s], minus
// the same over Black's pieces read on the mirrored square (s ^ 56), with f = phase / 24
// (learn::MaterialCounts::phase: N, B 1, R 2, Q 4, at most 24). The tables absorb the material
// values: a piece's values are its table's entries; the material-only model (five untapered
// values) is fitted beside on the same positions, for its log-loss and the unit.
//
// The penalty: λ Σ over the twelve tables (a type and a phase) of Σ (θ − the table's mean)²,
// plus ε Σ θ² (ε = kSquaresRidge): each square is shrunk towards its piece's mean value, not
// towards 0, and the kings' tables, whose mean no position can tell, stay centred on 0.
// λ is chosen on held-out games: a fixed tenth of the games, by a hash of their moves (a game
// and its copies are never on both sides), from a descending list, warm-started; the fit
// reported is the training games' at that λ. Its standard errors are those of the penalised
// Hessian's inverse. Minimised by Newton's method with a backtracking line search; the Hessian
// is summed per phase (25 matrices of the 384 cells), so a position costs its pieces' pairs once.
//
//   SquaresData data(options);        // with IngestOptions::keep_boards
//   row sink: data.add(row);
//   auto fit = fit_squares(data, options);
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/error.h"
#include "learn/stats/histogram.h"
#include "learn/vocabulary/eval_target.h"
#include "learn/vocabulary/model_options.h"
#include "learn/vocabulary/packed_board.h"
#include "learn/vocabulary/pieces.h"

namespace materialist::learn {

inline constexpr int kSquareCells = kBoardPieceTypes * kBoardSquares;  // type * 64 + square
inline constexpr int kSquareParameters = 2 * kSquareCells;             // the mg cells, then eg
inline constexpr int kMaxSquarePhase = 24;
inline constexpr double kSquaresRidge = 1e-3;  // ε
// 40 MB of positions (40 bytes each; up to twice that while the vector grows) and the Hessian's
// 30 MB: under 128 MB (2 000 000 peaked at 148 MB on engine games).
inline constexpr std::uint64_t kDefaultMaxSquarePositions = 1'000'000;

struct SquaresOptions {
  Target target = Target::kResult;
  // Draws: left out (binary) or scored ½; the evaluation target is an expected score either way.
  OutcomeModel outcomes = OutcomeModel::kDrawsOut;
  // More positions than this: a uniform sample (by a hash of the game and the row) is kept.
  std::uint64_t max_positions = kDefaultMaxSquarePositions;
  std::vector<double> lambdas = {4096, 1024, 256, 64, 16, 4, 1};
  // A square with fewer training positions than this is "sparse": not a finding.
  std::uint64_t min_positions = 100;
  // Fewer training positions than this, or fewer held-out ones than a tenth of it: no fit.
  std::uint64_t min_training_positions = 2000;
};

// One position as the fit keeps it (40 bytes).
struct SquaresRow {
  std::uint64_t occupied = 0;
  std::array<std::uint8_t, kMaxPackedPieces / 2> pieces{};
  float score = 0;               // White's: 1, ½, 0, or the evaluation target's expected score
  std::uint32_t sample_key = 0;  // kept while below the sample's threshold
  std::uint8_t phase = 0;
  std::uint8_t held_out = 0;
  std::uint8_t state = 0;                  // PackedBoard::state: the side to move, castling
  std::uint8_t en_passant = kNoEnPassant;  // PackedBoard::en_passant

  PackedBoard board() const;  // for its EPD line
};
static_assert(sizeof(SquaresRow) <= 64, "issue 49: at most 64 bytes a position");

// What SquaresData counted besides the rows it keeps (a parallel reader's share carries it).
struct SquaresTally {
  std::uint64_t offered = 0;  // rows that could be fitted
  std::uint64_t without_board = 0;
  std::uint64_t draws_left_out = 0;
  std::uint64_t held_out_games = 0;
  std::uint64_t training_games = 0;
  std::uint64_t threshold = std::uint64_t{1} << 32;  // rows kept: sample_key < threshold
  bool sampled = false;
};

// Whether a game (by Row::game_hash) is one of the held-out tenth.
bool held_out_game(std::uint64_t game_hash);

class SquaresData {
 public:
  explicit SquaresData(const SquaresOptions& options);

  // A row with its board (Row::board); one without (a .mat row) is counted and left out, as is
  // a draw when draws are left out.
  void add(const Row& row);

  // Another reader's rows and counts (a parallel read's share, in file order): the union,
  // sampled as one read would have been (the lower threshold, then the cap).
  void absorb(const std::vector<SquaresRow>& rows, const SquaresTally& tally);

  // A uniform sample of at most `max_rows` of these rows (the next thresholds of the same
  // sequence), with the same counts, its cap `max_rows`: a live preview's data.
  SquaresData sample(std::uint64_t max_rows) const;

  const std::vector<SquaresRow>& rows() const { return rows_; }
  const SquaresTally& tally() const { return tally_; }
  std::uint64_t positions_offered() const { return tally_.offered; }
  std::uint64_t without_board() const { return tally_.without_board; }
  std::uint64_t draws_left_out() const { return tally_.draws_left_out; }
  // The cap was reached: rows() is a sample of positions_offered().
  bool sampled() const { return tally_.sampled; }
  std::uint64_t held_out_games() const { return tally_.held_out_games; }
  std::uint64_t training_games() const { return tally_.training_games; }

 private:
  void thin();  // lowers the sample's threshold to the next of its sequence

  SquaresOptions options_;
  std::vector<SquaresRow> rows_;
  SquaresTally tally_;
  std::uint64_t last_game_hash_ = 0;
  std::uint64_t last_game_ = 0;
  std::uint32_t row_in_game_ = 0;
};

struct SquaresLambda {
  double lambda = 0;
  double validation_log_loss = 0;
};

struct SquaresFit {
  std::vector<double> theta;  // kSquareParameters log-odds: θmg by cell, then θeg by cell
  std::vector<double> se;     // their standard errors
  // Training positions with a piece of the cell's type on the cell's square (White's view:
  // Black's pieces counted on the mirrored square).
  std::array<std::uint64_t, kSquareCells> positions{};
  std::array<double, kPieceKinds> material{};  // the material-only model (P..Q), log-odds
  double lambda = 0;                           // the λ chosen
  std::vector<SquaresLambda> path;             // every λ tried, in order
  double validation_log_loss = 0;              // mean per held-out position
  double material_log_loss = 0;                // the material-only model's, the same positions
  std::uint64_t training_positions = 0;
  std::uint64_t validation_positions = 0;
  std::uint64_t validation_games = 0;  // the held-out games (SquaresData::held_out_games)
  int newton_iterations = 0;           // over the whole λ path
  int hessian_passes = 0;  // passes that summed the data's Hessian (the errors' included)

  double mg(int type, int square) const { return theta[type * kBoardSquares + square]; }
  double eg(int type, int square) const {
    return theta[kSquareCells + type * kBoardSquares + square];
  }
};

// kInvalidArgument (saying what is missing) when there are too few positions or held-out ones;
// kNotConverged when Newton's method could not proceed. Data kept with draws scored ½ can be
// fitted with draws left out (the result target's rows scored ½ are skipped): the page keeps
// its rows so, and the draws setting refits them without a new read.
[[nodiscard]] Expected<SquaresFit> fit_squares(const SquaresData& data,
                                               const SquaresOptions& options);

}  // namespace materialist::learn
