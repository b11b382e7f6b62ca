#include "chess/san.h"

#include <optional>

#include "chess/movegen.h"

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

Expected<Move> parse_san(const Position& pos, std::string_view san) {
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
  if (after.play(move).gives_check) {
    MoveList replies;
    generate_legal(after, replies);
    san += replies.empty() ? '#' : '+';
  }
  return san;
}

}  // namespace materialist::chess
