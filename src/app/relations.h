// Capablanca's relations between piece values, checked as the article does (pawn = 100):
// B > N, B > 3P, N > 3P, B + N ≈ R + 1.5P, Q + P ≈ 2R.
#pragma once

#include <string>
#include <vector>

#include "app/app_state.h"

namespace materialist::app {

// An "≈" relation holds when the two sides differ by at most this fraction of the right side.
inline constexpr double kApproxTolerance = 0.01;

struct RelationCheck {
  const char* relation;  // "B + N ≈ R + 1.5P"
  std::string numbers;   // "345 + 288 ≈ 480 + 150 (0.4%)"
  bool holds = false;
};

std::vector<RelationCheck> check_capablanca(const PieceValues& values);

}  // namespace materialist::app
