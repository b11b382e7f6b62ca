// A value set's own piece-square tables, and the published ones the project plays with.
//
// SquareValues holds each piece type's whole value (its material included) on each square,
// middlegame and endgame, in centipawns, from White's side, squares a1 = 0 .. h8 = 63: a Black
// piece on square s reads entry s ^ 56 and counts against White. `fit --model squares` learns
// such tables; the Simplified Evaluation Function's are entered here as data.
#pragma once

#include <array>

#include "chess/types.h"

namespace materialist::play {

inline constexpr int kSquarePieceTypes = 6;  // P N B R Q K

struct SquareValues {
  using Table = std::array<int, 64>;
  std::array<Table, kSquarePieceTypes> middlegame{};
  std::array<Table, kSquarePieceTypes> endgame{};
  bool operator==(const SquareValues&) const = default;
};

namespace simplified {

using PrintedTable = std::array<int, 64>;

// Tomasz Michniewski's "Simplified Evaluation Function" (as published on the Chess Programming
// Wiki), its tables as printed: from White's side, rank 8 first (index 0 = a8). A white piece on
// square s (a1 = 0) reads entry s ^ 56; a black piece reads entry s (the board seen from Black).
// clang-format off
inline constexpr PrintedTable kPawnTable = {
      0,   0,   0,   0,   0,   0,   0,   0,
     50,  50,  50,  50,  50,  50,  50,  50,
     10,  10,  20,  30,  30,  20,  10,  10,
      5,   5,  10,  25,  25,  10,   5,   5,
      0,   0,   0,  20,  20,   0,   0,   0,
      5,  -5, -10,   0,   0, -10,  -5,   5,
      5,  10,  10, -20, -20,  10,  10,   5,
      0,   0,   0,   0,   0,   0,   0,   0,
};
inline constexpr PrintedTable kKnightTable = {
    -50, -40, -30, -30, -30, -30, -40, -50,
    -40, -20,   0,   0,   0,   0, -20, -40,
    -30,   0,  10,  15,  15,  10,   0, -30,
    -30,   5,  15,  20,  20,  15,   5, -30,
    -30,   0,  15,  20,  20,  15,   0, -30,
    -30,   5,  10,  15,  15,  10,   5, -30,
    -40, -20,   0,   5,   5,   0, -20, -40,
    -50, -40, -30, -30, -30, -30, -40, -50,
};
inline constexpr PrintedTable kBishopTable = {
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,  10,  10,   5,   0, -10,
    -10,   5,   5,  10,  10,   5,   5, -10,
    -10,   0,  10,  10,  10,  10,   0, -10,
    -10,  10,  10,  10,  10,  10,  10, -10,
    -10,   5,   0,   0,   0,   0,   5, -10,
    -20, -10, -10, -10, -10, -10, -10, -20,
};
inline constexpr PrintedTable kRookTable = {
      0,   0,   0,   0,   0,   0,   0,   0,
      5,  10,  10,  10,  10,  10,  10,   5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
      0,   0,   0,   5,   5,   0,   0,   0,
};
inline constexpr PrintedTable kQueenTable = {
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
     -5,   0,   5,   5,   5,   5,   0,  -5,
      0,   0,   5,   5,   5,   5,   0,  -5,
    -10,   5,   5,   5,   5,   5,   0, -10,
    -10,   0,   5,   0,   0,   0,   0, -10,
    -20, -10, -10,  -5,  -5, -10, -10, -20,
};
inline constexpr PrintedTable kKingMiddlegameTable = {
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20,
    -10, -20, -20, -20, -20, -20, -20, -10,
     20,  20,   0,   0,   0,   0,  20,  20,
     20,  30,  10,   0,   0,  10,  30,  20,
};
inline constexpr PrintedTable kKingEndgameTable = {
    -50, -40, -30, -20, -20, -30, -40, -50,
    -30, -20, -10,   0,   0, -10, -20, -30,
    -30, -10,  20,  30,  30,  20, -10, -30,
    -30, -10,  30,  40,  40,  30, -10, -30,
    -30, -10,  30,  40,  40,  30, -10, -30,
    -30, -10,  20,  30,  30,  20, -10, -30,
    -30, -30,   0,   0,   0,   0, -30, -30,
    -50, -30, -30, -30, -30, -30, -30, -50,
};
// clang-format on

inline constexpr std::array<const PrintedTable*, 5> kPieceTables = {
    &kPawnTable, &kKnightTable, &kBishopTable, &kRookTable, &kQueenTable};

// Michniewski's own piece values, P N B R Q.
inline constexpr std::array<int, 5> kPieceValues = {100, 320, 330, 500, 900};

// His values and tables as one set of whole values (SquareValues' order: a1 = 0).
constexpr SquareValues square_values() {
  SquareValues values;
  for (int square = 0; square < 64; ++square) {
    const int printed = square ^ 56;
    for (int type = 0; type < 5; ++type) {
      values.middlegame[type][square] = values.endgame[type][square] =
          kPieceValues[type] + (*kPieceTables[type])[printed];
    }
    values.middlegame[5][square] = kKingMiddlegameTable[printed];
    values.endgame[5][square] = kKingEndgameTable[printed];
  }
  return values;
}

}  // namespace simplified

}  // namespace materialist::play
