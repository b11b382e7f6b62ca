// The JSON of a pair task and its result (play/task_codec.h): round trips that keep every field,
// errors that name the field, and a task played through TaskRunner (a play worker's loop) that
// gives play_pair's result bit for bit.
#include <doctest/doctest.h>

#include <string>

#include "play/book.h"
#include "play/match.h"
#include "play/task_codec.h"
#include "play/task_runner.h"

namespace materialist::play {

namespace {

MatchSettings small_settings() {
  MatchSettings settings;
  settings.sets = {*parse_value_set("learned-sample"), *parse_value_set("classic")};
  settings.pairs = 2;
  settings.game.limits = {.nodes = 300};
  settings.game.table_entries = 1u << 10;
  settings.seed = 7;
  return settings;
}

}  // namespace

TEST_CASE("task codec: a pair task round-trips with its settings") {
  auto match = Match::create(small_settings(), default_book());
  REQUIRE(match);
  PairTask task = match->task(1);
  task.first.endgame[4] = 1000;  // tapered
  task.first.bishop_pair_middlegame = 30;
  task.first.bishop_pair_endgame = 50;
  task.first.imbalance[2] = -12;
  GameSettings settings = match->settings().game;
  settings.adjudication.draw = false;
  settings.adjudication.max_plies = 123;
  settings.evaluation.material_only = true;
  const std::string json = encode_pair_task(task, settings);
  auto job = decode_pair_task(json);
  REQUIRE(job);
  CHECK(job->task.index == task.index);
  CHECK(job->task.pairing == task.pairing);
  CHECK(job->task.pair == task.pair);
  CHECK(job->task.opening.fen == task.opening.fen);
  CHECK(job->task.opening.moves == task.opening.moves);
  CHECK(job->task.first == task.first);
  CHECK(job->task.second == task.second);
  CHECK(job->settings.limits.nodes == 300);
  CHECK(job->settings.table_entries == (1u << 10));
  CHECK_FALSE(job->settings.adjudication.draw);
  CHECK(job->settings.adjudication.max_plies == 123);
  CHECK(job->settings.evaluation.material_only);
  CHECK(encode_pair_task(job->task, job->settings) == json);
}

TEST_CASE("task codec: a played pair's result round-trips, and TaskRunner plays it the same") {
  auto match = Match::create(small_settings(), default_book());
  REQUIRE(match);
  const PairTask task = match->task(0);
  const PairResult played = play_pair(task, match->settings().game);
  const std::string json = encode_pair_result(task.index, played);
  auto index = pair_result_index(json);
  REQUIRE(index);
  CHECK(*index == 0);
  auto decoded = decode_pair_result(json, task);
  REQUIRE(decoded);
  for (int g = 0; g < 2; ++g) {
    const GameRecord& a = played.games[g];
    const GameRecord& b = decoded->result.games[g];
    CHECK(a.opening.moves == b.opening.moves);
    CHECK(a.white == b.white);
    CHECK(a.black_values == b.black_values);
    CHECK(a.result == b.result);
    CHECK(a.termination == b.termination);
    CHECK(a.nodes == b.nodes);
    CHECK(a.final_fen == b.final_fen);
    REQUIRE(a.moves.size() == b.moves.size());
    for (std::size_t i = 0; i < a.moves.size(); ++i) {
      CHECK(a.moves[i].move == b.moves[i].move);
      CHECK(a.moves[i].score == b.moves[i].score);
      CHECK(a.moves[i].depth == b.moves[i].depth);
      CHECK(a.moves[i].nodes == b.moves[i].nodes);
    }
  }
  CHECK(encode_pair_result(0, decoded->result) == json);

  // A play worker's loop: a few moves per call, the board between calls.
  TaskRunner runner;
  REQUIRE_FALSE(runner.start(encode_pair_task(task, match->settings().game)));
  int calls = 0;
  while (!runner.step(3)) {
    const std::string board = runner.board_json();
    CHECK(board.find("\"fen\":") != std::string::npos);
    CHECK(board.find("\"san\":[") != std::string::npos);
    ++calls;
  }
  CHECK(calls > 1);
  CHECK(runner.result_json() == json);
}

TEST_CASE("task codec: errors name the field") {
  CHECK(decode_pair_task("[]").error().message == "task: not an object");
  CHECK(decode_pair_task("{").error().message.rfind("task: ", 0) == 0);
  auto match = Match::create(small_settings(), default_book());
  REQUIRE(match);
  std::string json = encode_pair_task(match->task(0), match->settings().game);
  const std::size_t moves = json.find("\"moves\":[\"");
  REQUIRE(moves != std::string::npos);
  std::string bad = json;
  bad.replace(moves + 10, 4, "e2e5");
  CHECK(decode_pair_task(bad).error().message == "task.opening.moves[0]: not a legal move");
  bad = json;
  bad.replace(bad.find("\"middlegame\":[100"), 17, "\"middlegame\":[0");
  CHECK(decode_pair_task(bad).error().message == "task.first: a pawn must be worth more than 0");
  CHECK(decode_pair_result(R"({"index":0,"games":[]})", match->task(0)).error().message ==
        "result.games: not an array of two games");
  CHECK(pair_result_index(R"({"index":-1})").error().message == "result.index: not a whole number");
}

}  // namespace materialist::play
