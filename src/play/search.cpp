#include "play/search.h"

#include <algorithm>
#include <bit>
#include <chrono>

#include "play/zobrist.h"

namespace materialist::play {

namespace {

using chess::Move;
using chess::MoveList;
using chess::PieceType;
using chess::Position;

enum Bound : std::uint8_t { kNoBound, kUpper, kLower, kExact };

constexpr int kHashMoveScore = 1 << 30;
constexpr int kCaptureScore = 1 << 28;
constexpr int kKillerScore = 1 << 27;
constexpr int kHistoryLimit = 1 << 20;
// Pruning margins in centipawns, a ply of depth: how far the static evaluation may be from the
// window before the node (reverse futility) or a quiet move (futility) is not worth searching.
constexpr int kReverseFutilityMargin = 120;
constexpr int kFutilityMargin = 175;

std::int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Mate scores are stored relative to the node, so a mate found along one path reads right
// from another.
int score_to_table(int score, int ply) {
  if (score > kMateBound) return score + ply;
  if (score < -kMateBound) return score - ply;
  return score;
}
int score_from_table(int score, int ply) {
  if (score > kMateBound) return score - ply;
  if (score < -kMateBound) return score + ply;
  return score;
}

bool is_capture_or_promotion(const Position& position, Move move) {
  return move.is_promotion() || is_capture(position, move);
}

// A null move is unsound in zugzwang, which is most likely with only king and pawns.
bool has_non_pawn_material(const Position& position) {
  const chess::Color side = position.side_to_move();
  return (position.pieces(side, PieceType::kKnight, PieceType::kBishop) |
          position.pieces(side, PieceType::kRook, PieceType::kQueen))
      .any();
}

// Late move reductions grow with the depth left and the number of moves already searched; in
// integers (bit widths, about log2) so that every build reduces alike.
int late_move_reduction(int depth, int searched) {
  const int width = std::bit_width(static_cast<unsigned>(depth)) *
                    std::bit_width(static_cast<unsigned>(searched));
  return std::max(1, width / 5);
}

}  // namespace

bool is_capture(const Position& position, Move move) {
  if (move.is_en_passant()) return true;
  if (move.is_castling()) return false;
  return !position.piece_on(move.to()).is_none();
}

bool insufficient_material(const Position& position) {
  const chess::Bitboard heavy = position.pieces(PieceType::kPawn) |
                                position.pieces(PieceType::kRook) |
                                position.pieces(PieceType::kQueen);
  if (heavy.any()) return false;
  const chess::Bitboard knights = position.pieces(PieceType::kKnight);
  const chess::Bitboard bishops = position.pieces(PieceType::kBishop);
  if ((knights | bishops).popcount() <= 1) return true;
  if (knights.any()) return false;
  return (bishops & chess::kDarkSquares).empty() || (bishops & chess::kLightSquares).empty();
}

// Moves with their ordering scores, handed out best first (selection sort: most nodes cut off
// after a few moves, so sorting all of them would be wasted). The scores are left uninitialized,
// as MoveList's moves are: zeroing a node's arrays cost 2% of the search.
struct Searcher::Ordered {
  MoveList list;
  std::array<int, MoveList::kCapacity> scores;
  int next = 0;

  bool pick(Move& move) {
    const int size = list.size();
    if (next >= size) return false;
    int best = next;
    for (int i = next + 1; i < size; ++i) {
      if (scores[i] > scores[best]) best = i;
    }
    std::swap(scores[best], scores[next]);
    list.swap(best, next);
    move = list[next++];
    return true;
  }
};

Searcher::Searcher(const ValueSet& values, EvaluationOptions options, std::size_t table_entries)
    : evaluator_(values, options) {
  const std::size_t size = std::bit_floor(std::max<std::size_t>(table_entries, 1024));
  table_.resize(size);
  table_mask_ = size - 1;
}

void Searcher::new_game() {
  std::fill(table_.begin(), table_.end(), TableEntry{});
  killers_ = {};
  history_ = {};
  generation_ = 0;
}

// The table is in buckets of two: the first entry keeps the deepest result of the current
// search, the second takes whatever the first turns away.
Searcher::TableEntry* Searcher::probe(std::uint64_t key) {
  TableEntry* bucket = &table_[key & table_mask_ & ~std::uint64_t{1}];
  for (int i = 0; i < 2; ++i) {
    if (bucket[i].key == key && bucket[i].depth >= 0) return &bucket[i];
  }
  return nullptr;
}

void Searcher::prefetch(std::uint64_t key) const {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(&table_[key & table_mask_ & ~std::uint64_t{1}]);
#else
  (void)key;
#endif
}

void Searcher::store(std::uint64_t key, Move move, int score, int depth, int bound, int ply) {
  TableEntry* bucket = &table_[key & table_mask_ & ~std::uint64_t{1}];
  TableEntry* entry = &bucket[1];
  if (bucket[0].key == key) {
    entry = &bucket[0];
  } else if (bucket[1].key != key &&
             (bucket[0].generation != generation_ || depth >= bucket[0].depth)) {
    bucket[1] = bucket[0];
    entry = &bucket[0];
  }
  // Keep a deeper entry of the same position unless this one is exact.
  if (entry->key == key && entry->depth > depth && bound != kExact) {
    entry->generation = generation_;
    return;
  }
  if (move.is_none() && entry->key == key) move = Move::from_raw(entry->move);
  *entry = {key,
            move.raw(),
            static_cast<std::int16_t>(score_to_table(score, ply)),
            static_cast<std::int8_t>(std::min(depth, 127)),
            static_cast<std::uint8_t>(bound),
            generation_};
}

bool Searcher::count_node_and_check_stop() {
  ++nodes_;
  if (!may_stop_) return false;
  if (limits_.nodes != 0 && nodes_ >= limits_.nodes) stop_ = true;
  // The clock and the stop flag every 1024 nodes: well under a millisecond apart.
  if ((nodes_ & 1023) == 0) {
    if (limits_.movetime_ms != 0 && now_us() >= deadline_us_) stop_ = true;
    if (stop_flag_ != nullptr && stop_flag_->load(std::memory_order_relaxed)) stop_ = true;
  }
  return stop_;
}

bool Searcher::iteration_ends_search(int depth, int score) const {
  if (stop_flag_ != nullptr && stop_flag_->load(std::memory_order_relaxed)) return true;
  if (limits_.infinite) return false;
  if (limits_.nodes != 0 && nodes_ >= limits_.nodes) return true;
  if (limits_.movetime_ms != 0 && now_us() >= deadline_us_) return true;
  if (limits_.mate != 0 && score > kMateBound && mate_in_moves(score) <= limits_.mate) return true;
  // A mate within this many plies is the shortest there is: deeper iterations find the same.
  return is_mate_score(score) && kMateScore - std::abs(score) <= depth;
}

int Searcher::hashfull() const {
  const std::size_t sample = std::min<std::size_t>(1000, table_.size());
  std::size_t used = 0;
  for (std::size_t i = 0; i < sample; ++i) {
    used += table_[i].depth >= 0 && table_[i].generation == generation_ ? 1 : 0;
  }
  return static_cast<int>(used * 1000 / sample);
}

bool Searcher::is_repetition(int ply, int halfmove_clock) const {
  const std::size_t index = root_index_ + static_cast<std::size_t>(ply);
  const std::uint64_t key = keys_[index];
  // Only positions since the last capture or pawn move can repeat, and only with the same side
  // to move. Once within the search is enough (the line can be repeated again); a position of
  // the game before the root must have occurred twice there to make this a threefold.
  std::size_t reach = std::min<std::size_t>(static_cast<std::size_t>(halfmove_clock), index);
  // Not across a null move: the positions before it are not this line's.
  if (last_null_ply_ >= 0) reach = std::min<std::size_t>(reach, ply - last_null_ply_);
  int earlier_in_game = 0;
  for (std::size_t back = 4; back <= reach; back += 2) {
    if (keys_[index - back] != key) continue;
    if (index - back >= root_index_) return true;
    if (++earlier_in_game == 2) return true;
  }
  return false;
}

void Searcher::order_moves(const Position& position, Ordered& ordered, Move hash_move,
                           int ply) const {
  const int side = chess::index_of(position.side_to_move());
  for (int i = 0; i < ordered.list.size(); ++i) {
    const Move move = ordered.list[i];
    int score;
    if (move == hash_move) {
      score = kHashMoveScore;
    } else if (is_capture_or_promotion(position, move)) {
      // MVV-LVA: the most valuable victim first, then the least valuable attacker.
      const PieceType victim = move.is_en_passant() || position.piece_on(move.to()).is_none()
                                   ? PieceType::kPawn
                                   : position.piece_on(move.to()).type();
      const PieceType attacker = position.piece_on(move.from()).type();
      score = kCaptureScore + 16 * chess::index_of(victim) - chess::index_of(attacker);
      if (move.is_promotion()) score += 64 * chess::index_of(move.promoted_to());
    } else if (ply < kMaxPly && move == killers_[ply][0]) {
      score = kKillerScore + 1;
    } else if (ply < kMaxPly && move == killers_[ply][1]) {
      score = kKillerScore;
    } else {
      score = history_[side][move.from().index()][move.to().index()];
    }
    ordered.scores[i] = score;
  }
}

void Searcher::remember_quiet_cutoff(const Position& position, Move move, const MoveList& tried,
                                     int depth, int ply) {
  if (killers_[ply][0] != move) {
    killers_[ply][1] = killers_[ply][0];
    killers_[ply][0] = move;
  }
  auto& history = history_[chess::index_of(position.side_to_move())];
  const int bonus = depth * depth;
  // The quiet moves tried before it did not cut off: they lose what it gains.
  for (const Move earlier : tried) {
    int& entry = history[earlier.from().index()][earlier.to().index()];
    entry = std::max(entry - bonus, -kHistoryLimit);
  }
  int& entry = history[move.from().index()][move.to().index()];
  entry += bonus;
  if (entry > kHistoryLimit) {
    for (auto& side : history_) {
      for (auto& from : side) {
        for (int& value : from) value /= 2;
      }
    }
  }
}

bool Searcher::null_move_cuts(const Position& position, Positional sums, int depth, int beta,
                              int ply) {
  Position child = position;
  child.play(Move::null());
  keys_[root_index_ + ply + 1] = zobrist_key_after(position, keys_[root_index_ + ply], child);
  prefetch(keys_[root_index_ + ply + 1]);
  const int reduction = depth >= 6 ? 3 : 2;
  const int outer_null_ply = last_null_ply_;
  last_null_ply_ = ply + 1;
  // A null move moves no piece: the sums stay.
  const int score =
      -search_node(child, sums, depth - 1 - reduction, -beta, -beta + 1, ply + 1, false);
  last_null_ply_ = outer_null_ply;
  return !stop_ && score >= beta;
}

void Searcher::update_pv(int ply, Move move) {
  pv_table_[ply][ply] = move;
  for (int next = ply + 1; next < pv_length_[ply + 1]; ++next) {
    pv_table_[ply][next] = pv_table_[ply + 1][next];
  }
  pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
}

int Searcher::quiescence(const Position& position, Positional sums, int alpha, int beta, int ply) {
  pv_length_[ply] = ply;
  seldepth_ = std::max(seldepth_, ply);
  if (count_node_and_check_stop()) return 0;
  if (insufficient_material(position)) return 0;
  if (ply >= kMaxPly - 1) return evaluator_.evaluate(position, sums);
  const bool in_check = position.in_check();
  int best = -kInfinity;
  Ordered ordered;
  MoveList& moves = ordered.list;
  if (in_check) {
    // Every evasion; none is a checkmate.
    chess::generate_legal(position, moves);
    if (moves.empty()) return -kMateScore + ply;
  } else {
    // Standing pat: the side to move may decline every capture. (A stalemate here reads as the
    // evaluation: the quiescence search does not look for it, as engines' do not.)
    best = evaluator_.evaluate(position, sums);
    if (best >= beta) return best;
    alpha = std::max(alpha, best);
    chess::generate_tactical(position, moves);
  }
  order_moves(position, ordered, Move(), kMaxPly);
  Move move;
  while (ordered.pick(move)) {
    Position child = position;
    child.play(move);
    const int score = -quiescence(child, evaluator_.positional_after(position, child, sums), -beta,
                                  -alpha, ply + 1);
    if (stop_) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        if (score >= beta) break;
      }
    }
  }
  return best;
}

int Searcher::search_node(const Position& position, Positional sums, int depth, int alpha, int beta,
                          int ply, bool pv_node) {
  pv_length_[ply] = ply;
  const std::uint64_t key = keys_[root_index_ + ply];
  if (ply > 0) {
    if (insufficient_material(position) || is_repetition(ply, position.halfmove_clock())) return 0;
    // No line from here can mate sooner than a mate already found nearer the root.
    alpha = std::max(alpha, -kMateScore + ply);
    beta = std::min(beta, kMateScore - ply - 1);
    if (alpha >= beta) return alpha;
  }
  const bool in_check = position.in_check();
  if (in_check) ++depth;
  if (depth <= 0) return quiescence(position, sums, alpha, beta, ply);
  seldepth_ = std::max(seldepth_, ply);
  if (count_node_and_check_stop()) return 0;
  if (ply >= kMaxPly - 1) return evaluator_.evaluate(position, sums);

  Move hash_move;
  if (const TableEntry* entry = probe(key)) {
    hash_move = Move::from_raw(entry->move);
    const int score = score_from_table(entry->score, ply);
    if (!pv_node && ply > 0 && entry->depth >= depth &&
        (entry->bound == kExact || (entry->bound == kLower && score >= beta) ||
         (entry->bound == kUpper && score <= alpha))) {
      return score;
    }
  }

  // Non-PV nodes out of check may be cut on the static evaluation (not in reach of the fifty-move
  // rule, which only the move loop below applies).
  const bool may_prune = !pv_node && !in_check && ply > 0 && position.halfmove_clock() < 90 &&
                         !is_mate_score(alpha) && !is_mate_score(beta);
  const int eval = may_prune ? evaluator_.evaluate(position, sums) : 0;
  if (may_prune && depth <= 3 && eval - kReverseFutilityMargin * depth >= beta) return eval;
  // Null move: even passing keeps the score above beta, so a real move would too (not twice in
  // a row, and not without pieces, where zugzwang is common).
  if (may_prune && depth >= 2 && eval >= beta && last_null_ply_ != ply &&
      has_non_pawn_material(position)) {
    if (null_move_cuts(position, sums, depth, beta, ply)) return beta;
    if (stop_) return 0;
  }
  const bool futile = may_prune && depth <= 2 && eval + kFutilityMargin * depth <= alpha;

  Ordered ordered;
  chess::generate_legal(position, ordered.list);
  if (ordered.list.empty()) return in_check ? -kMateScore + ply : 0;
  // Fifty moves without a capture or pawn move: a draw, unless the last of them mated.
  if (ply > 0 && position.halfmove_clock() >= 100) return 0;
  order_moves(position, ordered, hash_move, ply);

  const int alpha_at_start = alpha;
  int best = -kInfinity;
  Move best_move;
  Move move;
  int searched = 0;
  MoveList quiets_tried;
  while (ordered.pick(move)) {
    const bool quiet = !is_capture_or_promotion(position, move);
    // A futile quiet move is skipped unplayed unless it gives check.
    if (futile && searched > 0 && quiet && !position.gives_check(move)) continue;
    Position child = position;
    child.play(move);
    const bool quiet_and_calm = quiet && !child.in_check();
    const std::uint64_t child_key = zobrist_key_after(position, key, child);
    keys_[root_index_ + ply + 1] = child_key;
    // The child probes the table unless it is a quiescence node: its bucket is fetched while the
    // sums are worked out.
    if (depth >= 2 || child.in_check()) prefetch(child_key);
    const Positional child_sums = evaluator_.positional_after(position, child, sums);
    int score;
    if (searched == 0) {
      score = -search_node(child, child_sums, depth - 1, -beta, -alpha, ply + 1, pv_node);
    } else {
      // Late quiet moves are searched shallower first; one that beats alpha gets full depth.
      int reduction = 0;
      if (depth >= 3 && searched >= 3 && quiet_and_calm && !in_check && move != killers_[ply][0] &&
          move != killers_[ply][1]) {
        reduction =
            std::clamp(late_move_reduction(depth, searched) - (pv_node ? 1 : 0), 0, depth - 2);
      }
      // Principal variation search: prove the move worse with a null window, re-search if not.
      score = -search_node(child, child_sums, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1,
                           false);
      if (reduction > 0 && score > alpha && !stop_) {
        score = -search_node(child, child_sums, depth - 1, -alpha - 1, -alpha, ply + 1, false);
      }
      if (score > alpha && score < beta && !stop_) {
        score = -search_node(child, child_sums, depth - 1, -beta, -alpha, ply + 1, true);
      }
    }
    ++searched;
    if (stop_) return 0;
    if (score > best) {
      best = score;
      best_move = move;
      if (score > alpha) {
        alpha = score;
        update_pv(ply, move);
        if (score >= beta) {
          if (quiet) {
            remember_quiet_cutoff(position, move, quiets_tried, depth, ply);
          }
          break;
        }
      }
    }
    if (quiet) quiets_tried.push(move);
  }
  const int bound = best >= beta ? kLower : best > alpha_at_start ? kExact : kUpper;
  store(key, best_move, best, depth, bound, ply);
  return best;
}

SearchResult Searcher::search(const Position& root, std::span<const std::uint64_t> history,
                              const SearchLimits& limits, const std::atomic<bool>* stop,
                              const IterationListener& on_iteration) {
  // `infinite` overrides every other limit: only the stop flag (or kMaxPly) ends the search.
  limits_ = limits.infinite ? SearchLimits{.infinite = true} : limits;
  stop_flag_ = stop;
  ++generation_;
  last_null_ply_ = -1;
  nodes_ = 0;
  seldepth_ = 0;
  stop_ = false;
  may_stop_ = false;
  const std::int64_t start_us = now_us();
  deadline_us_ = start_us + static_cast<std::int64_t>(limits_.movetime_ms) * 1000;
  keys_.assign(history.begin(), history.end());
  root_index_ = keys_.size();
  keys_.resize(root_index_ + kMaxPly + 1);
  keys_[root_index_] = zobrist_key(root);

  SearchResult result;
  MoveList legal;
  chess::generate_legal(root, legal);
  if (legal.empty()) {
    result.score = root.in_check() ? -kMateScore : 0;
    return result;
  }
  result.best = legal[0];
  const Positional root_sums = evaluator_.positional(root);
  const bool unlimited = limits_.nodes == 0 && limits_.depth == 0 && limits_.movetime_ms == 0 &&
                         limits_.mate == 0 && !limits_.infinite;
  const int max_depth = limits_.depth > 0 ? std::min(limits_.depth, kMaxPly - 1)
                        : unlimited       ? 1
                                          : kMaxPly - 1;
  for (int depth = 1; depth <= max_depth; ++depth) {
    const int score = search_node(root, root_sums, depth, -kInfinity, kInfinity, 0, true);
    if (stop_) break;  // an unfinished iteration is discarded: the last complete one decides
    result.score = score;
    result.depth = depth;
    result.seldepth = seldepth_;
    result.pv.assign(pv_table_[0].begin(), pv_table_[0].begin() + pv_length_[0]);
    if (!result.pv.empty()) result.best = result.pv.front();
    may_stop_ = true;
    if (on_iteration) {
      on_iteration({.depth = depth,
                    .seldepth = seldepth_,
                    .score = score,
                    .nodes = nodes_,
                    .elapsed_us = now_us() - start_us,
                    .hashfull = hashfull(),
                    .pv = result.pv});
    }
    if (iteration_ends_search(depth, score)) break;
  }
  result.nodes = nodes_;
  return result;
}

}  // namespace materialist::play
