// Capablanca's relations between piece values, checked as the article does (pawn = 100):
// B > N, B > 3P, N > 3P, B + N ≈ R + 1.5P, Q + P ≈ 2R.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace materialist::learn {

// An "≈" relation holds when the two sides differ by at most this fraction of the right side
// (the article calls 345 + 288 against 480 + 150, 0.5% apart, satisfied).
inline constexpr double kApproxTolerance = 0.01;

struct RelationCheck {
  std::string relation;  // "B + N ≈ R + 1.5P"
  std::string numbers;   // "345 + 288 vs 480 + 150 (off 0.5%)"
  double left = 0, right = 0;
  bool holds = false;
};

// Values in P N B R Q order, pawn = 100 or any common scale (Elo, log-odds: the verdicts do not
// change); `decimals` for the numbers in the text (2 suits log-odds).
std::vector<RelationCheck> check_capablanca(const std::array<double, 5>& values, int decimals = 0);

}  // namespace materialist::learn
