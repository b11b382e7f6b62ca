// A chess position: bitboards plus a square-indexed board, castling rights as rook squares
// (so Chess960 needs no special case), incremental piece counts and the cached checkers.
// Copy-make: play() mutates in place and the position is small enough to copy per ply.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "chess/attacks.h"
#include "chess/types.h"
#include "core/error.h"

namespace materialist::chess {

// What a played move did; cheap to compute, used by the quiet filter downstream. One byte of
// flags written once: three bools stored one by one and read back together as a word would
// defeat store-to-load forwarding on every ply.
class MoveFacts {
 public:
  static constexpr std::uint8_t kCapture = 1;  // includes en passant
  static constexpr std::uint8_t kPromotion = 2;
  static constexpr std::uint8_t kGivesCheck = 4;

  constexpr MoveFacts() = default;
  constexpr explicit MoveFacts(std::uint8_t flags) : flags_(flags) {}

  constexpr bool capture() const { return flags_ & kCapture; }
  constexpr bool promotion() const { return flags_ & kPromotion; }
  constexpr bool gives_check() const { return flags_ & kGivesCheck; }
  constexpr std::uint8_t flags() const { return flags_; }

 private:
  std::uint8_t flags_ = 0;
};

class Position {
 public:
  // The standard initial position (so a default-constructed Position is always valid).
  Position() : Position(start()) {}
  static Position start();
  // Parses FEN; castling may be KQkq, X-FEN (K/Q = outermost rook) or Shredder-FEN (rook files
  // A-H / a-h). The move counters may be omitted (EPD style), defaulting to "0 1".
  static Expected<Position> from_fen(std::string_view fen);
  // Writes FEN, castling as KQkq when each right is the outermost rook, else as the rook's file.
  std::string fen() const;

  Color side_to_move() const { return side_to_move_; }
  int count(Color color, PieceType type) const { return counts_[index_of(color)][index_of(type)]; }
  Bitboard pieces() const { return by_color_[0] | by_color_[1]; }
  Bitboard pieces(Color color) const { return by_color_[index_of(color)]; }
  Bitboard pieces(PieceType type) const { return by_type_[index_of(type)]; }
  Bitboard pieces(Color color, PieceType type) const { return pieces(color) & pieces(type); }
  Bitboard pieces(Color color, PieceType a, PieceType b) const {
    return pieces(color) & (pieces(a) | pieces(b));
  }
  Piece piece_on(Square square) const { return board_[square.index()]; }
  Square king_square(Color color) const { return kings_[index_of(color)]; }
  // The square behind a pawn that just advanced two squares, or Square::none().
  Square en_passant_square() const { return en_passant_; }
  // Rooks (of both colors) that keep a castling right.
  Bitboard castling_rooks() const { return castling_rooks_; }
  int halfmove_clock() const { return halfmove_clock_; }
  int fullmove_number() const { return fullmove_number_; }

  // Pieces of the side not to move that attack the side to move's king.
  Bitboard checkers() const { return checkers_; }
  bool in_check() const { return checkers_.any(); }
  // Pieces of both colors attacking `square`, sliders seen through `occupied`.
  Bitboard attackers_to(Square square, Bitboard occupied) const;
  // Whether a piece of `by` attacks `square` (as attackers_to(...) & pieces(by), sooner).
  bool is_attacked(Square square, Color by, Bitboard occupied) const;

  // Plays a legal move (or Move::null(): passes the turn and clears en passant).
  // Behaviour for an illegal move is undefined; resolve moves through movegen or parse_san.
  MoveFacts play(Move move);
  // Whether playing `move` (legal here) would give check, without playing it: as
  // play(move).gives_check() on a copy, worked out from the board for all but castling and en
  // passant.
  bool gives_check(Move move) const;

 private:
  struct Empty {};
  explicit Position(Empty) {}
  void put(Piece piece, Square square);
  void remove(Square square);
  void advance_clocks(Color mover, bool irreversible);
  std::uint8_t move_piece(Color us, Move move);
  void promote(Color us, Square square, PieceType promoted);
  void castle(Color us, Square king, Square rook);
  Bitboard checkers_after(Piece moved, Square from, Square to) const;
  void refresh_checkers();
  std::string castling_field() const;
  // FEN's fields read into this position, one step each (fen.cpp): what is wrong, or "".
  std::string read_fen_board(std::string_view field);
  std::string read_fen_castling(std::string_view field);
  std::string read_fen_en_passant(std::string_view field);

  std::array<Bitboard, kColorCount> by_color_{};
  std::array<Bitboard, kPieceTypeCount> by_type_{};
  std::array<Piece, 64> board_{};
  std::array<std::array<std::uint8_t, kPieceTypeCount>, kColorCount> counts_{};
  // Each side's king square, kept beside the bitboards: read on every ply, it would otherwise be
  // worked out from the two bitboards the previous ply's move just wrote (2% of a read's time).
  std::array<Square, kColorCount> kings_{};
  Bitboard castling_rooks_;
  Bitboard checkers_;
  Square en_passant_;
  Color side_to_move_ = Color::kWhite;
  std::uint16_t halfmove_clock_ = 0;
  std::uint16_t fullmove_number_ = 1;
};

// Each side has exactly one bishop, and the two stand on squares of different colours.
bool opposite_coloured_bishops(const Position& position);

}  // namespace materialist::chess

#include "chess/position_play.h"  // IWYU pragma: export
