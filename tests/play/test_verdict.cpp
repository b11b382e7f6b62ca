// The match's verdict in words: too few games, better, worse, no difference (with the pairs
// that would halve the interval), and the SPRT's H1, H0, continuing and inconclusive endings;
// the "early" Elo text; the JSON field.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "core/json.h"
#include "play/verdict.h"

using namespace materialist;
using namespace materialist::play;

namespace {

Estimate verdict_pairs_estimate(std::array<std::uint64_t, 5> counts) {
  const Expected<Estimate> e = estimate_pairs(Pentanomial{counts});
  REQUIRE(e.ok());
  return *e;
}

Verdict verdict_of(const std::optional<Estimate>& estimate,
                   MatchProgress progress = MatchProgress::kFinished,
                   const std::optional<SprtResult>& sprt = std::nullopt) {
  return match_verdict({.estimate = estimate,
                        .sprt = sprt,
                        .progress = progress,
                        .first = "mine",
                        .second = "classic"});
}

SprtResult sprt_at(double llr, SprtDecision decision) {
  SprtResult sprt;
  sprt.settings = {.elo0 = 0, .elo1 = 10};
  sprt.llr = llr;
  sprt.lower = -2.94;
  sprt.upper = 2.94;
  sprt.decision = decision;
  return sprt;
}

bool verdict_has(const std::string& text, const std::string& part) {
  INFO(text);
  return text.find(part) != std::string::npos;
}

std::string fixed1(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

}  // namespace

TEST_CASE("verdict: too few games until the interval means something") {
  // No result yet.
  Verdict v = verdict_of(std::nullopt, MatchProgress::kPlaying);
  CHECK(v.kind == VerdictKind::kTooFewGames);
  CHECK(v.text == "too few games yet (0 so far)");
  // Two lopsided pairs: the interval is unbounded (the issue's "± inf").
  const Estimate early = verdict_pairs_estimate({1, 1, 0, 0, 0});
  REQUIRE(std::isinf(early.elo_error95));
  v = verdict_of(early, MatchProgress::kPlaying);
  CHECK(v.kind == VerdictKind::kTooFewGames);
  CHECK(v.text == "too few games yet (4 so far)");
  CHECK(verdict_of(early).text == "too few games to tell (4 played)");
  // A finite interval, but under kVerdictMinGames games.
  const Estimate four_pairs = verdict_pairs_estimate({0, 1, 2, 1, 0});
  REQUIRE(std::isfinite(four_pairs.elo_error95));
  CHECK(verdict_of(four_pairs).kind == VerdictKind::kTooFewGames);
  // Every pair alike: an interval of no width says nothing.
  const Estimate all_even = verdict_pairs_estimate({0, 0, 10, 0, 0});
  REQUIRE(all_even.elo_error95 == 0);
  CHECK(verdict_of(all_even).kind == VerdictKind::kTooFewGames);
  // Every game won: no interval.
  CHECK(verdict_of(verdict_pairs_estimate({0, 0, 0, 0, 12})).kind == VerdictKind::kTooFewGames);
}

TEST_CASE("verdict: better and worse when the 95% interval leaves out an even score") {
  const Estimate strong = verdict_pairs_estimate({1, 3, 10, 20, 30});
  REQUIRE(strong.los > 0.975);
  Verdict v = verdict_of(strong);
  CHECK(v.kind == VerdictKind::kBetter);
  CHECK(verdict_has(v.text, "mine plays better than classic (95%): Elo +"));
  CHECK(verdict_has(v.text, " ± " + fixed1(strong.elo_error95) + " in 128 games"));
  const Estimate weak = verdict_pairs_estimate({30, 20, 10, 3, 1});
  v = verdict_of(weak, MatchProgress::kPlaying);
  CHECK(v.kind == VerdictKind::kWorse);
  CHECK(verdict_has(v.text, "mine plays worse than classic (95%): Elo -"));
  // Just inside the interval: no difference (LOS between 2.5% and 97.5%).
  const Estimate slight = verdict_pairs_estimate({5, 10, 20, 12, 5});
  REQUIRE(slight.los > 0.5);
  REQUIRE(slight.los < 0.975);
  CHECK(verdict_of(slight).kind == VerdictKind::kNoDifference);
}

TEST_CASE("verdict: no difference, with the interval and the pairs that would halve it") {
  const Estimate even = verdict_pairs_estimate({2, 5, 6, 5, 2});  // 20 pairs, score 1/2
  const Verdict v = verdict_of(even);
  CHECK(v.kind == VerdictKind::kNoDifference);
  CHECK(v.text == "no difference found in 40 games (the interval is ±" + fixed1(even.elo_error95) +
                      " Elo; about 60 more pairs would halve it)");
  // Four times the pairs, the same shape: the half width is about halved, as the text says.
  const Estimate four_times = verdict_pairs_estimate({8, 20, 24, 20, 8});
  CHECK(four_times.elo_error95 == doctest::Approx(even.elo_error95 / 2).epsilon(0.02));
  // Unpaired games: more games, not pairs.
  const Expected<Estimate> games = estimate_games(GameCounts{10, 20, 10});
  REQUIRE(games.ok());
  CHECK(verdict_has(verdict_of(*games).text, "about 120 more games would halve it)"));
}

TEST_CASE("verdict: the SPRT's H1, H0, continuing, stopped at the limit and cancelled") {
  const Estimate e = verdict_pairs_estimate({2, 5, 6, 5, 2});
  Verdict v = verdict_of(e, MatchProgress::kFinished, sprt_at(3.01, SprtDecision::kH1));
  CHECK(v.kind == VerdictKind::kH1);
  CHECK(v.text == "H1 accepted: mine against classic is nearer +10 nElo than +0 nElo (LLR 3.01)");
  v = verdict_of(e, MatchProgress::kFinished, sprt_at(-2.95, SprtDecision::kH0));
  CHECK(v.kind == VerdictKind::kH0);
  CHECK(v.text == "H0 accepted: mine against classic is nearer +0 nElo than +10 nElo (LLR -2.95)");
  v = verdict_of(e, MatchProgress::kPlaying, sprt_at(-0.05, SprtDecision::kContinue));
  CHECK(v.kind == VerdictKind::kContinue);
  CHECK(v.text == "SPRT continuing: LLR -0.05 between -2.94 and 2.94 after 40 games");
  v = verdict_of(e, MatchProgress::kFinished, sprt_at(-0.05, SprtDecision::kContinue));
  CHECK(v.kind == VerdictKind::kInconclusive);
  CHECK(v.text ==
        "stopped at the limit, inconclusive: LLR -0.05 between -2.94 and 2.94 after 40 games");
  v = verdict_of(e, MatchProgress::kCancelled, sprt_at(-0.05, SprtDecision::kContinue));
  CHECK(v.kind == VerdictKind::kInconclusive);
  CHECK(verdict_has(v.text, "cancelled before the SPRT decided, inconclusive"));
  // Logistic bounds are named so.
  SprtResult logistic = sprt_at(3.1, SprtDecision::kH1);
  logistic.settings.logistic = true;
  CHECK(verdict_has(verdict_of(e, MatchProgress::kFinished, logistic).text, "+10 Elo than +0 Elo"));
}

TEST_CASE("verdict: an early Elo is marked early, never shown with an infinite interval") {
  CHECK(elo_interval_text(-8.7, 106.8) == "-8.7 ± 106.8");
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(elo_interval_text(-338.0, inf) == "-338.0 (early: no interval yet)");
  CHECK(elo_interval_text(inf, std::nan("")) == "every game won (early: no interval yet)");
  CHECK(elo_interval_text(-inf, std::nan("")) == "every game lost (early: no interval yet)");
  CHECK(elo_interval_text(std::nan(""), std::nan("")) == "n/a");
  // The fastchess-style text too.
  const std::string text = format_estimate_text(verdict_pairs_estimate({1, 1, 0, 0, 0}));
  CHECK(verdict_has(text, "(early: no interval yet)"));
  CHECK_FALSE(verdict_has(text, "inf"));
}

TEST_CASE("verdict: the JSON field holds the kind and the sentence") {
  JsonWriter json;
  json.begin_object();
  write_verdict_field(json, verdict_of(verdict_pairs_estimate({2, 5, 6, 5, 2})));
  json.end_object();
  CHECK(verdict_has(json.take(),
            R"({"verdict":{"kind":"no-difference","text":"no difference found in 40 games)"));
}
