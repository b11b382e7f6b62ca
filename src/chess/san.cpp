#include "chess/san.h"

#include <array>
#include <cstdint>
#include <optional>

#include "chess/movegen.h"
#include "chess/san_reference.h"

namespace materialist::chess {

namespace {

using enum PieceType;

// What the text of a non-castling move says; -1 marks a part that was not written.
struct SanParts {
  int piece = -1;  // PieceType index
  int from_file = -1;
  int from_rank = -1;
  Square to;
  int promotion = -1;  // PieceType index
};

enum class Castle { kNone, kKingSide, kQueenSide };

constexpr bool is_file(char c) {
  return c >= 'a' && c <= 'h';
}
constexpr bool is_rank(char c) {
  return c >= '1' && c <= '8';
}

// Drops check/mate signs, annotation glyphs, "e.p." and surrounding blanks.
std::string_view strip_decorations(std::string_view text) {
  size_t begin = 0, end = text.size();
  while (begin < end && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
  while (end > begin) {
    const char last = text[end - 1];
    if (is_rank(last)) break;  // the common case: nothing to strip
    if (last == '+' || last == '#' || last == '!' || last == '?' || last == ' ' || last == '\t') {
      --end;
    } else if (end - begin >= 4 && text.substr(end - 4, 4) == "e.p.") {
      end -= 4;
    } else if (end - begin >= 2 && text.substr(end - 2, 2) == "ep") {
      end -= 2;
    } else {
      break;
    }
  }
  return text.substr(begin, end - begin);
}

Castle read_castling(std::string_view text) {
  // O (letter, either case) and 0 (digit) are both seen in the wild.
  auto is_o = [](char c) { return c == 'O' || c == 'o' || c == '0'; };
  if (text.size() == 3 && is_o(text[0]) && text[1] == '-' && is_o(text[2])) {
    return Castle::kKingSide;
  }
  if (text.size() == 5 && is_o(text[0]) && text[1] == '-' && is_o(text[2]) && text[3] == '-' &&
      is_o(text[4])) {
    return Castle::kQueenSide;
  }
  return Castle::kNone;
}

// Reads [piece][from file][from rank][x:-]square[=][promotion]; false if the text is not that.
bool read_parts(std::string_view text, SanParts& parts) {
  size_t begin = 0, end = text.size();
  if (end > 0 && text[0] >= 'A' && text[0] <= 'Z') {
    const auto piece = piece_type_from_letter(text[0]);
    if (!piece) return false;
    parts.piece = index_of(*piece);
    begin = 1;
  }
  if (end - begin >= 3 && !is_rank(text[end - 1])) {
    // Old files also write e8(Q) and e8/Q.
    const bool parenthesized = text[end - 1] == ')' && end - begin >= 5 && text[end - 3] == '(';
    if (parenthesized) --end;
    const auto promoted = piece_type_from_letter(text[end - 1]);
    if (!promoted || *promoted == kPawn || *promoted == kKing) return false;
    parts.promotion = index_of(*promoted);
    --end;
    if (parenthesized || text[end - 1] == '=' || text[end - 1] == '/') --end;
  }
  if (end - begin < 2 || !is_file(text[end - 2]) || !is_rank(text[end - 1])) return false;
  parts.to = Square::at(text[end - 2] - 'a', text[end - 1] - '1');
  end -= 2;
  if (end > begin && (text[end - 1] == 'x' || text[end - 1] == ':' || text[end - 1] == '-')) --end;
  if (begin < end && is_file(text[begin])) parts.from_file = text[begin++] - 'a';
  if (begin < end && is_rank(text[begin])) parts.from_rank = text[begin++] - '1';
  return begin == end;
}

const char* piece_name(PieceType type) {
  constexpr const char* kNames[] = {"pawn", "knight", "bishop", "rook", "queen", "king"};
  return kNames[index_of(type)];
}

Error san_error(ErrorCode code, std::string_view san, std::string_view why) {
  const char* kind = code == ErrorCode::kSyntax          ? "unreadable move '"
                     : code == ErrorCode::kAmbiguousMove ? "ambiguous move '"
                                                         : "illegal move '";
  return make_error(code, kind + std::string(san) + "': " + std::string(why));
}

Expected<Move> resolve_castling(const Position& pos, std::string_view san, Castle side) {
  const Color us = pos.side_to_move();
  MoveList list;
  generate_legal(pos, list, kKing, pos.castling_rooks() & pos.pieces(us));
  const Square king = pos.king_square(us);
  for (const Move move : list) {
    if (move.is_castling() && (move.to().file() > king.file()) == (side == Castle::kKingSide)) {
      return move;
    }
  }
  return san_error(ErrorCode::kIllegalMove, san,
                   pos.in_check() ? "castling out of check" : "castling is not possible here");
}

}  // namespace

Expected<Move> parse_san_reference(const Position& pos, std::string_view san) {
  const std::string_view text = strip_decorations(san);
  if (text == "--" || text == "Z0" || text == "0000" || text == "@@@@") return Move::null();
  if (const Castle side = read_castling(text); side != Castle::kNone) {
    return resolve_castling(pos, san, side);
  }
  SanParts parts;
  if (!read_parts(text, parts)) {
    return san_error(ErrorCode::kSyntax, san, "not a move in algebraic notation");
  }

  const Color us = pos.side_to_move();
  const bool from_square_given = parts.from_file >= 0 && parts.from_rank >= 0;
  const Square from = from_square_given ? Square::at(parts.from_file, parts.from_rank) : Square();
  if (parts.piece < 0) {
    if (from_square_given) {
      // Coordinates ("e2e4", "g1f3"): the piece is whatever stands on the origin square.
      const Piece piece = pos.piece_on(from);
      if (piece.is_none() || piece.color() != us) {
        return san_error(ErrorCode::kIllegalMove, san,
                         "no piece of the side to move on " + from.name());
      }
      parts.piece = index_of(piece.type());
    } else {
      parts.piece = index_of(kPawn);
    }
  }
  const PieceType type = PieceType(parts.piece);
  // A pawn move without an origin file is a push along the destination file.
  if (type == kPawn && parts.from_file < 0) parts.from_file = parts.to.file();

  if (type == kKing && from_square_given && from == pos.king_square(us) && from.file() == 4 &&
      from.rank() == parts.to.rank() && (parts.to.file() == 6 || parts.to.file() == 2)) {
    // "e1g1" / "e1c1": castling written as the king's own two-square step.
    return resolve_castling(pos, san,
                            parts.to.file() == 6 ? Castle::kKingSide : Castle::kQueenSide);
  }

  MoveList list;
  generate_legal(pos, list, type, Bitboard(parts.to));
  auto matches_origin = [&](Move move) {
    // Castling is "king takes own rook" only in coordinate form, never as "Kh1".
    if (move.is_castling() && !from_square_given) return false;
    if (parts.from_file >= 0 && move.from().file() != parts.from_file) return false;
    return parts.from_rank < 0 || move.from().rank() == parts.from_rank;
  };
  auto matches_text = [&](Move move) {
    if (!matches_origin(move) || move.is_promotion() != (parts.promotion >= 0)) return false;
    return parts.promotion < 0 || index_of(move.promoted_to()) == parts.promotion;
  };
  Move found;
  int matches = 0;
  bool promotion_missing = false;
  for (const Move move : list) {
    if (matches_text(move)) {
      found = move;
      ++matches;
    } else if (move.is_promotion() && parts.promotion < 0 && matches_origin(move)) {
      promotion_missing = true;
    }
  }
  if (matches == 1) return found;
  if (matches > 1) {
    std::string candidates;
    for (const Move move : list) {
      if (!matches_text(move)) continue;
      candidates += candidates.empty() ? "" : ", ";
      candidates += move.uci();
    }
    return san_error(ErrorCode::kAmbiguousMove, san,
                     "matches " + std::to_string(matches) + " legal moves (" + candidates + ")");
  }
  if (promotion_missing) return san_error(ErrorCode::kIllegalMove, san, "promotion piece missing");
  return san_error(ErrorCode::kIllegalMove, san,
                   std::string("no legal ") + piece_name(type) + " move to " + parts.to.name() +
                       " in " + pos.fen());
}

namespace {

// ---- The fast path: plain tokens resolved by looking back from the destination square ----

// What a plain token says: [piece][from file][from rank][x:-]square[=promotion], upper-case
// piece letters only; -1 marks a part that was not written.
struct PlainMove {
  int piece = -1;  // PieceType index
  int from_file = -1;
  int from_rank = -1;
  int promotion = -1;  // PieceType index
  Square to;
};

// Trailing check/mate signs and annotation glyphs, + # ! ?, looked up in a table (a test
// without branches, as whether a move gives check is hard to predict, and in fewer
// instructions than a bit set with a range check).
constexpr std::array<std::uint8_t, 256> kIsSuffix = [] {
  std::array<std::uint8_t, 256> table{};
  for (unsigned char c : {'+', '#', '!', '?'}) table[c] = 1;
  return table;
}();

constexpr std::size_t is_suffix(char c) {
  return kIsSuffix[static_cast<unsigned char>(c)];
}

// The capture sign, or what some files write in its place.
constexpr std::array<std::uint8_t, 256> kIsSeparator = [] {
  std::array<std::uint8_t, 256> table{};
  for (unsigned char c : {'x', ':', '-'}) table[c] = 1;
  return table;
}();

constexpr std::size_t is_separator(char c) {
  return kIsSeparator[static_cast<unsigned char>(c)];
}

// The PieceType index of each upper-case piece letter, -1 for every other byte.
constexpr std::array<std::int8_t, 256> kPieceOfLetter = [] {
  std::array<std::int8_t, 256> types{};
  for (int c = 0; c < 256; ++c) {
    const std::optional<PieceType> type = piece_type_from_letter(static_cast<char>(c));
    types[c] = static_cast<std::int8_t>(type && c >= 'A' && c <= 'Z' ? index_of(*type) : -1);
  }
  return types;
}();

// Upper-case piece letters only: a lower-case 'b' is a file. A table rather than a switch: the
// letter of the next move is data, and a switch compiles to an indirect jump it mispredicts.
constexpr int piece_of_letter(char c) {
  return kPieceOfLetter[static_cast<unsigned char>(c)];
}

// Reads the tokens nearly every file is made of (`san` without its suffixes); false sends the
// token to the full reader, so whatever is accepted here must be read the same way there.
bool read_plain(std::string_view san, PlainMove& move) {
  const char* text = san.data();
  size_t end = san.size();
  if (end < 2) return false;
  size_t begin = 0;
  if (const int piece = piece_of_letter(text[0]); piece >= 0) {
    move.piece = piece;
    begin = 1;
  }
  if (!is_rank(text[end - 1])) {
    const int promoted = piece_of_letter(text[end - 1]);
    if (promoted <= index_of(kPawn) || promoted >= index_of(kKing)) return false;
    move.promotion = promoted;
    end -= (end >= 2 && text[end - 2] == '=') ? 2 : 1;
  }
  if (end < begin + 2 || !is_file(text[end - 2]) || !is_rank(text[end - 1])) return false;
  move.to = Square::at(text[end - 2] - 'a', text[end - 1] - '1');
  end -= 2;
  // Without a branch: captures come and go unpredictably. When nothing precedes the square,
  // the character looked at is the piece letter or the square's own file, never a separator.
  end -= is_separator(text[end > 0 ? end - 1 : 0]);
  if (begin < end && is_file(text[begin])) move.from_file = text[begin++] - 'a';
  if (begin < end && is_rank(text[begin])) move.from_rank = text[begin++] - '1';
  return begin == end;
}

// The squares a written origin allows (everything when none is written).
Bitboard origin_mask(const PlainMove& move) {
  Bitboard mask = Bitboard::all();
  if (move.from_file >= 0) mask &= Bitboard::file(move.from_file);
  if (move.from_rank >= 0) mask &= Bitboard::rank(move.from_rank);
  return mask;
}

// Whether a move from `from` to `to` leaves our king to an enemy slider; only a piece on a line
// through the king can uncover one, so callers ask for those alone.
bool exposes_king(const Position& pos, Square king, Square from, Square to) {
  const Color them = ~pos.side_to_move();
  const Bitboard occupied = (pos.pieces() ^ Bitboard(from)) | Bitboard(to);
  const Bitboard survivors = ~Bitboard(to);  // a piece captured on `to` attacks nothing
  if (king.file() == from.file() || king.rank() == from.rank()) {
    return (rook_attacks(king, occupied) & pos.pieces(them, kRook, kQueen) & survivors).any();
  }
  return (bishop_attacks(king, occupied) & pos.pieces(them, kBishop, kQueen) & survivors).any();
}

// Whether a non-king move to `to` answers the check (always true when not in check); false in
// double check, where only the king may move.
bool answers_check(const Position& pos, Square king, Square to) {
  const Bitboard checkers = pos.checkers();
  if (checkers.empty()) return true;
  if (checkers.more_than_one()) return false;
  return (between(king, checkers.lsb()) | checkers).contains(to);
}

// Whether our piece on `from` may leave its square for `to`: only when an enemy slider stands
// on the line through the king and `from` (rarely) is the line looked at.
bool keeps_king_safe(const Position& pos, Square king, Square from, Square to) {
  const Bitboard sliders = pos.pieces(~pos.side_to_move(), PieceType::kBishop, PieceType::kRook) |
                           pos.pieces(PieceType::kQueen);
  if ((line_through(king, from) & sliders & pos.pieces(~pos.side_to_move())).empty()) return true;
  return !exposes_king(pos, king, from, to);
}

// A knight, bishop, rook or queen move: exactly one legal origin among the pieces of that type
// that reach `to`, else Move() (none, or ambiguous: the full reader words the error). The
// candidates come from the piece's empty-board attacks seen from `to` (the same squares either
// way for these pieces), then the squares between must be empty: one path for every type.
Move resolve_piece(const Position& pos, PieceType type, const PlainMove& plain) {
  const Color us = pos.side_to_move();
  const Square to = plain.to;
  if (pos.pieces(us).contains(to)) return Move();
  const Bitboard candidates =
      empty_board_attacks(Piece(us, type), to) & pos.pieces(us, type) & origin_mask(plain);
  if (candidates.empty()) return Move();
  const Square king = pos.king_square(us);
  if (!answers_check(pos, king, to)) return Move();
  const Bitboard occupied = pos.pieces();
  Square found;
  int legal = 0;
  for (const Square from : candidates) {
    if ((between(from, to) & occupied).any()) continue;  // always empty for a knight
    if (!keeps_king_safe(pos, king, from, to)) continue;
    found = from;
    ++legal;
  }
  return legal == 1 ? Move(found, to) : Move();
}

// An en passant capture, checked by replaying it on the bitboards (it lifts two pawns).
Move resolve_en_passant(const Position& pos, Square from, Square to) {
  const Color us = pos.side_to_move();
  const Square victim(to.index() + (us == Color::kWhite ? -8 : 8));
  const Bitboard after = (pos.pieces() ^ Bitboard(from) ^ Bitboard(victim)) | Bitboard(to);
  const Bitboard attackers =
      pos.attackers_to(pos.king_square(us), after) & pos.pieces(~us) & ~Bitboard(victim);
  return attackers.empty() ? Move(from, to, Move::Kind::kEnPassant) : Move();
}

// A pawn push or capture: the origin follows from the destination and the origin file.
Move resolve_pawn(const Position& pos, const PlainMove& plain) {
  const Color us = pos.side_to_move();
  const bool white = us == Color::kWhite;
  const Square to = plain.to;
  const int back = white ? -1 : 1;  // rank step towards our side
  const int from_file = plain.from_file >= 0 ? plain.from_file : to.file();
  const int behind_rank = to.rank() + back;
  if (behind_rank < 0 || behind_rank > 7) return Move();
  const Bitboard pawns = pos.pieces(us, kPawn);
  const Bitboard occupied = pos.pieces();
  Square from;
  if (from_file == to.file()) {
    if (occupied.contains(to)) return Move();
    const Square behind = Square::at(from_file, behind_rank);
    if (pawns.contains(behind)) {
      from = behind;
    } else if (!occupied.contains(behind) && to.rank() == (white ? 3 : 4) &&
               pawns.contains(Square::at(from_file, behind_rank + back))) {
      from = Square::at(from_file, behind_rank + back);
    } else {
      return Move();
    }
  } else {
    if (from_file - to.file() != 1 && to.file() - from_file != 1) return Move();
    from = Square::at(from_file, behind_rank);
    if (!pawns.contains(from)) return Move();
    if (!pos.pieces(~us).contains(to)) {
      if (to != pos.en_passant_square() || plain.from_rank >= 0 || plain.promotion >= 0 ||
          pos.checkers().more_than_one()) {
        return Move();
      }
      return resolve_en_passant(pos, from, to);
    }
  }
  if (plain.from_rank >= 0 && plain.from_rank != from.rank()) return Move();
  if ((to.rank() == 0 || to.rank() == 7) != (plain.promotion >= 0)) return Move();
  const Square king = pos.king_square(us);
  if (!answers_check(pos, king, to) || !keeps_king_safe(pos, king, from, to)) return Move();
  return plain.promotion >= 0 ? Move::promotion(from, to, PieceType(plain.promotion))
                              : Move(from, to);
}

// A king step (castling has its own spelling; coordinates go to the full reader).
Move resolve_king(const Position& pos, const PlainMove& plain) {
  const Color us = pos.side_to_move();
  const Square king = pos.king_square(us), to = plain.to;
  if (!(king_attacks(king) & ~pos.pieces(us)).contains(to)) return Move();
  if (!origin_mask(plain).contains(king)) return Move();
  if (pos.is_attacked(to, ~us, pos.pieces() ^ Bitboard(king))) return Move();
  return Move(king, to);
}

// "O-O" and "O-O-O" as written by nearly every program.
Move resolve_plain_castling(const Position& pos, Castle side) {
  if (pos.in_check()) return Move();
  const Color us = pos.side_to_move();
  const Square king = pos.king_square(us);
  const Bitboard rooks = pos.castling_rooks() & pos.pieces(us);
  const std::uint64_t below_king = (std::uint64_t{1} << king.index()) - 1;
  const Bitboard on_side = rooks & Bitboard(side == Castle::kKingSide ? ~below_king : below_king);
  if (on_side.empty()) return Move();
  const Move move = Move::castling(king, on_side.lsb());
  return is_legal(pos, move) ? move : Move();
}

}  // namespace

Move parse_san_fast(const Position& pos, std::string_view san) {
  if (san.empty()) return Move();
  // One sign (a check) is common and unpredictable: dropped without a branch; more are rare.
  size_t end = san.size() - is_suffix(san.back());
  while (end > 0 && is_suffix(san[end - 1])) --end;
  const std::string_view text = san.substr(0, end);
  PlainMove plain;
  if (!read_plain(text, plain)) {
    const Castle side = read_castling(text);
    return side == Castle::kNone ? Move() : resolve_plain_castling(pos, side);
  }
  if (plain.from_file >= 0 && plain.from_rank >= 0 && plain.piece < 0) {
    // Coordinates without a letter: the piece is whatever stands on the origin square.
    const Piece piece = pos.piece_on(Square::at(plain.from_file, plain.from_rank));
    if (piece.is_none() || piece.color() != pos.side_to_move()) return Move();
    plain.piece = index_of(piece.type());
  }
  const PieceType type = plain.piece < 0 ? kPawn : PieceType(plain.piece);
  if (type == kPawn) return resolve_pawn(pos, plain);
  if (plain.promotion >= 0) return Move();
  if (type != kKing) return resolve_piece(pos, type, plain);
  const bool from_square_given = plain.from_file >= 0 && plain.from_rank >= 0;
  return from_square_given ? Move() : resolve_king(pos, plain);
}

Expected<Move> parse_san(const Position& pos, std::string_view san) {
  if (const Move move = parse_san_fast(pos, san); !move.is_none()) return move;
  return parse_san_reference(pos, san);
}

std::string to_san(const Position& pos, Move move) {
  if (move.is_null()) return "--";
  std::string san;
  const Square from = move.from(), to = move.to();
  const PieceType type = pos.piece_on(from).type();
  if (move.is_castling()) {
    san = to.file() > from.file() ? "O-O" : "O-O-O";
  } else if (type == kPawn) {
    if (from.file() != to.file()) {
      san += static_cast<char>('a' + from.file());
      san += 'x';
    }
    san += to.name();
    if (move.is_promotion()) {
      san += '=';
      san += piece_letter(move.promoted_to());
    }
  } else {
    san += piece_letter(type);
    MoveList list;
    generate_legal(pos, list, type, Bitboard(to));
    bool clash = false, same_file = false, same_rank = false;
    for (const Move other : list) {
      if (other.from() == from || other.is_castling()) continue;
      clash = true;
      same_file |= other.from().file() == from.file();
      same_rank |= other.from().rank() == from.rank();
    }
    if (clash && (!same_file || same_rank)) san += static_cast<char>('a' + from.file());
    if (clash && same_file) san += static_cast<char>('1' + from.rank());
    if (!pos.piece_on(to).is_none()) san += 'x';
    san += to.name();
  }
  Position after = pos;
  if (after.play(move).gives_check()) {
    MoveList replies;
    generate_legal(after, replies);
    san += replies.empty() ? '#' : '+';
  }
  return san;
}

}  // namespace materialist::chess
