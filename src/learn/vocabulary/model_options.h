// What a model fits: the target, the outcome coding, its optional columns and the solver's
// tolerances. The read side chooses what to keep of each position from it
// (learn/stats/key_fields.h).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "learn/vocabulary/eval_target.h"
#include "learn/vocabulary/imbalance.h"

namespace materialist::learn {

enum class OutcomeModel : std::uint8_t {
  kDrawsOut,    // the article: draws left out, binary logistic
  kFractional,  // y ∈ {0, ½, 1}
  kOrdinal,     // three outcomes with a fitted draw margin c
};
inline constexpr std::array kOutcomeModelNames = {"draws-out", "fractional", "ordinal"};
static_assert(kOutcomeModelNames.size() == static_cast<std::size_t>(OutcomeModel::kOrdinal) + 1);
const char* outcome_model_name(OutcomeModel model);  // "draws-out", "fractional", "ordinal"
std::optional<OutcomeModel> parse_outcome_model(std::string_view name);

struct ModelOptions {
  // What is fitted (learn/vocabulary/eval_target.h): the game's result, or the engine's evaluation
  // as an expected score (a fractional target: draws-out and fractional fit it alike; the ordinal
  // model and the rating offset are refused).
  Target target = Target::kResult;
  OutcomeModel outcomes = OutcomeModel::kDrawsOut;
  bool intercept = false;     // a constant column: White's first-move advantage
  bool side_to_move = false;  // +1 White to move, −1 Black to move in the recorded position
  bool bishop_pair = false;   // bishop-pair delta column
  bool phase_tapered = false;  // each piece as Δ·phase/24 (mg) and Δ·(1 − phase/24) (eg) columns
  bool rating_offset = false;  // ln10/400 · ΔElo as a fixed offset; rows without ratings left out
  // Imbalance columns (learn/vocabulary/imbalance.h), after the others; they read each side's
  // counts.
  ImbalanceSet imbalances = 0;
  // Own P..Q and the opponent's P..Q as ten columns in place of the five deltas (meant for a
  // player's point of view: "own" is the player's side); reads each side's counts.
  bool split_sides = false;
  double lambda = 1e-6;  // λ Σ θj², as the article
  double gradient_tolerance = 1e-10;
  int max_iterations = 100;

  bool operator==(const ModelOptions&) const = default;
};

// True when the model reads each side's absolute counts (imbalance terms, split sides).
bool needs_counts(const ModelOptions& options);

// Why the model cannot be fitted as asked, or "": split sides with tapered values; the
// evaluation target with the ordinal model or the rating offset.
std::string model_conflict(const ModelOptions& options);

}  // namespace materialist::learn
