// Game outcomes as the learner counts them, parsed from a Result tag or a result token.
//
//   parse_result("1-0") == Outcome::kWhiteWin;   parse_result("*") == Outcome::kUnknown
//
// The article's tool maps anything that is not 1-0, 0-1 or 1/2-1/2 to a draw; the product keeps
// such games apart (kUnknown) and lets a preset decide (UnknownResultPolicy).
#pragma once

#include <cstdint>
#include <string_view>

namespace materialist::learn {

enum class Outcome : std::uint8_t { kBlackWin, kDraw, kWhiteWin, kUnknown };
inline constexpr int kOutcomeCount = 3;  // the decided outcomes; kUnknown is not counted

// What to do with a game whose result is unknown ('*', missing, anything else).
enum class UnknownResultPolicy : std::uint8_t {
  kSkip,        // count the game as skipped ("unknown-result"), the default
  kTreatAsDraw  // the article's tool: every such game is a draw
};

// Parses "1-0", "0-1", "1/2-1/2" (surrounding whitespace ignored); anything else is kUnknown.
Outcome parse_result(std::string_view text);

// Applies the policy: a known outcome is kept, an unknown one becomes a draw or stays unknown.
constexpr Outcome resolve_outcome(Outcome outcome, UnknownResultPolicy policy) {
  if (outcome == Outcome::kUnknown && policy == UnknownResultPolicy::kTreatAsDraw) {
    return Outcome::kDraw;
  }
  return outcome;
}

// The `.mat` result column: 0 black wins, 1 draw, 2 white wins (-1 for kUnknown).
constexpr int outcome_code(Outcome outcome) {
  return outcome == Outcome::kUnknown ? -1 : static_cast<int>(outcome);
}

// Names an outcome for reports: "black-win", "draw", "white-win", "unknown".
const char* outcome_name(Outcome outcome);

}  // namespace materialist::learn
