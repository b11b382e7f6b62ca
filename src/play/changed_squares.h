// The squares whose piece differs between two positions: what keeps a sum over the board (the
// Zobrist key, the piece-square tables) up to date square by square as the search plays moves.
#pragma once

#include "chess/position.h"

namespace materialist::play {

// For a move and the position it leads to: its from and to squares, a castling rook's, an en
// passant pawn's (none for a null move). A square counts when its piece's type, colour or
// presence differs.
inline chess::Bitboard changed_squares(const chess::Position& before,
                                       const chess::Position& after) {
  chess::Bitboard changed =
      before.pieces(chess::Color::kWhite) ^ after.pieces(chess::Color::kWhite);
  for (int type = 0; type < chess::kPieceTypeCount; ++type) {
    changed |= before.pieces(chess::PieceType(type)) ^ after.pieces(chess::PieceType(type));
  }
  return changed;
}

}  // namespace materialist::play
