// What a match says, in words: the one sentence the CLI's `match` (its text and its --json
// `verdict`) and the page's Play-test window show, during a match and after it, over the
// statistics of match_stats.h.
//
//   Verdict v = match_verdict({.estimate = e, .sprt = std::nullopt,
//                              .progress = MatchProgress::kFinished, .first = "mine",
//                              .second = "classic"});
//   v.kind == VerdictKind::kNoDifference
//   v.text == "no difference found in 40 games (the interval is ±85.3 Elo; about 60 more pairs
//              would halve it)"
//
// The sentences:
//   - too few games: before kVerdictMinGames games, or while the 95% interval is not finite
//     (a lopsided score) or has no width (every pair scored alike): "too few games yet (4 so
//     far)", after the match "too few games to tell (4 played)".
//   - without an SPRT, once the interval means something: "A plays better than B (95%): …" or
//     "… worse …" when the two-sided 95% interval of the score leaves out ½ (LOS above 97.5% or
//     below 2.5%), else "no difference found in N games (the interval is ±X Elo; about M more
//     pairs would halve it)": the half width shrinks as 1/√n, so halving it takes 4 times the
//     pairs, M = 3 × the pairs so far (games when unpaired).
//   - with an SPRT: "H1 accepted: …", "H0 accepted: …"; while it runs "SPRT continuing: …";
//     at the end of the match's pairs "stopped at the limit, inconclusive: …"; cancelled before
//     a decision "cancelled before the SPRT decided, inconclusive: …".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "core/json.h"
#include "play/match_stats.h"

namespace materialist::play {

enum class VerdictKind : std::uint8_t {
  kTooFewGames,
  kBetter,
  kWorse,
  kNoDifference,
  kContinue,      // an SPRT still running
  kH1,            // the SPRT accepted H1
  kH0,            // the SPRT accepted H0
  kInconclusive,  // an SPRT stopped (its pairs played, or cancelled) before it decided
};
inline constexpr std::array kVerdictKindNames = {
    "too-few-games", "better", "worse", "no-difference", "continue", "h1", "h0", "inconclusive"};

// Where the match stands.
enum class MatchProgress : std::uint8_t { kPlaying, kFinished, kCancelled };

// Below this many games (10 pairs) the interval is not read, however narrow: with fewer, the
// normal approximation behind it is poor (six pairs of two outcomes can pass for "95%").
inline constexpr std::uint64_t kVerdictMinGames = 20;

struct VerdictInput {
  std::optional<Estimate> estimate;  // the first set's; nullopt before any result
  std::optional<SprtResult> sprt;    // with an SPRT
  MatchProgress progress = MatchProgress::kPlaying;
  std::string first = "A", second = "B";  // the sets' names, the estimate's first side first
};

struct Verdict {
  VerdictKind kind = VerdictKind::kTooFewGames;
  std::string text;
};

Verdict match_verdict(const VerdictInput& input);

// Writes `"verdict": {"kind": "no-difference", "text": "…"}` into an open object.
void write_verdict_field(JsonWriter& json, const Verdict& verdict);

// An Elo and its 95% half width for a line of figures: "-8.7 ± 106.8", or "-338.0 (early: no
// interval yet)" while the interval is not finite; "n/a" before any game.
std::string elo_interval_text(double elo, double error95);

}  // namespace materialist::play
