// Honest results from the browser engine: refits replace every dataset's fit, reset leaves
// nothing behind, and every export carries every dataset and every coefficient, named.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "worker/engine.h"
#include "worker/engine_test_util.h"

namespace materialist::worker {
namespace {

using namespace test;  // fixture, read_file, fit_to_end, count_of: engine_test_util.h

// Three "player files": the sample cut in three, one dataset each.
void read_three_files(Engine& engine) {
  const std::string pgn = fixture("OpenRating.pgn");
  const std::size_t third = pgn.size() / 3;
  const std::size_t cut1 = pgn.find("\n[Event ", third) + 1;
  const std::size_t cut2 = pgn.find("\n[Event ", 2 * third) + 1;
  ReadOptions options;
  options.datasets = DatasetMode::kPerFile;
  options.keep.bishop_pair = true;  // the exports' test fits the bishop pair too
  REQUIRE(!engine.begin_read(options));
  read_file(engine, "anand.pgn", pgn.substr(0, cut1));
  read_file(engine, "carlsen.pgn", pgn.substr(cut1, cut2 - cut1));
  read_file(engine, "tal.pgn", pgn.substr(cut2));
  REQUIRE(engine.end_read());
}

TEST_CASE("engine: refits with several datasets replace the fits, never accumulate") {
  Engine engine;
  read_three_files(engine);
  FitSettings descent;
  descent.iterations = 200;
  for (int refit = 0; refit < 3; ++refit) {
    REQUIRE(engine.begin_fit(descent).ok());
    engine.step(10);
    CHECK(engine.fit_session().other_snapshots().size() == 2);  // was 2, 4, 6 ...
    for (int guard = 0; !engine.fit_session().finished && guard < 1000; ++guard) engine.step(100);
    CHECK(engine.fit_session().fit_count() == 3);
    CHECK(count_of(engine.exports().fits_json(), "\"state\":") == 3);
  }
  // Newton after gradient descent reports Newton's fits for every dataset, not the old ones.
  FitSettings newton;
  newton.solver = learn::SolverKind::kNewton;
  fit_to_end(engine, newton);
  REQUIRE(engine.fit_session().fit_count() == 3);
  for (std::size_t d = 0; d < 3; ++d) {
    REQUIRE(engine.fit_session().fit(d) != nullptr);
    CHECK(engine.fit_session().fit(d)->iterations < 50);  // Newton's few steps, not descent's 200
  }
}

TEST_CASE("engine: reset leaves no state behind (ASan checks the exports after it)") {
  Engine engine;
  read_three_files(engine);
  FitSettings newton;
  newton.solver = learn::SolverKind::kNewton;
  fit_to_end(engine, newton);
  engine.reset();
  CHECK_FALSE(engine.has_data());
  CHECK(engine.fit_session().fit_count() == 0);
  CHECK(engine.fit_session().fit(0) == nullptr);
  CHECK(count_of(engine.exports().fits_json(), "\"state\":") == 0);
  CHECK(count_of(engine.exports().values_csv(), "\n") == 1);  // the header only
  CHECK(engine.exports().status_line().empty());
  CHECK(engine.exports().code_header().find("no fit yet") != std::string::npos);
  CHECK_FALSE(engine.begin_fit(newton).ok());
}

TEST_CASE("engine: a model that reads a field the read did not keep is refused, saying which") {
  Engine engine;
  read_three_files(engine);  // keeps the bishop pair only
  FitSettings rated;
  rated.solver = learn::SolverKind::kNewton;
  rated.model.bishop_pair = true;
  rated.model.elo_offset = true;
  rated.model.phase = true;
  const auto refused = engine.begin_fit(rated);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message ==
        "the data was read without the game phase, the rating difference (a read keeps only what "
        "its model uses): read the files again");
  rated.model.elo_offset = false;
  rated.model.phase = false;
  CHECK(engine.begin_fit(rated).ok());  // what was kept is enough
}

TEST_CASE("engine: every export carries every dataset, named, with its own values") {
  Engine engine;
  read_three_files(engine);
  FitSettings newton;
  newton.solver = learn::SolverKind::kNewton;
  newton.model.bishop_pair = true;
  fit_to_end(engine, newton);
  REQUIRE(engine.fit_session().fit_count() == 3);
  const std::string csv = engine.exports().values_csv();
  CHECK(csv.rfind("dataset,coefficient,", 0) == 0);
  for (const char* name : {"anand.pgn", "carlsen.pgn", "tal.pgn"}) {
    CHECK(count_of(csv, std::string("\"") + name + "\",knight,") == 1);
    CHECK(count_of(csv, std::string("\"") + name + "\",bishop-pair,") == 1);
  }
  const std::string json = engine.exports().result_json();
  CHECK(count_of(json, "\"name\":\"anand.pgn\"") == 1);
  CHECK(count_of(json, "\"name\":\"tal.pgn\"") == 1);
  CHECK(count_of(json, "\"name\":\"bishop-pair\"") == 3);
  CHECK(count_of(json, "\"lambda\":1e-06") == 1);  // exactly what was asked
  const std::string code = engine.exports().code_header();
  CHECK(code.find("constexpr int kAnandPgnPieceValues[5] = {100, ") != std::string::npos);
  CHECK(code.find("constexpr int kTalPgnPieceValues[5] = {100, ") != std::string::npos);
  CHECK(count_of(code, "BishopPair = ") == 3);
  CHECK(code.find("bishop pair") != std::string::npos);  // the model line
  // The datasets' values differ: each is its own.
  CHECK(engine.fit_session().fit(0)->theta[1] != engine.fit_session().fit(2)->theta[1]);
  // The status line names each dataset.
  const std::string status = engine.exports().status_line();
  CHECK(status.find("3 datasets") != std::string::npos);
  CHECK(status.find("carlsen.pgn: P 100") != std::string::npos);
}

TEST_CASE("engine: the ordinal draw margin is one coefficient, with its error, in every export") {
  Engine engine;
  REQUIRE(!engine.begin_read({}));
  read_file(engine, "OpenRating.pgn", fixture("OpenRating.pgn"));
  REQUIRE(engine.end_read());
  FitSettings ordinal;
  ordinal.solver = learn::SolverKind::kNewton;
  ordinal.model.outcomes = learn::OutcomeModel::kOrdinal;
  fit_to_end(engine, ordinal);
  const std::string fits = engine.exports().fits_json();
  CHECK(count_of(fits, "\"name\":\"draw-margin\"") == 1);
  CHECK(count_of(fits, "drawMargin") == 0);  // no second, unit-less copy
  const std::size_t at = fits.find("\"name\":\"draw-margin\"");
  const std::string margin = fits.substr(at, fits.find('}', at) - at);
  CHECK(margin.find("\"value\":null") == std::string::npos);  // in pawn units too
  CHECK(margin.find("\"valueSe\":null") == std::string::npos);
  CHECK(margin.find("\"eloSe\":null") == std::string::npos);
  CHECK(count_of(engine.exports().values_csv(), ",draw-margin,") == 1);
  CHECK(count_of(engine.exports().result_json(), "\"name\":\"draw-margin\"") == 1);
  CHECK(engine.exports().code_header().find("kDrawMargin = ") != std::string::npos);
}

TEST_CASE("engine: errors are game-clustered by default, also after a parallel read") {
  const std::string pgn = fixture("OpenRating.pgn");
  const std::size_t cut = pgn.find("\n[Event ", pgn.size() / 2) + 1;
  FitSettings newton;
  newton.solver = learn::SolverKind::kNewton;
  Engine whole;
  REQUIRE(!whole.begin_read({}));
  read_file(whole, "OpenRating.pgn", pgn);
  REQUIRE(whole.end_read());
  fit_to_end(whole, newton);
  REQUIRE(whole.fit_session().fit(0) != nullptr);
  CHECK(whole.fit_session().fit(0)->errors == learn::ErrorKind::kClustered);
  CHECK(whole.fit_session().fit(0)->games > 2900);
  // What the app shows behind the ±: the games in this model's likelihood (draws out: 2611
  // decisive games), not every game with rows.
  CHECK(whole.fit_session().fit(0)->clusters == 2611);
  CHECK(whole.exports().fit_done().fits[0].clusters == 2611);
  // Two readers, one half each, imported in order: the same errors to the last bit.
  Engine readers[2];
  Part parts[2];
  for (int i = 0; i < 2; ++i) {
    REQUIRE(!readers[i].begin_read({}));
    read_file(readers[i], "OpenRating.pgn", i == 0 ? pgn.substr(0, cut) : pgn.substr(cut));
    parts[i] = readers[i].export_part();
  }
  Engine coordinator;
  REQUIRE(!coordinator.begin_read({}));
  coordinator.begin_import("OpenRating.pgn");
  coordinator.import_part(parts[0], 0, 0);
  coordinator.import_part(parts[1], 0, parts[0].games.games_read);
  coordinator.end_import(pgn.size());
  REQUIRE(coordinator.end_read());
  fit_to_end(coordinator, newton);
  REQUIRE(coordinator.fit_session().fit(0) != nullptr);
  CHECK(coordinator.fit_session().fit(0)->games == whole.fit_session().fit(0)->games);
  for (std::size_t j = 0; j < whole.fit_session().fit(0)->coefficients.size(); ++j) {
    CHECK(coordinator.fit_session().fit(0)->coefficients[j].value.se ==
          doctest::Approx(whole.fit_session().fit(0)->coefficients[j].value.se).epsilon(1e-12));
  }
}

TEST_CASE("engine: a degenerate file is not called fitted") {
  // Three decisive games and many drawn ones: nothing identifies the values.
  std::string pgn;
  const char* decisive[] = {"1-0", "0-1", "1-0"};
  for (const char* result : decisive) {
    pgn += std::string("[Result \"") + result +
           "\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O " + result + "\n\n";
  }
  for (int i = 0; i < 300; ++i) {
    pgn +=
        "[Result \"1/2-1/2\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 Nf6 5. Nf3 Bf5 1/2-1/2\n\n";
  }
  Engine engine;
  REQUIRE(!engine.begin_read({}));
  read_file(engine, "draws.pgn", pgn);
  REQUIRE(engine.end_read());
  FitSettings newton;
  newton.solver = learn::SolverKind::kNewton;
  newton.draws = learn::DrawHandling::kLeaveOut;
  fit_to_end(engine, newton);
  CHECK(engine.exports().status_line().rfind("Fit with warnings", 0) == 0);
  CHECK(engine.exports().status_line().find("-0") == std::string::npos);
  const std::string fits = engine.exports().fits_json();
  CHECK(count_of(fits, "\"state\":\"warnings\"") == 1);
  CHECK(count_of(fits, "\"code\":\"too-few-decisive\"") == 1);
  CHECK(count_of(fits, "\"identified\":true") == 0);
  // No outcome curve along a pawn the games do not determine (it would be flat lines at 0.5).
  CHECK(count_of(fits, "\"curve\":[]") == 1);
}

}  // namespace
}  // namespace materialist::worker

namespace materialist::worker {
namespace {

TEST_CASE("engine: estimates while reading fit the games read so far, and narrow") {
  const std::string pgn = test::fixture("OpenRating.pgn");
  Engine engine;
  REQUIRE(!engine.begin_read({}));
  CHECK(engine.estimate(FitSettings{}).fits.empty());  // nothing read yet
  engine.begin_file("OpenRating.pgn", static_cast<double>(pgn.size()));
  const std::size_t half = pgn.size() / 2;
  engine.feed(pgn.data(), half);
  const protocol::Estimate early = engine.estimate(FitSettings{});
  REQUIRE(early.fits.size() == 1);
  CHECK(early.games > 1000);
  CHECK(early.games < 2997);
  const protocol::Coefficient* knight = early.fits[0].find("knight");
  REQUIRE(knight != nullptr);
  CHECK(knight->value > 200);
  CHECK(knight->value < 400);
  CHECK(early.fits[0].errors == "game-clustered");
  engine.feed(pgn.data() + half, pgn.size() - half);
  const protocol::Estimate late = engine.estimate(FitSettings{});
  REQUIRE(late.fits.size() == 1);
  CHECK(late.games > early.games);
  CHECK(late.fits[0].find("knight")->value_se < knight->value_se);
  engine.end_file();
  REQUIRE(engine.end_read());
  CHECK(engine.estimate(FitSettings{}).fits.empty());  // the read is over: fits take over
}

TEST_CASE("engine: a comparison of rating bands names each band in the status line") {
  Engine engine;
  ReadOptions options;
  options.datasets = DatasetMode::kPerFilter;
  options.each_filter = {"elo=1600-1799;elo_mode=average;unrated=drop",
                         "elo=1800-1999;elo_mode=average;unrated=drop", "tc=blitz", "tc=bullet"};
  REQUIRE(!engine.begin_read(options));
  read_file(engine, "lichess.pgn", fixture("lichess-2021-10-first999.pgn"));
  REQUIRE(engine.end_read());
  FitSettings newton;
  newton.solver = learn::SolverKind::kNewton;
  fit_to_end(engine, newton);
  REQUIRE(engine.fit_session().fit_count() == 4);
  const std::string status = engine.exports().status_line();
  CHECK(status.find(" 1600-1799: P 100") != std::string::npos);
  CHECK(status.find(" blitz: P 100") != std::string::npos);
  CHECK(status.find("elo_mode") == std::string::npos);
  CHECK(status.find(" [") == std::string::npos);  // four datasets: no warning text on the line
  // The C++ header names each band by its band, and prints λ as it was asked.
  const std::string code = engine.exports().code_header();
  CHECK(code.find("constexpr int kElo1600To1799PieceValues[5] = {100, ") != std::string::npos);
  CHECK(code.find("constexpr int kBlitzPieceValues[5] = {100, ") != std::string::npos);
  CHECK(code.find("EloMode") == std::string::npos);
  CHECK(code.find("lambda 1e-06\n") != std::string::npos);
  CHECK(code.find("// ---- dataset 1600-1799 ----") != std::string::npos);
  // In Elo: the status line and the header say so, the JSON's settings record it.
  engine.set_units(protocol::Units::kElo);
  CHECK(engine.exports().status_line().find(" 1600-1799: Elo: P ") != std::string::npos);
  CHECK(engine.exports().code_header().find("Every term is in Elo") != std::string::npos);
  CHECK(engine.exports().result_json().find("\"units\":\"elo\"") != std::string::npos);
}

TEST_CASE(
    "engine: a degenerate first band speaks neither for the errors nor as the B-N reference") {
  Engine engine;
  ReadOptions options;
  options.datasets = DatasetMode::kPerFilter;
  // Below 800 (averaged) the fixture has almost no games: that band determines no piece value.
  options.each_filter = {"elo=0-799;elo_mode=average;unrated=drop",
                         "elo=1600-1799;elo_mode=average;unrated=drop",
                         "elo=1800-1999;elo_mode=average;unrated=drop"};
  REQUIRE(!engine.begin_read(options));
  read_file(engine, "lichess.pgn", fixture("lichess-2021-10-first999.pgn"));
  REQUIRE(engine.end_read());
  FitSettings newton;
  newton.solver = learn::SolverKind::kNewton;
  fit_to_end(engine, newton);
  REQUIRE(engine.fit_session().fit_count() == 3);
  const std::vector<protocol::Difference> differences = engine.exports().fit_done().differences;
  REQUIRE(differences.size() == 1);
  CHECK(differences[0].a == 1);  // against 1600-1799, the first band with a B-N
  CHECK(differences[0].b == 2);
  CHECK(std::isfinite(differences[0].se));
  CHECK(std::isfinite(differences[0].p));
  const std::string status = engine.exports().status_line();
  INFO(status);
  CHECK(status.find("± game-clustered errors") != std::string::npos);
}

}  // namespace
}  // namespace materialist::worker
