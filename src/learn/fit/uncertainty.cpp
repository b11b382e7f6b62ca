#include "learn/fit/uncertainty.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/hash.h"
#include "learn/fit/numeric.h"

namespace materialist::learn {
namespace {


double quadratic_form(const std::vector<double>& covariance, const std::vector<double>& g) {
  const std::size_t n = g.size();
  if (covariance.size() < n * n) return kNaN;
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) sum += g[i] * covariance[i * n + j] * g[j];
  }
  return sum;
}

}  // namespace

// ---- estimates ----

Estimate linear_estimate(const std::vector<double>& theta, const std::vector<double>& covariance,
                         const std::vector<double>& contrast) {
  Estimate estimate;
  for (std::size_t j = 0; j < theta.size() && j < contrast.size(); ++j) {
    estimate.value += contrast[j] * theta[j];
  }
  std::vector<double> g(theta.size(), 0.0);
  for (std::size_t j = 0; j < g.size() && j < contrast.size(); ++j) g[j] = contrast[j];
  const double variance = quadratic_form(covariance, g);
  estimate.se = variance >= 0 ? std::sqrt(variance) : kNaN;
  return estimate;
}

Estimate ratio_contrast_estimate(const std::vector<double>& theta,
                                 const std::vector<double>& covariance,
                                 const std::vector<double>& contrast, int reference, double scale) {
  Estimate estimate{kNaN, kNaN};
  if (reference < 0 || reference >= static_cast<int>(theta.size()) || theta[reference] == 0) {
    return estimate;
  }
  const double denominator = theta[reference];
  double numerator = 0;
  for (std::size_t j = 0; j < theta.size() && j < contrast.size(); ++j) {
    numerator += contrast[j] * theta[j];
  }
  estimate.value = scale * numerator / denominator;
  std::vector<double> g(theta.size(), 0.0);
  for (std::size_t j = 0; j < g.size() && j < contrast.size(); ++j) {
    g[j] = scale * contrast[j] / denominator;
  }
  g[reference] -= scale * numerator / (denominator * denominator);
  const double variance = quadratic_form(covariance, g);
  estimate.se = variance >= 0 ? std::sqrt(variance) : kNaN;
  return estimate;
}

Estimate ratio_estimate(const std::vector<double>& theta, const std::vector<double>& covariance,
                        int column, int reference, double scale) {
  std::vector<double> contrast(theta.size(), 0.0);
  if (column < 0 || column >= static_cast<int>(theta.size())) return {kNaN, kNaN};
  contrast[column] = 1.0;
  return ratio_contrast_estimate(theta, covariance, contrast, reference, scale);
}

// ---- tests ----

double normal_two_sided_p(double z) {
  return std::erfc(std::fabs(z) / std::sqrt(2.0));
}

DifferenceTest difference_test(const Estimate& a, const Estimate& b) {
  DifferenceTest test;
  test.difference = a.value - b.value;
  test.se = std::sqrt(a.se * a.se + b.se * b.se);
  test.z = test.se > 0 ? test.difference / test.se : kNaN;
  test.p_value = std::isnan(test.z) ? kNaN : normal_two_sided_p(test.z);
  return test;
}

// ---- bootstrap ----

Interval percentile_interval(std::vector<double> samples, double level) {
  samples.erase(
      std::remove_if(samples.begin(), samples.end(), [](double v) { return std::isnan(v); }),
      samples.end());
  if (samples.empty()) return {kNaN, kNaN};
  std::sort(samples.begin(), samples.end());
  const auto quantile = [&samples](double q) {
    const double position = q * static_cast<double>(samples.size() - 1);
    const std::size_t below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, samples.size() - 1);
    const double fraction = position - static_cast<double>(below);
    return samples[below] + fraction * (samples[above] - samples[below]);
  };
  return {quantile((1.0 - level) / 2.0), quantile((1.0 + level) / 2.0)};
}

double standard_deviation(const std::vector<double>& samples) {
  double sum = 0, sum_squares = 0;
  std::size_t n = 0;
  for (double v : samples) {
    if (std::isnan(v)) continue;
    sum += v;
    ++n;
  }
  if (n < 2) return kNaN;
  const double mean = sum / static_cast<double>(n);
  for (double v : samples) {
    if (!std::isnan(v)) sum_squares += (v - mean) * (v - mean);
  }
  return std::sqrt(sum_squares / static_cast<double>(n - 1));
}

}  // namespace materialist::learn
