// Position::play and the steps of a normal move, defined inline: replay calls play once a ply,
// and inlined into its caller it neither saves registers nor passes the move through memory.
// Included by position.h; the rare cases (castling, promotion, a full check scan) stay in
// position.cpp.
#pragma once

#include "chess/position.h"

namespace materialist::chess {

inline MoveFacts Position::play(Move move) {
  const Color us = side_to_move_;
  side_to_move_ = ~us;
  en_passant_ = Square::none();
  if (move.is_null() || move.is_castling()) [[unlikely]] {
    if (!move.is_null()) castle(us, move.from(), move.to());
    advance_clocks(us, false);
    refresh_checkers();
    return MoveFacts(checkers_.any() ? MoveFacts::kGivesCheck : 0);
  }
  const std::uint8_t flags = move_piece(us, move);
  // En passant also uncovers the captured pawn's square: worked out in full, it is rare.
  if (move.is_en_passant()) [[unlikely]] {
    refresh_checkers();
  } else {
    checkers_ = checkers_after(piece_on(move.to()), move.from(), move.to());
  }
  return MoveFacts(flags | (checkers_.any() ? MoveFacts::kGivesCheck : 0));
}

// Counts the ply: the halfmove clock restarts at a capture or pawn move. Both counters are
// written here only, together: a narrow store followed by a wide load of the same bytes (the
// compiler updates the pair as one word) would stall store-to-load forwarding on every ply.
inline void Position::advance_clocks(Color mover, bool irreversible) {
  const std::uint16_t keep = irreversible ? 0 : 0xFFFF;
  halfmove_clock_ = static_cast<std::uint16_t>((halfmove_clock_ + 1) & keep);
  fullmove_number_ = static_cast<std::uint16_t>(fullmove_number_ + index_of(mover));
}

// A normal move, promotion or en passant capture on the board, the counts, the clock, the en
// passant square and the castling rights; returns the capture and promotion flags. Whether a
// piece is taken, or a pawn or king moves, is data the branch predictor cannot guess, so those
// updates are made without branches (xoring an empty set, subtracting zero).
inline std::uint8_t Position::move_piece(Color us, Move move) {
  using enum PieceType;
  const Color them = ~us;
  const Square from = move.from(), to = move.to();
  const Piece piece = piece_on(from);
  const PieceType type = piece.type();

  const Square captured_square =
      move.is_en_passant() ? Square(to.index() + (us == Color::kWhite ? -8 : 8)) : to;
  const Piece captured = piece_on(captured_square);
  const bool capture = !captured.is_none();
  const int captured_type = capture ? index_of(captured.type()) : 0;
  const Bitboard taken(std::uint64_t{capture} << captured_square.index());
  by_color_[index_of(them)] ^= taken;
  by_type_[captured_type] ^= taken;
  counts_[index_of(them)][captured_type] -= capture ? 1 : 0;
  board_[captured_square.index()] = Piece::none();

  // Move the piece with one xor per bitboard.
  const Bitboard from_to = Bitboard(from) | Bitboard(to);
  by_color_[index_of(us)] ^= from_to;
  by_type_[index_of(type)] ^= from_to;
  board_[from.index()] = Piece::none();
  board_[to.index()] = piece;
  kings_[index_of(us)] = type == kKing ? to : kings_[index_of(us)];

  const bool pawn = type == kPawn;
  advance_clocks(us, capture | pawn);
  const bool double_step = pawn & ((from.index() ^ to.index()) == 16);
  en_passant_ = double_step ? Square((from.index() + to.index()) / 2) : Square::none();
  // Moving a rook or capturing one loses that rook's right; a king move loses both of ours.
  // Most plies come after both sides have lost every right: a branch predicted game by game.
  if (castling_rooks_.any()) {
    const std::uint64_t king_rights =
        (type == kKing ? ~std::uint64_t{0} : 0) & Bitboard::rank(back_rank(us)).bits();
    castling_rooks_ &= ~(from_to | Bitboard(king_rights));
  }

  std::uint8_t flags = capture ? MoveFacts::kCapture : 0;
  if (move.is_promotion()) [[unlikely]] {
    promote(us, to, move.promoted_to());
    flags |= MoveFacts::kPromotion;
  }
  return flags;
}

// The checkers after `moved` (a promoted pawn already promoted) went from `from` to `to` in a
// normal move or promotion. The position before was legal, so a new checker is the moved piece
// or a slider uncovered behind `from`; both tests start from a cheap, rarely true condition.
inline Bitboard Position::checkers_after(Piece moved, Square from, Square to) const {
  using enum PieceType;
  const Color us = moved.color();
  const Square king = king_square(~us);
  const Bitboard occupied = pieces();
  // Only a slider can be blocked, and between() is empty for a leaper's squares. Computed
  // without a branch: whether a move lands on a line to the king is hard to predict.
  const bool reaches = empty_board_attacks(moved, to).contains(king);
  const bool unblocked = (between(to, king) & occupied).empty();
  Bitboard checkers(static_cast<std::uint64_t>(reaches & unblocked) << to.index());
  const Bitboard straight = pieces(us, kRook, kQueen), diagonal = pieces(us, kBishop, kQueen);
  if ((line_through(king, from) & (straight | diagonal)).any()) [[unlikely]] {
    checkers |=
        (rook_attacks(king, occupied) & straight) | (bishop_attacks(king, occupied) & diagonal);
  }
  return checkers;
}

inline bool Position::gives_check(Move move) const {
  using enum PieceType;
  if (move.is_castling() || move.is_en_passant()) [[unlikely]] {
    Position after = *this;
    return after.play(move).gives_check();
  }
  const Color us = side_to_move_;
  const Square from = move.from(), to = move.to();
  const Piece moved = move.is_promotion() ? Piece(us, move.promoted_to()) : piece_on(from);
  const Square king = king_square(~us);
  const Bitboard occupied = (pieces() ^ Bitboard(from)) | Bitboard(to);
  if (empty_board_attacks(moved, to).contains(king) && (between(to, king) & occupied).empty()) {
    return true;
  }
  // A slider of ours uncovered behind `from` (the moved piece's own check was tested above).
  const Bitboard others = ~Bitboard(from);
  const Bitboard straight = pieces(us, kRook, kQueen) & others;
  const Bitboard diagonal = pieces(us, kBishop, kQueen) & others;
  if ((line_through(king, from) & (straight | diagonal)).empty()) return false;
  return ((rook_attacks(king, occupied) & straight) | (bishop_attacks(king, occupied) & diagonal))
      .any();
}

}  // namespace materialist::chess
