// FEN: reading and writing a Position (kept apart from the move making in position.cpp).
#include <charconv>
#include <string>
#include <vector>

#include "chess/position.h"

namespace materialist::chess {

namespace {

Error fen_error(std::string_view fen, std::string_view what) {
  return make_error(ErrorCode::kSyntax, "bad FEN '" + std::string(fen) + "': " + std::string(what));
}

// Splits on runs of spaces/tabs.
std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const size_t begin = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > begin) fields.push_back(text.substr(begin, i - begin));
  }
  return fields;
}

bool parse_counter(std::string_view text, int max, int& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && out >= 0 && out <= max;
}

}  // namespace

// Piece placement, rank 8 first; then one king each and no pawn on a back rank.
std::string Position::read_fen_board(std::string_view field) {
  int file = 0, rank = 7;
  for (const char c : field) {
    if (c == '/') {
      if (file != 8 || rank == 0) return "each rank must hold exactly 8 squares";
      file = 0;
      --rank;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) return "a rank holds more than 8 squares";
    } else if (const auto piece = Piece::from_fen_letter(c)) {
      if (file >= 8) return "a rank holds more than 8 squares";
      put(*piece, Square::at(file++, rank));
      ++counts_[index_of(piece->color())][index_of(piece->type())];
    } else {
      return std::string("unexpected character '") + c + "' in the board";
    }
  }
  if (file != 8 || rank != 0) return "the board must have 8 ranks of 8 squares";
  for (const Color color : {Color::kWhite, Color::kBlack}) {
    if (count(color, PieceType::kKing) != 1) return "each side needs exactly one king";
  }
  if ((pieces(PieceType::kPawn) & (Bitboard::rank(0) | Bitboard::rank(7))).any()) {
    return "pawns cannot stand on the first or last rank";
  }
  return "";
}

// Castling: KQkq (outermost rook on that side), or rook files A-H / a-h (Chess960).
std::string Position::read_fen_castling(std::string_view field) {
  if (field == "-") return "";
  for (const char c : field) {
    const Color color = (c >= 'a') ? Color::kBlack : Color::kWhite;
    const char upper = static_cast<char>(c & ~0x20);
    const int home = back_rank(color);
    const Square king = king_square(color);
    const Bitboard rooks = pieces(color, PieceType::kRook) & Bitboard::rank(home);
    if (king.rank() != home) {
      return std::string("castling right '") + c + "' but the king is not home";
    }
    Square rook = Square::none();
    if (upper == 'K') {
      const Bitboard side = rooks & Bitboard(~std::uint64_t{0} << king.index());
      if (side.any()) rook = side.msb();
    } else if (upper == 'Q') {
      const Bitboard side = rooks & Bitboard((std::uint64_t{1} << king.index()) - 1);
      if (side.any()) rook = side.lsb();
    } else if (upper >= 'A' && upper <= 'H') {
      const Square square = Square::at(upper - 'A', home);
      if (rooks.contains(square)) rook = square;
    } else {
      return std::string("unexpected castling character '") + c + "'";
    }
    if (rook.is_none()) return std::string("castling right '") + c + "' has no rook";
    castling_rooks_ |= rook;
  }
  for (const Color color : {Color::kWhite, Color::kBlack}) {
    const Bitboard rights = castling_rooks_ & pieces(color);
    const int king = king_square(color).index();
    if ((rights & Bitboard(~std::uint64_t{0} << king)).more_than_one() ||
        (rights & Bitboard((std::uint64_t{1} << king) - 1)).more_than_one()) {
      return "two castling rights on the same side of a king";
    }
  }
  return "";
}

// En passant target: behind a pawn of the side that just moved, with both squares empty.
std::string Position::read_fen_en_passant(std::string_view field) {
  if (field == "-") return "";
  const auto square = Square::from_string(field);
  const Color mover = ~side_to_move_;
  const int target_rank = mover == Color::kWhite ? 2 : 5;
  if (!square || square->rank() != target_rank) {
    return "bad en passant square '" + std::string(field) + "'";
  }
  const int forward = mover == Color::kWhite ? 8 : -8;
  const Square pawn(square->index() + forward), origin(square->index() - forward);
  if (piece_on(pawn) != Piece(mover, PieceType::kPawn) || !piece_on(*square).is_none() ||
      !piece_on(origin).is_none()) {
    return "en passant square without a pawn that just advanced two squares";
  }
  en_passant_ = *square;
  return "";
}

Expected<Position> Position::from_fen(std::string_view fen) {
  const std::vector<std::string_view> fields = split_fields(fen);
  if (fields.size() < 4 || fields.size() > 6) {
    return fen_error(fen, "expected 4 to 6 space-separated fields");
  }
  Position pos{Empty{}};
  if (std::string wrong = pos.read_fen_board(fields[0]); !wrong.empty()) {
    return fen_error(fen, wrong);
  }
  if (fields[1] == "w") {
    pos.side_to_move_ = Color::kWhite;
  } else if (fields[1] == "b") {
    pos.side_to_move_ = Color::kBlack;
  } else {
    return fen_error(fen, "side to move must be 'w' or 'b'");
  }
  if (std::string wrong = pos.read_fen_castling(fields[2]); !wrong.empty()) {
    return fen_error(fen, wrong);
  }
  if (std::string wrong = pos.read_fen_en_passant(fields[3]); !wrong.empty()) {
    return fen_error(fen, wrong);
  }
  int halfmove = 0, fullmove = 1;
  if (fields.size() >= 5 && !parse_counter(fields[4], 65535, halfmove)) {
    return fen_error(fen, "bad halfmove clock");
  }
  if (fields.size() >= 6 && (!parse_counter(fields[5], 65535, fullmove))) {
    return fen_error(fen, "bad fullmove number");
  }
  pos.halfmove_clock_ = static_cast<std::uint16_t>(halfmove);
  pos.fullmove_number_ = static_cast<std::uint16_t>(fullmove < 1 ? 1 : fullmove);

  const Color them = ~pos.side_to_move_;
  if (pos.is_attacked(pos.king_square(them), pos.side_to_move_, pos.pieces())) {
    return fen_error(fen, "the side not to move is in check");
  }
  pos.refresh_checkers();
  return pos;
}

std::string Position::castling_field() const {
  std::string field;
  for (const Color color : {Color::kWhite, Color::kBlack}) {
    const Square king = king_square(color);
    const Bitboard home_rooks = pieces(color, PieceType::kRook) & Bitboard::rank(back_rank(color));
    const Bitboard rights = castling_rooks_ & pieces(color);
    const char case_bit = color == Color::kWhite ? 0 : 0x20;
    // King side first (towards h), then queen side; each side holds at most one right.
    if ((rights & Bitboard(~std::uint64_t{0} << king.index())).any()) {
      const Square rook = (rights & Bitboard(~std::uint64_t{0} << king.index())).msb();
      const bool outermost = (home_rooks & Bitboard(~std::uint64_t{0} << rook.index())) == rook;
      field += static_cast<char>((outermost ? 'K' : 'A' + rook.file()) | case_bit);
    }
    const Bitboard queen_side = rights & Bitboard((std::uint64_t{1} << king.index()) - 1);
    if (queen_side.any()) {
      const Square rook = queen_side.lsb();
      const Bitboard outer = home_rooks & Bitboard((std::uint64_t{1} << rook.index()) - 1);
      field += static_cast<char>((outer.empty() ? 'Q' : 'A' + rook.file()) | case_bit);
    }
  }
  return field.empty() ? "-" : field;
}

std::string Position::fen() const {
  std::string text;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const Piece piece = piece_on(Square::at(file, rank));
      if (piece.is_none()) {
        ++empty;
        continue;
      }
      if (empty > 0) text += static_cast<char>('0' + empty);
      empty = 0;
      text += piece.fen_letter();
    }
    if (empty > 0) text += static_cast<char>('0' + empty);
    if (rank > 0) text += '/';
  }
  text += side_to_move_ == Color::kWhite ? " w " : " b ";
  text += castling_field();
  text += ' ';
  text += en_passant_.name();
  text += ' ' + std::to_string(halfmove_clock_) + ' ' + std::to_string(fullmove_number_);
  return text;
}

}  // namespace materialist::chess
