#include "chess/position.h"

#include <charconv>
#include <vector>

namespace materialist::chess {

namespace {

constexpr int back_rank(Color color) {
  return color == Color::kWhite ? 0 : 7;
}

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

Expected<Position> Position::from_fen(std::string_view fen) {
  const std::vector<std::string_view> fields = split_fields(fen);
  if (fields.size() < 4 || fields.size() > 6) {
    return fen_error(fen, "expected 4 to 6 space-separated fields");
  }
  Position pos{Empty{}};

  // Piece placement, rank 8 first.
  int file = 0, rank = 7;
  for (const char c : fields[0]) {
    if (c == '/') {
      if (file != 8 || rank == 0) return fen_error(fen, "each rank must hold exactly 8 squares");
      file = 0;
      --rank;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) return fen_error(fen, "a rank holds more than 8 squares");
    } else if (const auto piece = Piece::from_fen_letter(c)) {
      if (file >= 8) return fen_error(fen, "a rank holds more than 8 squares");
      pos.put(*piece, Square::at(file++, rank));
      ++pos.counts_[index_of(piece->color())][index_of(piece->type())];
    } else {
      return fen_error(fen, std::string("unexpected character '") + c + "' in the board");
    }
  }
  if (file != 8 || rank != 0) return fen_error(fen, "the board must have 8 ranks of 8 squares");
  for (const Color color : {Color::kWhite, Color::kBlack}) {
    if (pos.count(color, PieceType::kKing) != 1) {
      return fen_error(fen, "each side needs exactly one king");
    }
  }
  if ((pos.pieces(PieceType::kPawn) & (Bitboard::rank(0) | Bitboard::rank(7))).any()) {
    return fen_error(fen, "pawns cannot stand on the first or last rank");
  }

  // Side to move.
  if (fields[1] == "w") {
    pos.side_to_move_ = Color::kWhite;
  } else if (fields[1] == "b") {
    pos.side_to_move_ = Color::kBlack;
  } else {
    return fen_error(fen, "side to move must be 'w' or 'b'");
  }

  // Castling: KQkq (outermost rook on that side), or rook files A-H / a-h.
  if (fields[2] != "-") {
    for (const char c : fields[2]) {
      const Color color = (c >= 'a') ? Color::kBlack : Color::kWhite;
      const char upper = static_cast<char>(c & ~0x20);
      const int home = back_rank(color);
      const Square king = pos.king_square(color);
      const Bitboard rooks = pos.pieces(color, PieceType::kRook) & Bitboard::rank(home);
      if (king.rank() != home) {
        return fen_error(fen, std::string("castling right '") + c + "' but the king is not home");
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
        return fen_error(fen, std::string("unexpected castling character '") + c + "'");
      }
      if (rook.is_none()) {
        return fen_error(fen, std::string("castling right '") + c + "' has no rook");
      }
      pos.castling_rooks_ |= rook;
    }
    for (const Color color : {Color::kWhite, Color::kBlack}) {
      const Bitboard rights = pos.castling_rooks_ & pos.pieces(color);
      const int king = pos.king_square(color).index();
      if ((rights & Bitboard(~std::uint64_t{0} << king)).more_than_one() ||
          (rights & Bitboard((std::uint64_t{1} << king) - 1)).more_than_one()) {
        return fen_error(fen, "two castling rights on the same side of a king");
      }
    }
  }

  // En passant target: behind a pawn of the side that just moved, with both squares empty.
  if (fields[3] != "-") {
    const auto square = Square::from_string(fields[3]);
    const Color mover = ~pos.side_to_move_;
    const int target_rank = mover == Color::kWhite ? 2 : 5;
    if (!square || square->rank() != target_rank) {
      return fen_error(fen, "bad en passant square '" + std::string(fields[3]) + "'");
    }
    const int forward = mover == Color::kWhite ? 8 : -8;
    const Square pawn(square->index() + forward), origin(square->index() - forward);
    if (pos.piece_on(pawn) != Piece(mover, PieceType::kPawn) || !pos.piece_on(*square).is_none() ||
        !pos.piece_on(origin).is_none()) {
      return fen_error(fen, "en passant square without a pawn that just advanced two squares");
    }
    pos.en_passant_ = *square;
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
