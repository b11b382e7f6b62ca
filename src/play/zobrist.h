// Zobrist keys of positions: the transposition table's index and the repetition rule's identity.
// Two positions share a key when they have the same pieces on the same squares, the same side to
// move, the same castling rights and the same en passant capture (counted only when a pawn of
// the side to move could make it, as FIDE's repetition rule reads).
#pragma once

#include <cstdint>

#include "chess/position.h"

namespace materialist::play {

std::uint64_t zobrist_key(const chess::Position& position);
// The key of `after`, a move (or null move) from `before`, whose key is `before_key`: the same as
// zobrist_key(after), from the squares the move changed rather than every piece.
std::uint64_t zobrist_key_after(const chess::Position& before, std::uint64_t before_key,
                                const chess::Position& after);

}  // namespace materialist::play
