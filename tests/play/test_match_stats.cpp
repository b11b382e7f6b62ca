// Match statistics: hand-computed estimates, symmetry, the extremes, SPRT decisions and
// validation, and ratings of several sets recovered from the counts their ratings predict.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/json.h"
#include "play/match_stats.h"
#include "play/rating_table.h"

using namespace materialist;
using namespace materialist::play;

namespace {

const double kLn10Reference = std::log(10.0);  // computed here, not the library's constant

Estimate pairs_estimate(std::array<std::uint64_t, 5> counts) {
  const Expected<Estimate> e = estimate_pairs(Pentanomial{counts});
  REQUIRE(e.ok());
  return *e;
}

Estimate games_estimate(std::uint64_t wins, std::uint64_t draws, std::uint64_t losses) {
  const Expected<Estimate> e = estimate_games(GameCounts{wins, draws, losses});
  REQUIRE(e.ok());
  return *e;
}

std::string json_of(const Estimate& e, const std::optional<SprtResult>& sprt = std::nullopt) {
  JsonWriter json;
  json.begin_object();
  write_estimate_fields(json, e, sprt);
  json.end_object();
  return json.take();
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("W/D/L counts give fastchess's score, Elo, nElo, LOS and draw ratio") {
  // 300 wins, 412 draws, 288 losses: score 0.506, variance 0.146964 per game, se = sqrt(var/1000);
  // elo = 400 log10(0.506 / 0.494); nelo = 0.006 / sqrt(var) * 800 / ln 10.
  const Estimate e = games_estimate(300, 412, 288);
  CHECK(e.game_count == 1000);
  CHECK(e.pair_count == 0);
  CHECK(e.score == doctest::Approx(0.506).epsilon(1e-12));
  CHECK(e.variance == doctest::Approx(0.146964).epsilon(1e-12));
  CHECK(e.elo == doctest::Approx(4.169427166460877).epsilon(1e-12));
  CHECK(e.elo_error95 == doctest::Approx(16.525243891225628).epsilon(1e-10));
  CHECK(e.nelo ==
        doctest::Approx(0.006 / std::sqrt(0.146964) * 800 / kLn10Reference).epsilon(1e-12));
  CHECK(e.nelo_error95 ==
        doctest::Approx(kZ95 / std::sqrt(1000.0) * 800 / kLn10Reference).epsilon(1e-12));
  CHECK(e.los == doctest::Approx(0.68967603350061).epsilon(1e-10));
  CHECK(e.draw_ratio == doctest::Approx(0.412).epsilon(1e-12));
}

TEST_CASE("pentanomial counts use the pairs' variance, per game sigma sqrt 2 times the pair's") {
  // Pairs scoring 0, 1/2, 1, 1 1/2, 2: 10, 20, 40, 20, 10 -> score 0.5, variance of the half
  // score (0.25^2 * 20 + 0.5^2 * 10) * 2 / 100 = 0.075.
  const Estimate even = pairs_estimate({10, 20, 40, 20, 10});
  CHECK(even.game_count == 200);
  CHECK(even.pair_count == 100);
  CHECK(even.score == doctest::Approx(0.5));
  CHECK(even.variance == doctest::Approx(0.075).epsilon(1e-12));
  CHECK(even.elo == doctest::Approx(0).epsilon(1e-12));
  CHECK(even.los == doctest::Approx(0.5));
  // nElo's 95% half width is z / sqrt(2 pairs) * 800 / ln 10 whatever the counts.
  CHECK(even.nelo_error95 == doctest::Approx(kZ95 / std::sqrt(200.0) * 800 / kLn10Reference));
  CHECK(std::isnan(even.draw_ratio));  // draws unknown from pairs alone

  const Estimate e = pairs_estimate({5, 40, 100, 60, 10});
  const double score = (40 * 0.25 + 100 * 0.5 + 60 * 0.75 + 10 * 1.0) / 215;
  CHECK(e.score == doctest::Approx(score).epsilon(1e-12));
  CHECK(e.elo == doctest::Approx(-400 * std::log10(1 / score - 1)).epsilon(1e-12));
  const double sigma_game = std::sqrt(2 * e.variance);
  CHECK(e.nelo ==
        doctest::Approx((score - 0.5) / sigma_game * 800 / kLn10Reference).epsilon(1e-12));
}

TEST_CASE("the W/D/L given with pairs must be the same games") {
  const Pentanomial pairs{{5, 40, 100, 60, 10}};
  // 110 wins, 240 draws, 80 losses: 430 games, 230 points, draws between 100 and 300.
  const Expected<Estimate> ok = estimate_pairs(pairs, GameCounts{110, 240, 80});
  REQUIRE(ok.ok());
  CHECK(ok->draw_ratio == doctest::Approx(240.0 / 430));
  CHECK_FALSE(estimate_pairs(pairs, GameCounts{110, 240, 81}).ok());  // 431 games
  CHECK_FALSE(estimate_pairs(pairs, GameCounts{112, 238, 80}).ok());  // 231 points
  CHECK_FALSE(estimate_pairs(pairs, GameCounts{181, 98, 151}).ok());  // too few draws
  CHECK_FALSE(estimate_pairs(pairs, GameCounts{79, 302, 49}).ok());   // too many draws
  CHECK(estimate_pairs(pairs, GameCounts{180, 100, 150}).ok());       // the fewest possible
}

TEST_CASE("swapping the sides negates Elo and nElo and turns LOS into 1 - LOS") {
  const Pentanomial pairs{{3, 21, 50, 30, 7}};
  const Estimate a = *estimate_pairs(pairs);
  const Estimate b = *estimate_pairs(swapped(pairs));
  CHECK(b.score == doctest::Approx(1 - a.score).epsilon(1e-12));
  CHECK(b.elo == doctest::Approx(-a.elo).epsilon(1e-12));
  CHECK(b.nelo == doctest::Approx(-a.nelo).epsilon(1e-12));
  CHECK(b.elo_error95 == doctest::Approx(a.elo_error95).epsilon(1e-12));
  CHECK(b.los == doctest::Approx(1 - a.los).epsilon(1e-12));
  const Estimate c = games_estimate(70, 20, 50);
  const Estimate d = *estimate_games(swapped(GameCounts{70, 20, 50}));
  CHECK(d.elo == doctest::Approx(-c.elo).epsilon(1e-12));
  CHECK(d.los == doctest::Approx(1 - c.los).epsilon(1e-12));
}

TEST_CASE("all wins and all losses give infinite Elo, written as null and listed as infinite") {
  const Estimate wins = pairs_estimate({0, 0, 0, 0, 50});
  CHECK(wins.score == 1);
  CHECK(std::isinf(wins.elo));
  CHECK(wins.elo > 0);
  CHECK(std::isnan(wins.elo_error95));
  CHECK(wins.nelo > 0);
  CHECK(std::isinf(wins.nelo));
  CHECK(wins.los == 1);
  const std::string json = json_of(wins);
  CHECK(has(json, "\"elo\":null"));
  CHECK(has(json, "\"eloError95\":null"));
  CHECK(has(json, "\"infinite\":{\"elo\":\"+inf\",\"nelo\":\"+inf\"}"));
  CHECK_FALSE(has(json, "inf,"));
  CHECK_FALSE(has(json, "nan"));

  const Estimate losses = games_estimate(0, 0, 12);
  CHECK(losses.elo < 0);
  CHECK(std::isinf(losses.elo));
  CHECK(losses.los == 0);
  CHECK(has(json_of(losses), "\"infinite\":{\"elo\":\"-inf\",\"nelo\":\"-inf\"}"));
  CHECK(has(format_estimate_text(losses), "Elo: -inf +/- n/a"));
}

TEST_CASE("only draws: Elo 0 with no spread, nElo undefined, LOS one half") {
  const Estimate e = pairs_estimate({0, 0, 40, 0, 0});
  CHECK(e.elo == 0);
  CHECK(e.elo_error95 == 0);
  CHECK(std::isnan(e.nelo));
  CHECK(std::isnan(e.nelo_error95));
  CHECK(e.los == 0.5);
  const std::string json = json_of(e);
  CHECK(has(json, "\"nelo\":null"));
  CHECK(has(json, "\"infinite\":{}"));
  const Estimate games = games_estimate(0, 25, 0);
  CHECK(games.draw_ratio == 1);
  CHECK(std::isnan(games.nelo));
}

TEST_CASE("no draws, one pair, one game and no games") {
  const Estimate decisive = games_estimate(70, 0, 50);
  CHECK(decisive.score == doctest::Approx(70.0 / 120));
  CHECK(decisive.draw_ratio == 0);
  CHECK(decisive.variance == doctest::Approx(70.0 / 120 * 50.0 / 120));

  // One pair scoring 1 1/2: Elo 400 log10 3, no spread so no error; the score bound is inside.
  const Estimate pair = pairs_estimate({0, 0, 0, 1, 0});
  CHECK(pair.elo == doctest::Approx(190.84850188786498).epsilon(1e-12));
  CHECK(pair.elo_error95 == 0);
  CHECK(std::isinf(pair.nelo));
  CHECK(pair.los == 1);

  // One game won: score 1.
  const Estimate game = games_estimate(1, 0, 0);
  CHECK(std::isinf(game.elo));

  // A lopsided score whose upper 95% bound passes 1: the Elo interval is unbounded.
  const Estimate lopsided = pairs_estimate({0, 0, 0, 1, 3});
  CHECK(std::isfinite(lopsided.elo));
  CHECK(std::isinf(lopsided.elo_error95));
  CHECK(has(json_of(lopsided), "\"infinite\":{\"eloError95\":\"+inf\"}"));

  const Estimate none = pairs_estimate({0, 0, 0, 0, 0});
  CHECK(none.game_count == 0);
  for (const double v : {none.score, none.elo, none.elo_error95, none.nelo, none.los}) {
    CHECK(std::isnan(v));
  }
  const std::string json = json_of(none);
  CHECK(has(json, "\"score\":null"));
  CHECK(has(json, "\"infinite\":{}"));
}

TEST_CASE("counts beyond 2^52 games are refused") {
  CHECK_FALSE(estimate_pairs(Pentanomial{{kMaxGames, 0, 0, 0, 0}}).ok());
  CHECK_FALSE(estimate_games(GameCounts{kMaxGames, 1, 0}).ok());
  CHECK(estimate_games(GameCounts{kMaxGames / 2, 0, kMaxGames / 2}).ok());
}

TEST_CASE("the SPRT decides clear cases and continues on even ones") {
  const SprtSettings normalized{.elo0 = 0, .elo1 = 5};
  const Expected<SprtResult> won = run_sprt(normalized, Pentanomial{{0, 0, 0, 0, 1000}});
  REQUIRE(won.ok());
  CHECK(won->decision == SprtDecision::kH1);
  CHECK(won->lower == doctest::Approx(std::log(0.05 / 0.95)));
  CHECK(won->upper == doctest::Approx(std::log(0.95 / 0.05)));
  const Expected<SprtResult> lost = run_sprt(normalized, Pentanomial{{1000, 0, 0, 0, 0}});
  REQUIRE(lost.ok());
  CHECK(lost->decision == SprtDecision::kH0);
  const Expected<SprtResult> even = run_sprt(normalized, Pentanomial{{100, 200, 300, 200, 100}});
  REQUIRE(even.ok());
  CHECK(even->decision == SprtDecision::kContinue);
  CHECK(even->llr < 0);  // exactly even: closer to H0 (elo 0) than to H1
  const SprtSettings logistic{.elo0 = 0, .elo1 = 5, .logistic = true};
  const Expected<SprtResult> games = run_sprt(logistic, GameCounts{5000, 2000, 3000});
  REQUIRE(games.ok());
  CHECK(games->decision == SprtDecision::kH1);
  CHECK(std::string(kSprtDecisionNames[static_cast<int>(games->decision)]) == "H1");
}

TEST_CASE("the SPRT's LLR matches fishtest's LLRcalc on fixed counts") {
  // Values from fishtest's LLR_normalized (stats/LLRcalc.py), its fixed point run to 1e-15.
  const Expected<SprtResult> a =
      run_sprt(SprtSettings{.elo0 = 0, .elo1 = 5}, Pentanomial{{5, 40, 100, 60, 10}});
  REQUIRE(a.ok());
  CHECK(a->llr == doctest::Approx(0.6621059954507459).epsilon(1e-9));
  const Expected<SprtResult> b =
      run_sprt(SprtSettings{.elo0 = -1.75, .elo1 = 0.25}, Pentanomial{{100, 200, 300, 200, 100}});
  REQUIRE(b.ok());
  CHECK(b->llr == doctest::Approx(0.022367165510739362).epsilon(1e-9));
  // All wins, regularized (empty outcomes count 1e-3).
  const Expected<SprtResult> c =
      run_sprt(SprtSettings{.elo0 = 0, .elo1 = 5}, Pentanomial{{0, 0, 0, 0, 1000}});
  REQUIRE(c.ok());
  CHECK(c->llr == doctest::Approx(20.14371143275977).epsilon(1e-8));
  // No games: the regularized counts say next to nothing.
  const Expected<SprtResult> none =
      run_sprt(SprtSettings{.elo0 = 0, .elo1 = 5}, Pentanomial{{0, 0, 0, 0, 0}});
  REQUIRE(none.ok());
  CHECK(std::abs(none->llr) < 1e-3);
  CHECK(none->decision == SprtDecision::kContinue);
}

TEST_CASE("impossible SPRT settings are errors") {
  CHECK_FALSE(validate_sprt({.elo0 = 0, .elo1 = 5}).has_value());
  CHECK(validate_sprt({.elo0 = 5, .elo1 = 5}).has_value());
  CHECK(validate_sprt({.elo0 = 5, .elo1 = 0}).has_value());
  CHECK(validate_sprt({.elo0 = 0, .elo1 = 5, .alpha = 0}).has_value());
  CHECK(validate_sprt({.elo0 = 0, .elo1 = 5, .alpha = 0.6}).has_value());
  CHECK(validate_sprt({.elo0 = 0, .elo1 = 5, .beta = -0.1}).has_value());
  CHECK(validate_sprt({.elo0 = 0, .elo1 = 5, .alpha = 0.5, .beta = 0.5}) == std::nullopt);
  CHECK(validate_sprt({.elo0 = 0, .elo1 = std::nan("")}).has_value());
  CHECK(validate_sprt({.elo0 = -HUGE_VAL, .elo1 = 0}).has_value());
  CHECK(validate_sprt({.elo0 = 0, .elo1 = 250}).has_value());  // normalized: beyond 200
  CHECK_FALSE(validate_sprt({.elo0 = 0, .elo1 = 250, .logistic = true}).has_value());
  const Expected<SprtResult> refused = run_sprt({.elo0 = 5, .elo1 = 0}, GameCounts{1, 1, 1});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == ErrorCode::kInvalidArgument);
  CHECK(has(refused.error().message, "elo0 must be less than elo1"));
}

TEST_CASE("the JSON writer writes every key, the SPRT's too") {
  const Estimate e = *estimate_pairs(Pentanomial{{5, 40, 100, 60, 10}}, GameCounts{110, 240, 80});
  const Expected<SprtResult> sprt =
      run_sprt(SprtSettings{.elo0 = 0, .elo1 = 5, .logistic = true}, *e.pentanomial);
  REQUIRE(sprt.ok());
  const std::string json = json_of(e, *sprt);
  for (const char* key : {"\"pentanomial\":[5,40,100,60,10]",
                          "\"wins\":110",
                          "\"draws\":240",
                          "\"losses\":80",
                          "\"games\":430",
                          "\"pairs\":215",
                          "\"score\":",
                          "\"elo\":",
                          "\"eloError95\":",
                          "\"nelo\":",
                          "\"neloError95\":",
                          "\"los\":",
                          "\"drawRatio\":",
                          "\"sprt\":{\"elo0\":0,\"elo1\":5",
                          "\"alpha\":0.05",
                          "\"bounds\":\"logistic\"",
                          "\"llr\":",
                          "\"lower\":",
                          "\"upper\":",
                          "\"result\":\"continue\""}) {
    CHECK_MESSAGE(has(json, key), key);
  }
  const std::string text = format_estimate_text(e, *sprt);
  CHECK(has(text, "Elo: 24.28 +/- 19.89, nElo: 40.27 +/- 32.84\n"));
  CHECK(has(text, "Ptnml(0-2): [5, 40, 100, 60, 10], W/D/L: 110/240/80\n"));
  CHECK(has(text, "LLR: 1.04 (-2.94, 2.94) [0.00, 5.00] logistic, continue\n"));
  // Unpaired games: no pentanomial, no pairs.
  const std::string games = json_of(games_estimate(3, 4, 5));
  CHECK(has(games, "\"pentanomial\":null"));
  CHECK(has(games, "\"pairs\":null"));
}

TEST_CASE("two sets: the table's errors are the closed form of the Fisher information") {
  // G games at expected score E: var(r0 - r1) = 1 / (c^2 G E (1 - E)), c = ln 10 / 400; with the
  // mean fixed each rating is half the difference.
  const double e = score_of_elo(100);
  const Expected<RatingTable> t = rate_sets(2, {TableResult{0, 1, 1000, 1000 * e}});
  REQUIRE(t.ok());
  const double c = kLn10Reference / 400;
  CHECK(t->sets[0].rating == doctest::Approx(50).epsilon(1e-9));
  CHECK(t->sets[1].rating == doctest::Approx(-50).epsilon(1e-9));
  const double sd = 1 / std::sqrt(c * c * 1000 * e * (1 - e));
  CHECK(t->sets[0].error95 == doctest::Approx(kZ95 * sd / 2).epsilon(1e-9));
  CHECK_FALSE(t->regularized);
}

TEST_CASE("the rating table recovers known ratings from the counts they predict") {
  const std::vector<double> truth{0, 40, -25, 120, -60};
  const double mean = (0 + 40 - 25 + 120 - 60) / 5.0;
  std::vector<TableResult> results;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    for (std::size_t j = i + 1; j < truth.size(); ++j) {
      const std::uint64_t games = 100000 + 1000 * (i + 2 * j);  // unequal schedules
      results.push_back({i, j, games, games * score_of_elo(truth[i] - truth[j])});
    }
  }
  const Expected<RatingTable> t = rate_sets(truth.size(), results);
  REQUIRE(t.ok());
  double sum = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    CHECK(t->sets[i].rating == doctest::Approx(truth[i] - mean).epsilon(1e-7));
    CHECK(t->sets[i].error95 > 0);
    CHECK(t->sets[i].error95 < 5);
    sum += t->sets[i].rating;
  }
  CHECK(std::abs(sum) < 1e-9);
  CHECK(t->iterations < 20);

  // Anchored: set 3 at 2000, its error 0, the differences unchanged.
  const Expected<RatingTable> a = rate_sets(truth.size(), results, {.anchor = 3, .level = 2000});
  REQUIRE(a.ok());
  CHECK(a->sets[3].rating == doctest::Approx(2000));
  CHECK(a->sets[3].error95 == 0);
  CHECK(a->sets[1].rating == doctest::Approx(2000 - 80).epsilon(1e-9));
  CHECK(a->sets[1].error95 > t->sets[1].error95);  // the anchor's uncertainty moves to the rest

  // Pentanomial results count as their games' points.
  const TableResult p = table_result(0, 1, Pentanomial{{1, 2, 3, 4, 5}});
  CHECK(p.games == 30);
  CHECK(p.points == doctest::Approx(0.5 * 2 + 3 + 1.5 * 4 + 2 * 5));
}

TEST_CASE("a set that won every game makes the table add one virtual draw per pair") {
  const std::vector<TableResult> results{table_result(0, 1, GameCounts{20, 0, 0}),
                                         table_result(0, 2, GameCounts{15, 0, 0}),
                                         table_result(1, 2, GameCounts{30, 40, 25})};
  const Expected<RatingTable> t = rate_sets(3, results);
  REQUIRE(t.ok());
  CHECK(t->regularized);
  CHECK(std::isfinite(t->sets[0].rating));
  CHECK(t->sets[0].rating > t->sets[1].rating);
  CHECK(t->sets[0].score == 1);  // real games only
  CHECK(t->sets[0].games == 35);
  JsonWriter json;
  json.begin_object();
  write_rating_table_fields(json, *t);
  json.end_object();
  CHECK(has(json.str(), "\"regularized\":true"));
  CHECK(has(format_rating_table_text(*t), "virtual draw"));
}

TEST_CASE("rating tables that cannot be rated are errors") {
  const TableResult r01 = table_result(0, 1, GameCounts{5, 5, 5});
  CHECK_FALSE(rate_sets(1, {}).ok());
  CHECK_FALSE(rate_sets(3, {r01}).ok());  // set 2 has no games
  CHECK_FALSE(rate_sets(4, {r01, table_result(2, 3, GameCounts{1, 1, 1})}).ok());  // two islands
  CHECK_FALSE(rate_sets(2, {table_result(0, 0, GameCounts{1, 1, 1})}).ok());
  CHECK_FALSE(rate_sets(2, {table_result(0, 2, GameCounts{1, 1, 1})}).ok());
  CHECK_FALSE(rate_sets(2, {TableResult{0, 1, 10, 11}}).ok());  // more points than games
  CHECK_FALSE(rate_sets(2, {r01}, {.anchor = 2}).ok());
  const Expected<RatingTable> islands =
      rate_sets(4, {r01, table_result(2, 3, GameCounts{1, 1, 1})});
  REQUIRE_FALSE(islands.ok());
  CHECK(has(islands.error().message, "not connected"));
}
