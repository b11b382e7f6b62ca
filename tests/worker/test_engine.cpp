// The browser engine natively: the article's fit unchanged, filters and quiet options at read,
// datasets per file, models beyond the article, bootstrap intervals and the provenance export.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/sha256.h"
#include "learn/fit/analysis.h"
#include "learn/read/dataset.h"
#include "worker/engine.h"
#include "worker/engine_test_util.h"

namespace materialist::worker {
namespace {

using namespace test;  // fixture, read_file, fit_to_end, count_of: engine_test_util.h

TEST_CASE("engine: the article's gradient descent gives the core's values bit for bit") {
  const std::string pgn = fixture("OpenRating.pgn");
  REQUIRE(!pgn.empty());
  Engine engine;
  REQUIRE(!engine.begin_read({}));
  read_file(engine, "OpenRating.pgn", pgn);
  REQUIRE(engine.end_read());
  fit_to_end(engine, FitSettings{});
  CHECK_FALSE(engine.fit_session().uses_newton());

  learn::DatasetBuilder builder(learn::IngestOptions::article());
  builder.begin_file("OpenRating.pgn");
  builder.feed(pgn.data(), pgn.size());
  builder.end_file();
  const auto expected =
      learn::run_analysis(builder.histogram(), learn::AnalysisSettings::article());
  REQUIRE(expected.ok());
  const std::vector<double> values = learn::piece_values(*expected);
  const Snapshot& last = *engine.fit_session().last;
  REQUIRE(last.values.size() == 5);
  for (int i = 0; i < 5; ++i) CHECK(last.values[i] == values[i]);
  CHECK(last.columns.front() == "pawn");
  CHECK(last.value_se.size() == 5);
  CHECK(last.value_se[1] > 0);

  const std::string fits = engine.exports().fits_json();
  CHECK(count_of(fits, "\"relation\":") == 5);
  CHECK(count_of(fits, "\"pawns\":") == 81);
  CHECK(count_of(fits, "\"low\":null") == 5);  // no bootstrap: no intervals
  CHECK(count_of(fits, "\"differences\":[]") == 1);
}

TEST_CASE("engine: the game filter and quiet options apply at read and are counted") {
  const std::string pgn = fixture("lichess-100.pgn");
  ReadOptions options;
  options.filter = "tc=blitz";
  Engine engine;
  REQUIRE(!engine.begin_read(options));
  read_file(engine, "lichess-100.pgn", pgn);
  REQUIRE(engine.end_read());
  const learn::IngestReport& games = engine.report()->games;
  CHECK(games.games_read == 100);
  CHECK(games.games_filtered > 0);
  CHECK(games.games_filtered < 100);
  CHECK(games.filter_tally.count(learn::FilterReason::kTimeControl) == games.games_filtered);
  CHECK(games.games_used + games.games_partial + games.games_skipped + games.games_filtered == 100);

  // N = 4 quiet plies records fewer positions than the article's N = 2.
  Engine strict;
  ReadOptions four;
  four.quiet.quiet_plies = 4;
  REQUIRE(!strict.begin_read(four));
  read_file(strict, "lichess-100.pgn", pgn);
  REQUIRE(strict.end_read());
  Engine plain;
  REQUIRE(!plain.begin_read({}));
  read_file(plain, "lichess-100.pgn", pgn);
  REQUIRE(plain.end_read());
  CHECK(strict.report()->rows < plain.report()->rows);
  CHECK(strict.report()->rows > 0);

  ReadOptions bad;
  bad.filter = "tc=glacial";
  Engine refused;
  CHECK(refused.begin_read(bad).has_value());
}

TEST_CASE("engine: per-file datasets are fitted one by one and compared with the first") {
  const std::string a = fixture("OpenRating.pgn");
  const std::string b = fixture("lichess-2021-10-first999.pgn");
  ReadOptions options;
  options.datasets = DatasetMode::kPerFile;
  Engine engine;
  REQUIRE(!engine.begin_read(options));
  read_file(engine, "OpenRating.pgn", a);
  read_file(engine, "lichess.pgn", b);
  REQUIRE(engine.end_read());
  const std::vector<DatasetSummary> sets = engine.dataset_summaries();
  REQUIRE(sets.size() == 2);
  CHECK(sets[0].name == "OpenRating.pgn");
  CHECK(sets[0].games + sets[1].games == engine.report()->games.games_read);
  CHECK(sets[0].rows + sets[1].rows == engine.report()->rows);

  FitSettings settings;
  settings.solver = learn::SolverKind::kNewton;
  fit_to_end(engine, settings);
  const std::string fits = engine.exports().fits_json();
  CHECK(count_of(fits, "\"name\":\"OpenRating.pgn\"") == 1);
  CHECK(count_of(fits, "\"name\":\"lichess.pgn\"") == 1);
  CHECK(count_of(fits, "\"contrast\":\"B-N\"") == 1);
  CHECK(count_of(fits, "\"bootstrapP\":null") == 1);
}

TEST_CASE("engine: per-file datasets descend in lockstep, each drawn, each fitted as alone") {
  ReadOptions options;
  options.datasets = DatasetMode::kPerFile;
  Engine engine;
  REQUIRE(!engine.begin_read(options));
  read_file(engine, "OpenRating.pgn", fixture("OpenRating.pgn"));
  read_file(engine, "lichess.pgn", fixture("lichess-2021-10-first999.pgn"));
  REQUIRE(engine.end_read());
  FitSettings settings;  // the article's gradient descent
  REQUIRE(engine.begin_fit(settings).ok());
  const Snapshot first = engine.step(250);
  const std::vector<Snapshot> others = engine.fit_session().other_snapshots();
  REQUIRE(others.size() == 1);
  CHECK(first.dataset == 0);
  CHECK(others[0].dataset == 1);
  CHECK(others[0].iteration == first.iteration);
  CHECK(others[0].values[1] != doctest::Approx(first.values[1]));  // its own trajectory
  for (int guard = 0; !engine.fit_session().finished && guard < 1000; ++guard) engine.step(500);
  REQUIRE(engine.fit_session().finished);
  // The second dataset's fit equals gradient descent on its games alone.
  Engine alone;
  REQUIRE(!alone.begin_read({}));
  read_file(alone, "lichess.pgn", fixture("lichess-2021-10-first999.pgn"));
  REQUIRE(alone.end_read());
  fit_to_end(alone, settings);
  const Snapshot lockstep_last = engine.fit_session().other_snapshots().at(0);
  const Snapshot alone_last = alone.step(0);
  for (std::size_t i = 0; i < alone_last.values.size(); ++i) {
    CHECK(lockstep_last.values[i] == doctest::Approx(alone_last.values[i]).epsilon(1e-12));
  }
}

TEST_CASE("engine: the ordinal model asks for Newton and says why") {
  Engine engine;
  REQUIRE(!engine.begin_read({}));
  read_file(engine, "lichess-100.pgn", fixture("lichess-100.pgn"));
  REQUIRE(engine.end_read());
  FitSettings settings;  // gradient descent asked for
  settings.model.outcomes = learn::OutcomeModel::kOrdinal;
  settings.model.intercept = true;
  fit_to_end(engine, settings);
  CHECK(engine.fit_session().uses_newton());
  CHECK(engine.fit_session().reason.find("ordinal") != std::string::npos);
  const std::string fits = engine.exports().fits_json();
  CHECK(count_of(fits, "\"drawMargin\":null") == 0);
  CHECK(count_of(fits, "\"name\":\"intercept\"") == 1);
  CHECK(count_of(fits, "\"name\":\"draw-margin\"") == 1);
  CHECK(engine.fit_session().last->columns.back() == "intercept");
}

TEST_CASE("engine: bootstrap intervals surround the values") {
  ReadOptions options;
  options.bootstrap = 30;
  options.seed = 7;
  Engine engine;
  REQUIRE(!engine.begin_read(options));
  read_file(engine, "OpenRating.pgn", fixture("OpenRating.pgn"));
  REQUIRE(engine.end_read());
  FitSettings settings;
  settings.solver = learn::SolverKind::kNewton;
  fit_to_end(engine, settings);
  const std::string fits = engine.exports().fits_json();
  CHECK(count_of(fits, "\"replicates\":30") == 1);
  CHECK(count_of(fits, "\"low\":null") == 0);
}

TEST_CASE("engine: the provenance export carries each file's sha-256") {
  Engine engine;
  ReadOptions hashed;
  hashed.hash_files = true;  // the browser hashes at export time instead
  REQUIRE(!engine.begin_read(hashed));
  read_file(engine, "abc.pgn", "abc");  // no games, but hashed all the same
  const std::string pgn = fixture("lichess-100.pgn");
  read_file(engine, "lichess-100.pgn", pgn);
  REQUIRE(engine.end_read());
  fit_to_end(engine, FitSettings{});
  Sha256 hash;
  hash.update(pgn.data(), pgn.size());
  const std::string json = engine.exports().provenance_json();
  CHECK(json.find(
            "\"sha256\":\"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\"") !=
        std::string::npos);
  CHECK(json.find(hash.hex()) != std::string::npos);
  CHECK(json.find("\"outcomes\":\"draws-out\"") != std::string::npos);
  CHECK(count_of(json, "\"coefficients\":") == 1);
  const std::string code = engine.exports().code_header();
  CHECK(code.find("constexpr int kPieceValues[5] = {100, ") != std::string::npos);
}

TEST_CASE("engine: the .mat text of a read is drained chunk by chunk, every row once, in order") {
  const std::string pgn = fixture("OpenRating.pgn");
  ReadOptions options;
  options.keep_rows = true;
  Engine drained;
  REQUIRE(!drained.begin_read(options));
  drained.begin_file("OpenRating.pgn", static_cast<double>(pgn.size()));
  std::string mat;
  std::size_t largest_take = 0;
  for (std::size_t at = 0; at < pgn.size(); at += 65521) {
    drained.feed(pgn.data() + at, std::min<std::size_t>(65521, pgn.size() - at));
    const std::string taken = drained.take_mat_text();
    largest_take = std::max(largest_take, taken.size());
    mat += taken;
  }
  drained.end_file();
  mat += drained.take_mat_text();
  CHECK(drained.take_mat_text().empty());  // taken: nothing is held twice
  CHECK(largest_take < mat.size() / 4);    // never the whole file's rows at once
  REQUIRE(drained.end_read());
  const learn::DatasetReport& report = *drained.report();
  CHECK(count_of(mat, "\n") == report.rows);

  // The rows read back as a .mat file give the same histogram as the read itself.
  learn::DatasetBuilder back;
  back.set_key_fields(learn::KeyFields::none());
  back.begin_file("rows.mat");
  back.feed(mat.data(), mat.size());
  back.end_file();
  CHECK(back.histogram().totals() == learn::OutcomeCounts{report.games.rows_by_outcome});
  CHECK(back.histogram().distinct() == drained.distinct_rows());

  // Without keep_rows a read keeps no row.
  Engine plain;
  REQUIRE(!plain.begin_read({}));
  read_file(plain, "OpenRating.pgn", pgn);
  CHECK(plain.take_mat_text().empty());
}

}  // namespace
}  // namespace materialist::worker
