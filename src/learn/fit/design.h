// Projects a histogram onto a model's feature vector: one row per distinct x, with the outcome
// weights of every key that maps to it, so a solver step costs O(distinct rows), not O(rows).
//
//   Design design = build_design(histogram, ModelSpec::article());   // x = (ΔP ΔN ΔB ΔR ΔQ)
//
// A model is a list of features, each a function of a RowKey. The article's model uses the five
// deltas; the other kinds (intercept, bishop pair, phase-tapered deltas, side to move, rating
// difference) are the columns richer models add.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "learn/stats/histogram.h"
#include "learn/vocabulary/eval_target.h"

namespace materialist::learn {

enum class FeatureKind : std::uint8_t {
  kDelta,          // ΔP..ΔQ of `piece`
  kDeltaMidgame,   // Δpiece × phase / 24: the middlegame half of a tapered value
  kDeltaEndgame,   // Δpiece × (24 - phase) / 24: the endgame half
  kIntercept,      // 1: an advantage independent of material
  kBishopPair,     // bishop-pair delta, -1..1
  kSideToMove,     // +1 White to move, -1 Black to move
  kRatingDiff,     // (WhiteElo - BlackElo) / 100, 0 when unknown
  kImbalance,      // imbalance term `piece` (an ImbalanceTerm, learn/vocabulary/imbalance.h) of the
                   // counts
  kOwnCount,       // split sides: White's (the player's) count of `piece`
  kOpponentCount,  // split sides: minus Black's (the opponent's) count of `piece`, so that the
                   // symmetric model is own = opponent and both coefficients read as values
};

struct Feature {
  FeatureKind kind = FeatureKind::kDelta;
  int piece = kPawnIndex;  // the delta and count kinds: kPawnIndex..kQueenIndex; kImbalance:
                           // the ImbalanceTerm

  // Names the column for reports: "pawn".."queen", "pawn-mg", "rook-eg", "intercept",
  // "bishop-pair", "side-to-move", "rating-diff", "knight-pawns" (imbalance terms),
  // "own-knight", "opponent-knight" (split sides).
  std::string name() const;
  // The column's value for one recorded position.
  double value(const RowKey& key) const;
};

struct ModelSpec {
  std::vector<Feature> features;
  // kEval: a row's weights are its summed expected scores (as white wins) and the rest (as black
  // wins), from the histogram's targets; kResult: its counts by outcome.
  Target target = Target::kResult;

  // The article's model: the five deltas, no intercept.
  static ModelSpec article();
  // The index of the pawn-delta column (the unit of reported values; with split sides the own
  // pawn's), or -1 if absent.
  int pawn_column() const;
};

struct Design {
  int columns = 0;
  std::vector<std::string> names;                          // one per column
  std::vector<double> x;                                   // rows × columns, row-major
  std::vector<std::array<double, kOutcomeCount>> weights;  // per row, indexed by Outcome

  std::size_t rows() const { return weights.size(); }
  const double* row(std::size_t i) const { return x.data() + i * columns; }
};

// Projects every key of the histogram, merging rows with equal x (rows sorted by x, so the
// result, and every sum a solver makes over it, is independent of insertion order).
Design build_design(const Histogram& histogram, const ModelSpec& model);

}  // namespace materialist::learn
