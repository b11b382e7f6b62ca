// Uncertainty of fitted values: the delta method for linear combinations and pawn-normalised
// ratios, tests of differences, and the summaries of bootstrap replicates.
//
//   auto covariance = invert_symmetric(information, n);          // Σ = I⁻¹ (linear_algebra.h)
//   Estimate knight = ratio_estimate(theta, *covariance, kKnightIndex, kPawnIndex);  // 100·θN/θP
//   Interval ci = percentile_interval(samples, 0.95);            // after refitting each replicate
#pragma once

#include <cstdint>
#include <vector>

#include "core/error.h"
#include "learn/fit/linear_algebra.h"

namespace materialist::learn {

// ---- estimates ----

struct Estimate {
  double value = 0;
  double se = 0;  // standard error; NaN when unknown
};

// cᵀθ with se √(cᵀΣc).
Estimate linear_estimate(const std::vector<double>& theta, const std::vector<double>& covariance,
                         const std::vector<double>& contrast);
// scale · cᵀθ / θ[reference] by the delta method: gradient scale·(c − (cᵀθ/θr) e_r) / θr.
Estimate ratio_contrast_estimate(const std::vector<double>& theta,
                                 const std::vector<double>& covariance,
                                 const std::vector<double>& contrast, int reference,
                                 double scale = 100.0);
// scale · θ[column] / θ[reference] (the article's pawn = 100) with its delta-method se.
Estimate ratio_estimate(const std::vector<double>& theta, const std::vector<double>& covariance,
                        int column, int reference, double scale = 100.0);

// ---- tests ----

// Two-sided p-value of a standard normal z.
double normal_two_sided_p(double z);

struct DifferenceTest {
  double difference = 0;  // a − b
  double se = 0;          // √(se_a² + se_b²): the datasets are independent
  double z = 0;
  double p_value = 1;
};
DifferenceTest difference_test(const Estimate& a, const Estimate& b);

// ---- bootstrap summaries ----

struct Interval {
  double low = 0, high = 0;
};
// The (1−level)/2 and (1+level)/2 empirical quantiles (linear interpolation); NaNs are ignored.
Interval percentile_interval(std::vector<double> samples, double level = 0.95);
// Sample standard deviation (n − 1), NaNs ignored.
double standard_deviation(const std::vector<double>& samples);

}  // namespace materialist::learn
