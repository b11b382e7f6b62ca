// Game-clustered errors, key projection, and the warnings of honest fits: simulated games with
// known within-game correlation, brute-force sandwiches from raw rows, and degenerate data.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "learn/fit/analysis.h"
#include "learn/fit/clustered.h"
#include "learn/fit/compare.h"
#include "learn/fit/models.h"
#include "learn/fit/uncertainty.h"
#include "learn/learn_test_util.h"
#include "learn/random.h"
#include "learn/read/dataset.h"
#include "learn/stats/bootstrap_histograms.h"

using namespace materialist::learn;
using materialist::kLogOddsPerElo;
using materialist::learn::testing::read_fixture;

namespace {

using materialist::testing::Rng;

std::vector<double> kTheta = {0.35, 1.0, 1.1, 1.6, 3.0};

bool has_warning(const ModelFit& fit, const std::string& code) {
  return std::any_of(fit.warnings.begin(), fit.warnings.end(),
                     [&](const FitWarning& w) { return w.code == code; });
}

RowKey random_clustered_key(Rng& rng) {
  return materialist::testing::random_key(rng, 300, false);
}

// Games of `rows` positions: a random first key, later keys drift from it by a pawn now and
// then (as material changes within a game), all sharing the game's outcome from the first key.
// With `draws` some games are drawn (probability 0.3).
std::vector<std::vector<Row>> simulate(int games, int rows, std::uint64_t seed, bool draws) {
  Rng rng(seed);
  std::vector<std::vector<Row>> result;
  for (int g = 0; g < games; ++g) {
    RowKey key = random_clustered_key(rng);
    double eta = key.rating_diff * kLogOddsPerElo;
    for (int j = 0; j < 5; ++j) eta += kTheta[j] * key.delta[j];
    Outcome outcome =
        rng.uniform() < 1.0 / (1.0 + std::exp(-eta)) ? Outcome::kWhiteWin : Outcome::kBlackWin;
    if (draws && rng.uniform() < 0.3) outcome = Outcome::kDraw;
    std::vector<Row> game;
    for (int r = 0; r < rows; ++r) {
      game.push_back({key, outcome, static_cast<std::uint64_t>(g + 1)});
      if (rng.uniform() < 0.3) key.delta[0] = static_cast<std::int8_t>(key.delta[0] + 1);
      if (rng.uniform() < 0.2) key.phase = static_cast<std::uint8_t>(std::max(0, key.phase - 2));
    }
    result.push_back(std::move(game));
  }
  return result;
}

Histogram histogram_of(const std::vector<std::vector<Row>>& games) {
  Histogram histogram;
  for (const auto& game : games) {
    for (const Row& row : game) histogram.add(row.key, row.outcome);
  }
  return histogram;
}

GamePairs pairs_of(const std::vector<std::vector<Row>>& games, KeyFields fields) {
  GamePairs pairs(fields);
  for (const auto& game : games) pairs.add_game(game);
  return pairs;
}

// The sandwich from raw rows, game by game, with the same small-sample factor: what
// statsmodels' GLM(...).fit(cov_type="cluster") computes.
std::vector<double> brute_force_sandwich(const ModelFit& fit,
                                         const std::vector<std::vector<Row>>& games) {
  const int n = fit.parameter_count();
  const int columns = static_cast<int>(fit.theta.size());
  std::vector<double> meat(n * n, 0.0);
  double clusters = 0;
  for (const auto& game : games) {
    std::vector<double> s(n, 0.0);
    bool enters = false;
    for (const Row& row : game) {
      if (fit.options.rating_offset && !row.key.rating_known) continue;
      if (fit.options.outcomes == OutcomeModel::kDrawsOut && row.outcome == Outcome::kDraw) {
        continue;
      }
      enters = true;
      std::vector<double> x(columns);
      double eta = fit.options.rating_offset ? kLogOddsPerElo * row.key.rating_diff : 0.0;
      for (int j = 0; j < columns; ++j) {
        x[j] = fit.spec.features[j].value(row.key);
        eta += fit.theta[j] * x[j];
      }
      RowScore score;
      if (fit.options.outcomes == OutcomeModel::kOrdinal) {
        score = ordinal_row_score(eta, fit.draw_margin, row.outcome);
      } else {
        const double p = 1.0 / (1.0 + std::exp(-eta));
        const double t = row.outcome == Outcome::kWhiteWin ? 1.0
                         : row.outcome == Outcome::kDraw   ? 0.5
                                                           : 0.0;
        score.eta = t - p;
      }
      for (int j = 0; j < columns; ++j) s[j] += score.eta * x[j];
      if (fit.has_margin()) s[columns] += score.margin;
    }
    if (!enters) continue;
    clusters += 1;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) meat[i * n + j] += s[i] * s[j];
    }
  }
  const std::vector<double>& b = fit.model_covariance;
  std::vector<double> v(n * n, 0.0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      for (int k = 0; k < n; ++k) {
        for (int l = 0; l < n; ++l) v[i * n + j] += b[i * n + k] * meat[k * n + l] * b[l * n + j];
      }
    }
  }
  const double rows = fit.total_weight;
  const double c = clusters / (clusters - 1) * (rows - 1) / (rows - n);
  for (double& value : v) value *= c;
  return v;
}

}  // namespace

TEST_CASE("clustered: KeyFields keep what a model reads") {
  ModelOptions article;
  CHECK(KeyFields::for_model(article) == KeyFields{false, false, false, false});
  ModelOptions rich;
  rich.bishop_pair = rich.phase_tapered = rich.side_to_move = rich.rating_offset = true;
  rich.imbalances = kAllImbalances;  // each side's counts
  CHECK(KeyFields::for_model(rich) == KeyFields::all());
  CHECK(KeyFields{}.covers(article));
  CHECK_FALSE(KeyFields{}.covers(rich));  // the default drops the rating difference
  ModelOptions rated;
  rated.rating_offset = true;
  CHECK(KeyFields::for_model(rated).covers(rated));
  CHECK_FALSE(KeyFields::for_model(article).covers(rated));

  RowKey key = RowKey::from_delta({1, -1, 0, 2, 0});
  key.bishop_pair = 1;
  key.phase = 17;
  key.black_to_move = 1;
  key.rating_known = 1;
  key.rating_diff = -250;
  const RowKey bare = KeyFields::for_model(article).project(key);
  CHECK(bare == RowKey::from_delta({1, -1, 0, 2, 0}));
  const RowKey kept = KeyFields{}.project(key);
  CHECK(kept.phase == 17);
  CHECK(kept.bishop_pair == 1);
  CHECK(kept.black_to_move == 1);
  CHECK(kept.rating_known == 0);
  CHECK(kept.rating_diff == 0);
  CHECK(KeyFields::all().project(key) == key);
}

TEST_CASE("clustered: a game's pairs are its distinct keys with multiplicity products") {
  const RowKey a = RowKey::from_delta({1, 0, 0, 0, 0});
  const RowKey b = RowKey::from_delta({2, 0, 0, 0, 0});
  GamePairs pairs(KeyFields::all());
  pairs.add_game({{a, Outcome::kWhiteWin, 1},
                  {a, Outcome::kWhiteWin, 1},
                  {b, Outcome::kWhiteWin, 1},
                  {a, Outcome::kWhiteWin, 1}});
  pairs.add_game({{b, Outcome::kUnknown, 2}});  // no outcome: not a game
  CHECK(pairs.games() == 1);
  CHECK(pairs.distinct() == 3);  // (a, a), (a, b), (b, b)
  std::uint64_t aa = 0, ab = 0, bb = 0;
  pairs.for_each([&](std::uint64_t x, std::uint64_t y, const OutcomeCounts& counts) {
    CHECK(x <= y);
    const std::uint64_t w = counts[Outcome::kWhiteWin];
    if (x == a.pack() && y == a.pack()) aa = w;
    if (x == std::min(a.pack(), b.pack()) && y == std::max(a.pack(), b.pack())) ab = w;
    if (x == b.pack() && y == b.pack()) bb = w;
  });
  CHECK(aa == 9);
  CHECK(ab == 3);
  CHECK(bb == 1);
  CHECK(pairs.games_by_outcome()[Outcome::kWhiteWin] == 1);
}

TEST_CASE("clustered: subtracting added pairs leaves the rest's pairs, as if never added") {
  const auto games = simulate(300, 8, 7, true);
  const std::vector<std::vector<Row>> first(games.begin(), games.begin() + 100);
  const std::vector<std::vector<Row>> rest(games.begin() + 100, games.end());
  GamePairs pairs = pairs_of(games, KeyFields{});
  const GamePairs taken = pairs_of(first, KeyFields{});
  REQUIRE(taken.distinct() > 0);
  pairs.subtract(taken);
  const GamePairs expected = pairs_of(rest, KeyFields{});
  CHECK(pairs == expected);
  CHECK(expected == pairs);
  CHECK(pairs.distinct() == expected.distinct());  // the pairs only `first` had are gone
  CHECK(pairs.games_by_outcome() == expected.games_by_outcome());
  CHECK(pairs.rated_games_by_outcome() == expected.rated_games_by_outcome());
  pairs.add_game(first.front());  // still a working table
  GamePairs plus_one = pairs_of(rest, KeyFields{});
  plus_one.add_game(first.front());
  CHECK(pairs == plus_one);
  // All of it: empty.
  GamePairs all = pairs_of(games, KeyFields{});
  all.subtract(pairs_of(games, KeyFields{}));
  CHECK(all.empty());
  CHECK(all.distinct() == 0);
  // Kept with more fields: projected first, as merge() added it.
  KeyFields fewer;
  fewer.phase = false;
  GamePairs projected(fewer), expected_projected(fewer);
  projected.merge(pairs_of(games, KeyFields{}));
  projected.subtract(pairs_of(first, KeyFields{}));
  expected_projected.merge(pairs_of(rest, KeyFields{}));
  CHECK(projected.distinct() < expected.distinct());
  CHECK(projected == expected_projected);
}

TEST_CASE("clustered: pairs merge in any order, also through raw add/add_games") {
  const auto games = simulate(300, 8, 7, true);
  const GamePairs whole = pairs_of(games, KeyFields{});
  GamePairs first(KeyFields{}), second(KeyFields{});
  for (std::size_t g = 0; g < games.size(); ++g) (g % 3 == 0 ? first : second).add_game(games[g]);
  GamePairs forward = first, backward = second;
  forward.merge(second);
  backward.merge(first);
  CHECK(forward == whole);
  CHECK(backward == whole);
  // What a worker sends: raw pairs and game counts.
  GamePairs wire(KeyFields{});
  for (const GamePairs* part : {&second, &first}) {
    part->for_each([&](std::uint64_t a, std::uint64_t b, const OutcomeCounts& counts) {
      wire.add(b, a, counts);  // either order
    });
    wire.add_games(part->games_by_outcome(), part->rated_games_by_outcome());
  }
  CHECK(wire == whole);
  // Different fields: the merge keeps what both kept.
  GamePairs rich = pairs_of(games, KeyFields::all());
  rich.merge(pairs_of(games, KeyFields{false, false, false, false}));
  CHECK(rich.fields() == KeyFields{false, false, false, false});
  CHECK(rich.games() == 2 * whole.games());
}

TEST_CASE("clustered: the sandwich equals the brute-force per-game sum for every model") {
  const auto games = simulate(600, 6, 11, true);
  const Histogram histogram = histogram_of(games);
  std::vector<ModelOptions> models(6);
  models[1].outcomes = OutcomeModel::kFractional;
  models[2].outcomes = OutcomeModel::kOrdinal;
  models[2].intercept = true;
  models[3].bishop_pair = true;
  models[3].side_to_move = true;
  models[4].phase_tapered = true;
  models[5].rating_offset = true;
  for (const ModelOptions& options : models) {
    const GamePairs pairs = pairs_of(games, KeyFields::for_model(options));
    auto fit = fit_model(histogram, options, &pairs);
    REQUIRE(fit.ok());
    if (!fit.ok()) continue;
    CHECK(fit->errors == ErrorKind::kClustered);
    CHECK(fit->games == 600);
    const std::vector<double> expected = brute_force_sandwich(*fit, games);
    REQUIRE(expected.size() == fit->covariance.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CHECK(fit->covariance[i] == doctest::Approx(expected[i]).epsilon(1e-9).scale(1e-12));
    }
    // Coefficients: reported errors from the sandwich, model errors beside them.
    const int n = fit->parameter_count();
    for (int j = 0; j < n; ++j) {
      const Coefficient& c = fit->coefficients[j];
      CHECK(c.theta.se == doctest::Approx(std::sqrt(fit->covariance[j * n + j])));
      CHECK(c.model_theta_se == doctest::Approx(std::sqrt(fit->model_covariance[j * n + j])));
    }
  }
}

TEST_CASE("clustered: correlated games inflate the errors; one row per game is robust (HC)") {
  // Every row of a game repeated 9 times: the information counts 9× the evidence there is.
  std::vector<std::vector<Row>> games = simulate(2000, 1, 3, false);
  for (auto& game : games) {
    const Row first = game.front();  // assign() must not read from the vector it overwrites
    game.assign(9, first);
  }
  const Histogram histogram = histogram_of(games);
  const GamePairs pairs = pairs_of(games, KeyFields{});
  auto fit = fit_model(histogram, ModelOptions{}, &pairs);
  REQUIRE(fit.ok());
  for (const Coefficient& c : fit->coefficients) {
    CHECK(c.theta.se > 2.5 * c.model_theta_se);  // ≈ 3 = √9
    CHECK(c.theta.se < 3.5 * c.model_theta_se);
  }
  CHECK(fit->warnings.empty());

  // One row per game: clustered = heteroskedasticity-robust, near the model errors when the
  // model is right.
  const auto single = simulate(4000, 1, 5, false);
  const GamePairs single_pairs = pairs_of(single, KeyFields{});
  auto robust = fit_model(histogram_of(single), ModelOptions{}, &single_pairs);
  REQUIRE(robust.ok());
  const std::vector<double> hc = brute_force_sandwich(*robust, single);
  const int n = robust->parameter_count();
  for (int j = 0; j < n; ++j) {
    const Coefficient& c = robust->coefficients[j];
    CHECK(c.theta.se == doctest::Approx(std::sqrt(hc[j * n + j])).epsilon(1e-9));
    CHECK(c.theta.se == doctest::Approx(c.model_theta_se).epsilon(0.15));
  }
}

TEST_CASE("clustered: pairs without the model's fields give model errors and say so") {
  const auto games = simulate(400, 4, 13, false);
  const GamePairs pairs = pairs_of(games, KeyFields{});  // no rating difference
  ModelOptions rated;
  rated.rating_offset = true;
  auto fit = fit_model(histogram_of(games), rated, &pairs);
  REQUIRE(fit.ok());
  CHECK(fit->errors == ErrorKind::kModel);
  CHECK(fit->covariance == fit->model_covariance);
  CHECK(has_warning(*fit, "model-errors"));
  CHECK(std::string(error_kind_name(ErrorKind::kModel)) == "model");
  CHECK(std::string(error_kind_name(ErrorKind::kClustered)) == "game-clustered");
  // Without pairs: model errors, no warning.
  auto plain = fit_model(histogram_of(games), ModelOptions{});
  REQUIRE(plain.ok());
  CHECK(plain->errors == ErrorKind::kModel);
  CHECK(plain->warnings.empty());
}

TEST_CASE("warnings: 3 decisive rows among 2512 draws identify nothing") {
  Histogram histogram;
  histogram.add(RowKey::from_delta({1, 0, 0, 0, 0}), Outcome::kWhiteWin);
  histogram.add(RowKey::from_delta({-1, 0, 0, 0, 0}), Outcome::kBlackWin);
  histogram.add(RowKey::from_delta({2, -1, 1, 0, 0}), Outcome::kWhiteWin);
  Rng rng(5);
  for (int i = 0; i < 2512; ++i) histogram.add(random_clustered_key(rng), Outcome::kDraw);
  auto fit = fit_model(histogram, ModelOptions{});
  REQUIRE(fit.ok());
  CHECK(has_warning(*fit, "too-few-decisive"));
  CHECK(has_warning(*fit, "not-identified"));
  for (const Coefficient& c : fit->coefficients) CHECK_FALSE(c.identified);
  // The same through gradient descent.
  auto gd = run_analysis(histogram, AnalysisSettings::article());
  REQUIRE(gd.ok());
  CHECK(has_warning(*gd, "too-few-decisive"));
  for (const Coefficient& c : gd->coefficients) CHECK_FALSE(c.identified);
}

TEST_CASE("warnings: a queen column in only two decisive rows is not identified") {
  // 20 games as a Chess960 sample gives them: queens traded almost always evenly.
  auto games = simulate(20, 10, 17, false);
  for (auto& game : games) {
    for (Row& row : game) row.key.delta[4] = 0;
  }
  games[3][0].key.delta[4] = 1;
  games[8][2].key.delta[4] = -1;
  const GamePairs pairs = pairs_of(games, KeyFields{});
  auto fit = fit_model(histogram_of(games), ModelOptions{}, &pairs);
  REQUIRE(fit.ok());
  const Coefficient& queen = fit->coefficients[4];
  CHECK(queen.name == "queen");
  CHECK_FALSE(queen.identified);
  CHECK(has_warning(*fit, "not-identified"));
  CHECK(has_warning(*fit, "too-few-games"));  // 20 games for 5 parameters
}

TEST_CASE("warnings: the sample fits plainly; gradient descent stopped early is not converged") {
  const Histogram histogram =
      materialist::learn::testing::histogram_from_mat(read_fixture("learn/OpenRating.article.mat"));
  auto newton = run_analysis(histogram, AnalysisSettings::defaults());
  REQUIRE(newton.ok());
  CHECK(newton->warnings.empty());
  CHECK(newton->converged);
  for (const Coefficient& c : newton->coefficients) CHECK(c.identified);

  AnalysisSettings early = AnalysisSettings::article();
  early.gd.iterations = 50;
  auto stopped = run_analysis(histogram, early);
  REQUIRE(stopped.ok());
  CHECK_FALSE(stopped->converged);
  CHECK(has_warning(*stopped, "not-converged"));

  auto article = run_analysis(histogram, AnalysisSettings::article());
  REQUIRE(article.ok());
  // 10 000 steps of α = 1 end well within 1% of a standard error of the optimum.
  CHECK(article->converged);
  CHECK(article->warnings.empty());

  // Newton stopped by its iteration limit is a fit that says so.
  ModelOptions one_step;
  one_step.max_iterations = 1;
  auto limited = fit_model(histogram, one_step);
  REQUIRE(limited.ok());
  CHECK_FALSE(limited->converged);
  CHECK(has_warning(*limited, "not-converged"));
}

TEST_CASE("warnings: collinear columns are singular or nearly so") {
  // Knights and bishops always traded together: their columns are equal.
  Histogram histogram;
  Rng rng(9);
  for (int i = 0; i < 3000; ++i) {
    RowKey key = random_clustered_key(rng);
    key.delta[2] = key.delta[1];
    double eta = 0;
    for (int j = 0; j < 5; ++j) eta += kTheta[j] * key.delta[j];
    histogram.add(key, rng.uniform() < 1.0 / (1.0 + std::exp(-eta)) ? Outcome::kWhiteWin
                                                                    : Outcome::kBlackWin);
  }
  auto fit = fit_model(histogram, ModelOptions{});
  REQUIRE(fit.ok());
  CHECK((has_warning(*fit, "singular") || has_warning(*fit, "near-singular")));
}

TEST_CASE("bootstrap: keys projected by the builder's fields; models they miss are refused") {
  const std::string pgn = read_fixture("pgn/lichess-100.pgn");
  DatasetBuilder builder;
  builder.enable_bootstrap(20, 3);
  builder.set_key_fields(KeyFields::for_model(ModelOptions{}));
  builder.begin_file("a.pgn");
  builder.feed(pgn.data(), pgn.size());
  builder.end_file();
  const BootstrapHistograms* boot = builder.bootstrap();
  REQUIRE(boot != nullptr);
  CHECK(boot->fields() == KeyFields::for_model(ModelOptions{}));
  Histogram projected;
  builder.histogram().for_each([&](const RowKey& key, const OutcomeCounts& counts) {
    projected.add(boot->fields().project(key), counts);
  });
  CHECK(boot->distinct() <= projected.distinct());
  REQUIRE(builder.pairs() != nullptr);
  CHECK(builder.pairs()->games() > 50);
  CHECK(builder.pairs()->fields() == boot->fields());

  ModelOptions rated;
  rated.rating_offset = true;
  const BootstrapFit refused = bootstrap_model(*boot, rated);
  CHECK(refused.failed == 20);
  CHECK_FALSE(refused.error.empty());
  const BootstrapFit fitted = bootstrap_model(*boot, ModelOptions{});
  CHECK(fitted.error.empty());
  CHECK(fitted.failed < 20);

  // Clustered errors from the builder's pairs.
  auto fit =
      run_analysis(builder.histogram(), AnalysisSettings::defaults(), {}, 1, builder.pairs());
  REQUIRE(fit.ok());
  CHECK(fit->errors == ErrorKind::kClustered);
  CHECK(fit->games == builder.pairs()->games());
}

TEST_CASE("dataset: every .mat row is its own game") {
  DatasetBuilder builder;
  builder.begin_file("rows.mat");
  const std::string mat = " 1 0 0 0 0 2\n 1 0 0 0 0 2\n-1 0 0 0 0 0\n 0 0 0 0 0 1\n";
  builder.feed(mat.data(), mat.size());
  builder.end_file();
  CHECK(builder.pairs()->games() == 4);
  // Identical rows in two games: (k, k) counted once per game, never 4 (= 2²).
  builder.pairs()->for_each([](std::uint64_t, std::uint64_t, const OutcomeCounts& counts) {
    CHECK(counts.total() <= 2);
  });
}

TEST_CASE("bootstrap: byte counts widen to 32 bits without losing a row") {
  // One key in 600 games of 3 rows: its replicate counts pass 255; a rare key stays narrow.
  BootstrapHistograms boot(5, 77), first(5, 77), second(5, 77);
  const RowKey common = RowKey::from_delta({1, 0, 0, 0, 0});
  const RowKey rare = RowKey::from_delta({0, 0, 0, 0, 1});
  std::vector<std::uint64_t> expected(5, 0);
  std::uint32_t weights[5];
  for (std::uint64_t g = 1; g <= 600; ++g) {
    const std::vector<Row> rows(3, Row{common, Outcome::kWhiteWin, g});
    boot.add_game(g, rows);
    (g % 2 ? first : second).add_game(g, rows);
    poisson_weights(77, g, weights, 5);
    for (int b = 0; b < 5; ++b) expected[b] += 3u * weights[b];
  }
  boot.add_game(1000, {Row{rare, Outcome::kDraw, 1000}});
  for (int b = 0; b < 5; ++b) {
    const Histogram replicate = boot.replicate(b);
    REQUIRE(replicate.find(common) != nullptr);
    CHECK((*replicate.find(common))[Outcome::kWhiteWin] == expected[b]);
    CHECK(expected[b] > 255);
  }
  CHECK_FALSE(boot.saturated());
  REQUIRE(first.merge(second).ok());
  for (int b = 0; b < 5; ++b) {
    CHECK((*first.replicate(b).find(common))[Outcome::kWhiteWin] == expected[b]);
  }
}
