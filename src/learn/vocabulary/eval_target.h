// The fit's target: the game's result (the article, the default) or the engine's evaluation
// written after each move as lichess does, `{ [%eval 0.17] [%clk 0:03:00] }`.
//
//   EvalReading r = read_eval_comment(" [%eval -1.05,23] [%clk 0:01:00] ");
//   if (r.status == EvalStatus::kValid) use(r.score);   // White's expected score, 0..1
//
// A position's evaluation target is the [%eval] of the move that led to it (White's view),
// turned into White's expected score as lichess does: p = 1 / (1 + exp(−0.00368208 · cp)) with
// the centipawns clamped to ±1000; a mate for White is 1, for Black 0. Histograms and game pairs
// sum the targets as integers in units of 2⁻³² (kTargetUnit), so sums are exact and do not
// depend on the order of the rows, the files or the threads that read them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace materialist::learn {

enum class Target : std::uint8_t {
  kResult,  // the game's result (the article)
  kEval,    // the engine's evaluation of the position, as White's expected score
};
inline constexpr std::array kTargetNames = {"result", "eval"};
static_assert(kTargetNames.size() == static_cast<std::size_t>(Target::kEval) + 1);
const char* target_name(Target target);  // "result", "eval"
std::optional<Target> parse_target(std::string_view name);

// lichess's conversion of centipawns to a win chance (its "winning chances" logistic).
inline constexpr double kEvalLogisticScale = 0.00368208;
inline constexpr double kEvalClampCentipawns = 1000;
// White's expected score for an evaluation in centipawns (White's view), clamped to ±1000.
double expected_score_of_centipawns(double centipawns);

// A target as an integer: round(p · 2³²), 0..2³². Sums of them are exact.
using TargetUnits = std::uint64_t;
inline constexpr TargetUnits kTargetOne = TargetUnits{1} << 32;
inline constexpr TargetUnits kNoTarget = ~TargetUnits{0};  // a row without an evaluation
TargetUnits target_units(double score);
double target_score(TargetUnits units);  // units / 2³²

// Sums of targets over many rows (and products of sums, for the game-clustered errors).
__extension__ typedef unsigned __int128 TargetSum;
inline double target_sum_value(TargetSum sum) {  // in units of 2⁻³²: as a number of rows
  return static_cast<double>(sum) / static_cast<double>(kTargetOne);
}

enum class EvalStatus : std::uint8_t {
  kNone,       // no [%eval] command in the comment
  kValid,      // the first well-formed [%eval] command
  kMalformed,  // only malformed [%eval] commands
};

struct EvalReading {
  EvalStatus status = EvalStatus::kNone;
  double score = 0;       // White's expected score (kValid)
  double centipawns = 0;  // as written (kValid, not a mate), before the clamp
  int mate = 0;           // moves to mate, + White mates, − Black mates; 0 when not a mate
  int malformed = 0;      // malformed [%eval] commands in the comment (all of them)
};

// Reads a comment's text (without its braces): the first well-formed `[%eval X]` where X is
// pawns with an optional sign and decimals ("0.17", "-1.05", "+3"), or a mate "#3" / "#-2",
// optionally followed by ",depth" ("-1.05,23"), with blanks around. Other commands ([%clk …],
// [%emt …]) and text are ignored; a mate in 0 ("#0"), a number with an exponent, junk or a
// missing ']' are malformed. Never reads beyond `comment`.
EvalReading read_eval_comment(std::string_view comment);

// What a reader of many comments needs of each: whether it holds a valid [%eval], how many
// malformed ones, and where the valid one's argument is (a view into the comment). Its value is
// read only when wanted, with eval_argument_score: a row is recorded after few of the moves.
struct EvalScan {
  EvalStatus status = EvalStatus::kNone;
  int malformed = 0;
  std::string_view argument;  // the first valid command's argument ("0.17", "#-2", "-1.05,23")
};
EvalScan scan_eval_comment(std::string_view comment);
// White's expected score of a valid argument (EvalScan::argument).
double eval_argument_score(std::string_view argument);

}  // namespace materialist::learn
