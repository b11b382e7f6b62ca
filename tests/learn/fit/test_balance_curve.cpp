#include <doctest/doctest.h>

#include <cmath>

#include "learn/fit/balance_curve.h"
#include "learn/learn_test_util.h"

namespace materialist::learn {
namespace {

OutcomeCounts counts(std::uint64_t black, std::uint64_t draws, std::uint64_t white) {
  OutcomeCounts c;
  c.by_outcome = {black, draws, white};
  return c;
}

}  // namespace

TEST_CASE("balance bins sum rows by 1-3-3-5-9 material balance") {
  Histogram h;
  h.add(RowKey::from_delta({1, 0, 0, 0, 0}), Outcome::kWhiteWin, 3);
  h.add(RowKey::from_delta({1, 0, 0, 0, 0}), Outcome::kDraw, 1);
  h.add(RowKey::from_delta({0, 1, 0, -1, 0}), Outcome::kBlackWin, 2);  // 3 − 5 = −2
  h.add(RowKey::from_delta({-2, 1, 0, 0, 0}), Outcome::kDraw, 5);      // −2 + 3 = +1
  const std::vector<BalanceBin> bins = balance_bins(h);
  REQUIRE(bins.size() == 2);
  CHECK(bins[0].balance == -2);
  CHECK(bins[0].counts == counts(2, 0, 0));
  CHECK(bins[1].balance == 1);
  CHECK(bins[1].counts == counts(0, 6, 3));
  CHECK(bins[1].score() == doctest::Approx((3 + 0.5 * 6) / 9.0));
}

TEST_CASE("balance bins of the evaluation target hold the mean expected score, and α fits it") {
  Histogram h;
  h.enable_targets();
  // Ten rows a knight up, expected score 0.8 each whatever the results; ten a knight down, 0.2.
  h.add(RowKey::from_delta({0, 1, 0, 0, 0}), counts(5, 0, 5), 8 * TargetSum{kTargetOne});
  h.add(RowKey::from_delta({0, -1, 0, 0, 0}), counts(5, 0, 5), 2 * TargetSum{kTargetOne});
  const std::vector<BalanceBin> bins = balance_bins(h);
  REQUIRE(bins.size() == 2);
  REQUIRE(bins[1].targets.has_value());
  CHECK(bins[1].score() == doctest::Approx(0.8));
  CHECK(bins[0].score() == doctest::Approx(0.2));
  const Expected<BalanceFit> fit = fit_balance_alpha(bins);
  REQUIRE(fit.ok());
  CHECK(fit->alpha == doctest::Approx(std::log(4.0) / 3).epsilon(1e-9));  // 1/(1+e^(−3α)) = 0.8
  // Without targets the same rows score ½ (as many wins as losses).
  Histogram results;
  results.add(RowKey::from_delta({0, 1, 0, 0, 0}), counts(5, 0, 5));
  CHECK_FALSE(balance_bins(results)[0].targets.has_value());
  CHECK(balance_bins(results)[0].score() == doctest::Approx(0.5));
}

TEST_CASE("fit_balance_alpha recovers the α that generated the scores") {
  for (double alpha : {0.35, 0.7, 1.4}) {
    std::vector<BalanceBin> bins;
    for (int x = -6; x <= 6; ++x) {
      const double p = 1 / (1 + std::exp(-alpha * x));
      // Expected counts of 10^6 rows per bin, rounded: the maximum-likelihood α is alpha ± 1e-5.
      const auto white = static_cast<std::uint64_t>(std::llround(1e6 * p));
      bins.push_back({x, counts(1000000 - white, 0, white), {}});
    }
    const Expected<BalanceFit> fit = fit_balance_alpha(bins);
    REQUIRE(fit.ok());
    CHECK(fit->alpha == doctest::Approx(alpha).epsilon(1e-4));
    CHECK(fit->iterations < 20);
  }
}

TEST_CASE("draws count half a point for White") {
  // Only draws on both sides of equality: White scores exactly ½ everywhere, so α = 0.
  const std::vector<BalanceBin> draws_only = {{-3, counts(0, 10, 0), {}},
                                              {3, counts(0, 10, 0), {}}};
  const Expected<BalanceFit> flat = fit_balance_alpha(draws_only);
  REQUIRE(flat.ok());
  CHECK(flat->alpha == doctest::Approx(0.0));
  // A draw and a win at +1: score ¾ → α = ln 3.
  const std::vector<BalanceBin> mixed = {{1, counts(0, 1, 1), {}}};
  const Expected<BalanceFit> fit = fit_balance_alpha(mixed);
  REQUIRE(fit.ok());
  CHECK(fit->alpha == doctest::Approx(std::log(3.0)).epsilon(1e-9));
}

TEST_CASE("fit_balance_alpha rejects data without any imbalance") {
  const std::vector<BalanceBin> level = {{0, counts(5, 3, 4), {}}};
  const Expected<BalanceFit> fit = fit_balance_alpha(level);
  REQUIRE_FALSE(fit.ok());
  CHECK(fit.error().code == ErrorCode::kInvalidArgument);
}

TEST_CASE("the article's rows give an α near the article's engine curve") {
  const Histogram h =
      testing::histogram_from_mat(testing::read_fixture("learn/OpenRating.article.mat"));
  REQUIRE(h.totals().total() == 20196);
  const Expected<BalanceFit> fit = fit_balance_alpha(balance_bins(h));
  REQUIRE(fit.ok());
  // The article reads α ≈ 0.7 off its chart of engine games; a steeper or flatter curve would
  // mean the bins or the objective are wrong.
  CHECK(fit->alpha > 0.5);
  CHECK(fit->alpha < 1.0);
  MESSAGE("alpha on OpenRating.article.mat: " << fit->alpha);
}

}  // namespace materialist::learn
