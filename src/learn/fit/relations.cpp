#include "learn/fit/relations.h"

#include <cmath>
#include <cstdio>

namespace materialist::learn {

std::vector<RelationCheck> check_capablanca(const std::array<double, 5>& v, int decimals) {
  const double pawn = v[0], knight = v[1], bishop = v[2], rook = v[3], queen = v[4];
  std::vector<RelationCheck> checks;
  const auto greater = [&](const char* relation, const char* left_name, double left,
                           const char* right_name, double right) {
    const bool holds = left > right;
    char text[96];
    std::snprintf(text, sizeof text, "%s %.*f %s %s %.*f", left_name, decimals, left,
                  holds ? ">" : "<=", right_name, decimals, right);
    checks.push_back({relation, text, left, right, holds});
  };
  const auto approx = [&](const char* relation, double l1, double l2, double r1, double r2) {
    const double left = l1 + l2, right = r1 + r2;
    const double off = right != 0 ? std::fabs(left - right) / std::fabs(right) : 1.0;
    char text[96];
    std::snprintf(text, sizeof text, "%.*f + %.*f vs %.*f + %.*f (off %.1f%%)", decimals, l1,
                  decimals, l2, decimals, r1, decimals, r2, 100.0 * off);
    checks.push_back({relation, text, left, right, off <= kApproxTolerance});
  };
  greater("B > N", "B", bishop, "N", knight);
  greater("B > 3P", "B", bishop, "3P", 3 * pawn);
  greater("N > 3P", "N", knight, "3P", 3 * pawn);
  approx("B + N = R + 1.5P", bishop, knight, rook, 1.5 * pawn);
  approx("Q + P = 2R", queen, pawn, rook, rook);
  return checks;
}

}  // namespace materialist::learn
