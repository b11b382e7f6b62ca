// A recorded position's pieces in 26 bytes, for the models that read where the pieces stand
// (learn/fit/squares.h) and for the labelled positions' export (`materialist positions`).
//
// Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63. `occupied` has a bit
// per occupied square; `pieces` holds one 4-bit code per occupied square, in square order (the
// i-th occupied square's code is nibble i, low nibble first): the piece type (0 pawn, 1 knight,
// 2 bishop, 3 rook, 4 queen, 5 king) + 8 for Black. A board with more than 32 pieces (a FEN can
// say so) is not packed: `occupied` stays 0 and the readers skip it.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

namespace materialist::learn {

inline constexpr int kBoardSquares = 64;
inline constexpr int kBoardPieceTypes = 6;  // P N B R Q K
inline constexpr int kMaxPackedPieces = 32;
inline constexpr std::uint8_t kNoEnPassant = 0xff;
// The types' letters (FEN's, White's) and names, in type order.
inline constexpr std::string_view kBoardPieceLetters = "PNBRQK";
inline constexpr std::array<std::string_view, kBoardPieceTypes> kBoardPieceNames = {
    "Pawn", "Knight", "Bishop", "Rook", "Queen", "King"};

struct PackedBoard {
  std::uint64_t occupied = 0;
  std::array<std::uint8_t, kMaxPackedPieces / 2> pieces{};
  // bit 0: Black to move; bits 1..4: castling rights K, Q, k, q (FEN's letters).
  std::uint8_t state = 0;
  std::uint8_t en_passant = kNoEnPassant;  // FEN's en passant square (0..63) or kNoEnPassant

  bool valid() const { return occupied != 0; }
  bool black_to_move() const { return (state & 1) != 0; }
  int piece_count() const { return std::popcount(occupied); }
  // The code (type + 8 * black) of the i-th occupied square.
  int code(int i) const { return (pieces[i >> 1] >> ((i & 1) * 4)) & 15; }
  void set_code(int i, int code) {
    pieces[i >> 1] = static_cast<std::uint8_t>(pieces[i >> 1] | (code & 15) << ((i & 1) * 4));
  }

  // Calls visit(square, type, black) for every piece, in square order.
  template <typename Visit>
  void for_each_piece(Visit&& visit) const {
    std::uint64_t rest = occupied;
    for (int i = 0; rest != 0; ++i, rest &= rest - 1) {
      const int piece = code(i);
      visit(std::countr_zero(rest), piece & 7, (piece & 8) != 0);
    }
  }

  // The game phase as learn::MaterialCounts::phase counts it: N, B 1, R 2, Q 4, at most 24.
  int phase() const {
    constexpr std::array<int, kBoardPieceTypes> kWeight = {0, 1, 1, 2, 4, 0};
    int phase = 0;
    for_each_piece([&](int, int type, bool) { phase += kWeight[type]; });
    return phase < 24 ? phase : 24;
  }

  bool operator==(const PackedBoard&) const = default;
};

// The board's four EPD fields: placement, side to move, castling (KQkq, "-"), en passant.
std::string epd_fields(const PackedBoard& board);
// One line of the labelled positions Texel-style tuners read: the EPD fields, then White's score
// in brackets, "[1.0]", "[0.5]", "[0.0]" for a result, four decimals for an engine's evaluation.
void append_labelled_epd(std::string& out, const PackedBoard& board, double white_score,
                         bool evaluation);

}  // namespace materialist::learn
