// One game between two engines from an opening, a move per step() (a Web Worker plays a game by
// calling step() between messages), scored by its real end: checkmate, stalemate, threefold
// repetition, the fifty-move rule, insufficient material, or an adjudication as match runners
// offer it (cutechess-cli's -draw and -resign, a maximum length), each configurable and able to be
// turned off.
//
//   GamePlayer game(opening, white_values, black_values, settings);
//   while (!game.finished()) game.step();
//   game.record().result ...
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "chess/position.h"
#include "learn/vocabulary/result.h"
#include "play/search.h"
#include "play/value_set.h"

namespace materialist::play {

// A start: a position (the standard one for a PGN book) and the book moves played from it.
struct Opening {
  std::string fen;  // empty: the standard start
  std::vector<chess::Move> moves;
};

struct Adjudication {
  // A draw once both sides' scores have stayed within draw_score centipawns of zero for
  // draw_move_count moves each, from move draw_move_number on (cutechess-cli: -draw movenumber=40
  // movecount=8 score=10).
  bool draw = true;
  int draw_move_number = 40;
  int draw_move_count = 8;
  int draw_score = 10;
  // A loss once, for resign_move_count moves each, the losing side scores at most −resign_score
  // and the winning side at least +resign_score (both engines agree; -resign movecount=3
  // score=600 twosided).
  bool resign = true;
  int resign_move_count = 3;
  int resign_score = 600;
  // A draw after this many plies from the start position (0: no limit).
  int max_plies = 400;
};

struct GameSettings {
  SearchLimits limits{.nodes = 20000};
  Adjudication adjudication;
  EvaluationOptions evaluation;
  std::size_t table_entries = 1u << 16;  // per engine (16 bytes each)
};

// Why a game ended.
enum class Termination : std::uint8_t {
  kCheckmate,
  kStalemate,
  kRepetition,
  kFiftyMoves,
  kInsufficientMaterial,
  kAdjudicatedDraw,
  kAdjudicatedResign,
  kMaxLength,
};
inline constexpr int kTerminations = 8;
// Words for JSON and the PGN's last comment, in Termination order.
inline constexpr std::array<const char*, kTerminations> kTerminationNames = {
    "checkmate",
    "stalemate",
    "threefold repetition",
    "fifty-move rule",
    "insufficient material",
    "adjudication: draw",
    "adjudication: resign",
    "adjudication: maximum length"};

struct PlayedMove {
  chess::Move move;
  int score = 0;  // the mover's search score after its move (the mover's point of view)
  int depth = 0;
  std::uint64_t nodes = 0;
};

struct GameRecord {
  Opening opening;
  std::string white;  // the sets' names
  std::string black;
  std::string white_values;  // ValueSet::values_text()
  std::string black_values;
  std::vector<PlayedMove> moves;  // after the opening's
  learn::Outcome result = learn::Outcome::kDraw;
  Termination termination = Termination::kAdjudicatedDraw;
  std::uint64_t nodes = 0;
  std::string final_fen;
};

class GamePlayer {
 public:
  GamePlayer(const Opening& opening, const ValueSet& white, const ValueSet& black,
             const GameSettings& settings);

  bool finished() const { return finished_; }
  // Plays one move (nothing once finished). An opening whose moves are illegal from its start is
  // refused by the book, never here.
  void step();
  void play_to_end() {
    while (!finished_) step();
  }
  const GameRecord& record() const { return record_; }
  const chess::Position& position() const { return position_; }

 private:
  void finish(learn::Outcome result, Termination termination);
  void check_rules();
  void check_adjudication();

  GameSettings settings_;
  std::unique_ptr<Searcher> engines_[2];  // by colour: the white side's engine first
  chess::Position position_;
  std::vector<std::uint64_t> keys_;  // every position of the game, the current one last
  GameRecord record_;
  int plies_from_start_ = 0;
  int draw_streak_ = 0;
  int resign_streak_ = 0;
  int resign_side_ = -1;  // the colour index that is losing in the streak
  bool finished_ = false;
};

// The opening's start position; an error names the bad FEN or move.
Expected<chess::Position> opening_position(const Opening& opening);

}  // namespace materialist::play
