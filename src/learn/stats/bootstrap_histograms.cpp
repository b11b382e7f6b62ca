#include "learn/stats/bootstrap_histograms.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/hash.h"

namespace materialist::learn {
namespace {

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
