#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "learn/fit/analysis.h"
#include "learn/fit/relations.h"
#include "learn/fit/solvers.h"
#include "learn/read/dataset.h"
#include "test_util.h"

using namespace materialist::learn;

namespace {

using materialist::testing::read_fixture;

Histogram article_rows() {
  DatasetBuilder builder(IngestOptions::article());
  builder.begin_file("OpenRating.article.mat");
  const std::string text = read_fixture("learn/OpenRating.article.mat");
  builder.feed(text.data(), text.size());
  builder.end_file();
  return builder.histogram();
}

}  // namespace

TEST_CASE("analysis: the article preset reproduces the article's values with errors") {
  const Histogram rows = article_rows();
  REQUIRE(rows.totals().total() == 20196);
  const auto fit = run_analysis(rows, AnalysisSettings::article());
  REQUIRE(fit.ok());
  CHECK(fit->iterations == 10000);
  const std::vector<double> values = piece_values(*fit);
  CHECK(values[1] == doctest::Approx(288.478).epsilon(2e-5));
  CHECK(values[2] == doctest::Approx(345.377).epsilon(2e-5));
  CHECK(values[3] == doctest::Approx(479.66).epsilon(2e-5));
  CHECK(values[4] == doctest::Approx(1076.56).epsilon(2e-5));
  // Standard errors exist and are of a plausible size for 18 000 decisive rows.
  REQUIRE(fit->covariance_ok);
  CHECK(fit->coefficients[1].value.se > 1.0);
  CHECK(fit->coefficients[1].value.se < 30.0);
}

TEST_CASE("analysis: Newton and long gradient descent agree; gd can be stepped") {
  const Histogram rows = article_rows();
  AnalysisSettings gd = AnalysisSettings::article();
  gd.gd.iterations = 60000;
  const auto slow = run_analysis(rows, gd);
  const auto exact = run_analysis(rows, AnalysisSettings::defaults());
  REQUIRE(slow.ok());
  REQUIRE(exact.ok());
  for (int i = 0; i < 5; ++i) {
    CHECK(piece_values(*slow)[i] == doctest::Approx(piece_values(*exact)[i]).epsilon(1e-4));
  }

  auto run = GradientDescentRun::start(rows, AnalysisSettings::article());
  REQUIRE(run.ok());
  CHECK(run->state().iteration == 0);
  CHECK(run->step(250) == 250);
  CHECK(run->state().iteration == 250);
  CHECK(relative_values(run->state().theta, run->spec().pawn_column())[0] ==
        doctest::Approx(100.0));
}

TEST_CASE("presets: the article keeps '*' games as draws and descends; the default is Newton") {
  const auto article = AnalysisSettings::preset_named("article");
  const auto standard = AnalysisSettings::preset_named("default");
  REQUIRE(article.has_value());
  REQUIRE(standard.has_value());
  CHECK(article->preset == "article");
  CHECK(article->solver == SolverKind::kGradientDescent);
  CHECK(article->model.outcomes == OutcomeModel::kDrawsOut);
  CHECK(article->gd.iterations == 10000);
  CHECK(standard->solver == SolverKind::kNewton);
  CHECK_FALSE(AnalysisSettings::preset_named("nonsense").has_value());
  for (const char* name : kPresetNames) CHECK(AnalysisSettings::preset_named(name).has_value());
  // The data half of a preset: the article's ingest counts unknown results as draws, N = 2.
  CHECK(IngestOptions::article().unknown_results == UnknownResultPolicy::kTreatAsDraw);
  CHECK(IngestOptions::defaults().unknown_results == UnknownResultPolicy::kSkip);
  CHECK(IngestOptions::article().quiet.quiet_plies == 2);
}

TEST_CASE("enum names: every value has its name, and names read back") {
  CHECK(std::string(solver_name(SolverKind::kNewton)) == "newton");
  CHECK(parse_solver("gd") == SolverKind::kGradientDescent);
  CHECK_FALSE(parse_solver("sgd").has_value());
  for (const char* name : kOutcomeModelNames) {
    REQUIRE(parse_outcome_model(name).has_value());
    CHECK(std::string(outcome_model_name(*parse_outcome_model(name))) == name);
  }
  CHECK(std::string(error_kind_name(ErrorKind::kClustered)) == "game-clustered");
}

TEST_CASE("analysis: gradient descent refuses models it cannot fit") {
  AnalysisSettings settings = AnalysisSettings::article();
  settings.model.outcomes = OutcomeModel::kOrdinal;
  CHECK_FALSE(run_analysis(article_rows(), settings).ok());
}

TEST_CASE("relations: the article's table of Capablanca's relations") {
  const auto checks = check_capablanca({100, 288, 345, 480, 1077});
  REQUIRE(checks.size() == 5);
  CHECK(checks[0].holds);        // B > N
  CHECK(checks[1].holds);        // B > 3P
  CHECK_FALSE(checks[2].holds);  // N > 3P
  CHECK(checks[3].holds);        // B + N = R + 1.5P within 1%
  CHECK_FALSE(checks[4].holds);  // Q + P = 2R
  CHECK(check_capablanca({100, 320, 330, 500, 900})[3].holds);
}

TEST_CASE("relations: the verdicts are the same in any unit, the numbers in that unit") {
  const std::array<double, 5> pawns = {100, 288, 345, 480, 1077};
  std::array<double, 5> log_odds{};
  for (int i = 0; i < 5; ++i) log_odds[i] = pawns[i] / 100;  // θ_pawn = 1
  const auto in_pawns = check_capablanca(pawns);
  const auto in_log_odds = check_capablanca(log_odds, 2);
  REQUIRE(in_log_odds.size() == in_pawns.size());
  for (std::size_t i = 0; i < in_pawns.size(); ++i)
    CHECK(in_log_odds[i].holds == in_pawns[i].holds);
  CHECK(in_pawns[0].numbers == "B 345 > N 288");
  CHECK(in_log_odds[0].numbers == "B 3.45 > N 2.88");
  CHECK(in_log_odds[3].numbers == "3.45 + 2.88 vs 4.80 + 1.50 (off 0.5%)");
}

TEST_CASE("dataset: .pgn and .mat files merge, and a non-PGN file is reported, not fatal") {
  DatasetBuilder builder;
  builder.begin_file("photo.pgn");
  const std::string jpeg("\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01", 16);
  builder.feed(jpeg.data(), jpeg.size());
  builder.end_file();
  builder.begin_file("rows.MAT");
  const std::string mat = " 1 0 0 0 0 2\n-1 0 0 0 0 0\nnot a row\n";
  builder.feed(mat.data(), mat.size());
  builder.end_file();
  const DatasetReport& report = builder.report();
  REQUIRE(report.files.size() == 2);
  CHECK_FALSE(report.files[0].error.empty());
  CHECK(report.files[1].kind == FileKind::kMat);
  CHECK(report.files[1].rows == 2);
  CHECK(report.mat.bad_lines == 1);
  CHECK(report.mat.first_bad_lines.at(0).line == 3);
  CHECK(builder.histogram().totals().total() == 2);
}

TEST_CASE("dataset: bootstrap replicates group rows by game and do not depend on chunking") {
  const std::string pgn = read_fixture("pgn/lichess-100.pgn");
  const auto build = [&](std::size_t chunk) {
    DatasetBuilder builder;
    builder.enable_bootstrap(8, 42);
    for (const char* name : {"a.pgn", "b.pgn"}) {  // the same games twice, as two files
      builder.begin_file(name);
      for (std::size_t at = 0; at < pgn.size(); at += chunk) {
        builder.feed(pgn.data() + at, std::min(chunk, pgn.size() - at));
      }
      builder.end_file();
    }
    return builder;
  };
  const DatasetBuilder whole = build(1 << 20);
  const DatasetBuilder small = build(997);
  REQUIRE(whole.bootstrap() != nullptr);
  const auto& a = whole.bootstrap()->replicates();
  const auto& b = small.bootstrap()->replicates();
  REQUIRE(a.size() == 8);
  std::uint64_t total = 0;
  for (std::size_t r = 0; r < a.size(); ++r) {
    CHECK(a[r] == b[r]);
    total += a[r].totals().total();
  }
  // Poisson(1) weights: the replicates hold about as many rows as the data, not exactly as many.
  const double mean = static_cast<double>(total) / a.size();
  const double rows = static_cast<double>(whole.histogram().totals().total());
  CHECK(mean > 0.8 * rows);
  CHECK(mean < 1.2 * rows);
  // The second file's games draw other weights than the first's (ids include the file).
  bool any_differs = false;
  for (const auto& replicate : a) {
    // Were the two files' games weighted alike, every count would be even.
    replicate.for_each([&](const RowKey&, const OutcomeCounts& counts) {
      for (int i = 0; i < kOutcomeCount; ++i) any_differs |= (counts.by_outcome[i] % 2) == 1;
    });
  }
  CHECK(any_differs);
}

TEST_CASE("solvers: mirror-image rows fold into one with the same loss and gradient") {
  Histogram histogram;
  histogram.add(RowKey::from_delta({1, 0, 0, 0, 0}), Outcome::kWhiteWin, 3);
  histogram.add(RowKey::from_delta({1, 0, 0, 0, 0}), Outcome::kBlackWin, 1);
  histogram.add(RowKey::from_delta({-1, 0, 0, 0, 0}), Outcome::kWhiteWin, 1);
  histogram.add(RowKey::from_delta({-1, 0, 0, 0, 0}), Outcome::kBlackWin, 2);
  histogram.add(RowKey::from_delta({0, -1, 1, 0, 0}), Outcome::kBlackWin, 4);
  const LogisticData data =
      make_logistic_data(build_design(histogram, ModelSpec::article()), DrawHandling::kLeaveOut);
  REQUIRE(data.rows() == 2);
  CHECK(data.total_weight == 11);
  // +1 pawn: 3 wins and 1 loss; -1 pawn turned around: 2 wins and 1 loss.
  bool pawn_row = false;
  for (std::size_t r = 0; r < data.rows(); ++r) {
    if (data.x[r * 5] == 1) {
      pawn_row = true;
      CHECK(data.weight[r] == 7);
      CHECK(data.target[r] == doctest::Approx(5.0 / 7.0));
    } else {
      CHECK(data.x[r * 5 + 1] == 1);  // (0, -1, 1) turned into (0, 1, -1), a loss become a win
      CHECK(data.target[r] == 1.0);
    }
  }
  CHECK(pawn_row);
  // The folded objective equals the sum over the eleven original rows.
  const double theta[5] = {0.7, 2.0, 2.5, 3.5, 8.0};
  const auto row_loss = [](double z, double y) {
    const double h = 1.0 / (1.0 + std::exp(-z));
    return -(y * std::log(h) + (1 - y) * std::log(1 - h));
  };
  const double expected = (3 * row_loss(0.7, 1) + 1 * row_loss(0.7, 0) + 1 * row_loss(-0.7, 1) +
                           2 * row_loss(-0.7, 0) + 4 * row_loss(0.5, 0)) /
                              11 +
                          1e-6 * (0.49 + 4 + 6.25 + 12.25 + 64);
  CHECK(evaluate_objective(data, 1e-6, theta, nullptr, nullptr) ==
        doctest::Approx(expected).epsilon(1e-12));
}
