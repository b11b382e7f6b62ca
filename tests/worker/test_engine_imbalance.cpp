// The engine with the imbalance terms and split sides: a read that keeps each side's counts, the
// terms named with their units in every export, the own-against-opponent rows, and refusals.
#include <doctest/doctest.h>

#include <string>

#include "engine_test_util.h"

namespace materialist::worker {
namespace {

using namespace test;  // fixture, read_file, fit_to_end, count_of: engine_test_util.h

void read_sample(Engine& engine, const std::string& filter, bool counts) {
  ReadOptions options;
  options.filter = filter;
  options.keep.counts = counts;
  REQUIRE(!engine.begin_read(options));
  read_file(engine, "OpenRating.pgn", fixture("OpenRating.pgn"));
  REQUIRE(engine.end_read());
}

}  // namespace

TEST_CASE("engine: imbalance terms in the fit, the CSV, the result JSON and the code header") {
  Engine engine;
  read_sample(engine, "", true);
  FitSettings newton;
  newton.solver = learn::SolverKind::kNewton;
  newton.model.imbalances = learn::kAllImbalances;
  fit_to_end(engine, newton);
  REQUIRE(engine.fit_session().fit(0) != nullptr);
  CHECK(engine.fit_session().fit(0)->column("knight-pawns") == 5);
  const std::string csv = engine.exports().values_csv();
  CHECK(count_of(csv, ",knight-pawns,\"Knight per own pawn (per knight per pawn beyond 5)\",") ==
        1);
  CHECK(count_of(csv, ",exchange-no-minors,") == 1);
  const std::string json = engine.exports().fits_json();
  CHECK(count_of(json, "\"label\":\"Rook per own pawn (per rook per pawn beyond 5)\"") == 1);
  CHECK(count_of(json, "\"sides\"") == 0);  // not a split-sides model
  const std::string code = engine.exports().code_header();
  CHECK(code.find("constexpr int KnightPawns") == std::string::npos);
  CHECK(code.find("constexpr int kKnightPawns = ") != std::string::npos);
  CHECK(code.find("imbalance terms knight-pawns,rook-pawns,rook-pair") != std::string::npos);

  // Gradient descent (the article's solver) gives way to Newton, saying why.
  FitSettings descent;
  descent.model.imbalances = learn::kAllImbalances;
  REQUIRE(engine.begin_fit(descent).ok());
  for (int guard = 0; !engine.fit_session().finished && guard < 100000; ++guard) engine.step(500);
  CHECK(engine.fit_session().fit(0)->column("rook-pair") >= 0);
}

TEST_CASE("engine: a read without the counts refuses the terms, naming what is missing") {
  Engine engine;
  read_sample(engine, "", false);
  FitSettings newton;
  newton.solver = learn::SolverKind::kNewton;
  newton.model.imbalances = learn::kAllImbalances;
  const auto refused = engine.begin_fit(newton);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("each side's piece counts") != std::string::npos);
}

TEST_CASE("engine: split sides from a player's side give the own-against-opponent rows") {
  Engine engine;
  read_sample(engine, "player=Booot*;pov=1", true);
  FitSettings newton;
  newton.solver = learn::SolverKind::kNewton;
  newton.model.split_sides = true;
  newton.model.intercept = true;
  fit_to_end(engine, newton);
  const std::string json = engine.exports().fits_json();
  CHECK(count_of(json, "\"sides\":[{\"piece\":\"pawn\"") == 1);
  CHECK(count_of(json, "\"label\":\"Opponent's knight\"") == 1);
  CHECK(count_of(json, "\"differenceSe\":") == 5);
  CHECK(count_of(json, "\"differenceThetaSe\":") == 5);  // for the Elo and log-odds units
  CHECK(engine.exports().status_line().find("own and opponents' values in the table") !=
        std::string::npos);

  Engine white;
  read_sample(white, "", true);
  const auto refused = white.begin_fit(newton);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("needs a player's point of view") != std::string::npos);
}

}  // namespace materialist::worker
