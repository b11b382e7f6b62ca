// The split-sides model: own and opponent's pieces as separate columns, recovered from data
// simulated with different values for one piece, and compared piece by piece.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "learn/fit/split_sides.h"
#include "learn/imbalance_simulation.h"
#include "learn/vocabulary/coefficient_names.h"

using namespace materialist::learn;

TEST_CASE("split sides: columns are own counts and minus the opponent's counts") {
  ModelOptions options;
  options.split_sides = true;
  const ModelSpec spec = model_spec(options);
  REQUIRE(spec.features.size() == 10);
  CHECK(spec.features[1].name() == "own-knight");
  CHECK(spec.features[6].name() == "opponent-knight");
  CHECK(spec.pawn_column() == 0);
  MaterialCounts counts;
  counts.white = {6, 2, 1, 2, 1};
  counts.black = {7, 1, 2, 2, 0};
  RowKey key = RowKey::from_delta(counts.delta());
  key.counts_known = 1;
  key.white_counts = counts.white;
  CHECK(spec.features[1].value(key) == 2);
  CHECK(spec.features[6].value(key) == -1);
  CHECK(spec.features[9].value(key) == 0);
  CHECK(coefficient_label("own-knight", true) == "Player's knight");
  CHECK(coefficient_label("opponent-rook", true) == "Opponent's rook");
  ModelOptions tapered = options;
  tapered.phase_tapered = true;
  CHECK_FALSE(model_conflict(tapered).empty());
}

TEST_CASE("split sides: own and opponent's values recovered, their difference tested") {
  ModelOptions options;
  options.split_sides = true;
  options.intercept = true;
  // Own P N B R Q, opponent's P N B R Q (the opponent's knight worth more), the player's edge.
  const std::vector<double> truth = {0.15, 0.4, 0.5, 0.7, 1.4, 0.15, 0.55, 0.5, 0.7, 1.4, 0.1};
  const Histogram histogram = materialist::testing::simulate_counts(options, truth, 300000, 21);
  auto fit = fit_model(histogram, options);
  REQUIRE(fit.ok());
  if (!fit.ok()) return;
  REQUIRE(fit->coefficients.size() == truth.size());
  for (std::size_t j = 0; j < truth.size(); ++j) {
    const Coefficient& c = fit->coefficients[j];
    CAPTURE(c.name);
    CAPTURE(c.theta.value);
    CAPTURE(c.theta.se);
    CHECK(std::fabs(c.theta.value - truth[j]) < 3 * c.theta.se);
  }
  // Values are in the player's pawns: the opponent's knight ≈ 100 · 0.55 / 0.15.
  CHECK(fit->coefficients[0].value.value == doctest::Approx(100));
  const std::vector<SideComparison> sides = compare_sides(*fit);
  REQUIRE(sides.size() == 5);
  const SideComparison& knight = sides[kKnightIndex];
  CHECK(knight.own.value == doctest::Approx(fit->coefficients[1].value.value));
  CHECK(knight.opponent.value == doctest::Approx(fit->coefficients[6].value.value));
  CHECK(knight.difference.value == doctest::Approx(knight.own.value - knight.opponent.value));
  CHECK(knight.difference.se > 0);
  // The same in log-odds: the coefficients' θ, and θ_own − θ_opponent with its own error.
  CHECK(knight.own_theta.value == doctest::Approx(fit->coefficients[1].theta.value));
  CHECK(knight.opponent_theta.value == doctest::Approx(fit->coefficients[6].theta.value));
  CHECK(knight.difference_theta.value ==
        doctest::Approx(knight.own_theta.value - knight.opponent_theta.value));
  CHECK(knight.difference_theta.se > 0);
  CHECK(std::fabs(knight.difference_theta.value - (0.4 - 0.55)) < 3 * knight.difference_theta.se);
  CHECK(knight.p_value < 1e-4);              // 0.4 against 0.55: told apart
  CHECK(sides[kRookIndex].p_value > 0.001);  // equal in truth

  ModelOptions plain;
  CHECK(compare_sides(*fit_model(histogram, plain)).empty());
  CHECK(pawn_balance_curve(*fit, -2, 2, 4).empty());  // no balance column to move along
  CHECK(pawn_balance_curve(*fit_model(histogram, plain), -2, 2, 4).size() == 5);
}
