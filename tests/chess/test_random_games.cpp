// Invariants along seeded random games: counts, FEN round trips, SAN round trips, move facts.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "chess/movegen.h"
#include "chess/san.h"

namespace materialist::chess {
namespace {

using enum PieceType;

// xorshift64: a fixed seed gives the same games on every platform.
std::uint64_t next_random(std::uint64_t& state) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

int material(const Position& pos, Color color) {
  int total = 0;
  for (const PieceType type : {kPawn, kKnight, kBishop, kRook, kQueen}) {
    total += pos.count(color, type);
  }
  return total;
}

void check_invariants(const Position& pos) {
  for (const Color color : {Color::kWhite, Color::kBlack}) {
    for (const PieceType type : {kPawn, kKnight, kBishop, kRook, kQueen, kKing}) {
      if (pos.count(color, type) != pos.pieces(color, type).popcount()) {
        FAIL_CHECK(pos.fen(), " count differs from the bitboard");
      }
    }
  }
  const auto reparsed = Position::from_fen(pos.fen());
  if (!reparsed.ok() || reparsed->fen() != pos.fen()) FAIL_CHECK("FEN round trip: ", pos.fen());
  for (const Color color : {Color::kWhite, Color::kBlack}) {
    if (pos.king_square(color) != pos.pieces(color, PieceType::kKing).lsb()) {
      FAIL_CHECK(pos.fen(), " the kept king square is stale");
    }
  }
  const Square king = pos.king_square(pos.side_to_move());
  if (pos.checkers() != (pos.attackers_to(king, pos.pieces()) & pos.pieces(~pos.side_to_move()))) {
    FAIL_CHECK(pos.fen(), " cached checkers are stale");
  }
}

void play_random_games(Position start, int games, std::uint64_t seed) {
  std::uint64_t state = seed;
  int plies = 0;
  for (int game = 0; game < games; ++game) {
    Position pos = start;
    for (int ply = 0; ply < 200; ++ply) {
      check_invariants(pos);
      MoveList moves;
      generate_legal(pos, moves);
      if (moves.empty() || pos.halfmove_clock() >= 100) break;
      if (!pos.in_check() && next_random(state) % 50 == 0) {
        pos.play(Move::null());  // the occasional pass, as "--" in annotated games
        continue;
      }
      const Move move = moves[static_cast<int>(next_random(state) % moves.size())];
      const std::string san = to_san(pos, move);
      const Expected<Move> parsed = parse_san(pos, san);
      if (!parsed.ok() || *parsed != move) FAIL_CHECK(pos.fen(), " SAN round trip of ", san);
      const int their_material = material(pos, ~pos.side_to_move());
      Position after = pos;
      const MoveFacts facts = after.play(move);
      if (facts.capture() != (material(after, after.side_to_move()) < their_material) ||
          facts.promotion() != move.is_promotion() || facts.gives_check() != after.in_check() ||
          (san.back() == '+' || san.back() == '#') != facts.gives_check()) {
        FAIL_CHECK(pos.fen(), " wrong facts for ", san);
      }
      pos = after;
      ++plies;
    }
  }
  CHECK(plies > games * 20);
}

TEST_CASE("random games from the start keep every invariant") {
  play_random_games(Position::start(), 60, 0x9E3779B97F4A7C15ULL);
}

TEST_CASE("random games from a Chess960 start keep every invariant") {
  const auto start = Position::from_fen("nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1");
  CHECK(start.ok());
  if (start.ok()) play_random_games(*start, 40, 0xD1B54A32D192ED03ULL);
}

}  // namespace
}  // namespace materialist::chess
