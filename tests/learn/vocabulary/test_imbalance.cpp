// Imbalance terms: each definition on hand-made counts, the key's counts packed and projected,
// and each term recovered from data simulated with it (and its wrong sign rejected).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "learn/fit/models.h"
#include "learn/imbalance_simulation.h"
#include "learn/stats/key_fields.h"
#include "learn/vocabulary/imbalance.h"

using namespace materialist::learn;

namespace {

// Counts from "P N B R Q" for White and Black.
MaterialCounts counts_of(std::array<std::uint8_t, kPieceKinds> white,
                         std::array<std::uint8_t, kPieceKinds> black) {
  MaterialCounts counts;
  counts.white = white;
  counts.black = black;
  return counts;
}

int value(ImbalanceTerm term, std::array<std::uint8_t, kPieceKinds> white,
          std::array<std::uint8_t, kPieceKinds> black) {
  return imbalance_value(term, counts_of(white, black));
}

}  // namespace

TEST_CASE("imbalance: knight and rook per own pawn beyond five, White's minus Black's") {
  // Two knights with 8 pawns against one knight with 3: 2·3 − 1·(−2) = 8.
  CHECK(value(ImbalanceTerm::kKnightPawns, {8, 2, 0, 0, 0}, {3, 1, 0, 0, 0}) == 8);
  CHECK(value(ImbalanceTerm::kKnightPawns, {3, 1, 0, 0, 0}, {8, 2, 0, 0, 0}) == -8);
  CHECK(value(ImbalanceTerm::kKnightPawns, {5, 2, 0, 0, 0}, {5, 0, 0, 0, 0}) == 0);
  CHECK(value(ImbalanceTerm::kKnightPawns, MaterialCounts::start().white,
              MaterialCounts::start().black) == 0);
  CHECK(value(ImbalanceTerm::kRookPawns, {7, 0, 0, 2, 0}, {4, 0, 0, 1, 0}) == 5);  // 2·2 − 1·(−1)
  CHECK(value(ImbalanceTerm::kRookPawns, {7, 2, 0, 0, 0}, {4, 0, 0, 0, 0}) == 0);  // no rooks
}

TEST_CASE("imbalance: rook pair, queen and rook, minor pair") {
  CHECK(value(ImbalanceTerm::kRookPair, {0, 0, 0, 2, 0}, {0, 0, 0, 1, 1}) == 1);
  CHECK(value(ImbalanceTerm::kRookPair, {0, 0, 0, 2, 0}, {0, 0, 0, 3, 0}) == 0);
  CHECK(value(ImbalanceTerm::kRookPair, {0, 0, 0, 1, 0}, {0, 0, 0, 2, 0}) == -1);
  CHECK(value(ImbalanceTerm::kQueenRook, {0, 0, 0, 1, 1}, {0, 0, 0, 2, 0}) == 1);
  CHECK(value(ImbalanceTerm::kQueenRook, {0, 0, 0, 0, 1}, {0, 0, 0, 1, 1}) == -1);
  CHECK(value(ImbalanceTerm::kQueenRook, {0, 0, 0, 2, 1}, {0, 0, 0, 1, 1}) == 0);
  // Knight pair and knight + bishop count; the bishop pair (with or without a knight) does not.
  CHECK(value(ImbalanceTerm::kMinorPair, {0, 2, 0, 0, 0}, {0, 0, 1, 0, 0}) == 1);
  CHECK(value(ImbalanceTerm::kMinorPair, {0, 1, 1, 0, 0}, {0, 0, 2, 0, 0}) == 1);
  CHECK(value(ImbalanceTerm::kMinorPair, {0, 1, 2, 0, 0}, {0, 1, 0, 0, 0}) == 0);
  CHECK(value(ImbalanceTerm::kMinorPair, {0, 1, 0, 0, 0}, {0, 2, 1, 0, 0}) == -1);
}

TEST_CASE("imbalance: the exchange with and without other minors") {
  // White: rook + knight against Black's two minors (one minor each besides): minors left.
  CHECK(value(ImbalanceTerm::kExchangeMinors, {6, 1, 0, 2, 1}, {6, 1, 1, 1, 1}) == 1);
  CHECK(value(ImbalanceTerm::kExchangeNoMinors, {6, 1, 0, 2, 1}, {6, 1, 1, 1, 1}) == 0);
  // Rook against bishop, no other minor: no minors.
  CHECK(value(ImbalanceTerm::kExchangeNoMinors, {5, 0, 0, 1, 0}, {5, 0, 1, 0, 0}) == 1);
  CHECK(value(ImbalanceTerm::kExchangeMinors, {5, 0, 0, 1, 0}, {5, 0, 1, 0, 0}) == 0);
  // Black has the exchange.
  CHECK(value(ImbalanceTerm::kExchangeNoMinors, {4, 1, 0, 0, 0}, {4, 0, 0, 1, 0}) == -1);
  CHECK(value(ImbalanceTerm::kExchangeMinors, {4, 1, 1, 1, 0}, {4, 1, 0, 2, 0}) == -1);
  // Not the exchange: a rook for two minors, an extra queen, a rook for nothing.
  CHECK(value(ImbalanceTerm::kExchangeMinors, {4, 0, 0, 2, 0}, {4, 2, 0, 1, 0}) == 0);
  CHECK(value(ImbalanceTerm::kExchangeNoMinors, {4, 0, 0, 1, 1}, {4, 1, 0, 0, 0}) == 0);
  CHECK(value(ImbalanceTerm::kExchangeNoMinors, {4, 0, 0, 1, 0}, {4, 0, 0, 0, 0}) == 0);
}

TEST_CASE("imbalance: term lists parse, print and refuse unknown words") {
  auto all = parse_imbalance_list("all");
  REQUIRE(all.ok());
  CHECK(*all == kAllImbalances);
  CHECK(imbalance_list_text(*all) ==
        "knight-pawns,rook-pawns,rook-pair,queen-rook,minor-pair,exchange-minors,"
        "exchange-no-minors,queen-knight,rook-bishop,opposite-bishops,last-pawn");
  auto two = parse_imbalance_list("rook-pair,knight-pawns");
  REQUIRE(two.ok());
  CHECK(imbalance_list_text(*two) == "knight-pawns,rook-pair");
  auto bad = parse_imbalance_list("knight-pawns,bishop-pawns");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("'bishop-pawns'") != std::string::npos);
  CHECK(bad.error().message.find("exchange-no-minors") != std::string::npos);
  CHECK_FALSE(parse_imbalance_list("knight-pawns,").ok());
}

TEST_CASE("imbalance: a key with counts packs and unpacks exactly; others pack as before") {
  RowKey plain = RowKey::from_delta({1, -1, 0, 0, 0});
  plain.phase = 20;
  CHECK((plain.pack() >> 60) == 0);  // unchanged layout: bit 60 clear
  CHECK(RowKey::unpack(plain.pack()) == plain);

  const MaterialCounts counts = counts_of({7, 2, 2, 1, 1}, {8, 1, 2, 2, 0});
  RowKey key = RowKey::from_delta(counts.delta());
  key.counts_known = 1;
  key.white_counts = counts.white;
  key.bishop_pair = static_cast<std::int8_t>(counts.bishop_pair_delta());
  key.phase = static_cast<std::uint8_t>(counts.phase());
  key.black_to_move = 1;
  key.rating_known = 1;
  key.rating_diff = -230;
  CHECK(RowKey::unpack(key.pack()) == key);
  CHECK(key.counts().black == counts.black);
  CHECK((key.pack() >> 60) == 1);

  // Fields not kept project to 0 and still round-trip.
  KeyFields fields = KeyFields::none();
  fields.counts = true;
  const RowKey projected = fields.project(key);
  CHECK(projected.phase == 0);
  CHECK(projected.counts_known == 1);
  CHECK(RowKey::unpack(projected.pack()) == projected);
  CHECK(KeyFields::none().project(key).counts_known == 0);
}

TEST_CASE("imbalance: only models with these terms keep the counts") {
  ModelOptions plain;
  plain.bishop_pair = true;
  CHECK_FALSE(KeyFields::for_model(plain).counts);
  ModelOptions imbalance = plain;
  imbalance.imbalances = kAllImbalances;
  CHECK(KeyFields::for_model(imbalance).counts);
  CHECK_FALSE(KeyFields::for_model(plain).covers(imbalance));
  CHECK(KeyFields::for_model(plain).missing_for(imbalance) == "each side's piece counts");
  ModelOptions split;
  split.split_sides = true;
  CHECK(KeyFields::for_model(split).counts);
}

TEST_CASE("imbalance: every term recovered from simulated games, its wrong sign rejected") {
  ModelOptions options;
  options.bishop_pair = true;
  options.imbalances = (1u << 7) - 1;  // the seven terms before the article's four (below)
  // P N B R Q, bishop pair, then the seven terms in ImbalanceTerm order.
  const std::vector<double> truth = {0.15,  0.45,  0.5,  0.7,  1.4,  0.1,  0.03,
                                     -0.05, -0.15, -0.2, 0.12, 0.25, -0.25};
  const Histogram histogram = materialist::testing::simulate_counts(options, truth, 400000, 13);
  auto fit = fit_model(histogram, options);
  REQUIRE(fit.ok());
  if (!fit.ok()) return;
  REQUIRE(fit->coefficients.size() == truth.size());
  CHECK(fit->warnings.empty());
  for (std::size_t j = 0; j < truth.size(); ++j) {
    const Coefficient& c = fit->coefficients[j];
    CAPTURE(c.name);
    CAPTURE(c.theta.value);
    CAPTURE(c.theta.se);
    CHECK(c.identified);
    CHECK(std::fabs(c.theta.value - truth[j]) < 3 * c.theta.se);
    CHECK(std::fabs(c.theta.value + truth[j]) > 3 * c.theta.se);  // the wrong sign is rejected
  }
  CHECK(fit->coefficients[6].name == "knight-pawns");
  CHECK(fit->coefficients[12].name == "exchange-no-minors");
  // A value in pawn = 100 units: centipawns per knight per pawn beyond five.
  CHECK(fit->coefficients[6].value.value == doctest::Approx(100 * fit->theta[6] / fit->theta[0]));
}

TEST_CASE("imbalance: the article's four terms recovered from simulated games") {
  ModelOptions options;
  options.bishop_pair = true;
  for (ImbalanceTerm term : {ImbalanceTerm::kQueenKnight, ImbalanceTerm::kRookBishop,
                             ImbalanceTerm::kOppositeBishops, ImbalanceTerm::kLastPawn}) {
    options.imbalances =
        static_cast<ImbalanceSet>(options.imbalances | (1u << static_cast<int>(term)));
  }
  // P N B R Q, bishop pair, queen-knight, rook-bishop, opposite-bishops (per pawn of 1-3-3-5-9
  // balance: a third less weight), last-pawn.
  const std::vector<double> truth = {0.15, 0.45, 0.5, 0.7, 1.4, 0.1, 0.12, -0.1, -0.05, 0.3};
  const Histogram histogram = materialist::testing::simulate_counts(options, truth, 400000, 17);
  auto fit = fit_model(histogram, options);
  REQUIRE(fit.ok());
  if (!fit.ok()) return;
  REQUIRE(fit->coefficients.size() == truth.size());
  CHECK(fit->warnings.empty());
  for (std::size_t j = 0; j < truth.size(); ++j) {
    const Coefficient& c = fit->coefficients[j];
    CAPTURE(c.name);
    CAPTURE(c.theta.value);
    CAPTURE(c.theta.se);
    CHECK(c.identified);
    CHECK(std::fabs(c.theta.value - truth[j]) < 3 * c.theta.se);
    CHECK(std::fabs(c.theta.value + truth[j]) > 3 * c.theta.se);
  }
  CHECK(fit->coefficients[6].name == "queen-knight");
  CHECK(fit->coefficients[7].name == "rook-bishop");
  CHECK(fit->coefficients[8].name == "opposite-bishops");
  CHECK(fit->coefficients[9].name == "last-pawn");
  // "all" has them too, and the words parse.
  CHECK(has_term(kAllImbalances, ImbalanceTerm::kLastPawn));
  const auto words = parse_imbalance_list("queen-knight,rook-bishop,opposite-bishops,last-pawn");
  REQUIRE(words);
  CHECK(*words == options.imbalances);
}

TEST_CASE("imbalance: the article's terms' definitions") {
  MaterialCounts c;
  c.white = {1, 1, 1, 1, 1};
  c.black = {3, 0, 1, 2, 0};
  CHECK(imbalance_value(ImbalanceTerm::kQueenKnight, c) == 1);
  CHECK(imbalance_value(ImbalanceTerm::kRookBishop, c) == 0);       // both sides have R and B
  CHECK(imbalance_value(ImbalanceTerm::kOppositeBishops, c) == 0);  // not on opposite colours
  c.opposite_bishops = true;
  // 1-3-3-5-9 balance: (1 - 3) + 3 + 0 + (5 - 10) + 9 = 5 pawns.
  CHECK(imbalance_value(ImbalanceTerm::kOppositeBishops, c) == 5);
  CHECK(imbalance_value(ImbalanceTerm::kLastPawn, c) == 0);  // phase 13: not an endgame
  c.white = {1, 0, 1, 1, 0};
  c.black = {2, 0, 1, 1, 0};  // phase 6
  CHECK(imbalance_value(ImbalanceTerm::kLastPawn, c) == 1);
  c.black = {1, 0, 1, 1, 0};
  CHECK(imbalance_value(ImbalanceTerm::kLastPawn, c) == 0);  // both have their last pawn
  // The key keeps opposite bishops with the counts.
  RowKey key = RowKey::from_delta(c.delta());
  key.counts_known = 1;
  key.white_counts = c.white;
  key.opposite_bishops = 1;
  CHECK(RowKey::unpack(key.pack()) == key);
  CHECK(RowKey::unpack(key.pack()).counts().opposite_bishops);
  CHECK(KeyFields::none().project(key).opposite_bishops == 0);
}

TEST_CASE("imbalance: a term computed wrongly is not recovered (knight per opponent's pawn)") {
  // Data simulated with knights gaining from the opponent's pawns: the fitted knight-pawns term
  // (own pawns) misses the simulated value by far more than 3 standard errors.
  ModelOptions options;
  options.imbalances = 1u << static_cast<int>(ImbalanceTerm::kKnightPawns);
  materialist::testing::Rng rng(5);
  Histogram histogram;
  for (int i = 0; i < 200000; ++i) {
    const RowKey key = materialist::testing::random_counts_key(rng);
    const MaterialCounts c = key.counts();
    const double wrong = c.white[kKnightIndex] * (c.black[kPawnIndex] - 5) -
                         c.black[kKnightIndex] * (c.white[kPawnIndex] - 5);
    double eta = 0.06 * wrong;
    const std::array<double, kPieceKinds> piece = {0.15, 0.45, 0.5, 0.7, 1.4};
    for (int p = 0; p < kPieceKinds; ++p) eta += piece[p] * key.delta[p];
    histogram.add(
        key, rng.uniform() < 1 / (1 + std::exp(-eta)) ? Outcome::kWhiteWin : Outcome::kBlackWin);
  }
  auto fit = fit_model(histogram, options);
  REQUIRE(fit.ok());
  if (!fit.ok()) return;
  const Coefficient& c = fit->coefficients[5];
  CHECK(c.name == "knight-pawns");
  CHECK(std::fabs(c.theta.value - 0.06) > 3 * c.theta.se);
}

TEST_CASE("imbalance: a model needing counts is refused on rows without them (.mat rows)") {
  Histogram histogram;
  histogram.add(RowKey::from_delta({1, 0, 0, 0, 0}), Outcome::kWhiteWin, 30);
  histogram.add(RowKey::from_delta({-1, 0, 0, 0, 0}), Outcome::kBlackWin, 30);
  ModelOptions options;
  options.imbalances = kAllImbalances;
  auto fit = fit_model(histogram, options);
  REQUIRE_FALSE(fit.ok());
  CHECK(fit.error().message.find(".mat rows") != std::string::npos);
}
