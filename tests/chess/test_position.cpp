// Position: FEN reading and writing (standard, X-FEN, Shredder-FEN), errors, counts, move facts.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <string_view>

#include "chess/chess_test_util.h"
#include "chess/movegen.h"
#include "chess/position.h"
#include "chess/san.h"

namespace materialist::chess {
namespace {

using enum PieceType;

using testing::position;

// Plays `san` and returns the facts; a failed parse fails the test.
MoveFacts play_san(Position& pos, std::string_view san) {
  const Expected<Move> move = parse_san(pos, san);
  if (!move.ok()) {
    FAIL_CHECK(move.error().message);
    return {};
  }
  return pos.play(*move);
}

TEST_CASE("fen: the start position") {
  const Position pos = Position::start();
  CHECK(pos.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  CHECK(Position().fen() == pos.fen());
  CHECK(Position::from_fen(pos.fen())->fen() == pos.fen());
  CHECK(pos.side_to_move() == Color::kWhite);
  CHECK(!pos.in_check());
  CHECK(pos.count(Color::kWhite, kPawn) == 8);
  CHECK(pos.count(Color::kBlack, kKnight) == 2);
  CHECK(pos.count(Color::kBlack, kQueen) == 1);
  CHECK(pos.pieces(Color::kWhite, kRook) == (Bitboard(Square::at(0, 0)) | Square::at(7, 0)));
  CHECK(pos.piece_on(*Square::from_string("e8")) == Piece(Color::kBlack, kKing));
}

TEST_CASE("fen: every perft fixture position round trips") {
  for (const char* name : {"standard.epd", "chess960.epd"}) {
    std::ifstream file(std::string(MATERIALIST_FIXTURES_DIR "/perft/") + name);
    std::string line;
    int rows = 0;
    while (std::getline(file, line)) {
      std::string fen = line.substr(0, line.find(" ;"));
      const auto pos = Position::from_fen(fen);
      ++rows;
      if (!pos.ok()) {
        FAIL_CHECK(pos.error().message);
        continue;
      }
      // Shredder letters of outermost rooks come back as KQkq.
      if (std::string_view(name) == "chess960.epd") continue;
      CHECK(pos->fen() == fen);
    }
    CHECK(rows > 0);
  }
}

TEST_CASE("fen: move counters may be omitted (EPD)") {
  const Position pos = position("4k3/8/8/8/8/8/8/4K3 b - -");
  CHECK(pos.fen() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
  CHECK(position("4k3/8/8/8/8/8/8/4K3 w - - 7").fen() == "4k3/8/8/8/8/8/8/4K3 w - - 7 1");
}

TEST_CASE("fen: X-FEN and Shredder-FEN castling") {
  // Shredder letters of the outermost rooks read back as KQkq.
  CHECK(position("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").fen() ==
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  // A right on an inner rook is written with its file (X-FEN).
  const Position inner = position("rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1");
  CHECK(inner.fen() == "rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1");
  CHECK(inner.castling_rooks() == (Bitboard(Square::at(1, 0)) | Square::at(1, 7)));
  // K and Q pick the outermost rook on each side of the king.
  const Position outer = position("1r1k2rr/8/8/8/8/8/8/1R1K2RR w KQkq - 0 1");
  CHECK(outer.castling_rooks().contains(Square::at(7, 0)));
  CHECK(outer.castling_rooks().contains(Square::at(1, 0)));
  CHECK(outer.castling_rooks().popcount() == 4);
  // Chess960 start position with the king on g1.
  CHECK(position("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").fen() ==
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
}

TEST_CASE("fen: bad input gives a syntax error that names the problem") {
  for (const char* fen : {
           "",
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",             // 7 ranks
           "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",    // 9 squares
           "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",     // 7 squares
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",    // bad letter
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",    // bad side
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",    // bad castling
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",    // no h1 rook
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",   // bad en passant
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",   // no pawn on e5
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",    // bad clock
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 9",  // extra field
           "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",      // no black king
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",      // two white kings
           "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",                              // pawn on rank 8
           "4k3/8/8/8/8/8/8/4K2R b - - 0 1",                              // fine: control row
       }) {
    const auto pos = Position::from_fen(fen);
    INFO(fen);
    if (std::string_view(fen).starts_with("4k3/8/8/8/8/8/8/4K2R")) {
      CHECK(pos.ok());
      continue;
    }
    CHECK(!pos.ok());
    if (!pos.ok()) {
      CHECK(pos.error().code == ErrorCode::kSyntax);
      CHECK(pos.error().message.find("FEN") != std::string::npos);
    }
  }
  // The side not to move may not be in check.
  CHECK(Position::from_fen("4k2R/8/8/8/8/8/8/4K3 b - - 0 1").ok());
  CHECK(!Position::from_fen("4k2R/8/8/8/8/8/8/4K3 w - - 0 1").ok());
}

TEST_CASE("position: move facts for quiet moves, captures, promotions and checks") {
  Position pos = Position::start();
  MoveFacts facts = play_san(pos, "e4");
  CHECK((!facts.capture() && !facts.promotion() && !facts.gives_check()));
  CHECK(pos.en_passant_square() == *Square::from_string("e3"));
  play_san(pos, "d5");
  facts = play_san(pos, "exd5");
  CHECK((facts.capture() && !facts.promotion() && !facts.gives_check()));
  CHECK(pos.count(Color::kBlack, kPawn) == 7);
  CHECK(pos.halfmove_clock() == 0);
  play_san(pos, "Nf6");
  facts = play_san(pos, "Bb5+");
  CHECK((!facts.capture() && facts.gives_check()));
  CHECK(pos.in_check());
  CHECK(pos.checkers().popcount() == 1);
}

TEST_CASE("position: en passant capture counts as a capture and removes the pawn") {
  Position pos = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
  const MoveFacts facts = play_san(pos, "exd6");
  CHECK(facts.capture());
  CHECK(pos.count(Color::kBlack, kPawn) == 0);
  CHECK(pos.fen() == "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
}

TEST_CASE("position: promotion updates the counts, with capture and check") {
  Position pos = position("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
  const MoveFacts facts = play_san(pos, "exd8=Q+");
  CHECK((facts.capture() && facts.promotion() && facts.gives_check()));
  CHECK(pos.count(Color::kWhite, kPawn) == 0);
  CHECK(pos.count(Color::kWhite, kQueen) == 1);
  CHECK(pos.count(Color::kBlack, kRook) == 0);
  Position quiet = position("7k/4P3/8/8/8/8/8/4K3 w - - 0 1");
  const MoveFacts under = play_san(quiet, "e8=N");
  CHECK((under.promotion() && !under.capture() && !under.gives_check()));
  CHECK(quiet.count(Color::kWhite, kKnight) == 1);
}

TEST_CASE("position: discovered check and check by castling are reported") {
  Position discovered = position("4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1");
  CHECK(play_san(discovered, "Nc3").gives_check());
  Position castle = position("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
  CHECK(play_san(castle, "O-O+").gives_check());
  CHECK(castle.fen() == "5k2/8/8/8/8/8/8/5RK1 b - - 1 1");
}

TEST_CASE("position: castling rights drop when the king or a rook moves or a rook is taken") {
  Position pos = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  play_san(pos, "Rxa8+");
  CHECK(pos.fen() == "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
  play_san(pos, "Ke7");
  CHECK(pos.fen() == "R6r/4k3/8/8/8/8/8/4K2R w K - 1 2");
}

TEST_CASE("position: a double step records the en passant square, the next move clears it") {
  Position pos = Position::start();
  play_san(pos, "d4");
  CHECK(pos.fen() == "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1");
  play_san(pos, "Nf6");
  CHECK(pos.en_passant_square().is_none());
  CHECK(pos.fullmove_number() == 2);
}

TEST_CASE("types: squares, bitboards and the move layout") {
  CHECK(Square::from_string("e4")->index() == 28);
  CHECK(Square::from_string("e4")->file() == 4);
  CHECK(Square::from_string("e4")->rank() == 3);
  CHECK(Square::from_string("h8")->name() == "h8");
  CHECK(!Square::from_string("i1"));
  CHECK(!Square::from_string("a9"));
  CHECK(!Square::from_string("a"));
  Bitboard set = Bitboard(Square(3)) | Square(17) | Square(60);
  CHECK(set.popcount() == 3);
  CHECK(set.lsb() == Square(3));
  CHECK(set.msb() == Square(60));
  int visited = 0;
  for (const Square s : set) visited += s.index();
  CHECK(visited == 80);
  CHECK(set.pop_lsb() == Square(3));
  CHECK(set.popcount() == 2);
  const Move promotion = Move::promotion(Square(52), Square(60), kKnight);
  CHECK(promotion.from() == Square(52));
  CHECK(promotion.to() == Square(60));
  CHECK(promotion.promoted_to() == kKnight);
  CHECK(promotion.uci() == "e7e8n");
  CHECK(sizeof(Move) == 2);
  CHECK(Move::castling(Square(4), Square(7)).is_castling());
  CHECK(Move::null().is_null());
  CHECK(!Move().is_null());
  CHECK(Move().is_none());
}

// Checks that the moves generate_legal(pos, list, type, square) finds over all piece types and
// squares are exactly the full generator's moves.
void check_restricted_generator(const Position& pos) {
  MoveList all;
  generate_legal(pos, all);
  int total = 0;
  for (const PieceType type : {kPawn, kKnight, kBishop, kRook, kQueen, kKing}) {
    for (int square = 0; square < 64; ++square) {
      MoveList some;
      generate_legal(pos, some, type, Bitboard(Square(square)));
      for (const Move move : some) {
        if (!all.contains(move) || pos.piece_on(move.from()).type() != type) {
          FAIL_CHECK(pos.fen(), " restricted generator invented ", move.uci());
        }
      }
      total += some.size();
    }
  }
  if (total != all.size()) FAIL_CHECK(pos.fen(), " restricted generator found ", total);
}

TEST_CASE("movegen: the restricted generator matches the full one on every perft position") {
  int positions = 0;
  for (const char* name : {"standard.epd", "chess960.epd"}) {
    std::ifstream file(std::string(MATERIALIST_FIXTURES_DIR "/perft/") + name);
    std::string line;
    while (std::getline(file, line)) {
      const auto root = Position::from_fen(line.substr(0, line.find(" ;")));
      if (!root.ok()) continue;  // the FEN tests report it
      check_restricted_generator(*root);
      MoveList moves;
      generate_legal(*root, moves);
      // One ply deeper: en passant chances, checks and pins appear in the children.
      for (const Move move : moves) {
        Position child = *root;
        child.play(move);
        check_restricted_generator(child);
        ++positions;
      }
    }
  }
  CHECK(positions > 1500);
}

TEST_CASE("movegen: is_legal") {
  const Position pos =
      position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  CHECK(is_legal(pos, Move(*Square::from_string("e5"), *Square::from_string("f7"))));
  CHECK(is_legal(pos, Move::castling(*Square::from_string("e1"), *Square::from_string("h1"))));
  CHECK(!is_legal(pos, Move(*Square::from_string("e1"), *Square::from_string("g1"))));
  CHECK(!is_legal(pos, Move(Square(0), Square(63))));
  CHECK(!is_legal(pos, Move::null()));
}

}  // namespace
}  // namespace materialist::chess
