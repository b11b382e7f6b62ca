#pragma once
// Numeric helpers the fits share (one definition each, so that the .cpp files can also be compiled
// together in a unity build).

#include <cmath>
#include <limits>
#include <vector>

#include "learn/vocabulary/eval_target.h"

namespace materialist::learn {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// One unit of the evaluation target (kTargetOne) as a double.
inline constexpr double kUnit = static_cast<double>(kTargetOne);

// The Euclidean norm of a vector.
inline double norm(const std::vector<double>& v) {
  double sum = 0;
  for (double value : v) sum += value * value;
  return std::sqrt(sum);
}

}  // namespace materialist::learn
