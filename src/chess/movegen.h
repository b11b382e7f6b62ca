// Legal move generation into a fixed-capacity list on the stack.
#pragma once

#include <cstdint>
#include <utility>

#include "chess/position.h"
#include "chess/types.h"

namespace materialist::chess {

// Up to 256 moves (the most any legal chess position has is 218); no heap allocation.
// The storage is left uninitialized: filling 512 bytes per call would cost more than generating.
class MoveList {
 public:
  static constexpr int kCapacity = 256;

  class Iterator {
   public:
    explicit Iterator(const std::uint16_t* at) : at_(at) {}
    Move operator*() const { return Move::from_raw(*at_); }
    Iterator& operator++() { return ++at_, *this; }
    bool operator!=(const Iterator& o) const { return at_ != o.at_; }

   private:
    const std::uint16_t* at_;
  };

  MoveList() {}  // NOLINT: deliberately leaves raw_ uninitialized
  void push(Move move) { raw_[size_++] = move.raw(); }
  void clear() { size_ = 0; }
  void swap(int a, int b) { std::swap(raw_[a], raw_[b]); }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](int i) const { return Move::from_raw(raw_[i]); }
  Iterator begin() const { return Iterator(raw_); }
  Iterator end() const { return Iterator(raw_ + size_); }
  bool contains(Move move) const {
    for (int i = 0; i < size_; ++i) {
      if (raw_[i] == move.raw()) return true;
    }
    return false;
  }

 private:
  std::uint16_t raw_[kCapacity];
  int size_ = 0;
};

// Appends every legal move of the side to move.
void generate_legal(const Position& pos, MoveList& list);

// Appends the legal moves of pieces of type `piece` whose destination is in `targets`.
// Castling counts as a king move whose destination is the castling rook's square.
void generate_legal(const Position& pos, MoveList& list, PieceType piece, Bitboard targets);

// Appends the legal captures (en passant included) and promotions of the side to move: the moves
// a quiescence search looks at.
void generate_tactical(const Position& pos, MoveList& list);

// True if `move` is legal in `pos` (Move::null() is not a legal move).
bool is_legal(const Position& pos, Move move);

}  // namespace materialist::chess
