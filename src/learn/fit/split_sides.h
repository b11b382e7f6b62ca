// The split-sides model read piece by piece: own against opponent's value with the difference,
// its error and the test of "own = opponent" (the symmetric model), from one fit's covariance
// (the columns are fitted together, so the difference's error uses their covariance).
//
//   ModelOptions model;  model.split_sides = true;      // from a player's point of view
//   for (const SideComparison& s : compare_sides(fit)) print(s.piece, s.own, s.opponent,
//   s.p_value);
#pragma once

#include <vector>

#include "learn/fit/models.h"

namespace materialist::learn {

struct SideComparison {
  int piece = kPawnIndex;
  Estimate own;         // pawn = 100 in the player's (own) pawns
  Estimate opponent;    // the same unit
  Estimate difference;  // own − opponent, same unit, delta-method error with the covariance
  Estimate own_theta;   // the same three in log-odds (θ), for the other units
  Estimate opponent_theta;
  Estimate difference_theta;  // θ_own − θ_opponent, its error from the covariance
  double p_value = 1;         // two-sided, of θ_own − θ_opponent = 0 (scale-free)
  bool identified = true;     // both coefficients identified
};

// One row per piece of a split-sides fit (empty for any other model).
std::vector<SideComparison> compare_sides(const ModelFit& fit);

}  // namespace materialist::learn
