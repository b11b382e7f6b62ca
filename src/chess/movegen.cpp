#include "chess/movegen.h"

namespace materialist::chess {

namespace {

using enum PieceType;

constexpr unsigned bit_of(PieceType type) {
  return 1u << index_of(type);
}
constexpr unsigned kAllPieceTypes = (1u << kPieceTypeCount) - 1;

// Everything the per-piece generators share for one position.
struct Context {
  const Position& pos;
  MoveList& list;
  Color us;
  Color them;
  Square king;
  Bitboard ours;
  Bitboard theirs;
  Bitboard occupied;
  Bitboard pinned;        // our pieces that are the only blocker between our king and a slider
  Bitboard destinations;  // not ours, resolves a single check, within the caller's targets
};

// Our pieces pinned to our king by their sliders.
Bitboard pinned_pieces(const Position& pos, Color us, Square king) {
  const Color them = ~us;
  const Bitboard theirs = pos.pieces(them);
  const Bitboard snipers = (rook_attacks(king, theirs) & pos.pieces(them, kRook, kQueen)) |
                           (bishop_attacks(king, theirs) & pos.pieces(them, kBishop, kQueen));
  Bitboard pinned;
  const Bitboard occupied = pos.pieces();
  for (const Square sniper : snipers) {
    const Bitboard blockers = between(king, sniper) & occupied;
    if (blockers.any() && !blockers.more_than_one()) pinned |= blockers & pos.pieces(us);
  }
  return pinned;
}

// Whether our piece on `from` is pinned; cheaper than pinned_pieces() for one or two pieces.
bool is_pinned(const Context& c, Square from) {
  const Bitboard line = line_through(c.king, from);
  if (line.empty() || (between(c.king, from) & c.occupied).any()) return false;
  const bool straight = c.king.file() == from.file() || c.king.rank() == from.rank();
  const Bitboard sliders =
      straight ? c.pos.pieces(c.them, kRook, kQueen) : c.pos.pieces(c.them, kBishop, kQueen);
  if ((line & sliders).empty()) return false;
  // Looking from the piece along the line: towards the king the first piece seen is the king.
  const Bitboard seen =
      straight ? rook_attacks(from, c.occupied) : bishop_attacks(from, c.occupied);
  return (seen & line & sliders).any();
}

Bitboard slider_attacks(PieceType type, Square from, Bitboard occupied) {
  switch (type) {
    case kBishop:
      return bishop_attacks(from, occupied);
    case kRook:
      return rook_attacks(from, occupied);
    default:
      return queen_attacks(from, occupied);
  }
}

Bitboard piece_attacks(PieceType type, Square from, Bitboard occupied) {
  return type == kKnight ? knight_attacks(from) : slider_attacks(type, from, occupied);
}

void add_piece_moves(const Context& c, PieceType type) {
  Bitboard movers = c.pos.pieces(c.us, type);
  if (type == kKnight) movers &= ~c.pinned;  // a pinned knight can never move
  for (const Square from : movers) {
    Bitboard targets = piece_attacks(type, from, c.occupied) & c.destinations;
    if (c.pinned.contains(from)) targets &= line_through(c.king, from);
    for (const Square to : targets) c.list.push(Move(from, to));
  }
}

void add_pawn_moves_to(MoveList& list, Square from, Square to) {
  if (to.rank() == 0 || to.rank() == 7) {
    for (const PieceType promoted : {kQueen, kRook, kBishop, kKnight}) {
      list.push(Move::promotion(from, to, promoted));
    }
  } else {
    list.push(Move(from, to));
  }
}

// Pushes and captures (not en passant) of `pawns`, landing inside `allowed`.
void add_pawn_moves(const Context& c, Bitboard pawns, Bitboard allowed) {
  const bool white = c.us == Color::kWhite;
  const Bitboard empty = ~c.occupied;
  const Bitboard single = (white ? pawns << 8 : pawns >> 8) & empty;
  const Bitboard third_rank = Bitboard::rank(white ? 2 : 5);
  const Bitboard twice = (white ? (single & third_rank) << 8 : (single & third_rank) >> 8) & empty;
  const int forward = white ? 8 : -8;
  for (const Square to : (single & allowed)) {
    add_pawn_moves_to(c.list, Square(to.index() - forward), to);
  }
  for (const Square to : (twice & allowed)) c.list.push(Move(Square(to.index() - 2 * forward), to));
  const Bitboard not_a = ~Bitboard::file(0), not_h = ~Bitboard::file(7);
  // Captures towards the a-file and towards the h-file.
  const Bitboard west = (white ? (pawns & not_a) << 7 : (pawns & not_a) >> 9) & c.theirs & allowed;
  const Bitboard east = (white ? (pawns & not_h) << 9 : (pawns & not_h) >> 7) & c.theirs & allowed;
  const int west_step = white ? 7 : -9, east_step = white ? 9 : -7;
  for (const Square to : west) add_pawn_moves_to(c.list, Square(to.index() - west_step), to);
  for (const Square to : east) add_pawn_moves_to(c.list, Square(to.index() - east_step), to);
}

void add_en_passant(const Context& c, Bitboard targets) {
  const Square target = c.pos.en_passant_square();
  if (target.is_none() || !targets.contains(target)) return;
  const Square victim(target.index() + (c.us == Color::kWhite ? -8 : 8));
  for (const Square from : pawn_attacks(c.them, target) & c.pos.pieces(c.us, kPawn)) {
    // Rare enough to verify by replaying on the bitboards; this also catches the pin along the
    // rank that runs through both pawns.
    const Bitboard after = (c.occupied ^ Bitboard(from) ^ Bitboard(victim)) | Bitboard(target);
    const Bitboard attackers = c.pos.attackers_to(c.king, after) & c.theirs & ~Bitboard(victim);
    if (attackers.empty()) c.list.push(Move(from, target, Move::Kind::kEnPassant));
  }
}

void add_king_moves(const Context& c, Bitboard targets) {
  const Bitboard without_king = c.occupied ^ Bitboard(c.king);
  for (const Square to : king_attacks(c.king) & ~c.ours & targets) {
    if (!c.pos.is_attacked(to, c.them, without_king)) c.list.push(Move(c.king, to));
  }
}

void add_castling(const Context& c, Bitboard targets) {
  const int home = c.us == Color::kWhite ? 0 : 7;
  for (const Square rook : c.pos.castling_rooks() & c.ours & targets) {
    const bool king_side = rook.file() > c.king.file();
    const Square king_to = Square::at(king_side ? 6 : 2, home);
    const Square rook_to = Square::at(king_side ? 5 : 3, home);
    const Bitboard movers = Bitboard(c.king) | Bitboard(rook);
    const Bitboard must_be_empty = (between(c.king, king_to) | Bitboard(king_to) |
                                    between(rook, rook_to) | Bitboard(rook_to)) &
                                   ~movers;
    if ((must_be_empty & c.occupied).any()) continue;
    // Every square the king stands on or crosses, judged with both movers lifted: this also
    // covers a Chess960 rook that shields its king from a slider along the home rank.
    const Bitboard lifted = c.occupied ^ movers;
    const Bitboard king_path = between(c.king, king_to) | Bitboard(king_to);
    bool safe = true;
    for (const Square s : king_path) {
      if (c.pos.is_attacked(s, c.them, lifted)) {
        safe = false;
        break;
      }
    }
    if (safe) c.list.push(Move::castling(c.king, rook));
  }
}

void generate(const Position& pos, MoveList& list, unsigned piece_types, Bitboard targets) {
  const Color us = pos.side_to_move();
  const Square king = pos.king_square(us);
  Context c{pos,          list,       us,        ~us, king, pos.pieces(us), pos.pieces(~us),
            pos.pieces(), Bitboard(), Bitboard()};
  const Bitboard checkers = pos.checkers();
  if (piece_types & bit_of(kKing)) {
    add_king_moves(c, targets);
    if (checkers.empty()) add_castling(c, targets);
  }
  // In double check only the king moves.
  if (checkers.more_than_one() || piece_types == bit_of(kKing)) return;

  const Bitboard resolves_check =
      checkers.any() ? between(king, checkers.lsb()) | checkers : Bitboard::all();
  c.destinations = ~c.ours & resolves_check & targets;
  c.pinned = pinned_pieces(pos, us, king);

  if (piece_types & bit_of(kPawn)) {
    const Bitboard pawns = pos.pieces(us, kPawn);
    add_pawn_moves(c, pawns & ~c.pinned, c.destinations);
    for (const Square from : (pawns & c.pinned)) {
      add_pawn_moves(c, Bitboard(from), c.destinations & line_through(king, from));
    }
    add_en_passant(c, targets);
  }
  for (const PieceType type : {kKnight, kBishop, kRook, kQueen}) {
    if (piece_types & bit_of(type)) add_piece_moves(c, type);
  }
}

// The hot path of SAN resolution: non-king moves of one piece type onto one square, found by
// looking backwards from the square instead of generating and filtering.
void generate_to(const Position& pos, MoveList& list, PieceType type, Square to) {
  const Color us = pos.side_to_move();
  const Square king = pos.king_square(us);
  Context c{pos,          list,       us,        ~us, king, pos.pieces(us), pos.pieces(~us),
            pos.pieces(), Bitboard(), Bitboard()};
  const Bitboard checkers = pos.checkers();
  if (checkers.more_than_one()) return;
  const bool resolves_check =
      checkers.empty() || checkers.contains(to) || between(king, checkers.lsb()).contains(to);
  if (type == kPawn && to == pos.en_passant_square()) add_en_passant(c, Bitboard(to));
  if (c.ours.contains(to) || !resolves_check) return;

  Bitboard movers;
  if (type == kPawn) {
    const int back = us == Color::kWhite ? -8 : 8;
    const Bitboard pawns = pos.pieces(us, kPawn);
    if (c.theirs.contains(to)) {
      movers = pawn_attacks(c.them, to) & pawns;
    } else if (const int behind = to.index() + back; behind >= 0 && behind < 64) {
      if (pawns.contains(Square(behind))) {
        movers = Square(behind);
      } else if (pos.piece_on(Square(behind)).is_none() &&
                 to.rank() == (us == Color::kWhite ? 3 : 4) &&
                 pawns.contains(Square(behind + back))) {
        movers = Square(behind + back);
      }
    }
  } else {
    movers = piece_attacks(type, to, c.occupied) & pos.pieces(us, type);
  }
  for (const Square from : movers) {
    if (is_pinned(c, from) && !line_through(king, from).contains(to)) continue;
    if (type == kPawn) {
      add_pawn_moves_to(list, from, to);
    } else {
      list.push(Move(from, to));
    }
  }
}

}  // namespace

void generate_legal(const Position& pos, MoveList& list) {
  generate(pos, list, kAllPieceTypes, Bitboard::all());
}

void generate_legal(const Position& pos, MoveList& list, PieceType piece, Bitboard targets) {
  if (piece == kKing || targets.empty() || targets.more_than_one()) {
    generate(pos, list, bit_of(piece), targets);
  } else {
    generate_to(pos, list, piece, targets.lsb());
  }
}

void generate_tactical(const Position& pos, MoveList& list) {
  const Color us = pos.side_to_move();
  Bitboard targets = pos.pieces(~us) | Bitboard::rank(back_rank(~us));
  if (!pos.en_passant_square().is_none()) targets |= Bitboard(pos.en_passant_square());
  MoveList moves;
  generate(pos, moves, kAllPieceTypes, targets);
  // The last rank's empty squares were targets for the pawns' promotions: drop the pieces'
  // quiet moves there.
  for (const Move move : moves) {
    if (move.is_promotion() || move.is_en_passant() ||
        (!move.is_castling() && !pos.piece_on(move.to()).is_none())) {
      list.push(move);
    }
  }
}

bool is_legal(const Position& pos, Move move) {
  if (move.is_none() || move.is_null()) return false;
  const Piece piece = pos.piece_on(move.from());
  if (piece.is_none() || piece.color() != pos.side_to_move()) return false;
  MoveList list;
  generate_legal(pos, list, piece.type(), Bitboard(move.to()));
  return list.contains(move);
}

}  // namespace materialist::chess
