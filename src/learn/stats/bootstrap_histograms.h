// The Poisson bootstrap over games: each game gets an independent Poisson(1) weight per
// replicate, drawn from an RNG seeded by (seed, game id) alone, so the replicates do not depend on
// the order in which shards, files or workers see the games, and merge by addition like the main
// histogram.
//
//   BootstrapHistograms boot(200, /*seed=*/1);   // during ingest:
//   boot.add_game(game_id, rows);                //   every game with its rows
//   Histogram replicate = boot.replicate(b);     // refitted once per replicate
#pragma once

#include <cstdint>
#include <vector>

#include "core/error.h"
#include "learn/stats/histogram.h"
#include "learn/stats/key_fields.h"

namespace materialist::learn {

// Poisson(1) weights of one game, one per replicate, from (seed, game_id) alone.
void poisson_weights(std::uint64_t seed, std::uint64_t game_id, std::uint32_t* out, int replicates);
// A game id that does not depend on sharding: the input's index and the game's first byte offset.
std::uint64_t game_id(std::uint32_t input_index, std::uint64_t byte_offset);

// The replicates share one key index and keep their counts per (key, replicate, outcome) in
// one block per key: bytes while every count of the key is below 256 (a rare key, as exact
// rating differences are), 32-bit counts once one is not. No per-replicate hash table: memory is
// about replicates × distinct keys × 3 bytes. Keys are projected by `fields` first (the rating
// difference, kept only when a model needs it, multiplies the keys by the distinct ratings).
class BootstrapHistograms {
 public:
  BootstrapHistograms(int replicates, std::uint64_t seed, KeyFields fields = KeyFields::all());

  // Adds every row of one game to each replicate, `weight` times (its Poisson draw).
  void add_game(std::uint64_t game_id, const std::vector<Row>& rows);
  // Adds another accumulator's replicates (same seed, count and fields, else kInvalidArgument).
  Expected<bool> merge(const BootstrapHistograms& other);

  int replicate_count() const { return replicates_; }
  std::uint64_t seed() const { return seed_; }
  const KeyFields& fields() const { return fields_; }
  std::size_t distinct() const { return keys_.size(); }
  // A count reached 2³² − 1 and stopped there (a single key of one replicate that common).
  bool saturated() const { return saturated_; }
  // Raw access, for statistics files: the distinct keys (packed, projected) in index order, each
  // key's counts (replicate b's outcome o at b·3 + o), and adding such counts back.
  std::uint64_t key_at(std::size_t index) const { return keys_[index]; }
  std::vector<std::uint64_t> counts_at(std::size_t index) const;
  void add_counts(std::uint64_t packed, const std::vector<std::uint64_t>& counts);
  void mark_saturated() { saturated_ = true; }
  // The evaluation target: each key also sums its rows' targets per replicate (weight × target,
  // units of 2⁻³²); add_game reads the rows' targets and replicate(b) carries them.
  void enable_targets();
  bool has_targets() const { return targets_on_; }
  std::vector<TargetSum> targets_at(std::size_t index) const;  // one per replicate
  void add_targets(std::uint64_t packed, const std::vector<TargetSum>& targets);
  // Replicate b as a histogram, built on demand.
  Histogram replicate(int b) const;
  // Every replicate at once (for tests; bootstrap_model builds one at a time).
  std::vector<Histogram> replicates() const;

 private:
  static constexpr std::size_t kChunkBlocks = 64;
  static constexpr std::uint32_t kWide = 0x80000000u;  // in block_: a 32-bit block

  std::size_t index_of(std::uint64_t packed);  // adds the key when new
  std::size_t stride() const { return static_cast<std::size_t>(replicates_) * kOutcomeCount; }
  std::uint64_t count(std::size_t index, std::size_t k) const;
  void add_count(std::size_t index, std::size_t k, std::uint64_t value);
  std::uint8_t* narrow(std::uint32_t block);
  const std::uint8_t* narrow(std::uint32_t block) const;
  std::uint32_t* wide(std::uint32_t block);
  const std::uint32_t* wide(std::uint32_t block) const;

  std::uint64_t seed_;
  int replicates_;
  KeyFields fields_;
  bool saturated_ = false;
  std::vector<std::uint64_t> keys_;   // packed projected keys, by index
  std::vector<std::uint32_t> block_;  // by index: narrow block, or wide block | kWide
  std::vector<std::uint64_t> table_;  // open addressing: index + 1, 0 empty
  std::vector<std::vector<std::uint8_t>> narrow_chunks_;  // kChunkBlocks blocks of stride()
  std::vector<std::vector<std::uint32_t>> wide_chunks_;
  std::uint32_t narrow_blocks_ = 0, wide_blocks_ = 0;
  std::vector<std::uint32_t> weights_;  // scratch, one per replicate
  bool targets_on_ = false;
  std::vector<TargetSum> targets_;  // index × replicates, when targets_on_
};

}  // namespace materialist::learn
