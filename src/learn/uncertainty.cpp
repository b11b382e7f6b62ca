#include "learn/uncertainty.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/hash.h"

namespace materialist::learn {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Lower-triangular Cholesky factor in place; false when not positive definite.
bool cholesky(std::vector<double>& a, int n) {
  for (int j = 0; j < n; ++j) {
    double diagonal = a[j * n + j];
    for (int k = 0; k < j; ++k) diagonal -= a[j * n + k] * a[j * n + k];
    if (!(diagonal > 0)) return false;
    const double l_jj = std::sqrt(diagonal);
    a[j * n + j] = l_jj;
    for (int i = j + 1; i < n; ++i) {
      double sum = a[i * n + j];
      for (int k = 0; k < j; ++k) sum -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = sum / l_jj;
    }
  }
  return true;
}

void cholesky_substitute(const std::vector<double>& l, double* b, int n) {
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < i; ++k) b[i] -= l[i * n + k] * b[k];
    b[i] /= l[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    for (int k = i + 1; k < n; ++k) b[i] -= l[k * n + i] * b[k];
    b[i] /= l[i * n + i];
  }
}

double quadratic_form(const std::vector<double>& covariance, const std::vector<double>& g) {
  const std::size_t n = g.size();
  if (covariance.size() < n * n) return kNaN;
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) sum += g[i] * covariance[i * n + j] * g[j];
  }
  return sum;
}

constexpr std::uint32_t kMaxPoisson = 64;

// Poisson(1)'s CDF at k = 0..kMaxPoisson, summed term by term once (the draws used to sum it on
// every draw, a division per step: the same doubles, so the same draws).
const std::array<double, kMaxPoisson + 1>& poisson_cdf() {
  static const std::array<double, kMaxPoisson + 1> cdf = [] {
    std::array<double, kMaxPoisson + 1> sums{};
    double probability = std::exp(-1.0);
    sums[0] = probability;
    for (std::uint32_t k = 1; k <= kMaxPoisson; ++k) {
      probability /= k;
      sums[k] = sums[k - 1] + probability;
    }
    return sums;
  }();
  return cdf;
}

// Poisson(1) by inversion of its CDF; u in [0, 1) from the top 53 bits.
std::uint32_t poisson_one(std::uint64_t bits, const std::array<double, kMaxPoisson + 1>& cdf) {
  const double u = static_cast<double>(bits >> 11) * 0x1.0p-53;
  // The CDF rises, so the terms at or below u are a prefix: the first eight counted without
  // branches (a draw's k is random, a branch on it mispredicted), the rare rest one by one.
  std::uint32_t k = 0;
  for (std::uint32_t j = 0; j < 8; ++j) k += u >= cdf[j] ? 1 : 0;
  if (k == 8) {
    while (k < kMaxPoisson && u >= cdf[k]) ++k;
  }
  return k;
}

}  // namespace

// ---- algebra ----

Expected<std::vector<double>> invert_symmetric(const std::vector<double>& matrix, int n) {
  std::vector<double> l = matrix;
  if (n <= 0 || static_cast<int>(matrix.size()) != n * n || !cholesky(l, n)) {
    return make_error(ErrorCode::kInvalidArgument, "matrix is not positive definite");
  }
  std::vector<double> inverse(n * n, 0.0), column(n);
  for (int j = 0; j < n; ++j) {
    std::fill(column.begin(), column.end(), 0.0);
    column[j] = 1.0;
    cholesky_substitute(l, column.data(), n);
    for (int i = 0; i < n; ++i) inverse[i * n + j] = column[i];
  }
  // Symmetrise: the two triangles differ in the last bits after substitution.
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const double mean = 0.5 * (inverse[i * n + j] + inverse[j * n + i]);
      inverse[i * n + j] = inverse[j * n + i] = mean;
    }
  }
  return inverse;
}

bool solve_symmetric(std::vector<double> matrix, std::vector<double>& rhs, int n) {
  if (static_cast<int>(rhs.size()) != n || !cholesky(matrix, n)) return false;
  cholesky_substitute(matrix, rhs.data(), n);
  return true;
}

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

void poisson_weights(std::uint64_t seed, std::uint64_t game_id, std::uint32_t* out,
                     int replicates) {
  std::uint64_t state = seed;
  state = splitmix64(state) ^ game_id;
  state = splitmix64(state);  // decorrelate neighbouring ids
  const std::array<double, kMaxPoisson + 1>& cdf = poisson_cdf();
  for (int b = 0; b < replicates; ++b) out[b] = poisson_one(splitmix64(state), cdf);
}

std::uint64_t game_id(std::uint32_t input_index, std::uint64_t byte_offset) {
  return (static_cast<std::uint64_t>(input_index) << 44) ^ byte_offset;
}

BootstrapHistograms::BootstrapHistograms(int replicates, std::uint64_t seed, KeyFields fields)
    : seed_(seed),
      replicates_(std::max(replicates, 0)),
      fields_(fields),
      weights_(static_cast<std::size_t>(replicates_)) {}

std::uint8_t* BootstrapHistograms::narrow(std::uint32_t block) {
  return narrow_chunks_[block / kChunkBlocks].data() + (block % kChunkBlocks) * stride();
}
const std::uint8_t* BootstrapHistograms::narrow(std::uint32_t block) const {
  return narrow_chunks_[block / kChunkBlocks].data() + (block % kChunkBlocks) * stride();
}
std::uint32_t* BootstrapHistograms::wide(std::uint32_t block) {
  return wide_chunks_[block / kChunkBlocks].data() + (block % kChunkBlocks) * stride();
}
const std::uint32_t* BootstrapHistograms::wide(std::uint32_t block) const {
  return wide_chunks_[block / kChunkBlocks].data() + (block % kChunkBlocks) * stride();
}

std::size_t BootstrapHistograms::index_of(std::uint64_t packed) {
  if (2 * (keys_.size() + 1) > table_.size()) {
    table_.assign(table_.empty() ? 1024 : 2 * table_.size(), 0);
    const std::size_t mask = table_.size() - 1;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      std::size_t slot = mix64(keys_[i]) & mask;
      while (table_[slot] != 0) slot = (slot + 1) & mask;
      table_[slot] = i + 1;
    }
  }
  const std::size_t mask = table_.size() - 1;
  std::size_t slot = mix64(packed) & mask;
  while (table_[slot] != 0) {
    if (keys_[table_[slot] - 1] == packed) return table_[slot] - 1;
    slot = (slot + 1) & mask;
  }
  const std::size_t index = keys_.size();
  table_[slot] = index + 1;
  keys_.push_back(packed);
  if (targets_on_) targets_.resize(keys_.size() * static_cast<std::size_t>(replicates_), 0);
  if (narrow_blocks_ / kChunkBlocks >= narrow_chunks_.size()) {
    narrow_chunks_.emplace_back(kChunkBlocks * stride(), std::uint8_t{0});
  }
  block_.push_back(narrow_blocks_++);
  return index;
}

std::uint64_t BootstrapHistograms::count(std::size_t index, std::size_t k) const {
  const std::uint32_t block = block_[index];
  return (block & kWide) ? wide(block & ~kWide)[k] : narrow(block)[k];
}

void BootstrapHistograms::add_count(std::size_t index, std::size_t k, std::uint64_t value) {
  std::uint32_t block = block_[index];
  if (!(block & kWide)) {
    std::uint8_t* counts = narrow(block);
    if (counts[k] + value <= 0xFF) {
      counts[k] = static_cast<std::uint8_t>(counts[k] + value);
      return;
    }
    // Widen this key's block (its narrow block stays unused).
    if (wide_blocks_ / kChunkBlocks >= wide_chunks_.size()) {
      wide_chunks_.emplace_back(kChunkBlocks * stride(), 0u);
    }
    const std::uint32_t wide_block = wide_blocks_++;
    std::copy(counts, counts + stride(), wide(wide_block));
    block = block_[index] = wide_block | kWide;
  }
  std::uint32_t& slot = wide(block & ~kWide)[k];
  const std::uint64_t sum = slot + value;
  if (sum > 0xFFFFFFFFull) {
    slot = 0xFFFFFFFFu;
    saturated_ = true;
  } else {
    slot = static_cast<std::uint32_t>(sum);
  }
}

void BootstrapHistograms::add_game(std::uint64_t game_id, const std::vector<Row>& rows) {
  if (rows.empty() || replicates_ == 0) return;
  poisson_weights(seed_, game_id, weights_.data(), replicates_);
  bool any = false;
  for (std::uint32_t w : weights_) any = any || w != 0;
  if (!any) return;
  for (const Row& row : rows) {
    if (row.outcome == Outcome::kUnknown) continue;
    const int outcome = static_cast<int>(row.outcome);
    const std::size_t index = index_of(fields_.project(row.key).pack());
    if (targets_on_ && row.target != kNoTarget) {
      TargetSum* sums = targets_.data() + index * static_cast<std::size_t>(replicates_);
      for (int b = 0; b < replicates_; ++b) {
        sums[b] += static_cast<TargetSum>(weights_[b]) * row.target;
      }
    }
    // A narrow block, as most are: every replicate's count added at once when none passes 255.
    if (const std::uint32_t block = block_[index]; !(block & kWide)) {
      std::uint8_t* counts = narrow(block) + outcome;
      unsigned overflow = 0;
      for (int b = 0; b < replicates_; ++b) {
        overflow |= (unsigned{counts[b * kOutcomeCount]} + weights_[b]) >> 8;
      }
      if (overflow == 0) {
        for (int b = 0; b < replicates_; ++b) {
          counts[b * kOutcomeCount] =
              static_cast<std::uint8_t>(counts[b * kOutcomeCount] + weights_[b]);
        }
        continue;
      }
    }
    for (int b = 0; b < replicates_; ++b) {
      if (weights_[b] != 0) add_count(index, b * kOutcomeCount + outcome, weights_[b]);
    }
  }
}

Expected<bool> BootstrapHistograms::merge(const BootstrapHistograms& other) {
  if (other.seed_ != seed_ || other.replicates_ != replicates_ || !(other.fields_ == fields_)) {
    return make_error(ErrorCode::kInvalidArgument,
                      "bootstrap merge: different seeds, replicate counts or key fields");
  }
  const std::size_t n = stride();
  if (other.targets_on_) enable_targets();
  for (std::size_t i = 0; i < other.keys_.size(); ++i) {
    const std::size_t index = index_of(other.keys_[i]);
    if (other.targets_on_) {
      for (int b = 0; b < replicates_; ++b) {
        targets_[index * static_cast<std::size_t>(replicates_) + b] +=
            other.targets_[i * static_cast<std::size_t>(replicates_) + b];
      }
    }
    // Both blocks narrow, as most are: added byte by byte at once when no count passes 255.
    const std::uint32_t mine = block_[index], theirs = other.block_[i];
    if (!(mine & kWide) && !(theirs & kWide)) {
      std::uint8_t* to = narrow(mine);
      const std::uint8_t* from = other.narrow(theirs);
      unsigned overflow = 0;
      for (std::size_t k = 0; k < n; ++k) overflow |= (unsigned{to[k]} + from[k]) >> 8;
      if (overflow == 0) {
        for (std::size_t k = 0; k < n; ++k) to[k] = static_cast<std::uint8_t>(to[k] + from[k]);
        continue;
      }
    }
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint64_t value = other.count(i, k);
      if (value != 0) add_count(index, k, value);
    }
  }
  saturated_ = saturated_ || other.saturated_;
  return true;
}

void BootstrapHistograms::enable_targets() {
  if (targets_on_) return;
  targets_on_ = true;
  targets_.assign(keys_.size() * static_cast<std::size_t>(replicates_), 0);
}

std::vector<TargetSum> BootstrapHistograms::targets_at(std::size_t index) const {
  if (!targets_on_) return std::vector<TargetSum>(static_cast<std::size_t>(replicates_), 0);
  const auto begin = targets_.begin() + static_cast<std::ptrdiff_t>(index * replicates_);
  return std::vector<TargetSum>(begin, begin + replicates_);
}

void BootstrapHistograms::add_targets(std::uint64_t packed, const std::vector<TargetSum>& targets) {
  enable_targets();
  const std::size_t index = index_of(packed);
  for (int b = 0; b < replicates_ && b < static_cast<int>(targets.size()); ++b) {
    targets_[index * static_cast<std::size_t>(replicates_) + b] += targets[b];
  }
}

std::vector<std::uint64_t> BootstrapHistograms::counts_at(std::size_t index) const {
  std::vector<std::uint64_t> counts(stride());
  for (std::size_t k = 0; k < stride(); ++k) counts[k] = count(index, k);
  return counts;
}

void BootstrapHistograms::add_counts(std::uint64_t packed,
                                     const std::vector<std::uint64_t>& counts) {
  const std::size_t index = index_of(packed);
  for (std::size_t k = 0; k < stride() && k < counts.size(); ++k) {
    if (counts[k] != 0) add_count(index, k, counts[k]);
  }
}

Histogram BootstrapHistograms::replicate(int b) const {
  Histogram histogram;
  if (targets_on_) histogram.enable_targets();
  if (b < 0 || b >= replicates_) return histogram;
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    OutcomeCounts counts;
    for (int o = 0; o < kOutcomeCount; ++o) {
      counts.by_outcome[o] = count(i, static_cast<std::size_t>(b) * kOutcomeCount + o);
    }
    if (targets_on_) {
      histogram.add(RowKey::unpack(keys_[i]), counts,
                    targets_[i * static_cast<std::size_t>(replicates_) + b]);
    } else {
      histogram.add(RowKey::unpack(keys_[i]), counts);
    }
  }
  return histogram;
}

std::vector<Histogram> BootstrapHistograms::replicates() const {
  std::vector<Histogram> all;
  all.reserve(static_cast<std::size_t>(replicates_));
  for (int b = 0; b < replicates_; ++b) all.push_back(replicate(b));
  return all;
}

}  // namespace materialist::learn
