// Game-clustered statistics: the positions of one game share its result and most of its
// material, so they are not independent observations. For every game, the pairs of its distinct
// row keys (with the product of their multiplicities) are counted by outcome; after any fit, the
// sandwich covariance H⁻¹ (Σ_g s_g s_gᵀ) H⁻¹ with s_g = Σ_rows∈g x (t − p) follows from these
// counts alone, in memory bounded by the model's features (never by the number of games).
//
//   GamePairs pairs(KeyFields{});              // filled by DatasetBuilder, one game at a time
//   pairs.add_game(rows_of_one_game);
//   Expected<ModelFit> fit = fit_model(histogram, options, &pairs);   // errors: kClustered
//
// KeyFields (learn/stats/key_fields.h) says which RowKey fields the pair and bootstrap statistics
// keep, as the histogram does.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/error.h"
#include "learn/stats/histogram.h"
#include "learn/stats/key_fields.h"

namespace materialist::learn {

struct ModelOptions;

// The evaluation target's moments of a pair of keys (a, b) over games, beside the product of
// their multiplicities n_a·n_b: with Q the sum of a key's targets in one game (units of 2⁻³²),
// qq = Σ Q_a·Q_b and, per outcome of the game, qn = Σ Q_a·n_b and nq = Σ n_a·Q_b. The score of a
// game, Σ_k x_k (Q_k − n_k h_k), and its products with the result target's follow from them.
struct PairMoments {
  TargetSum qq = 0;
  std::array<TargetSum, kOutcomeCount> qn{}, nq{};

  PairMoments& operator+=(const PairMoments& other);
  PairMoments& operator-=(const PairMoments& other);
  bool empty() const;
  friend bool operator==(const PairMoments&, const PairMoments&) = default;
};

class GamePairs {
 public:
  explicit GamePairs(KeyFields fields = {});

  // Adds one game's rows (all from the same game; kUnknown outcomes are ignored).
  void add_game(const std::vector<Row>& rows);
  // Raw access, for statistics that travel between workers: keys are packed projected RowKeys
  // with a ≤ b; `counts` are multiplicity products by outcome.
  void add(std::uint64_t packed_a, std::uint64_t packed_b, const OutcomeCounts& counts);
  // The same with the evaluation target's moments (the accumulator then has targets).
  void add(std::uint64_t packed_a, std::uint64_t packed_b, const OutcomeCounts& counts,
           const PairMoments& moments);
  // Marks the accumulator as one of the evaluation target: add_game reads the rows' targets.
  void enable_targets();
  bool has_targets() const { return targets_on_; }
  void add_games(std::uint64_t games) { games_ += games; }
  // Games by outcome, and those among them with rated rows: what a model's cluster count needs
  // (draws-out counts decisive games only). Adds to games() too.
  void add_games(const OutcomeCounts& games, const OutcomeCounts& rated_games);
  // Adds another accumulator's pairs and games. With different fields both are projected onto
  // the fields they share (the result keeps only those).
  void merge(const GamePairs& other);
  // Takes out what `other` added: every pair and game of `other` must have been added to this
  // one (a stretch's pairs kept in a learn::PartScratch whose parts were not used). Pairs left
  // with no count are dropped, as if never added.
  void subtract(const GamePairs& other);
  bool empty() const { return size_ == 0 && games_ == 0; }

  std::uint64_t games() const { return games_; }  // games that gave at least one row
  const OutcomeCounts& games_by_outcome() const { return games_by_outcome_; }
  const OutcomeCounts& rated_games_by_outcome() const { return rated_games_; }
  // The clusters of a model: games with a row in its likelihood (draws-out: decisive games;
  // rating offset: rated games). All games when some were added by count alone.
  std::uint64_t clusters(const ModelOptions& model) const;
  std::size_t distinct() const;
  const KeyFields& fields() const { return fields_; }
  // Calls f(std::uint64_t packed_a, std::uint64_t packed_b, const OutcomeCounts&) for every
  // pair, in an unspecified order.
  template <typename F>
  void for_each(F&& f) const {
    for (const Slot& slot : slots_) {
      if (slot.a != kEmpty) f(slot.a, slot.b, slot.counts);
    }
  }
  // The same, in increasing (a, b) order: sums over it do not depend on how pairs were added.
  template <typename F>
  void for_each_sorted(F&& f) const {
    for (std::size_t i : sorted_slots()) f(slots_[i].a, slots_[i].b, slots_[i].counts);
  }
  // Both, with the moments (zero without targets): f(a, b, const OutcomeCounts&,
  // const PairMoments&).
  template <typename F>
  void for_each_moments(F&& f) const {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].a != kEmpty) f(slots_[i].a, slots_[i].b, slots_[i].counts, moments_of(i));
    }
  }
  template <typename F>
  void for_each_moments_sorted(F&& f) const {
    for (std::size_t i : sorted_slots())
      f(slots_[i].a, slots_[i].b, slots_[i].counts, moments_of(i));
  }

  // Same fields, games and pair counts (storage layout is irrelevant).
  friend bool operator==(const GamePairs& x, const GamePairs& y);

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

  std::size_t probe(std::uint64_t a, std::uint64_t b) const;
  std::size_t probe_from(std::size_t start, std::uint64_t a, std::uint64_t b) const;
  OutcomeCounts& slot_for(std::uint64_t a, std::uint64_t b);
  std::size_t index_for(std::uint64_t a, std::uint64_t b);
  const PairMoments& moments_of(std::size_t i) const {
    static const PairMoments kNone{};
    return targets_on_ ? moments_[i] : kNone;
  }
  void add_game_targets(const std::vector<Row>& rows);
  // The counts of (a, b) at slot i, found by a probe: the pair is put there if the slot is empty.
  OutcomeCounts& claim(std::size_t i, std::uint64_t a, std::uint64_t b);
  void grow();
  void rehash(std::size_t capacity);  // a power of two above twice the pairs
  std::vector<std::size_t> sorted_slots() const;

  KeyFields fields_;
  std::uint64_t games_ = 0;
  // Open addressing on (a, b), as Histogram does; a pair and its counts share a slot, so an add
  // touches one cache line.
  struct Slot {
    std::uint64_t a = kEmpty;
    std::uint64_t b = kEmpty;
    OutcomeCounts counts;
  };
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  OutcomeCounts games_by_outcome_, rated_games_;
  std::vector<std::uint64_t> scratch_;       // add_game's (outcome, key) list
  std::vector<std::uint64_t> hash_scratch_;  // add_game's pair hashes, in the order of its adds
  std::vector<std::pair<std::uint64_t, std::uint64_t>> distinct_scratch_;
  bool targets_on_ = false;
  std::vector<PairMoments> moments_;  // beside slots_ when targets_on_
  std::vector<std::pair<std::uint64_t, TargetUnits>> target_scratch_;
};

}  // namespace materialist::learn
