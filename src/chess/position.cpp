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
  if (piece.type() == PieceType::kKing) kings_[index_of(piece.color())] = square;
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

bool opposite_coloured_bishops(const Position& position) {
  // The incremental counts first: most positions fail there, without a popcount.
  if (position.count(Color::kWhite, PieceType::kBishop) != 1 ||
      position.count(Color::kBlack, PieceType::kBishop) != 1) {
    return false;
  }
  const Bitboard white = position.pieces(Color::kWhite, PieceType::kBishop);
  const Bitboard black = position.pieces(Color::kBlack, PieceType::kBishop);
  return (white & kLightSquares).any() != (black & kLightSquares).any();
}

}  // namespace materialist::chess
