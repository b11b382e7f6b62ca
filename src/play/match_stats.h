// The statistics engine testers use, on the results of a match between two value sets and of a
// table of several: score, Elo and normalized Elo with 95% errors, likelihood of superiority, the
// generalized SPRT, and maximum-likelihood ratings of more than two sets. fastchess and fishtest
// are the references (see docs below each declaration); scripts/match_stats_crosscheck.py checks
// every number here against an independent numpy/scipy implementation.
//
//   Pentanomial pairs{{10, 40, 100, 40, 10}};                  // game pairs scoring 0 ... 2
//   Expected<Estimate> e = estimate_pairs(pairs);               // e->elo, e->elo_error95, ...
//   Expected<SprtResult> s = run_sprt({.elo0 = 0, .elo1 = 5}, pairs);  // s->llr, s->decision
//
// Conventions at the extremes (no NaN or infinity ever reaches JSON as a number):
//   - In C++ an undefined value is NaN and an unbounded one is +/-infinity. The JSON writer
//     writes both as null and lists every infinite key in the object "infinite" ({"elo": "+inf"});
//     a null key not listed there is undefined. The text formatter writes "n/a", "+inf", "-inf".
//   - No games: every estimate is undefined (score too); the SPRT still runs (on the regularized
//     counts, as fishtest) and continues.
//   - Score 1 (all won) or 0 (all lost): elo and nelo are +/-inf, eloError95 undefined.
//   - A 95% score bound at or beyond 0 or 1 (few games, a lopsided score): eloError95 = +inf.
//   - Zero variance (all pairs alike, e.g. only draws): nelo is +/-inf, or undefined at score
//     0.5; neloError95 undefined; eloError95 = 0; los = 1, 0, or 0.5 at score 0.5.
//   - Counts from a pentanomial alone do not say how many games were drawn (a pair scoring 1 is
//     a draw twice or a win and a loss): wins, draws, losses and drawRatio are null unless the
//     W/D/L counts are given as well.
//   - The text formatter writes an unbounded eloError95 beside a finite elo as "(early: no
//     interval yet)", not as a figure.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/json.h"
#include "core/statistics.h"

namespace materialist::play {

// Counts of game pairs (the same opening, each side once with each colour) by the first side's
// pair score: counts[k] pairs scored k/2 points (0, 1/2, 1, 1 1/2, 2).
struct Pentanomial {
  std::array<std::uint64_t, 5> counts{};

  std::uint64_t pairs() const;
  double points() const;  // the first side's points over all pairs
  bool operator==(const Pentanomial&) const = default;
};

// Single games (unpaired, or the pairs' games counted one by one), the first side's view.
struct GameCounts {
  std::uint64_t wins = 0, draws = 0, losses = 0;

  std::uint64_t games() const { return wins + draws + losses; }
  double points() const { return static_cast<double>(wins) + 0.5 * static_cast<double>(draws); }
  bool operator==(const GameCounts&) const = default;
};

// The same results seen from the other side.
Pentanomial swapped(const Pentanomial& pairs);
GameCounts swapped(const GameCounts& games);

// Counts above this many games are refused: every sum stays exact in a double.
inline constexpr std::uint64_t kMaxGames = std::uint64_t{1} << 52;
// The two-sided 95% quantile of the standard normal distribution.
// Normalized Elo per unit of t = (mu - 1/2) / sigma per game (fishtest's nelo_divided_by_nt).
inline constexpr double kNeloPerT = 347.43558552260146;  // 800 / ln 10

// Logistic Elo of a score in (0, 1): -400 log10(1/score - 1). +/-inf at 1 and 0.
double elo_of_score(double score);
// The score of a logistic Elo difference: 1 / (1 + 10^(-elo/400)).
double score_of_elo(double elo);

// What a match says about the first side. Per fastchess (elo_pentanomial.cpp, elo_wdl.cpp):
//   score = mean game score; variance = the variance of one unit's score (a pair's score / 2 for
//   pentanomial counts, a game's for trinomial) with n units; se = sqrt(variance / n);
//   elo = elo_of_score(score); eloError95 = (elo(score + z se) - elo(score - z se)) / 2;
//   nelo = (score - 1/2) / sigma_game * 800/ln10 with sigma_game = sqrt(2 variance) for pairs
//   (Van den Bergh, "Comments on Normalized Elo": the per-game sigma of a pair's half score) and
//   sqrt(variance) for games; neloError95 the same half width in nelo; los = Phi((score - 1/2) /
//   se); drawRatio = draws / games. z = kZ95.
struct Estimate {
  std::optional<Pentanomial> pentanomial;  // the pairs, when the games were paired
  std::optional<GameCounts> games;         // W/D/L, when known
  std::uint64_t game_count = 0;
  std::uint64_t pair_count = 0;  // 0 when unpaired
  double score = 0;
  double variance = 0;  // per pair (of the half score) or per game, see above
  double elo = 0;
  double elo_error95 = 0;
  double nelo = 0;
  double nelo_error95 = 0;
  double los = 0;
  double draw_ratio = 0;
};

// From game pairs; `games` (optional) must be the same games' W/D/L: 2 games per pair, the same
// points, and a number of draws the pairs allow (an error says which check failed). Also an
// error beyond kMaxGames.
Expected<Estimate> estimate_pairs(const Pentanomial& pairs,
                                  const std::optional<GameCounts>& games = std::nullopt);
// From unpaired games (trinomial). An error beyond kMaxGames.
Expected<Estimate> estimate_games(const GameCounts& games);

// ---- the generalized SPRT (fishtest's stats/LLRcalc.py and sprt.py, fastchess's sprt.cpp) ----

struct SprtSettings {
  double elo0 = 0, elo1 = 0;  // H0: elo = elo0, H1: elo = elo1
  double alpha = 0.05, beta = 0.05;
  bool logistic = false;  // bounds in logistic Elo; normalized Elo by default
};

// "continue", "H0" (accepted: llr <= lower), "H1" (accepted: llr >= upper), fishtest's reading.
enum class SprtDecision : std::uint8_t { kContinue, kH0, kH1 };
inline constexpr std::array kSprtDecisionNames = {"continue", "H0", "H1"};

struct SprtResult {
  SprtSettings settings;
  double llr = 0;
  double lower = 0;  // ln(beta / (1 - alpha))
  double upper = 0;  // ln((1 - beta) / alpha)
  SprtDecision decision = SprtDecision::kContinue;
};

// Largest |bound| in normalized Elo: the t-value MLE starts from the uniform distribution (as
// fishtest's MLE_t_value), whose first step needs |t| below about 0.94 for pairs (231 nElo).
inline constexpr double kMaxNormalizedBound = 200.0;

// An error for impossible settings: a non-finite number, elo0 >= elo1, alpha or beta outside
// (0, 0.5], normalized bounds beyond kMaxNormalizedBound.
std::optional<Error> validate_sprt(const SprtSettings& settings);

// The generalized log-likelihood ratio of H1 against H0 on pentanomial counts (5 outcomes 0, 1/4,
// ..., 1) or W/D/L (3 outcomes 0, 1/2, 1), as fishtest: empty outcomes count 1e-3 (regularize);
// logistic bounds constrain the expected score to score_of_elo(elo) (MLE_expected), normalized
// ones the t-value (mu - 1/2) / sigma to nelo / (800/ln10), times sqrt 2 for pairs (MLE_t_value);
// LLR = N sum_i p^_i ln(p1_i / p0_i). Errors: invalid settings, a constrained MLE that fails.
Expected<SprtResult> run_sprt(const SprtSettings& settings, const Pentanomial& pairs);
Expected<SprtResult> run_sprt(const SprtSettings& settings, const GameCounts& games);

// ---- output ----

// Writes into an open object: pentanomial (5 counts or null), wins, draws, losses (or null),
// games, pairs (null when unpaired), score, elo, eloError95, nelo, neloError95, los, drawRatio,
// infinite ({key: "+inf" | "-inf"} for each infinite one, see above), and with an SPRT, sprt
// {elo0, elo1, alpha, beta, bounds: "normalized" | "logistic", llr, lower, upper, result}.
void write_estimate_fields(JsonWriter& json, const Estimate& estimate,
                           const std::optional<SprtResult>& sprt = std::nullopt);

// A few lines for a terminal, as fastchess prints them:
//   Elo: 12.30 +/- 8.10, nElo: 20.15 +/- 13.26
//   LOS: 99.85 %, DrawRatio: 41.20 %, Games: 1000, Points: 517.5 (51.75 %)
//   Ptnml(0-2): [10, 100, 200, 150, 40], W/D/L: 300/412/288
//   LLR: 1.23 (-2.94, 2.94) [0.00, 5.00] normalized, continue
std::string format_estimate_text(const Estimate& estimate,
                                 const std::optional<SprtResult>& sprt = std::nullopt);

}  // namespace materialist::play
