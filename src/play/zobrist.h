// Zobrist keys of positions: the transposition table's index and the repetition rule's identity.
// Two positions share a key when they have the same pieces on the same squares, the same side to
// move, the same castling rights and the same en passant capture (counted only when a pawn of
// the side to move could make it, as FIDE's repetition rule reads).
#pragma once

#include <cstdint>

#include "chess/position.h"

namespace materialist::play {

std::uint64_t zobrist_key(const chess::Position& position);

}  // namespace materialist::play
