// Attack sets, all tables computed at compile time.
// Sliders use "obstruction difference" (chessprogramming.org): per line one leading-zero count and
// one subtraction, no large magic tables, so the WebAssembly binary stays small and branch-free.
#pragma once

#include <array>
#include <cstdint>

#include "chess/types.h"

namespace materialist::chess {

namespace attacks_detail {

using Table = std::array<std::uint64_t, 64>;

// Walks (file_step, rank_step) from `square` until the board edge; `steps` limits the walk.
constexpr std::uint64_t ray(int square, int file_step, int rank_step, int steps = 7) {
  std::uint64_t bits = 0;
  int file = square % 8 + file_step, rank = square / 8 + rank_step;
  for (int i = 0; i < steps && file >= 0 && file < 8 && rank >= 0 && rank < 8; ++i) {
    bits |= std::uint64_t{1} << (rank * 8 + file);
    file += file_step;
    rank += rank_step;
  }
  return bits;
}

template <int N>
constexpr Table leaper_table(const int (&steps)[N][2]) {
  Table table{};
  for (int square = 0; square < 64; ++square) {
    for (const auto& step : steps) table[square] |= ray(square, step[0], step[1], 1);
  }
  return table;
}

constexpr int kKnightSteps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                    {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int kKingSteps[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                  {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
constexpr int kWhitePawnSteps[2][2] = {{-1, 1}, {1, 1}};
constexpr int kBlackPawnSteps[2][2] = {{-1, -1}, {1, -1}};

inline constexpr Table kKnight = leaper_table(kKnightSteps);
inline constexpr Table kKing = leaper_table(kKingSteps);
inline constexpr std::array<Table, 2> kPawn = {leaper_table(kWhitePawnSteps),
                                               leaper_table(kBlackPawnSteps)};

// One line through a square split at the square: `lower` holds the squares with smaller index.
struct LineMask {
  std::uint64_t lower = 0;
  std::uint64_t upper = 0;
  std::uint64_t both = 0;
};
enum Line { kFile, kRank, kDiagonal, kAntiDiagonal };
using LineTable = std::array<std::array<LineMask, 4>, 64>;

constexpr LineTable make_lines() {
  // Upward direction of each line (towards higher square indices); lower is its opposite.
  constexpr int kUp[4][2] = {{0, 1}, {1, 0}, {1, 1}, {-1, 1}};
  LineTable table{};
  for (int square = 0; square < 64; ++square) {
    for (int line = 0; line < 4; ++line) {
      LineMask& mask = table[square][line];
      mask.upper = ray(square, kUp[line][0], kUp[line][1]);
      mask.lower = ray(square, -kUp[line][0], -kUp[line][1]);
      mask.both = mask.lower | mask.upper;
    }
  }
  return table;
}
inline constexpr LineTable kLines = make_lines();

constexpr std::uint64_t line_attacks(std::uint64_t occupied, const LineMask& mask) {
  const std::uint64_t lower = mask.lower & occupied;
  const std::uint64_t upper = mask.upper & occupied;
  // All bits from the nearest lower blocker (or bit 0) upwards.
  const std::uint64_t from_lower_blocker = ~std::uint64_t{0} << (63 - std::countl_zero(lower | 1));
  const std::uint64_t upper_blocker = upper & (0 - upper);
  // Adding twice the upper blocker clears everything above it (the carry runs off the top).
  return mask.both & (2 * upper_blocker + from_lower_blocker);
}

// between[a][b]: squares strictly between two aligned squares; line[a][b]: the whole line
// through them (edge to edge, including both). Both are empty for unaligned pairs.
struct PairTables {
  std::array<Table, 64> between{};
  std::array<Table, 64> line{};
};

constexpr PairTables make_pair_tables() {
  constexpr int kDirections[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                     {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  PairTables tables{};
  for (int a = 0; a < 64; ++a) {
    for (const auto& d : kDirections) {
      const std::uint64_t whole_line =
          ray(a, d[0], d[1]) | ray(a, -d[0], -d[1]) | (std::uint64_t{1} << a);
      std::uint64_t passed = 0;
      int file = a % 8 + d[0], rank = a / 8 + d[1];
      while (file >= 0 && file < 8 && rank >= 0 && rank < 8) {
        const int b = rank * 8 + file;
        tables.between[a][b] = passed;
        tables.line[a][b] = whole_line;
        passed |= std::uint64_t{1} << b;
        file += d[0];
        rank += d[1];
      }
    }
  }
  return tables;
}
inline constexpr PairTables kPairs = make_pair_tables();

// Empty-board attacks of each piece (indexed by Piece::code()) from each square.
constexpr std::array<Table, 16> make_piece_tables() {
  std::array<Table, 16> tables{};
  for (int square = 0; square < 64; ++square) {
    const auto& lines = kLines[square];
    const std::uint64_t diagonals = lines[kDiagonal].both | lines[kAntiDiagonal].both;
    const std::uint64_t straights = lines[kFile].both | lines[kRank].both;
    for (int color = 0; color < 2; ++color) {
      Table* piece = &tables[static_cast<size_t>(8 * color)];  // PieceType order, from the pawn
      piece[0][square] = kPawn[color][square];
      piece[1][square] = kKnight[square];
      piece[2][square] = diagonals;
      piece[3][square] = straights;
      piece[4][square] = diagonals | straights;
      piece[5][square] = kKing[square];
    }
  }
  return tables;
}
inline constexpr std::array<Table, 16> kEmptyBoardAttacks = make_piece_tables();

}  // namespace attacks_detail

inline Bitboard knight_attacks(Square square) {
  return Bitboard(attacks_detail::kKnight[square.index()]);
}
inline Bitboard king_attacks(Square square) {
  return Bitboard(attacks_detail::kKing[square.index()]);
}
// Squares a pawn of `color` on `square` attacks.
inline Bitboard pawn_attacks(Color color, Square square) {
  return Bitboard(attacks_detail::kPawn[index_of(color)][square.index()]);
}
inline Bitboard bishop_attacks(Square square, Bitboard occupied) {
  using namespace attacks_detail;
  const auto& lines = kLines[square.index()];
  return Bitboard(line_attacks(occupied.bits(), lines[kDiagonal]) |
                  line_attacks(occupied.bits(), lines[kAntiDiagonal]));
}
inline Bitboard rook_attacks(Square square, Bitboard occupied) {
  using namespace attacks_detail;
  const auto& lines = kLines[square.index()];
  return Bitboard(line_attacks(occupied.bits(), lines[kFile]) |
                  line_attacks(occupied.bits(), lines[kRank]));
}
inline Bitboard queen_attacks(Square square, Bitboard occupied) {
  return bishop_attacks(square, occupied) | rook_attacks(square, occupied);
}
// Empty-board attacks: every square on the lines through `square` (for cheap pre-checks).
inline Bitboard bishop_rays(Square square) {
  using namespace attacks_detail;
  const auto& lines = kLines[square.index()];
  return Bitboard(lines[kDiagonal].both | lines[kAntiDiagonal].both);
}
inline Bitboard rook_rays(Square square) {
  using namespace attacks_detail;
  const auto& lines = kLines[square.index()];
  return Bitboard(lines[kFile].both | lines[kRank].both);
}
// What `piece` on `square` would attack on an empty board.
inline Bitboard empty_board_attacks(Piece piece, Square square) {
  return Bitboard(
      attacks_detail::kEmptyBoardAttacks[static_cast<size_t>(piece.code())][square.index()]);
}
// Squares strictly between a and b if they share a line, else empty.
inline Bitboard between(Square a, Square b) {
  return Bitboard(attacks_detail::kPairs.between[a.index()][b.index()]);
}
// The full line through a and b (edge to edge) if they share one, else empty.
inline Bitboard line_through(Square a, Square b) {
  return Bitboard(attacks_detail::kPairs.line[a.index()][b.index()]);
}

}  // namespace materialist::chess
