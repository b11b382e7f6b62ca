// The play engine's static evaluation: the value set's material (tapered by game phase when the
// set is, with its bishop pair and imbalance terms) plus one positional part that is the same for
// every set, so that in a match only the values differ.
//
// The positional part is Tomasz Michniewski's "Simplified Evaluation Function" (its piece-square
// tables, with the king's endgame table from middlegame to endgame by phase), as published on the
// Chess Programming Wiki (play/square_values.h). EvaluationOptions::material_only turns it off.
// A set with its own piece-square tables (ValueSet::squares: learned by `fit --model squares`, or
// the "simplified" set) is evaluated by those tables alone, material only or not.
#pragma once

#include "chess/position.h"
#include "learn/vocabulary/material.h"
#include "play/value_set.h"

namespace materialist::play {

struct EvaluationOptions {
  bool material_only = false;
};

// The piece-square part of a position, White's point of view, as its middlegame and endgame
// sums (the king's two tables included), before the phase tapers them. The search keeps it move
// by move (positional_after) rather than summing the board at every node it evaluates.
struct Positional {
  int middlegame = 0;
  int endgame = 0;
  friend constexpr bool operator==(const Positional&, const Positional&) = default;
};

class Evaluator {
 public:
  Evaluator(const ValueSet& values, EvaluationOptions options);

  // A position's piece-square sums, from its board.
  Positional positional(const chess::Position& position) const;
  // Those of `after`, a move (or null move) from `before`, whose sums are `sums`: the same as
  // positional(after), from the squares the move changed.
  Positional positional_after(const chess::Position& before, const chess::Position& after,
                              Positional sums) const;

  // Centipawns from the side to move's point of view.
  int evaluate(const chess::Position& position) const;
  // The same, given the position's piece-square sums (positional(position)).
  int evaluate(const chess::Position& position, Positional sums) const;
  // The material part alone, White's point of view (tests, the analyse command's breakdown).
  int material(const chess::Position& position) const;
  // A piece's middlegame value, for move ordering (MVV-LVA); the king counts as 20000.
  int ordering_value(chess::PieceType type) const { return ordering_[chess::index_of(type)]; }

 private:
  // White minus Black per piece kind, the bishop pairs' difference and the phase, as ints.
  struct Balance {
    std::array<int, learn::kPieceKinds> delta{};
    int pairs = 0;
    int phase = 0;
  };
  static Balance balance_of(const learn::MaterialCounts& counts);
  static Balance balance_of(const chess::Position& position);
  // The material part without the imbalance terms, tapered by the balance's phase.
  int tapered(const Balance& balance) const;
  int imbalance(const learn::MaterialCounts& counts) const;

  ValueSet values_;
  bool has_imbalance_ = false;  // any imbalance term non-zero
  // Each piece code's (type + 8 * colour) positional entry on each square, signed for White's
  // point of view; zero for the codes that are no piece.
  std::array<std::array<Positional, 64>, 16> tables_{};
  std::array<int, chess::kPieceTypeCount> ordering_{};
};

// Each side's piece counts; their phase() is the one the evaluation tapers with (learn's: N = B =
// 1, R = 2, Q = 4 over both sides, at most 24 = middlegame, 0 = endgame).
learn::MaterialCounts material_counts(const chess::Position& position);

}  // namespace materialist::play
