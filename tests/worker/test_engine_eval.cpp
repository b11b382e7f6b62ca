// The browser engine with the evaluation target: the counts of annotated positions and games,
// fits equal to the learn library's on the same read, the models it refuses, both targets side
// by side, and every export naming the target.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "learn/fit/balance_curve.h"
#include "learn/fit/target_compare.h"
#include "learn/read/dataset.h"
#include "worker/engine.h"
#include "worker/engine_test_util.h"

namespace materialist::worker {
namespace {

using namespace test;  // fixture, read_file, fit_to_end, count_of: engine_test_util.h

ReadOptions eval_options() {
  ReadOptions options;
  options.target = learn::Target::kEval;
  return options;
}

// The lichess sample (96 of its 999 games carry [%eval]) read by a second path: the learn
// library's dataset builder with the article's ingest options and the evaluation target.
learn::DatasetBuilder direct_read(const std::string& pgn) {
  learn::IngestOptions ingest = learn::IngestOptions::article();
  ingest.target = learn::Target::kEval;
  learn::DatasetBuilder builder(ingest);
  builder.set_key_fields(learn::KeyFields::none());
  builder.begin_file("lichess.pgn");
  builder.feed(pgn.data(), pgn.size());
  builder.end_file();
  return builder;
}

TEST_CASE("engine: the evaluation target reads the annotated positions and counts the others") {
  const std::string pgn = fixture("lichess-2021-10-first999.pgn");
  Engine engine;
  REQUIRE(!engine.begin_read(eval_options()));
  read_file(engine, "lichess.pgn", pgn);
  REQUIRE(engine.end_read());
  const learn::DatasetBuilder direct = direct_read(pgn);
  const protocol::DataReport report = engine.data_report();
  CHECK(report.target == learn::Target::kEval);
  CHECK(report.rows == direct.report().rows);
  CHECK(report.games_with_evals == direct.report().games.games_with_evals);
  CHECK(report.games_without_evals == direct.report().games.games_without_evals);
  CHECK(report.unannotated_rows == direct.report().games.rows_without_eval);
  CHECK(report.games_with_evals == 96);
  CHECK(report.unannotated_rows > 0);
  // The article's first chart holds the evaluations' expected scores (no draws), its α theirs.
  const protocol::Balance balance = engine.balance();
  REQUIRE_FALSE(balance.bins.empty());
  double rows = 0;
  for (const protocol::BalanceBin& bin : balance.bins) {
    CHECK(bin.draws == 0);
    rows += bin.count();
  }
  CHECK(rows == doctest::Approx(static_cast<double>(report.rows)));
  const Expected<learn::BalanceFit> alpha =
      learn::fit_balance_alpha(learn::balance_bins(direct.histogram()));
  REQUIRE(alpha.ok());
  REQUIRE(balance.alpha.has_value());
  CHECK(*balance.alpha == doctest::Approx(alpha->alpha));

  FitSettings newton;
  newton.solver = learn::SolverKind::kNewton;
  fit_to_end(engine, newton);
  REQUIRE(engine.fit_session().fit(0) != nullptr);
  CHECK(engine.fit_session().fit(0)->options.target == learn::Target::kEval);
  const Expected<learn::ModelFit> expected = learn::fit_model(
      direct.histogram(), newton.model_options(learn::Target::kEval), direct.pairs());
  REQUIRE(expected.ok());
  REQUIRE(expected->theta.size() == engine.fit_session().fit(0)->theta.size());
  for (std::size_t i = 0; i < expected->theta.size(); ++i) {
    CHECK(engine.fit_session().fit(0)->theta[i] ==
          doctest::Approx(expected->theta[i]).epsilon(1e-9));
  }
  // Every export names the target.
  CHECK(engine.exports().values_csv().find(",warnings,target\n") != std::string::npos);
  CHECK(count_of(engine.exports().values_csv(), ",eval\n") ==
        engine.fit_session().fit(0)->coefficients.size());
  CHECK(engine.exports().result_json().find(R"("target":"eval")") != std::string::npos);
  CHECK(engine.exports().provenance_json().find(R"("target":"eval")") != std::string::npos);
  CHECK(engine.exports().code_header().find("// target: the engine's evaluation") !=
        std::string::npos);
  CHECK(engine.exports().status_line().rfind("Fitted to engine evaluations", 0) == 0);
}

TEST_CASE("engine: the evaluation target refuses the ordinal model and the rating offset") {
  Engine engine;
  ReadOptions options = eval_options();
  options.keep.rating = true;
  REQUIRE(!engine.begin_read(options));
  read_file(engine, "lichess.pgn", fixture("lichess-2021-10-first999.pgn"));
  REQUIRE(engine.end_read());
  FitSettings ordinal;
  ordinal.model.outcomes = learn::OutcomeModel::kOrdinal;
  const Expected<int> refused = engine.begin_fit(ordinal);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("ordinal") != std::string::npos);
  FitSettings rated;
  rated.model.elo_offset = true;
  const Expected<int> offset = engine.begin_fit(rated);
  REQUIRE_FALSE(offset.ok());
  CHECK(offset.error().message.find("rating offset") != std::string::npos);
  // The comparison of the targets refuses them too, in words.
  CHECK(!engine.compare_targets(ordinal).error.empty());
}

TEST_CASE("engine: both targets side by side equal the learn library's comparison") {
  const std::string pgn = fixture("lichess-2021-10-first999.pgn");
  Engine engine;
  FitSettings settings;
  settings.solver = learn::SolverKind::kNewton;
  // A read for the result target has no evaluations to compare with.
  REQUIRE(!engine.begin_read(ReadOptions{}));
  read_file(engine, "lichess.pgn", pgn);
  REQUIRE(engine.end_read());
  CHECK(!engine.compare_targets(settings).error.empty());

  REQUIRE(!engine.begin_read(eval_options()));
  read_file(engine, "lichess.pgn", pgn);
  REQUIRE(engine.end_read());
  const protocol::TargetCompare both = engine.compare_targets(settings);
  REQUIRE(both.error.empty());
  CHECK(both.games == 96);
  CHECK(both.outcomes == "fractional");
  CHECK(both.difference_errors == "game-clustered");
  const learn::DatasetBuilder direct = direct_read(pgn);
  CHECK(both.positions == direct.histogram().totals().total());
  learn::AnalysisSettings analysis = learn::AnalysisSettings::article();
  analysis.solver = learn::SolverKind::kNewton;
  analysis.model = settings.model_options(learn::Target::kEval);
  analysis.model.outcomes = learn::OutcomeModel::kFractional;
  const Expected<learn::TargetComparison> expected =
      learn::compare_targets(direct.histogram(), analysis, direct.pairs());
  REQUIRE(expected.ok());
  REQUIRE(both.rows.size() == expected->rows.size());
  for (std::size_t i = 0; i < both.rows.size(); ++i) {
    const learn::TargetDifference& d = expected->rows[i];
    CHECK(both.rows[i].name == d.name);
    CHECK(both.rows[i].identified == d.identified);
    CHECK(both.rows[i].result_theta == doctest::Approx(d.result.theta.value).epsilon(1e-9));
    CHECK(both.rows[i].eval_theta == doctest::Approx(d.eval.theta.value).epsilon(1e-9));
    CHECK(both.rows[i].theta_difference_se == doctest::Approx(d.theta_difference.se).epsilon(1e-9));
    if (!d.identified) continue;
    CHECK(both.rows[i].result == doctest::Approx(d.result.value.value).epsilon(1e-9));
    CHECK(both.rows[i].eval == doctest::Approx(d.eval.value.value).epsilon(1e-9));
    CHECK(both.rows[i].difference_se == doctest::Approx(d.difference.se).epsilon(1e-9));
    CHECK(std::isfinite(both.rows[i].difference_se));
  }
}

TEST_CASE("engine: a file without any [%eval] gives no data, and its report says so") {
  Engine engine;
  REQUIRE(!engine.begin_read(eval_options()));
  read_file(engine, "OpenRating.pgn", fixture("OpenRating.pgn"));
  CHECK_FALSE(engine.end_read());
  const protocol::DataReport report = engine.data_report();
  CHECK(report.target == learn::Target::kEval);
  CHECK(report.games_with_evals == 0);
  CHECK(report.games_without_evals > 0);
  CHECK(report.rows == 0);
}

}  // namespace
}  // namespace materialist::worker
