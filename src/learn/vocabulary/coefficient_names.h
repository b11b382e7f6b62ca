// People's names for a model's coefficients, one place for every front end and export.
//
//   coefficient_label("bishop-pair", false)   // "Bishop pair"
//   coefficient_label("intercept", true)      // "Player's edge" (point of view of one player)
//   code_identifier("knight-eg")              // "KnightEg"
#pragma once

#include <string>
#include <string_view>

#include "learn/vocabulary/pieces.h"  // the piece names: kPieces, kPieceColumns, kPieceLetters

namespace materialist::learn {

// "Pawn", "Knight (middlegame)", "Bishop pair", "White's first move" or, from a player's point of
// view, "Player's edge", "Side to move", "Draw margin", "Knight per own pawn" (imbalance terms),
// "Player's knight" / "Opponent's knight" (split sides; "White's" / "Black's" otherwise); unknown
// names come back unchanged.
std::string coefficient_label(std::string_view name, bool player_view);

// The unit of a term whose value is not simply "one more piece": the imbalance terms' ("per
// knight per pawn beyond 5"), "" for every other coefficient.
std::string coefficient_unit(std::string_view name);
// The label with the unit in parentheses when there is one (exports and the values table).
std::string coefficient_label_with_unit(std::string_view name, bool player_view);

// An identifier fragment in CamelCase from any text ("anand.pgn" → "AnandPgn", "tc=blitz" →
// "TcBlitz"); "" when the text has no letters or digits.
std::string code_identifier(std::string_view text);

}  // namespace materialist::learn
