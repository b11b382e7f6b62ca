#include "chess/position.h"

// Moves on the board; the text side (from_fen, fen, castling_field) is in fen.cpp.
namespace materialist::chess {

Position Position::start() {
  using enum PieceType;
  // Built directly rather than parsed: PGN replay starts here once per game.
  constexpr PieceType kBackRank[8] = {kRook, kKnight, kBishop, kQueen,
                                      kKing, kBishop, kKnight, kRook};
  Position pos{Empty{}};
  for (int file = 0; file < 8; ++file) {
    pos.put(Piece(Color::kWhite, kBackRank[file]), Square::at(file, 0));
    pos.put(Piece(Color::kWhite, kPawn), Square::at(file, 1));
    pos.put(Piece(Color::kBlack, kPawn), Square::at(file, 6));
    pos.put(Piece(Color::kBlack, kBackRank[file]), Square::at(file, 7));
  }
  for (const Color color : {Color::kWhite, Color::kBlack}) {
    pos.counts_[index_of(color)] = {8, 2, 2, 2, 1, 1};
  }
  pos.castling_rooks_ = Bitboard(0x8100000000000081ULL);
  return pos;
}

void Position::put(Piece piece, Square square) {
  const Bitboard bit(square);
  by_color_[index_of(piece.color())] |= bit;
  by_type_[index_of(piece.type())] |= bit;
  board_[square.index()] = piece;
}

void Position::remove(Square square) {
  const Piece piece = board_[square.index()];
  const Bitboard bit(square);
  by_color_[index_of(piece.color())] ^= bit;
  by_type_[index_of(piece.type())] ^= bit;
  board_[square.index()] = Piece::none();
}

Bitboard Position::attackers_to(Square square, Bitboard occupied) const {
  using enum PieceType;
  return (pawn_attacks(Color::kBlack, square) & pieces(Color::kWhite, kPawn)) |
         (pawn_attacks(Color::kWhite, square) & pieces(Color::kBlack, kPawn)) |
         (knight_attacks(square) & pieces(kKnight)) | (king_attacks(square) & pieces(kKing)) |
         (bishop_attacks(square, occupied) & (pieces(kBishop) | pieces(kQueen))) |
         (rook_attacks(square, occupied) & (pieces(kRook) | pieces(kQueen)));
}

// Leapers first; a slider's attacks only when one of `by` stands on a line through the square
// (a king step, the commonest caller, is rarely near one).
bool Position::is_attacked(Square square, Color by, Bitboard occupied) const {
  using enum PieceType;
  if ((pawn_attacks(~by, square) & pieces(by, kPawn)).any() ||
      (knight_attacks(square) & pieces(by, kKnight)).any() ||
      (king_attacks(square) & pieces(by, kKing)).any()) {
    return true;
  }
  const Bitboard straight = pieces(by, kRook, kQueen), diagonal = pieces(by, kBishop, kQueen);
  if ((rook_rays(square) & straight).any() && (rook_attacks(square, occupied) & straight).any()) {
    return true;
  }
  return (bishop_rays(square) & diagonal).any() &&
         (bishop_attacks(square, occupied) & diagonal).any();
}

void Position::refresh_checkers() {
  using enum PieceType;
  const Color us = side_to_move_, them = ~us;
  const Square king = king_square(us);
  // A king never gives check, and sliders are looked up only when one stands on a king line.
  Bitboard checkers = (pawn_attacks(us, king) & pieces(them, kPawn)) |
                      (knight_attacks(king) & pieces(them, kKnight));
  const Bitboard straight = pieces(them, kRook, kQueen), diagonal = pieces(them, kBishop, kQueen);
  if ((rook_rays(king) & straight).any()) {
    checkers |= rook_attacks(king, pieces()) & straight;
  }
  if ((bishop_rays(king) & diagonal).any()) {
    checkers |= bishop_attacks(king, pieces()) & diagonal;
  }
  checkers_ = checkers;
}

MoveFacts Position::play(Move move) {
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
void Position::advance_clocks(Color mover, bool irreversible) {
  const std::uint16_t keep = irreversible ? 0 : 0xFFFF;
  halfmove_clock_ = static_cast<std::uint16_t>((halfmove_clock_ + 1) & keep);
  fullmove_number_ = static_cast<std::uint16_t>(fullmove_number_ + index_of(mover));
}

// A normal move, promotion or en passant capture on the board, the counts, the clock, the en
// passant square and the castling rights; returns the capture and promotion flags. Whether a
// piece is taken, or a pawn or king moves, is data the branch predictor cannot guess, so those
// updates are made without branches (xoring an empty set, subtracting zero).
std::uint8_t Position::move_piece(Color us, Move move) {
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

  const bool pawn = type == kPawn;
  advance_clocks(us, capture | pawn);
  const bool double_step = pawn & ((from.index() ^ to.index()) == 16);
  en_passant_ = double_step ? Square((from.index() + to.index()) / 2) : Square::none();
  // Moving a rook or capturing one loses that rook's right; a king move loses both of ours.
  const std::uint64_t king_rights =
      (type == kKing ? ~std::uint64_t{0} : 0) & Bitboard::rank(back_rank(us)).bits();
  castling_rooks_ &= ~(from_to | Bitboard(king_rights));

  std::uint8_t flags = capture ? MoveFacts::kCapture : 0;
  if (move.is_promotion()) [[unlikely]] {
    promote(us, to, move.promoted_to());
    flags |= MoveFacts::kPromotion;
  }
  return flags;
}

// Replaces our pawn on `square` by `promoted`.
void Position::promote(Color us, Square square, PieceType promoted) {
  using enum PieceType;
  by_type_[index_of(kPawn)] ^= Bitboard(square);
  by_type_[index_of(promoted)] ^= Bitboard(square);
  board_[square.index()] = Piece(us, promoted);
  --counts_[index_of(us)][index_of(kPawn)];
  ++counts_[index_of(us)][index_of(promoted)];
}

// `rook` holds the castling rook; king and rook land on the g/f or c/d files.
void Position::castle(Color us, Square king, Square rook) {
  using enum PieceType;
  const bool king_side = rook.file() > king.file();
  const int home = back_rank(us);
  remove(king);
  remove(rook);
  put(Piece(us, kKing), Square::at(king_side ? 6 : 2, home));
  put(Piece(us, kRook), Square::at(king_side ? 5 : 3, home));
  castling_rooks_ &= ~Bitboard::rank(home);  // only our rights live on our home rank
}

// The checkers after `moved` (a promoted pawn already promoted) went from `from` to `to` in a
// normal move or promotion. The position before was legal, so a new checker is the moved piece
// or a slider uncovered behind `from`; both tests start from a cheap, rarely true condition.
Bitboard Position::checkers_after(Piece moved, Square from, Square to) const {
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

}  // namespace materialist::chess
