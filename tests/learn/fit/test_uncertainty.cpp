// Uncertainty: algebra, the delta method, the Poisson bootstrap over games, and comparisons,
// on hand-computed numbers and on games simulated from known parameters (fixed seeds).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/hash.h"
#include "learn/fit/compare.h"
#include "learn/fit/models.h"
#include "learn/fit/uncertainty.h"
#include "learn/random.h"
#include "learn/stats/bootstrap_histograms.h"

using namespace materialist::learn;

namespace {

using materialist::testing::Rng;

struct Game {
  std::uint64_t id;
  std::vector<Row> rows;
};

// Games of `rows_per_game` copies of one random position, all sharing the game's outcome drawn
// from σ(θ·Δ): rows within a game are perfectly correlated, as a game's positions are.
std::vector<Game> simulate_games(const std::vector<double>& theta, int games, int rows_per_game,
                                 std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Game> result;
  for (int g = 0; g < games; ++g) {
    RowKey key;
    key.delta = {
        static_cast<std::int8_t>(rng.between(-3, 3)), static_cast<std::int8_t>(rng.between(-1, 1)),
        static_cast<std::int8_t>(rng.between(-1, 1)), static_cast<std::int8_t>(rng.between(-1, 1)),
        static_cast<std::int8_t>(rng.between(-1, 1))};
    double eta = 0;
    for (int j = 0; j < 5; ++j) eta += theta[j] * key.delta[j];
    const Outcome outcome =
        rng.uniform() < 1.0 / (1.0 + std::exp(-eta)) ? Outcome::kWhiteWin : Outcome::kBlackWin;
    result.push_back({1000u + static_cast<std::uint64_t>(g) * 37u,
                      std::vector<Row>(rows_per_game, Row{key, outcome})});
  }
  return result;
}

Histogram histogram_of(const std::vector<Game>& games) {
  Histogram histogram;
  for (const Game& game : games) {
    for (const Row& row : game.rows) histogram.add(row.key, row.outcome);
  }
  return histogram;
}

BootstrapHistograms bootstrap_of(const std::vector<Game>& games, int replicates) {
  BootstrapHistograms bootstrap(replicates, 12345);
  for (const Game& game : games) bootstrap.add_game(game.id, game.rows);
  return bootstrap;
}

}  // namespace

TEST_CASE("uncertainty: symmetric inverse and solve") {
  const std::vector<double> a = {4, 2, 0.6, 2, 5, 1, 0.6, 1, 3};
  auto inverse = invert_symmetric(a, 3);
  REQUIRE(inverse.ok());
  if (!inverse.ok()) return;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      double product = 0;
      for (int k = 0; k < 3; ++k) product += a[i * 3 + k] * (*inverse)[k * 3 + j];
      CHECK(product == doctest::Approx(i == j ? 1.0 : 0.0).scale(1.0));
    }
  }
  std::vector<double> b = {1, 2, 3};
  REQUIRE(solve_symmetric(a, b, 3));
  for (int i = 0; i < 3; ++i) {
    double row = 0;
    for (int k = 0; k < 3; ++k) row += a[i * 3 + k] * b[k];
    CHECK(row == doctest::Approx(i + 1.0));
  }
  CHECK_FALSE(invert_symmetric({1, 2, 2, 1}, 2).ok());  // indefinite
  CHECK_FALSE(invert_symmetric({1, 0, 0}, 2).ok());     // wrong size
}

TEST_CASE("uncertainty: delta method for pawn-normalised values, by hand") {
  // θ = (θP, θN) = (2, 6), Σ = diag(0.01, 0.04): value = 300;
  // gradient = (−100·6/4, 100/2) = (−150, 50); variance = 150²·0.01 + 50²·0.04 = 325.
  const std::vector<double> theta = {2, 6};
  const std::vector<double> covariance = {0.01, 0, 0, 0.04};
  const Estimate knight = ratio_estimate(theta, covariance, 1, 0);
  CHECK(knight.value == doctest::Approx(300));
  CHECK(knight.se == doctest::Approx(std::sqrt(325.0)));
  const Estimate pawn = ratio_estimate(theta, covariance, 0, 0);
  CHECK(pawn.value == doctest::Approx(100));
  CHECK(pawn.se == doctest::Approx(0).scale(1.0));  // the unit has no error

  // A correlated linear contrast: var(θ1 − θ2) = 0.01 + 0.04 − 2·0.015 = 0.02.
  const Estimate difference = linear_estimate(theta, {0.01, 0.015, 0.015, 0.04}, {-1, 1});
  CHECK(difference.value == doctest::Approx(4));
  CHECK(difference.se == doctest::Approx(std::sqrt(0.02)));
  CHECK(std::isnan(ratio_estimate({0, 1}, covariance, 1, 0).value));  // θP = 0: no unit
}

TEST_CASE("uncertainty: normal p-values, difference tests, percentiles") {
  CHECK(normal_two_sided_p(1.959963985) == doctest::Approx(0.05).epsilon(1e-6));
  CHECK(normal_two_sided_p(0) == doctest::Approx(1));
  const DifferenceTest test = difference_test({350, 6}, {330, 8});
  CHECK(test.difference == doctest::Approx(20));
  CHECK(test.se == doctest::Approx(10));
  CHECK(test.z == doctest::Approx(2));
  CHECK(test.p_value == doctest::Approx(0.0455).epsilon(1e-3));

  std::vector<double> samples;
  for (int i = 100; i >= 0; --i) samples.push_back(i);
  samples.push_back(NAN);
  const Interval interval = percentile_interval(samples, 0.95);
  CHECK(interval.low == doctest::Approx(2.5));
  CHECK(interval.high == doctest::Approx(97.5));
  CHECK(standard_deviation({1, 2, 3, 4}) == doctest::Approx(std::sqrt(5.0 / 3.0)));
}

TEST_CASE("poisson weights: the draws of the CDF summed on every draw, bit for bit") {
  // The first implementation, kept here: its draws are the saved bootstrap intervals' weights.
  const auto reference = [](std::uint64_t seed, std::uint64_t game, int replicates) {
    std::vector<std::uint32_t> out;
    std::uint64_t state = seed;
    state = materialist::splitmix64(state) ^ game;
    state = materialist::splitmix64(state);
    for (int r = 0; r < replicates; ++r) {
      const double u = static_cast<double>(materialist::splitmix64(state) >> 11) * 0x1.0p-53;
      double probability = std::exp(-1.0);
      double cumulative = probability;
      std::uint32_t k = 0;
      while (u >= cumulative && k < 64) {
        ++k;
        probability /= k;
        cumulative += probability;
      }
      out.push_back(k);
    }
    return out;
  };
  std::vector<std::uint32_t> draws(200);
  std::uint32_t largest = 0;
  for (std::uint64_t seed : {1ull, 7ull, 0x9E3779B97F4A7C15ull}) {
    for (std::uint64_t game = 0; game < 8000; ++game) {
      poisson_weights(seed, game * 977, draws.data(), 200);
      const std::vector<std::uint32_t> expected = reference(seed, game * 977, 200);
      REQUIRE(draws == expected);
      largest = std::max(largest, *std::max_element(draws.begin(), draws.end()));
    }
  }
  CHECK(largest >= 9);  // past the eight terms counted without branches
}

TEST_CASE("poisson weights: deterministic per game, Poisson(1) in distribution") {
  std::uint32_t a[8], b[8], c[8];
  poisson_weights(7, 42, a, 8);
  poisson_weights(7, 42, b, 8);
  poisson_weights(7, 43, c, 8);
  CHECK(std::equal(a, a + 8, b));
  CHECK_FALSE(std::equal(a, a + 8, c));

  // Over 40 000 draws: mean 1, variance 1, P(0) = e⁻¹.
  double sum = 0, sum_squares = 0, zeros = 0;
  const int games = 2000, replicates = 20;
  std::uint32_t w[replicates];
  for (int g = 0; g < games; ++g) {
    poisson_weights(99, game_id(0, static_cast<std::uint64_t>(g) * 811), w, replicates);
    for (std::uint32_t k : w) {
      sum += k;
      sum_squares += static_cast<double>(k) * k;
      zeros += k == 0;
    }
  }
  const double n = games * replicates;
  CHECK(sum / n == doctest::Approx(1.0).epsilon(0.02));
  CHECK(sum_squares / n - (sum / n) * (sum / n) == doctest::Approx(1.0).epsilon(0.04));
  CHECK(zeros / n == doctest::Approx(std::exp(-1.0)).epsilon(0.03));
  CHECK(game_id(1, 5) != game_id(0, 5));
}

TEST_CASE("bootstrap histograms: shards merge to the same replicates in any order") {
  const std::vector<Game> games = simulate_games({0.6, 1.7, 1.9, 2.6, 4.8}, 300, 3, 1);
  const BootstrapHistograms whole = bootstrap_of(games, 16);
  BootstrapHistograms first(16, 12345), second(16, 12345);
  for (std::size_t g = games.size(); g-- > 0;) {  // reverse order, split in two shards
    (g % 2 ? first : second).add_game(games[g].id, games[g].rows);
  }
  REQUIRE(first.merge(second).ok());
  for (int r = 0; r < 16; ++r) CHECK(first.replicates()[r] == whole.replicates()[r]);
  // Replicates differ from each other and from the data, and hold about as many rows.
  const Histogram data = histogram_of(games);
  CHECK_FALSE(whole.replicates()[0] == whole.replicates()[1]);
  CHECK_FALSE(whole.replicates()[0] == data);
  CHECK(whole.replicates()[0].totals().total() ==
        doctest::Approx(static_cast<double>(data.totals().total())).epsilon(0.2));
  CHECK_FALSE(first.merge(BootstrapHistograms(16, 1)).ok());
  CHECK_FALSE(first.merge(BootstrapHistograms(8, 12345)).ok());
}

TEST_CASE("bootstrap histograms: merged counts past 255 widen, as added ones do") {
  // A key in every game: its counts pass 255 in the whole read but in neither half (merged
  // narrow into narrow), or in one half only (narrow into wide, wide into narrow); a key in
  // every tenth game stays narrow, and one only the second half has is new to the first.
  Row common, rare, late;
  common.key = RowKey::from_delta({1, 0, 0, 0, 0});
  rare.key = RowKey::from_delta({0, 1, 0, 0, 0});
  late.key = RowKey::from_delta({0, 0, 1, 0, 0});
  common.outcome = rare.outcome = late.outcome = Outcome::kWhiteWin;
  const int games = 400;
  const auto rows_of = [&](int g) {
    std::vector<Row> rows = {common};
    if (g % 10 == 0) rows.push_back(rare);
    if (g >= 300) rows.push_back(late);
    return rows;
  };
  const auto max_count = [](const BootstrapHistograms& b) {
    std::uint64_t most = 0;
    for (std::size_t i = 0; i < b.distinct(); ++i) {
      for (std::uint64_t c : b.counts_at(i)) most = std::max(most, c);
    }
    return most;
  };
  for (int split : {200, 50, 350}) {
    CAPTURE(split);
    BootstrapHistograms whole(6, 77), first(6, 77), second(6, 77);
    for (int g = 0; g < games; ++g) {
      whole.add_game(static_cast<std::uint64_t>(g), rows_of(g));
      (g < split ? first : second).add_game(static_cast<std::uint64_t>(g), rows_of(g));
    }
    if (split == 200) {
      CHECK(max_count(first) <= 255);
      CHECK(max_count(second) <= 255);
    } else {
      CHECK(std::max(max_count(first), max_count(second)) > 255);
    }
    REQUIRE(max_count(whole) > 255);
    BootstrapHistograms backward = second;
    REQUIRE(backward.merge(first).ok());
    REQUIRE(first.merge(second).ok());
    for (int r = 0; r < 6; ++r) {
      CHECK(first.replicate(r) == whole.replicate(r));
      CHECK(backward.replicate(r) == whole.replicate(r));
    }
    CHECK(first.distinct() == whole.distinct());
    CHECK_FALSE(first.saturated());
  }
}

TEST_CASE(
    "bootstrap over games: matches the Hessian error for independent rows, and sees "
    "within-game correlation the Hessian cannot") {
  const std::vector<double> theta = {0.6, 1.7, 1.9, 2.6, 4.8};
  const ModelOptions options;
  for (int rows_per_game : {1, 4}) {
    CAPTURE(rows_per_game);
    const std::vector<Game> games = simulate_games(theta, 3000, rows_per_game, 2);
    auto fit = fit_model(histogram_of(games), options);
    REQUIRE(fit.ok());
    if (!fit.ok()) return;
    const BootstrapFit boot = bootstrap_model(bootstrap_of(games, 200), options);
    CHECK(boot.replicates == 200);
    CHECK(boot.failed == 0);
    for (int j = 0; j < 5; ++j) {
      CAPTURE(j);
      const double hessian_se = fit->coefficients[j].theta.se;
      // 4 copies of every row: the Hessian believes 4× the information; the truth is 1×.
      const double expected = hessian_se * std::sqrt(static_cast<double>(rows_per_game));
      CHECK(boot.coefficients[j].theta_sd == doctest::Approx(expected).epsilon(0.2));
      const Interval ci = boot.coefficients[j].theta_interval;
      CHECK(ci.low < fit->theta[j]);
      CHECK(ci.high > fit->theta[j]);
    }
    // The knight's value (pawn = 100): the interval contains the truth 283.
    const Interval knight = boot.coefficients[1].value_interval;
    CHECK(knight.low < 100 * 1.7 / 0.6);
    CHECK(knight.high > 100 * 1.7 / 0.6);
    CHECK(boot.coefficients[1].value_sd ==
          doctest::Approx(fit->coefficients[1].value.se * std::sqrt(1.0 * rows_per_game))
              .epsilon(0.25));
  }
}

TEST_CASE("compare: Capablanca relations with errors, tables and two-dataset differences") {
  // Truth: P 100, N 300, B 350, R 500, Q 900 (θP = 0.5): B > N and B > 3P hold, N = 3P exactly
  // (undecided), B + N = R + 1.5P and Q + P = 2R exactly (consistent).
  const std::vector<double> truth = {0.5, 1.5, 1.75, 2.5, 4.5};
  // (Equalities are checked at 95%: about one seed in twenty calls them violated by chance.)
  const std::vector<Game> games = simulate_games(truth, 40000, 1, 5);
  const ModelOptions options;
  auto fit = fit_model(histogram_of(games), options);
  REQUIRE(fit.ok());
  if (!fit.ok()) return;
  const std::vector<RelationEstimate> relations = capablanca_relations(*fit);
  REQUIRE(relations.size() == 5);
  CHECK(relations[0].relation == "B > N");
  CHECK(relations[0].verdict == Verdict::kHolds);
  CHECK(relations[0].margin.value ==
        doctest::Approx(fit->coefficients[2].value.value - fit->coefficients[1].value.value));
  CHECK(relations[1].verdict == Verdict::kHolds);
  CHECK(relations[2].verdict == Verdict::kUndecided);
  CHECK(relations[3].equality);

  CHECK(relations[3].verdict == Verdict::kHolds);
  CHECK(relations[4].verdict == Verdict::kHolds);
  for (const RelationEstimate& r : relations) CHECK(r.margin.se > 0);

  // A second dataset whose knight is weaker (N 240): Bishop − Knight differs between the sets.
  const std::vector<double> other_truth = {0.5, 1.2, 1.75, 2.5, 4.5};
  const std::vector<Game> other_games = simulate_games(other_truth, 40000, 1, 4);
  auto other = fit_model(histogram_of(other_games), options);
  REQUIRE(other.ok());
  if (!other.ok()) return;
  std::vector<DatasetFit> sets = {
      {"A", *fit, bootstrap_model(bootstrap_of(games, 100), options)},
      {"B", *other, bootstrap_model(bootstrap_of(other_games, 100), options)}};
  const Contrast bishop_minus_knight = {{"bishop", 1}, {"knight", -1}};
  const DatasetDifference different = compare_contrast(sets[0], sets[1], bishop_minus_knight);
  CHECK(different.a.value == doctest::Approx(relations[0].margin.value));
  CHECK(different.z_test.difference < -30);  // truth: 50 − 110 = −60
  CHECK(different.z_test.p_value < 1e-4);
  CHECK(different.has_bootstrap);
  CHECK(different.bootstrap_interval.high < 0);
  CHECK(different.bootstrap_p < 0.02);
  // The rook has the same value in both: no difference to find.
  const DatasetDifference same = compare_contrast(sets[0], sets[1], {{"rook", 1}});
  CHECK(same.z_test.p_value > 0.01);
  CHECK(same.bootstrap_interval.low < 0);
  CHECK(same.bootstrap_interval.high > 0);

  // The table: every coefficient of every set, with errors and bootstrap intervals.
  ModelOptions with_intercept;
  with_intercept.intercept = true;
  auto third = fit_model(histogram_of(other_games), with_intercept);
  REQUIRE(third.ok());
  if (!third.ok()) return;
  sets.push_back({"C", *third, std::nullopt});
  const ComparisonTable table = compare_fits(sets);
  CHECK(table.datasets == std::vector<std::string>{"A", "B", "C"});
  REQUIRE(table.rows.size() == 6);
  CHECK(table.rows[5].name == "intercept");
  CHECK_FALSE(table.rows[5].cells[0].present);
  CHECK(table.rows[5].cells[2].present);
  const ComparisonCell& knight_a = table.rows[1].cells[0];
  CHECK(knight_a.coefficient.value.value == doctest::Approx(fit->coefficients[1].value.value));
  CHECK(knight_a.value_interval.low < knight_a.coefficient.value.value);
  CHECK(knight_a.value_interval.high > knight_a.coefficient.value.value);
  CHECK(std::isnan(table.rows[1].cells[2].value_interval.low));  // C has no bootstrap
  REQUIRE(table.relations.size() == 3);
  CHECK(table.relations[1][0].margin.value > table.relations[0][0].margin.value);  // N weaker in B
}
