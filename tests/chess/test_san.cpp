// SAN reading and writing: each edge case seen in real PGN files is a small named test.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "chess/chess_test_util.h"
#include "chess/movegen.h"
#include "chess/san.h"

namespace materialist::chess {
namespace {

using testing::position;

// The move `san` resolves to, as UCI text, or the error code's name.
std::string resolve(const Position& pos, std::string_view san) {
  const Expected<Move> move = parse_san(pos, san);
  if (!move.ok()) return std::string("error:") + error_code_name(move.error().code);
  return move->uci();
}

// Plays `san` on a copy of `pos`; a failed parse fails the test and leaves the copy unchanged.
Position after_san(const Position& pos, std::string_view san) {
  Position after = pos;
  const Expected<Move> move = parse_san(pos, san);
  if (move.ok()) {
    after.play(*move);
  } else {
    FAIL_CHECK(move.error().message);
  }
  return after;
}

ErrorCode error_of(const Position& pos, std::string_view san) {
  const Expected<Move> move = parse_san(pos, san);
  return move.ok() ? ErrorCode::kOk : move.error().code;
}

TEST_CASE("san: plain piece and pawn moves from the start") {
  const Position pos = Position::start();
  CHECK(resolve(pos, "e4") == "e2e4");
  CHECK(resolve(pos, "e3") == "e2e3");
  CHECK(resolve(pos, "Nf3") == "g1f3");
  CHECK(resolve(pos, "Nc3") == "b1c3");
}

TEST_CASE("san: disambiguation by file") {
  const Position pos = position("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
  CHECK(resolve(pos, "Nbd2") == "b1d2");
  CHECK(resolve(pos, "Nfd2") == "f1d2");
  CHECK(error_of(pos, "Nd2") == ErrorCode::kAmbiguousMove);
}

TEST_CASE("san: disambiguation by rank") {
  const Position pos = position("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
  CHECK(resolve(pos, "R1a3") == "a1a3");
  CHECK(resolve(pos, "R5a3") == "a5a3");
  CHECK(error_of(pos, "Ra3") == ErrorCode::kAmbiguousMove);
}

TEST_CASE("san: disambiguation by square") {
  const Position pos = position("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
  CHECK(resolve(pos, "Qa1b2") == "a1b2");
  CHECK(resolve(pos, "Qcb2") == "c1b2");
  CHECK(resolve(pos, "Q3b2") == "a3b2");
  CHECK(error_of(pos, "Qab2") == ErrorCode::kAmbiguousMove);
  CHECK(error_of(pos, "Q1b2") == ErrorCode::kAmbiguousMove);
  CHECK(error_of(pos, "Qb2") == ErrorCode::kAmbiguousMove);
}

TEST_CASE("san: a pinned piece does not make a move ambiguous") {
  // The d2 knight is pinned by the b4 bishop, so Nf3 can only be the g1 knight.
  const Position pos = position("4k3/8/8/8/1b6/8/3N4/4K1N1 w - - 0 1");
  CHECK(resolve(pos, "Nf3") == "g1f3");
  CHECK(error_of(pos, "Ndf3") == ErrorCode::kIllegalMove);
}

TEST_CASE("san: promotion with and without '=', any letter case") {
  const Position pos = position("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
  CHECK(resolve(pos, "e8Q") == "e7e8q");
  CHECK(resolve(pos, "e8=Q") == "e7e8q");
  CHECK(resolve(pos, "e8q") == "e7e8q");
  CHECK(resolve(pos, "e8=q") == "e7e8q");
  CHECK(resolve(pos, "e8=N") == "e7e8n");
  CHECK(resolve(pos, "exd8=R+") == "e7d8r");
  CHECK(resolve(pos, "exd8b") == "e7d8b");
  CHECK(resolve(pos, "e7e8q") == "e7e8q");
  CHECK(resolve(pos, "e8(Q)") == "e7e8q");
  CHECK(resolve(pos, "e8/N") == "e7e8n");
  CHECK(resolve(pos, "exd8(R)+") == "e7d8r");
}

TEST_CASE("san: promotion errors") {
  const Position pos = position("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
  CHECK(error_of(pos, "e8") == ErrorCode::kIllegalMove);
  CHECK(parse_san(pos, "e8").error().message.find("promotion") != std::string::npos);
  CHECK(error_of(pos, "e8=K") == ErrorCode::kSyntax);
  CHECK(error_of(pos, "e8=P") == ErrorCode::kSyntax);
  CHECK(error_of(pos, "e8(Q") == ErrorCode::kSyntax);
  CHECK(error_of(pos, "e8Q)") == ErrorCode::kSyntax);
  CHECK(error_of(pos, "e8==Q") == ErrorCode::kSyntax);
  CHECK(error_of(Position::start(), "e4=Q") == ErrorCode::kIllegalMove);
}

TEST_CASE("san: check, mate and annotation suffixes") {
  const Position pos = Position::start();
  for (const char* san : {"Nf3+", "Nf3#", "Nf3!", "Nf3?", "Nf3!!", "Nf3??", "Nf3!?", "Nf3?!",
                          "Nf3+!", "Nf3#?!", " Nf3 "}) {
    INFO(san);
    CHECK(resolve(pos, san) == "g1f3");
  }
}

TEST_CASE("san: castling spellings, encoded king takes rook") {
  const Position pos = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  for (const char* san : {"O-O", "0-0", "O-O+", "0-0#", "O-O!", "o-o"}) {
    INFO(san);
    CHECK(resolve(pos, san) == "e1h1");
  }
  for (const char* san : {"O-O-O", "0-0-0", "O-O-O+", "0-0-0#"}) {
    INFO(san);
    CHECK(resolve(pos, san) == "e1a1");
  }
  const Expected<Move> move = parse_san(pos, "O-O");
  CHECK((move.ok() && move->is_castling()));
  // Coordinate spellings: the king's two-square step and king-takes-rook.
  CHECK(resolve(pos, "e1g1") == "e1h1");
  CHECK(resolve(pos, "e1c1") == "e1a1");
  CHECK(resolve(pos, "e1h1") == "e1h1");
  CHECK(resolve(pos, "Ke1g1") == "e1h1");
  // Never "Kh1" for castling: that is a king move the king cannot make.
  CHECK(error_of(position("4k3/8/8/8/8/8/8/6KR w H - 0 1"), "Kh1") == ErrorCode::kIllegalMove);
}

TEST_CASE("san: castling through or out of check is illegal") {
  const Position through = position("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  CHECK(error_of(through, "O-O") == ErrorCode::kIllegalMove);
  CHECK(resolve(through, "O-O-O") == "e1a1");
  const Position in_check = position("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1");
  CHECK(error_of(in_check, "O-O") == ErrorCode::kIllegalMove);
  CHECK(error_of(in_check, "O-O-O") == ErrorCode::kIllegalMove);
  CHECK(error_of(position("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1"), "O-O") == ErrorCode::kIllegalMove);
}

TEST_CASE("san: Chess960 castling") {
  // King b1, rooks a1 and h1 (Shredder letters): O-O-O puts the king on c1, the rook on d1.
  const Position pos = position("r3k2r/8/8/8/8/8/8/RK5R w HAha - 0 1");
  CHECK(resolve(pos, "O-O") == "b1h1");
  CHECK(resolve(pos, "O-O-O") == "b1a1");
  CHECK(after_san(pos, "O-O-O").fen() == "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
  CHECK(after_san(pos, "O-O").fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
  // King f1 and rook g1: castling short leaves the king on g1... after the rook moves to f1.
  const Position adjacent = position("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
  CHECK(after_san(adjacent, "O-O").fen() == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
  // The castling rook shields the king from the a-file queen side: c1 would be attacked.
  const Position shielded = position("4k3/8/8/8/8/8/8/qRK4R w B - 0 1");
  CHECK(error_of(shielded, "O-O-O") == ErrorCode::kIllegalMove);
}

TEST_CASE("san: null moves") {
  const Position pos = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  for (const char* san : {"--", "Z0", "0000", "--+"}) {
    INFO(san);
    const Expected<Move> move = parse_san(pos, san);
    CHECK((move.ok() && move->is_null()));
  }
  Position after = pos;
  const MoveFacts facts = after.play(Move::null());
  CHECK(after.side_to_move() == Color::kWhite);
  CHECK(after.en_passant_square().is_none());
  CHECK(!facts.capture());
  CHECK(after.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
}

TEST_CASE("san: long algebraic and UCI-looking moves") {
  const Position pos = Position::start();
  CHECK(resolve(pos, "e2e4") == "e2e4");
  CHECK(resolve(pos, "e2-e4") == "e2e4");
  CHECK(resolve(pos, "Ng1f3") == "g1f3");
  CHECK(resolve(pos, "Ng1-f3") == "g1f3");
  CHECK(resolve(pos, "g1f3") == "g1f3");
  CHECK(resolve(pos, "Pe4") == "e2e4");
  CHECK(resolve(pos, "Nxf3") == "g1f3");                     // needless capture sign
  CHECK(error_of(pos, "e3e4") == ErrorCode::kIllegalMove);   // nothing on e3
  CHECK(error_of(pos, "e7e5") == ErrorCode::kIllegalMove);   // not our piece
  CHECK(error_of(pos, "Bg1f3") == ErrorCode::kIllegalMove);  // wrong piece letter
}

TEST_CASE("san: pawn captures, with and without the capture sign") {
  const Position pos = position("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1");
  CHECK(resolve(pos, "cxd5") == "c4d5");
  CHECK(resolve(pos, "exd5") == "e4d5");
  CHECK(resolve(pos, "ed5") == "e4d5");
  CHECK(resolve(pos, "e4xd5") == "e4d5");
  CHECK(resolve(pos, "c4:d5") == "c4d5");
  // A pawn move without a file is a push: "d5" is not cxd5.
  CHECK(error_of(pos, "d5") == ErrorCode::kIllegalMove);
}

TEST_CASE("san: en passant, including the rank pin") {
  const Position pos = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
  CHECK(resolve(pos, "exd6") == "e5d6");
  CHECK(resolve(pos, "exd6e.p.") == "e5d6");
  CHECK(resolve(pos, "exd6 e.p.") == "e5d6");
  // King a5, pawns b5/c5 and a rook on h5: taking en passant would empty the rank.
  const Position pinned = position("4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2");
  CHECK(error_of(pinned, "bxc6") == ErrorCode::kIllegalMove);
}

TEST_CASE("san: syntax, illegal and ambiguous are distinct, messages name the move") {
  const Position pos = position("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
  for (const char* san : {"", "xyz", "Nf9", "Nz3", "N", "e", "Xe4", "Nbbd2", "e4e", "+", "Ke3x"}) {
    INFO("'", san, "'");
    CHECK(error_of(pos, san) == ErrorCode::kSyntax);
  }
  const Expected<Move> no_match = parse_san(pos, "Nd3");
  CHECK(error_of(pos, "Nd3") == ErrorCode::kIllegalMove);
  CHECK(no_match.error().message.find("Nd3") != std::string::npos);
  const Expected<Move> ambiguous = parse_san(pos, "Nd2");
  CHECK(error_of(pos, "Nd2") == ErrorCode::kAmbiguousMove);
  CHECK(ambiguous.error().message.find("Nd2") != std::string::npos);
  CHECK(ambiguous.error().message.find("b1d2") != std::string::npos);
  const Expected<Move> unreadable = parse_san(pos, "Nz3");
  CHECK(unreadable.error().message.find("Nz3") != std::string::npos);
}

TEST_CASE("to_san: disambiguation, captures, promotions, castling, check and mate") {
  auto san_of = [](std::string_view fen, std::string_view uci) {
    const Position pos = position(fen);
    MoveList moves;
    generate_legal(pos, moves);
    for (const Move move : moves) {
      if (move.uci() == uci) return to_san(pos, move);
    }
    return std::string("not legal");
  };
  CHECK(san_of("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2") == "Nbd2");
  CHECK(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3") == "R1a3");
  CHECK(san_of("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2") == "Qa1b2");
  CHECK(san_of("4k3/8/8/8/1b6/8/3N4/4K1N1 w - - 0 1", "g1f3") == "Nf3");
  CHECK(san_of("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n") == "exd8=N");
  CHECK(san_of("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q") == "e8=Q+");
  CHECK(san_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1") == "O-O");
  CHECK(san_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1a1") == "O-O-O");
  CHECK(san_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6") == "exd6");
  CHECK(san_of("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4") == "Qh4#");
  CHECK(to_san(Position::start(), Move::null()) == "--");
}

// Every legal move of varied positions survives to_san -> parse_san.
TEST_CASE("to_san and parse_san round trip on every legal move") {
  for (const char* fen : {
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
           "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
           "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1",
           "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
           "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
       }) {
    const Position root = position(fen);
    MoveList moves;
    generate_legal(root, moves);
    for (const Move move : moves) {
      // One ply deeper too, so both colors and replies to checks are covered.
      Position child = root;
      child.play(move);
      MoveList replies;
      generate_legal(child, replies);
      for (const auto& [pos, m] : {std::pair{root, move}}) {
        const std::string san = to_san(pos, m);
        INFO(fen, " ", san);
        CHECK(resolve(pos, san) == m.uci());
      }
      for (const Move reply : replies) {
        const std::string san = to_san(child, reply);
        INFO(child.fen(), " ", san);
        CHECK(resolve(child, san) == reply.uci());
      }
    }
  }
}

}  // namespace
}  // namespace materialist::chess
