// Standard Algebraic Notation: reading moves as they appear in real PGN files, and writing them.
#pragma once

#include <string>
#include <string_view>

#include "chess/position.h"
#include "chess/types.h"
#include "core/error.h"

namespace materialist::chess {

// Resolves a SAN token against the legal moves of `pos`. Besides strict SAN it accepts what
// real files contain: '=' optional and lower-case promotion letters (e8Q, e8=Q, e8q, also e8(Q),
// e8/Q); suffixes
// + # ! ? !! ?? !? ?! and "e.p."; castling as O-O / 0-0 (also O-O-O / 0-0-0); an explicit pawn
// letter (Pe4); a needless or missing capture sign; long algebraic and UCI-looking moves (e2e4,
// e2-e4, Ng1f3, e7e8q, e1g1 / e1h1 for castling). "--", "Z0" and "0000" give Move::null(): the
// caller decides whether a null move is acceptable.
// Errors: kSyntax (unreadable), kIllegalMove (no legal move matches), kAmbiguousMove (several do).
Expected<Move> parse_san(const Position& pos, std::string_view san);

// The move of the tokens nearly every file is made of (plain SAN with suffixes, plain castling)
// when exactly one legal move matches, else Move(): then parse_san decides, and words the error.
// What it returns, parse_san returns too; replay calls it first to skip building an Expected.
Move parse_san_fast(const Position& pos, std::string_view san);

// Writes `move` (legal in `pos`) as SAN with minimal disambiguation and a + or # suffix.
// Move::null() is written "--".
std::string to_san(const Position& pos, Move move);

}  // namespace materialist::chess
