// The play engine's search: iterative deepening over a principal-variation alpha-beta search
// with a quiescence search (captures and promotions), a transposition table keyed by Zobrist
// keys (buckets of two: depth-preferred for the current search, then always-replace), move
// ordering (hash move, MVV-LVA, two killers a ply, history with a malus for the quiet moves
// tried before a cutoff), a check extension, mate scores by distance, and the draw rules
// (repetition against the game's history, fifty moves, insufficient material, stalemate). The
// evaluation is a parameter (play/evaluation.h), so a value set is data, not a code path.
//
// Pruning, only in non-PV nodes out of check and away from mate scores: reverse futility (depth
// <= 3: the static evaluation 120 cp a ply above beta returns it), null move (the side to move
// has a piece, evaluation >= beta, not twice in a row; R = 2, 3 from depth 6), futility of quiet
// non-checking moves at depth <= 2 (evaluation 175 cp a ply below alpha). Late move reductions:
// quiet, non-checking, non-killer moves from the fourth on at depth >= 3, out of check, by about
// log2(depth) * log2(moves searched) / 5 plies (one less in PV nodes), re-searched at full depth
// when they beat alpha. Each rule is in integers, so every build prunes alike.
//
//   Searcher searcher(values, {});
//   SearchResult result = searcher.search(position, history_keys, {.nodes = 20000});
//   play result.best ...
//
// With a node or depth limit the search is deterministic: the same position, history and table
// contents give the same move on every machine and in WebAssembly. A time limit is not.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "chess/movegen.h"
#include "chess/position.h"
#include "play/evaluation.h"

namespace materialist::play {

inline constexpr int kMaxPly = 128;
inline constexpr int kMateScore = 32000;
inline constexpr int kInfinity = 32001;
// Scores beyond this are mates: kMateScore − plies to mate (or its negation when mated).
inline constexpr int kMateBound = kMateScore - kMaxPly;

constexpr bool is_mate_score(int score) {
  return score > kMateBound || score < -kMateBound;
}
// Moves to mate from a mate score: positive when the side to move mates, negative when mated.
constexpr int mate_in_moves(int score) {
  return score > 0 ? (kMateScore - score + 1) / 2 : -(kMateScore + score) / 2;
}

// When a search stops. Zero means no limit of that kind; with none set it searches depth 1.
// Without `infinite` a mate found at its shortest distance ends the search too.
struct SearchLimits {
  std::uint64_t nodes = 0;
  int depth = 0;
  int movetime_ms = 0;
  int mate = 0;  // stop once a mate in at most this many moves (for the side to move) is proven
  bool infinite = false;  // no limit at all: search (up to kMaxPly-1) until the stop flag is set
};

struct SearchResult {
  chess::Move best;  // Move() only when the position has no legal move
  int score = 0;     // centipawns or a mate score, the side to move's point of view
  int depth = 0;     // the last iteration completed
  std::uint64_t nodes = 0;
  std::vector<chess::Move> pv;
  int seldepth = 0;  // the deepest ply reached, quiescence included
};

// One completed iteration of iterative deepening, as UCI's `info` line reports it.
struct IterationInfo {
  int depth = 0;
  int seldepth = 0;  // the deepest ply reached, quiescence included
  int score = 0;     // as SearchResult::score
  std::uint64_t nodes = 0;
  std::int64_t elapsed_us = 0;
  int hashfull = 0;  // permille of the transposition table in use (sample the first 1000 entries)
  std::span<const chess::Move> pv;
};
using IterationListener = std::function<void(const IterationInfo&)>;

class Searcher {
 public:
  // `table_entries` is rounded down to a power of two (16 bytes each).
  Searcher(const ValueSet& values, EvaluationOptions options, std::size_t table_entries = 1u << 16);

  // Forgets everything learned (table, killers, history): a new game starts as the first did.
  void new_game();
  // `history` holds the Zobrist keys of the game's earlier positions, oldest first (the root's
  // own key excluded), for the repetition rule. `stop`, when given, is polled with the node and
  // time limits (another thread may set it); once set the search ends as at a limit: the last
  // completed iteration decides, and depth 1 always completes, so a move is always returned.
  // `on_iteration` hears of every completed iteration.
  SearchResult search(const chess::Position& root, std::span<const std::uint64_t> history,
                      const SearchLimits& limits, const std::atomic<bool>* stop = nullptr,
                      const IterationListener& on_iteration = {});

  const Evaluator& evaluator() const { return evaluator_; }

 private:
  struct TableEntry {
    std::uint64_t key = 0;
    std::uint16_t move = 0;
    std::int16_t score = 0;
    std::int8_t depth = -1;
    std::uint8_t bound = 0;
    std::uint8_t generation = 0;  // the search that stored it, so old entries give way first
  };
  struct Ordered;

  // `sums` is the position's piece-square part (positional(position)), kept move by move.
  int search_node(const chess::Position& position, Positional sums, int depth, int alpha, int beta,
                  int ply, bool pv_node);
  int quiescence(const chess::Position& position, Positional sums, int alpha, int beta, int ply);
  bool count_node_and_check_stop();
  bool is_repetition(int ply, int halfmove_clock) const;
  void order_moves(const chess::Position& position, Ordered& ordered, chess::Move hash_move,
                   int ply) const;
  void remember_quiet_cutoff(const chess::Position& position, chess::Move move,
                             const chess::MoveList& tried, int depth, int ply);
  bool null_move_cuts(const chess::Position& position, Positional sums, int depth, int beta,
                      int ply);
  TableEntry* probe(std::uint64_t key);
  // Asks the processor for the key's bucket ahead of the probe (a hint: no effect on results).
  void prefetch(std::uint64_t key) const;
  void store(std::uint64_t key, chess::Move move, int score, int depth, int bound, int ply);
  void update_pv(int ply, chess::Move move);
  bool iteration_ends_search(int depth, int score) const;
  int hashfull() const;

  Evaluator evaluator_;
  std::vector<TableEntry> table_;
  std::uint64_t table_mask_ = 0;
  std::array<std::array<chess::Move, 2>, kMaxPly> killers_{};
  std::array<std::array<std::array<int, 64>, 64>, 2> history_{};
  std::array<std::array<chess::Move, kMaxPly>, kMaxPly> pv_table_{};
  std::array<int, kMaxPly> pv_length_{};
  // The game's keys then the search path's: keys_[history size + ply] is the node at ply.
  std::vector<std::uint64_t> keys_;
  std::size_t root_index_ = 0;
  int last_null_ply_ = -1;  // the ply of the nearest null move above the node, or -1
  std::uint8_t generation_ = 0;

  SearchLimits limits_;
  const std::atomic<bool>* stop_flag_ = nullptr;
  std::uint64_t nodes_ = 0;
  int seldepth_ = 0;
  bool stop_ = false;
  bool may_stop_ = false;  // false during depth 1, so a move is always found
  std::int64_t deadline_us_ = 0;
};

// Whether neither side can ever mate: K v K, K and one minor v K, kings and bishops all on
// squares of one colour.
bool insufficient_material(const chess::Position& position);

// Whether `move` (legal in `position`) takes a piece, en passant included (castling is not).
bool is_capture(const chess::Position& position, chess::Move move);

}  // namespace materialist::play
