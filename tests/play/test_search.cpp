// The play engine's search: forced mates found at their exact distance (positions taken from
// the fixtures' games a few plies before their checkmate, each proved by a separate exhaustive
// mate search), the draw rules, Zobrist keys.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <vector>
#ifndef __EMSCRIPTEN__
#include <thread>
#endif

#include "chess/movegen.h"
#include "chess/san.h"
#include "pgn/parser.h"
#include "play/search.h"
#include "play/zobrist.h"
#include "test_util.h"

namespace materialist::play {

namespace {

using chess::Move;
using chess::MoveList;
using chess::Position;

bool defender_lost_within(const Position& position, int moves);

// The exhaustive proof, independent of the engine: whether the side to move mates in at most
// `moves` moves whatever the defence (no evaluation, no pruning beyond "a mate needs a check on
// its last move").
bool mates_within(const Position& position, int moves) {
  if (moves <= 0) return false;
  MoveList list;
  chess::generate_legal(position, list);
  for (const Move move : list) {
    Position child = position;
    child.play(move);
    if (moves == 1 && !child.in_check()) continue;
    if (defender_lost_within(child, moves - 1)) return true;
  }
  return false;
}

bool defender_lost_within(const Position& position, int moves) {
  MoveList replies;
  chess::generate_legal(position, replies);
  if (replies.empty()) return position.in_check();
  if (moves == 0) return false;
  for (const Move reply : replies) {
    Position child = position;
    child.play(reply);
    if (!mates_within(child, moves)) return false;
  }
  return true;
}

// Positions 1, 3 and 5 plies before each game's final checkmate.
class MateCollector : public pgn::Visitor {
 public:
  std::vector<std::vector<Position>> games_ending_in_mate;

  void begin_game(pgn::Location) override {
    line_.assign(1, Position::start());
    ok_ = true;
  }
  void tag(std::string_view name, std::string_view) override {
    if (name == "FEN") ok_ = false;
  }
  pgn::Action move(std::string_view san, pgn::Location) override {
    auto move = chess::parse_san(line_.back(), san);
    if (!move || move->is_null()) {
      ok_ = false;
      return pgn::Action::kSkipGame;
    }
    Position next = line_.back();
    next.play(*move);
    line_.push_back(next);
    return pgn::Action::kContinue;
  }
  void end_game(const pgn::GameEnd&) override {
    if (!ok_ || line_.size() < 7) return;
    MoveList replies;
    chess::generate_legal(line_.back(), replies);
    if (replies.empty() && line_.back().in_check()) games_ending_in_mate.push_back(line_);
  }

 private:
  std::vector<Position> line_;
  bool ok_ = true;
};

struct MatePosition {
  Position position;
  int moves;
};

std::vector<MatePosition> proved_mates(int per_distance_1, int per_distance_2, int per_distance_3) {
  const std::string pgn = materialist::testing::read_fixture("pgn/lichess-2021-10-first999.pgn");
  MateCollector collector;
  pgn::Parser parser(collector);
  parser.feed(pgn.data(), pgn.size());
  parser.finish();
  std::vector<MatePosition> mates;
  const int wanted[] = {0, per_distance_1, per_distance_2, per_distance_3};
  int found[] = {0, 0, 0, 0};
  for (const auto& line : collector.games_ending_in_mate) {
    for (int moves = 1; moves <= 3; ++moves) {
      if (found[moves] >= wanted[moves]) continue;
      const Position& position = line[line.size() - 2 * moves];
      // Kept only when mate in exactly `moves` is proved: the game's moves may not be the fastest.
      if (mates_within(position, moves) && !mates_within(position, moves - 1)) {
        mates.push_back({position, moves});
        ++found[moves];
      }
    }
  }
  return mates;
}

}  // namespace

TEST_CASE("search: finds 60 proved forced mates from real games at their exact distance") {
  const std::vector<MatePosition> mates = proved_mates(30, 20, 10);
  REQUIRE(mates.size() == 60);
  Searcher searcher(*parse_value_set("classic"), {});
  for (const MatePosition& mate : mates) {
    searcher.new_game();
    const SearchResult result = searcher.search(mate.position, {}, {.depth = 2 * mate.moves + 1});
    INFO(mate.position.fen(), " mate in ", mate.moves);
    REQUIRE(is_mate_score(result.score));
    CHECK(mate_in_moves(result.score) == mate.moves);
    // The move chosen keeps the mate: every defence still loses within the rest.
    Position child = mate.position;
    child.play(result.best);
    CHECK(defender_lost_within(child, mate.moves - 1));
  }
}

TEST_CASE("search: the pruning keeps the proved mates at the game's node limit, table warm") {
  // Null move, futility and reductions must not hide a forced mate: the same 60 positions at
  // the match's default limit and deeper than needed, one searcher throughout (as in a game).
  const std::vector<MatePosition> mates = proved_mates(30, 20, 10);
  REQUIRE(mates.size() == 60);
  Searcher searcher(*parse_value_set("classic"), {});
  for (const MatePosition& mate : mates) {
    INFO(mate.position.fen(), " mate in ", mate.moves);
    for (const SearchLimits& limits :
         {SearchLimits{.nodes = 20000}, SearchLimits{.depth = 2 * mate.moves + 3}}) {
      const SearchResult result = searcher.search(mate.position, {}, limits);
      REQUIRE(is_mate_score(result.score));
      CHECK(mate_in_moves(result.score) == mate.moves);
      Position child = mate.position;
      child.play(result.best);
      CHECK(defender_lost_within(child, mate.moves - 1));
    }
  }
}

TEST_CASE("search: the side to move that is mated sees the distance as negative") {
  // After 1.f3 e5 2.g4, Black mates with Qh4#: with White to move after 2...Qh4 there is none.
  auto position =
      Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  REQUIRE(position);
  Searcher searcher(*parse_value_set("classic"), {});
  const SearchResult mated = searcher.search(*position, {}, {.depth = 3});
  CHECK(mated.best.is_none());
  CHECK(mated.score == -kMateScore);
  // One move earlier (White to move 2.g4?? allowed), Black to move mates in one.
  auto before = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
  REQUIRE(before);
  const SearchResult mating = searcher.search(*before, {}, {.depth = 2});
  CHECK(mate_in_moves(mating.score) == 1);
  CHECK(chess::to_san(*before, mating.best) == "Qh4#");
}

TEST_CASE("search: stalemate and dead positions score 0") {
  Searcher searcher(*parse_value_set("classic"), {});
  // Black to move, stalemated.
  auto stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  REQUIRE(stalemate);
  CHECK(searcher.search(*stalemate, {}, {.depth = 4}).score == 0);
  // A queen up, but every line that keeps it lets Black take it or stalemate: the engine must
  // not count K+Q as winning when its move stalemates. Qg6?? is stalemate; it avoids that.
  auto avoid = Position::from_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
  REQUIRE(avoid);
  const SearchResult result = searcher.search(*avoid, {}, {.depth = 5});
  CHECK(chess::to_san(*avoid, result.best) != "Qf7");
  CHECK(is_mate_score(result.score));
  CHECK(insufficient_material(*Position::from_fen("8/8/4k3/8/8/8/8/4K1N1 w - - 0 1")));
  CHECK(insufficient_material(*Position::from_fen("8/8/4kb2/8/8/8/8/2B1K3 w - - 0 1")));
  CHECK_FALSE(insufficient_material(*Position::from_fen("8/8/4k1b1/8/8/8/8/2B1K3 w - - 0 1")));
  CHECK_FALSE(insufficient_material(*Position::from_fen("8/8/4k3/8/8/8/8/2N1K1N1 w - - 0 1")));
}

TEST_CASE("search: a repetition against the game's history is a draw to aim for when behind") {
  // White is a rook down. Its history holds the position after Kf1 twice already (as if the
  // kings had walked back and forth), so Kf1 now is a threefold repetition: a draw, worth more
  // than any other move.
  auto position = Position::from_fen("6k1/5ppp/8/8/8/8/r4PPP/6K1 w - - 10 30");
  REQUIRE(position);
  Searcher searcher(*parse_value_set("classic"), {});
  const SearchResult without = searcher.search(*position, {}, {.depth = 3});
  CHECK(without.score < -300);
  Position after = *position;
  after.play(*chess::parse_san(after, "Kf1"));
  const std::uint64_t repeated = zobrist_key(after);
  const std::vector<std::uint64_t> history = {11, repeated, 13, repeated, 15, 16};
  searcher.new_game();
  const SearchResult with = searcher.search(*position, history, {.depth = 3});
  CHECK(chess::to_san(*position, with.best) == "Kf1");
  CHECK(with.score == 0);
}

TEST_CASE("zobrist: transpositions share a key, side to move and castling rights do not") {
  auto key_after = [](std::vector<std::string> sans) {
    Position position;
    for (const std::string& san : sans) position.play(*chess::parse_san(position, san));
    return zobrist_key(position);
  };
  CHECK(key_after({"e4", "e5", "Nf3"}) == key_after({"Nf3", "e5", "e4"}));
  CHECK(key_after({"Nf3", "Nf6", "Ng1", "Ng8"}) == zobrist_key(Position::start()));
  // The same pieces after a king walk: no castling rights any more.
  CHECK(key_after({"e4", "e5", "Ke2", "Ke7", "Ke1", "Ke8"}) != key_after({"e4", "e5"}));
  // An en passant square counts only when a capture is possible: after 1.e4 no black pawn can.
  CHECK(key_after({"e4"}) == zobrist_key(*Position::from_fen(
                                 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")));
}

// Every line of three plies (and a null move after each ply out of check) from positions with
// castling, en passant, promotions and a Chess960 setup: the keys and piece-square sums kept
// move by move equal those summed over the board.
TEST_CASE("zobrist, evaluation: the keys and sums kept move by move equal the board's") {
  const char* fens[] = {
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
      "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
  };
  const Evaluator evaluator(*parse_value_set("classic"), {});
  long checked = 0;
  long wrong_keys = 0;
  long wrong_sums = 0;
  for (const char* fen : fens) {
    auto root = Position::from_fen(fen);
    REQUIRE(root);
    auto walk = [&](auto& self, const Position& position, std::uint64_t key, Positional sums,
                    int plies) -> void {
      // Counted, not asserted one by one: hundreds of thousands of positions.
      if (key != zobrist_key(position)) ++wrong_keys;
      if (sums != evaluator.positional(position) ||
          evaluator.evaluate(position, sums) != evaluator.evaluate(position)) {
        ++wrong_sums;
      }
      ++checked;
      if (plies == 0) return;
      if (!position.in_check()) {
        Position passed = position;
        passed.play(Move::null());
        self(self, passed, zobrist_key_after(position, key, passed),
             evaluator.positional_after(position, passed, sums), 0);
      }
      MoveList moves;
      chess::generate_legal(position, moves);
      for (const Move move : moves) {
        Position child = position;
        child.play(move);
        self(self, child, zobrist_key_after(position, key, child),
             evaluator.positional_after(position, child, sums), plies - 1);
      }
    };
    walk(walk, *root, zobrist_key(*root), evaluator.positional(*root), 3);
  }
  CHECK(checked > 100000);
  CHECK(wrong_keys == 0);
  CHECK(wrong_sums == 0);
}

TEST_CASE("search: the same position and limit give the same move, score and nodes") {
  auto position =
      Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
  REQUIRE(position);
  Searcher first(*parse_value_set("classic"), {});
  Searcher second(*parse_value_set("classic"), {});
  const SearchResult a = first.search(*position, {}, {.nodes = 30000});
  const SearchResult b = second.search(*position, {}, {.nodes = 30000});
  CHECK(a.best == b.best);
  CHECK(a.score == b.score);
  CHECK(a.nodes == b.nodes);
  CHECK(a.pv == b.pv);
  CHECK(a.depth >= 4);
}

constexpr const char* kKiwipete =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

TEST_CASE(
    "search: the iteration listener hears depths 1..N in order, the pv led by the best move") {
  auto position = Position::from_fen(kKiwipete);
  REQUIRE(position);
  Searcher searcher(*parse_value_set("classic"), {});
  std::vector<IterationInfo> infos;
  std::vector<std::vector<Move>> pvs;
  const SearchResult result =
      searcher.search(*position, {}, {.depth = 5}, nullptr, [&](const IterationInfo& info) {
        infos.push_back(info);
        pvs.emplace_back(info.pv.begin(), info.pv.end());
      });
  REQUIRE(infos.size() == 5);
  for (std::size_t i = 0; i < infos.size(); ++i) {
    CHECK(infos[i].depth == static_cast<int>(i) + 1);
    CHECK(infos[i].seldepth >= infos[i].depth);
    CHECK(infos[i].hashfull >= 0);
    CHECK(infos[i].hashfull <= 1000);
    CHECK(infos[i].elapsed_us >= 0);
    REQUIRE_FALSE(pvs[i].empty());
    if (i > 0) CHECK(infos[i].nodes >= infos[i - 1].nodes);
  }
  CHECK(pvs.back().front() == result.best);
  CHECK(pvs.back() == result.pv);
  CHECK(infos.back().score == result.score);
  CHECK(infos.back().nodes <= result.nodes);
  CHECK(result.seldepth >= result.depth);
  CHECK(infos.back().hashfull > 0);
}

TEST_CASE("search: an infinite search ends when the stop flag is set, after a full iteration") {
  Searcher searcher(*parse_value_set("classic"), {});
  std::atomic<bool> stop{false};
  int heard = 0;
  // Set from the listener (any build, threads or not): the search ends after that iteration.
  const SearchResult result = searcher.search(Position::start(), {}, {.infinite = true}, &stop,
                                              [&](const IterationInfo& info) {
                                                heard = info.depth;
                                                if (info.depth == 3) stop = true;
                                              });
  CHECK(heard == 3);
  CHECK(result.depth == 3);
  CHECK_FALSE(result.best.is_none());
  // Set before the search: depth 1 still completes, so there is a move.
  searcher.new_game();
  const SearchResult at_once = searcher.search(Position::start(), {}, {.infinite = true}, &stop);
  CHECK(at_once.depth == 1);
  CHECK_FALSE(at_once.best.is_none());
}

#ifndef __EMSCRIPTEN__
TEST_CASE("search: a stop flag set from another thread ends an infinite search promptly") {
  auto position = Position::from_fen(kKiwipete);
  REQUIRE(position);
  Searcher searcher(*parse_value_set("classic"), {});
  std::atomic<bool> stop{false};
  std::atomic<std::int64_t> stopped_at{0};
  const auto now = [] { return std::chrono::steady_clock::now().time_since_epoch().count(); };
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stopped_at = now();
    stop = true;
  });
  const SearchResult result = searcher.search(*position, {}, {.infinite = true}, &stop);
  const std::int64_t returned_at = now();
  stopper.join();
  CHECK_FALSE(result.best.is_none());
  CHECK(result.depth >= 1);
  // Generous for a loaded machine: the flag is polled every 1024 nodes.
  const auto late = std::chrono::steady_clock::duration(returned_at - stopped_at.load());
  CHECK(std::chrono::duration_cast<std::chrono::milliseconds>(late).count() < 250);
}
#endif

TEST_CASE("search: a mate limit stops at the proof; an infinite search does not stop at a mate") {
  const std::vector<MatePosition> mates = proved_mates(0, 1, 0);
  REQUIRE(mates.size() == 1);
  const Position& position = mates[0].position;
  INFO(position.fen());
  Searcher searcher(*parse_value_set("classic"), {});
  const SearchResult mated = searcher.search(position, {}, {.mate = 2});
  REQUIRE(is_mate_score(mated.score));
  CHECK(mate_in_moves(mated.score) == 2);
  CHECK(mated.depth <= 4);
  searcher.new_game();
  std::atomic<bool> stop{false};
  const SearchResult infinite =
      searcher.search(position, {}, {.infinite = true}, &stop, [&](const IterationInfo& info) {
        if (info.depth == 7) stop = true;
      });
  CHECK(infinite.depth == 7);
  CHECK(mate_in_moves(infinite.score) == 2);
}

}  // namespace materialist::play
