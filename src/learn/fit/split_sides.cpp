#include "learn/fit/split_sides.h"

#include <cmath>

#include "learn/vocabulary/pieces.h"

namespace materialist::learn {

std::vector<SideComparison> compare_sides(const ModelFit& fit) {
  std::vector<SideComparison> rows;
  if (!fit.options.split_sides) return rows;
  const std::vector<double> parameters = fit.parameters();
  const int n = fit.parameter_count();
  const int reference = fit.column("own-pawn");
  for (int piece = kPawnIndex; piece <= kQueenIndex; ++piece) {
    const std::string name(kPieces[piece].column);
    const int own = fit.column("own-" + name);
    const int opponent = fit.column("opponent-" + name);
    if (own < 0 || opponent < 0 || reference < 0) continue;
    SideComparison row;
    row.piece = piece;
    row.own = fit.coefficients[own].value;
    row.opponent = fit.coefficients[opponent].value;
    row.identified = fit.coefficients[own].identified && fit.coefficients[opponent].identified;
    std::vector<double> contrast(n, 0.0);
    contrast[own] = 1.0;
    contrast[opponent] = -1.0;
    row.difference = ratio_contrast_estimate(parameters, fit.covariance, contrast, reference);
    const Estimate theta = linear_estimate(parameters, fit.covariance, contrast);
    row.own_theta = fit.coefficients[own].theta;
    row.opponent_theta = fit.coefficients[opponent].theta;
    row.difference_theta = theta;
    row.p_value = theta.se > 0 ? normal_two_sided_p(theta.value / theta.se) : NAN;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace materialist::learn
