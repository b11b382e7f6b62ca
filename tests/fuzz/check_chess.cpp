// SAN and FEN fuzz properties (fuzz_checks.h).
#include <array>
#include <string>

#include "chess/movegen.h"
#include "chess/position.h"
#include "chess/san.h"
#include "fuzz_checks.h"

namespace materialist::fuzz {

namespace {

using chess::Move;
using chess::MoveList;
using chess::Position;

// Chess960 start number `n` (0..959, Scharnagl's numbering; 518 is the standard start) as FEN.
std::string chess960_fen(int n) {
  std::array<char, 8> rank{};
  auto place_nth_free = [&](int nth, char piece) {
    for (int file = 0; file < 8; ++file) {
      if (rank[file] == 0 && nth-- == 0) {
        rank[file] = piece;
        return;
      }
    }
  };
  rank[(n % 4) * 2 + 1] = 'B';
  n /= 4;
  rank[(n % 4) * 2] = 'B';
  n /= 4;
  place_nth_free(n % 6, 'Q');
  n /= 6;
  static constexpr int kKnights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                          {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
  // The later knight first: placing it does not shift the earlier one's free-square index.
  place_nth_free(kKnights[n][1], 'N');
  place_nth_free(kKnights[n][0], 'N');
  place_nth_free(0, 'R');
  place_nth_free(0, 'K');
  place_nth_free(0, 'R');
  std::string white(rank.begin(), rank.end());
  std::string black = white;
  for (char& c : black) c = static_cast<char>(c | 0x20);
  return black + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w KQkq - 0 1";
}

std::string describe(const Position& pos, Move move, const std::string& what) {
  return what + " (move " + move.uci() + " in " + pos.fen() + ")";
}

// Every legal move of `pos`: its SAN and its UCI resolve back to it; the SAN's suffix matches the
// check or mate it gives.
Failure check_legal_moves(const Position& pos) {
  MoveList moves;
  chess::generate_legal(pos, moves);
  for (Move move : moves) {
    if (!chess::is_legal(pos, move)) return describe(pos, move, "generated but not is_legal");
    const std::string san = chess::to_san(pos, move);
    const Expected<Move> back = chess::parse_san(pos, san);
    if (!back || *back != move) return describe(pos, move, "SAN '" + san + "' does not resolve");
    const Expected<Move> uci = chess::parse_san(pos, move.uci());
    if (!uci || *uci != move) return describe(pos, move, "UCI does not resolve");
    Position after = pos;
    after.play(move);
    MoveList replies;
    if (after.in_check()) chess::generate_legal(after, replies);  // only a check can be a mate
    const char suffix = san.back();
    const bool mate = after.in_check() && replies.empty();
    if ((suffix == '#') != mate || (suffix == '+') != (after.in_check() && !mate))
      return describe(pos, move, "SAN '" + san + "' has the wrong suffix");
  }
  return std::nullopt;
}

// A SAN text the input offers: resolved, it must be a legal move (or null) whose own SAN resolves
// to it again.
Failure check_offered_san(const Position& pos, std::string_view text) {
  const Expected<Move> move = chess::parse_san(pos, text);
  if (!move || move->is_null()) return std::nullopt;
  if (!chess::is_legal(pos, *move))
    return describe(pos, *move, "'" + std::string(text) + "' resolved to an illegal move");
  const Expected<Move> again = chess::parse_san(pos, chess::to_san(pos, *move));
  if (!again || *again != *move)
    return describe(pos, *move, "'" + std::string(text) + "': its SAN does not re-resolve");
  return std::nullopt;
}

}  // namespace

// Input: byte 0 picks the start (even: standard; odd: a Chess960 start from bytes 0-1); then each
// byte picks a legal move by index (and, when a multiple of 16, checks every legal move first),
// except 0xff, which offers the next byte's count (1..8) of bytes as a SAN text to resolve.
Failure check_san(std::string_view input) {
  if (input.size() < 2) return std::nullopt;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(input[i]); };
  Position pos = Position::start();
  if ((byte(0) & 1) != 0) {
    const std::string fen = chess960_fen((byte(0) << 8 | byte(1)) % 960);
    const Expected<Position> start = Position::from_fen(fen);
    if (!start) return "Chess960 start '" + fen + "' does not parse";
    pos = *start;
  }
  for (std::size_t i = 2; i < input.size(); ++i) {
    // Every move's round trip at one ply in 16 (and at the end): cheaper executions.
    if ((byte(i) & 15) == 0) {
      if (Failure failure = check_legal_moves(pos)) return failure;
    }
    if (byte(i) == 0xff && i + 1 < input.size()) {
      const std::size_t length = 1 + byte(i + 1) % 8;
      const std::string_view text = input.substr(i + 2, length);
      if (Failure failure = check_offered_san(pos, text)) return failure;
      i += 1 + text.size();
      continue;
    }
    MoveList moves;
    chess::generate_legal(pos, moves);
    if (moves.empty()) break;
    pos.play(moves[byte(i) % moves.size()]);
  }
  return check_legal_moves(pos);
}

Failure check_fen(std::string_view input) {
  const Expected<Position> pos = Position::from_fen(input);
  if (!pos) return std::nullopt;
  const std::string fen = pos->fen();
  const Expected<Position> again = Position::from_fen(fen);
  if (!again) return "'" + fen + "' (written for '" + std::string(input) + "') does not parse";
  if (again->fen() != fen) return "'" + fen + "' reads back as '" + again->fen() + "'";
  MoveList moves;
  chess::generate_legal(*pos, moves);
  for (Move move : moves) {
    Position after = *pos;
    after.play(move);
    const std::string next = after.fen();
    if (!Position::from_fen(next)) return describe(*pos, move, "gives an unreadable FEN " + next);
    (void)chess::to_san(*pos, move);
  }
  return std::nullopt;
}

}  // namespace materialist::fuzz
