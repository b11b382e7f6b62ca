// The learner's sufficient statistics: (summary of a recorded position) → counts per outcome.
//
//   Histogram h;
//   h.add(RowKey::from_delta({1, 0, 0, 0, 0}), Outcome::kWhiteWin);
//   h.merge(other);                     // shards, files and workers combine by addition
//   for (const HistogramEntry& e : h.entries()) ...   // sorted by key: deterministic
//
// The key holds the five material deltas plus fields reserved for richer models (bishop-pair
// delta, game phase, side to move, rating difference) and, for the imbalance and split-sides
// models only, White's absolute counts (a key without them packs exactly as before).
// Rows are small integer vectors: a few thousand distinct keys for the article's model.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "learn/vocabulary/eval_target.h"
#include "learn/vocabulary/material.h"
#include "learn/vocabulary/packed_board.h"
#include "learn/vocabulary/result.h"

namespace materialist::learn {

// A packed key's width: bit 60 marks a key with counts, bit 61 (with counts only) opposite
// bishops; the bits above are never set.
inline constexpr int kPackedKeyBits = 62;

struct RowKey {
  MaterialVector delta{};          // P N B R Q, white minus black (each within -64..63)
  std::int8_t bishop_pair = 0;     // -1..1, see MaterialCounts::bishop_pair_delta
  std::uint8_t phase = 0;          // 0..24, see MaterialCounts::phase
  std::uint8_t black_to_move = 0;  // side to move in the recorded position: 0 White, 1 Black
  std::uint8_t rating_known = 0;   // 1 when both WhiteElo and BlackElo were numbers
  std::int16_t rating_diff = 0;    // WhiteElo - BlackElo, 0 when unknown
  // White's piece counts P N B R Q (from a player's point of view: the player's), kept only when
  // counts_known; Black's are white_counts - delta. With them the phase and the bishop pair are
  // those of the counts (or 0: not kept).
  std::uint8_t counts_known = 0;
  std::array<std::uint8_t, kPieceKinds> white_counts{};
  // With the counts: each side has one bishop, on squares of different colours (the
  // opposite-bishops imbalance term; MaterialCounts::opposite_bishops).
  std::uint8_t opposite_bishops = 0;

  static RowKey from_delta(const MaterialVector& delta) {
    RowKey key;
    key.delta = delta;
    return key;
  }

  // Both sides' counts (meaningful when counts_known).
  MaterialCounts counts() const;

  // Packs every field into 62 bits (a total order used for sorting); unpack inverts it.
  std::uint64_t pack() const;
  static RowKey unpack(std::uint64_t packed);

  friend bool operator==(const RowKey&, const RowKey&) = default;
};

struct OutcomeCounts {
  std::array<std::uint64_t, kOutcomeCount> by_outcome{};  // indexed by Outcome (black, draw, white)

  std::uint64_t operator[](Outcome outcome) const { return by_outcome[static_cast<int>(outcome)]; }
  std::uint64_t total() const { return by_outcome[0] + by_outcome[1] + by_outcome[2]; }
  OutcomeCounts& operator+=(const OutcomeCounts& other) {
    for (int i = 0; i < kOutcomeCount; ++i) by_outcome[i] += other.by_outcome[i];
    return *this;
  }
  friend bool operator==(const OutcomeCounts&, const OutcomeCounts&) = default;
};

// One recorded row in file order (for `.mat` export and readers that keep the order).
struct Row {
  RowKey key;
  Outcome outcome = Outcome::kUnknown;
  std::uint64_t game = 0;  // 1-based game number in its stream (0 when unknown, e.g. .mat rows)
  // The evaluation target (learn/vocabulary/eval_target.h) in units of 2⁻³², kNoTarget when the
  // read's target is the result.
  TargetUnits target = kNoTarget;
  // With IngestOptions::keep_boards: where the pieces stand (from the row's point of view, as
  // the key), and a hash of the game's moves (the same game hashes alike in any file or order:
  // what a held-out split by game reads). Else an invalid board and 0.
  PackedBoard board{};
  std::uint64_t game_hash = 0;
};
using RowSink = std::function<void(const Row&)>;

struct HistogramEntry {
  RowKey key;
  OutcomeCounts counts;
  TargetSum target = 0;  // Σ of the rows' targets in units of 2⁻³² (a histogram with targets)
};

// An open-addressing hash map (linear probing, power-of-two capacity, at most half full).
//
// A histogram of the evaluation target also sums each key's targets (has_targets(): every row
// added carries one), kept in a vector beside the slots so that a result histogram's slots and
// speed are those of before.
class Histogram {
 public:
  // Adds `count` rows of this key with this outcome; kUnknown outcomes are ignored.
  void add(const RowKey& key, Outcome outcome, std::uint64_t count = 1);
  void add(const RowKey& key, const OutcomeCounts& counts);
  // The same with the rows' summed targets (units of 2⁻³²); the histogram then has targets.
  void add(const RowKey& key, const OutcomeCounts& counts, TargetSum target);
  // Merges by addition; targets are kept when either has them (a histogram with targets and
  // one without rows merge; with rows and no targets, the targets count as 0).
  void merge(const Histogram& other);
  void clear();
  // Marks the histogram as one of the evaluation target (even while it has no row).
  void enable_targets();
  bool has_targets() const { return targets_on_; }
  // Σ of every row's target, in units of 2⁻³².
  TargetSum target_total() const { return target_total_; }
  // The summed targets of one key (0 when absent or without targets).
  TargetSum target_of(const RowKey& key) const;

  std::size_t distinct() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Rows per outcome over all keys.
  const OutcomeCounts& totals() const { return totals_; }
  // The counts of one key, or nullptr when the key was never added.
  const OutcomeCounts* find(const RowKey& key) const;

  // Every entry, sorted by packed key, so that sums over them do not depend on insertion order.
  std::vector<HistogramEntry> entries() const;

  // Calls f(const RowKey&, const OutcomeCounts&) for every entry in storage order (unspecified).
  template <typename F>
  void for_each(F&& f) const {
    for (const Slot& slot : slots_) {
      if (slot.key != kEmpty) f(RowKey::unpack(slot.key), slot.counts);
    }
  }
  // The same with each key's summed targets: f(const RowKey&, const OutcomeCounts&, TargetSum).
  template <typename F>
  void for_each_target(F&& f) const {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].key != kEmpty) {
        f(RowKey::unpack(slots_[i].key), slots_[i].counts, targets_on_ ? targets_[i] : 0);
      }
    }
  }

  // Equal when they hold the same keys with the same counts (storage layout is irrelevant).
  friend bool operator==(const Histogram& a, const Histogram& b);

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};  // pack() never sets the top bits

  std::size_t slot_for(std::uint64_t packed);
  std::size_t probe(std::uint64_t packed) const;
  void grow();

  // A key and its counts share a slot: an add touches one cache line, rarely two. (alignas(32)
  // for exactly one made glibc's aligned allocations of the bootstrap's many small tables take
  // 470 MB instead of 72 on 67 MB of rated games with --elo-offset.)
  struct Slot {
    std::uint64_t key = kEmpty;
    OutcomeCounts counts;
  };
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  OutcomeCounts totals_;
  bool targets_on_ = false;
  std::vector<TargetSum> targets_;  // beside slots_ when targets_on_
  TargetSum target_total_ = 0;
};

}  // namespace materialist::learn
