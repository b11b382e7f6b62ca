// Uncertainty of fitted values: covariance from the inverse Hessian, the delta method for the
// pawn-normalised ratios, the Poisson bootstrap over games, and tests of differences.
//
//   auto covariance = invert_symmetric(information, n);          // Σ = I⁻¹
//   Estimate knight = ratio_estimate(theta, *covariance, kKnightIndex, kPawnIndex);  // 100·θN/θP ±
//   se BootstrapHistograms boot(200, /*seed=*/1);                   // during ingest:
//   boot.add_game(game_id, rows);                                //   every game with its rows
//   Interval ci = percentile_interval(samples, 0.95);            // after refitting each replicate
//
// Poisson bootstrap: each game gets an independent Poisson(1) weight per replicate, drawn from an
// RNG seeded by (seed, game id) alone, so the replicates do not depend on the order in which
// shards, files or workers see the games, and merge by addition like the main histogram.
#pragma once

#include <cstdint>
#include <vector>

#include "core/error.h"
#include "learn/histogram.h"

namespace materialist::learn {

// ---- dense symmetric algebra (row-major n×n) ----

// The inverse of a symmetric positive definite matrix (Cholesky); kInvalidArgument otherwise.
Expected<std::vector<double>> invert_symmetric(const std::vector<double>& matrix, int n);
// Solves A x = b for symmetric positive definite A; false when A is not.
bool solve_symmetric(std::vector<double> matrix, std::vector<double>& rhs, int n);

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

// ---- bootstrap ----

struct Interval {
  double low = 0, high = 0;
};
// The (1−level)/2 and (1+level)/2 empirical quantiles (linear interpolation); NaNs are ignored.
Interval percentile_interval(std::vector<double> samples, double level = 0.95);
// Sample standard deviation (n − 1), NaNs ignored.
double standard_deviation(const std::vector<double>& samples);

// Poisson(1) weights of one game, one per replicate, from (seed, game_id) alone.
void poisson_weights(std::uint64_t seed, std::uint64_t game_id, std::uint32_t* out, int replicates);
// A game id that does not depend on sharding: the input's index and the game's first byte offset.
std::uint64_t game_id(std::uint32_t input_index, std::uint64_t byte_offset);

class BootstrapHistograms {
 public:
  BootstrapHistograms(int replicates, std::uint64_t seed);

  // Adds every row of one game to each replicate, `weight` times (its Poisson draw).
  void add_game(std::uint64_t game_id, const std::vector<Row>& rows);
  // Adds another accumulator's replicates (same seed and count, else kInvalidArgument).
  Expected<bool> merge(const BootstrapHistograms& other);

  int replicate_count() const { return static_cast<int>(replicates_.size()); }
  std::uint64_t seed() const { return seed_; }
  const std::vector<Histogram>& replicates() const { return replicates_; }

 private:
  std::uint64_t seed_;
  std::vector<Histogram> replicates_;
  std::vector<std::uint32_t> weights_;  // scratch, one per replicate
};

}  // namespace materialist::learn
