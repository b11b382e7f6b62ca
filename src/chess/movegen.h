// Legal move generation into a fixed-capacity list on the stack.
#pragma once

#include <cstdint>

#include "chess/position.h"
#include "chess/types.h"

namespace materialist::chess {

// Up to 256 moves (the most any legal chess position has is 218); no heap allocation.
class MoveList {
 public:
  static constexpr int kCapacity = 256;

  void push(Move move) { moves_[size_++] = move; }
  void clear() { size_ = 0; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](int i) const { return moves_[i]; }
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  bool contains(Move move) const {
    for (const Move m : *this) {
      if (m == move) return true;
    }
    return false;
  }

 private:
  Move moves_[kCapacity];
  int size_ = 0;
};

// Appends every legal move of the side to move.
void generate_legal(const Position& pos, MoveList& list);

// Appends the legal moves of pieces of type `piece` whose destination is in `targets`.
// Castling counts as a king move whose destination is the castling rook's square.
void generate_legal(const Position& pos, MoveList& list, PieceType piece, Bitboard targets);

// True if `move` is legal in `pos` (Move::null() is not a legal move).
bool is_legal(const Position& pos, Move move);

}  // namespace materialist::chess
