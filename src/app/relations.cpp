#include "app/relations.h"

#include <cmath>
#include <cstdio>

namespace materialist::app {
std::vector<RelationCheck> check_capablanca(const PieceValues& v) {
  const double pawn = v[0], knight = v[1], bishop = v[2], rook = v[3], queen = v[4];
  std::vector<RelationCheck> checks;
  auto compare = [&](const char* relation, const char* left_name, double left,
                     const char* right_name, double right) {
    const bool holds = left > right;
    char text[96];
    std::snprintf(text, sizeof text, "%s %.0f %s %s %.0f", left_name, left, holds ? ">" : "<",
                  right_name, right);
    checks.push_back({relation, text, holds});
  };
  auto approx = [&](const char* relation, const char* pattern, double l1, double l2, double r1,
                    double r2) {
    const double left = l1 + l2, right = r1 + r2;
    const double error = right != 0 ? std::fabs(left - right) / std::fabs(right) : 1.0;
    char text[96];
    std::snprintf(text, sizeof text, pattern, l1, l2, r1, r2, 100.0 * error);
    checks.push_back({relation, text, error <= kApproxTolerance});
  };
  compare("B > N", "B", bishop, "N", knight);
  compare("B > 3P", "B", bishop, "3P", 3 * pawn);
  compare("N > 3P", "N", knight, "3P", 3 * pawn);
  approx("B + N ≈ R + 1.5P", "%.0f + %.0f vs %.0f + %.0f (off %.1f%%)", bishop, knight, rook,
         1.5 * pawn);
  approx("Q + P ≈ 2R", "%.0f + %.0f vs %.0f + %.0f (off %.1f%%)", queen, pawn, rook, rook);
  return checks;
}

}  // namespace materialist::app
