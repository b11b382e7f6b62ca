// Value sets with their own piece-square tables (play/square_values.h): the published
// "simplified" set plays as the shared tables do, a set of tables is evaluated by its tables
// alone, `fit --model squares --json` reads as one, and the sums kept move by move stay exact.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "chess/movegen.h"
#include "chess/position.h"
#include "core/json.h"
#include "play/book.h"
#include "play/evaluation.h"
#include "play/match.h"
#include "play/task_codec.h"
#include "play/value_set.h"

namespace materialist::play {

namespace {

using chess::Move;
using chess::MoveList;
using chess::Position;

constexpr const char* kFens[] = {
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/2k5/8/3P4/8/8/5K2/8 w - - 0 1",
};

// A made-up set of tables: every entry different, so a wrong square or colour shows.
SquareValues numbered_tables() {
  SquareValues values;
  for (int type = 0; type < kSquarePieceTypes; ++type) {
    for (int square = 0; square < 64; ++square) {
      values.middlegame[type][square] = (type + 1) * 100 + square;
      values.endgame[type][square] = (type + 1) * 90 - square;
    }
  }
  return values;
}

// The tables' evaluation written out: the sum over the pieces, tapered.
int evaluate_by_hand(const SquareValues& values, const Position& position) {
  int middlegame = 0;
  int endgame = 0;
  for (const chess::Square square : position.pieces()) {
    const chess::Piece piece = position.piece_on(square);
    const bool white = piece.color() == chess::Color::kWhite;
    const int index = white ? square.index() : square.index() ^ 56;
    const int type = chess::index_of(piece.type());
    middlegame += (white ? 1 : -1) * values.middlegame[type][index];
    endgame += (white ? 1 : -1) * values.endgame[type][index];
  }
  const int phase = material_counts(position).phase();
  const int white_score = (middlegame * phase + endgame * (24 - phase)) / 24;
  return position.side_to_move() == chess::Color::kWhite ? white_score : -white_score;
}

std::string squares_fit_json(double pawn, const SquareValues& values, const char* unit) {
  JsonWriter json;
  json.begin_object().field("model", "squares").field("squaresUnit", unit);
  json.key("values").begin_object().field("P", pawn).field("N", 3 * pawn).end_object();
  json.key("squares").begin_object();
  for (const char* phase : {"mg", "eg"}) {
    json.key(phase).begin_object();
    for (int type = 0; type < kSquarePieceTypes; ++type) {
      json.key(std::string(1, "PNBRQK"[type])).begin_array();
      for (const int v : (std::string(phase) == "mg" ? values.middlegame : values.endgame)[type])
        json.value(v * pawn / 100);
      json.end_array();
    }
    json.end_object();
  }
  json.end_object();
  json.key("squaresMaterial").begin_object().field("P", pawn).end_object();
  json.end_object();
  return json.take();
}

}  // namespace

TEST_CASE("square sets: 'simplified' plays as Michniewski's values with the shared tables") {
  const ValueSet simplified = *parse_value_set("simplified");
  REQUIRE(simplified.squares);
  CHECK(simplified.name == "simplified");
  CHECK(simplified.values_text().ends_with(" + squares"));
  ValueSet plain = *parse_value_set("100,320,330,500,900");
  const Evaluator tables(simplified, {});
  const Evaluator shared(plain, {});
  // Material only drops the shared tables, never a set's own.
  const Evaluator tables_material_only(simplified, {.material_only = true});
  for (const char* fen : kFens) {
    auto position = Position::from_fen(fen);
    REQUIRE(position);
    // The same sum split differently between material and squares: the taper's rounding.
    CHECK(std::abs(tables.evaluate(*position) - shared.evaluate(*position)) <= 1);
    CHECK(tables_material_only.evaluate(*position) == tables.evaluate(*position));
  }
}

TEST_CASE("square sets: a set of tables is evaluated by its tables alone, kept move by move") {
  const SquareValues values = numbered_tables();
  const ValueSet set = square_value_set("numbered", values);
  CHECK(set.middlegame[0] == 132);  // a pawn's mean over ranks 2 to 7: 100 + 31.5, rounded
  const Evaluator evaluator(set, {});
  long checked = 0;
  long wrong = 0;
  for (const char* fen : kFens) {
    auto root = Position::from_fen(fen);
    REQUIRE(root);
    auto walk = [&](auto& self, const Position& position, Positional sums, int plies) -> void {
      ++checked;
      if (sums != evaluator.positional(position) ||
          std::abs(evaluator.evaluate(position, sums) - evaluate_by_hand(values, position)) > 1) {
        ++wrong;
      }
      if (plies == 0) return;
      MoveList moves;
      chess::generate_legal(position, moves);
      for (const Move move : moves) {
        Position child = position;
        child.play(move);
        self(self, child, evaluator.positional_after(position, child, sums), plies - 1);
      }
    };
    walk(walk, *root, evaluator.positional(*root), 2);
  }
  CHECK(checked > 2000);
  CHECK(wrong == 0);
}

TEST_CASE("square sets: fit --model squares --json reads as its tables, in centipawns") {
  const SquareValues values = numbered_tables();
  // In Elo, the material pawn 50: the tables come back scaled to pawn = 100.
  auto set = value_set_from_fit_json(squares_fit_json(50, values, "elo"), "learned");
  REQUIRE(set);
  REQUIRE(set->squares);
  CHECK(*set->squares == values);
  CHECK(set->name == "learned");
  CHECK(default_name(*set) == "squares");

  // No tables: the fit's own reason, not the material values in their place.
  const std::string failed =
      R"j({"values":{"P":100,"N":300,"B":300,"R":500,"Q":900},"squares":null,)j"
      R"j("squaresError":{"code":"too-few-positions","message":"too few positions (12)"}})j";
  auto refused = value_set_from_fit_json(failed, "");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("no tables: too few positions (12)") != std::string::npos);

  auto no_pawn = value_set_from_fit_json(squares_fit_json(-1, values, "logodds"), "");
  REQUIRE_FALSE(no_pawn);
  CHECK(no_pawn.error().message.find("no positive pawn") != std::string::npos);
}

TEST_CASE("square sets: a pair task carries the tables to a play worker and plays") {
  MatchSettings settings;
  settings.sets = {square_value_set("numbered", numbered_tables()), *parse_value_set("simplified")};
  settings.pairs = 1;
  settings.game.limits = {.nodes = 200};
  settings.game.table_entries = 1u << 10;
  auto match = Match::create(settings, default_book());
  REQUIRE(match);
  const PairTask task = match->task(0);
  const std::string json = encode_pair_task(task, match->settings().game);
  auto job = decode_pair_task(json);
  REQUIRE(job);
  CHECK(job->task.first == task.first);
  CHECK(job->task.second == task.second);
  CHECK(encode_pair_task(job->task, job->settings) == json);
  const PairResult played = play_pair(job->task, job->settings);
  CHECK(played.games[0].moves.size() > 0);

  // Half a set of tables is refused, by field.
  std::string broken = json;
  const std::size_t eg = broken.find("\"squaresEg\"");
  REQUIRE(eg != std::string::npos);
  broken.replace(eg, 11, "\"squaresXx\"");
  CHECK_FALSE(decode_pair_task(broken));
}

}  // namespace materialist::play
