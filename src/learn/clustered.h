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
// KeyFields says which RowKey fields the pair and bootstrap statistics keep (the rating
// difference multiplies the keys by the number of distinct ratings, so it is kept only when a
// model needs it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "learn/histogram.h"

namespace materialist::learn {

struct ModelOptions;

struct KeyFields {
  bool bishop_pair = true;
  bool phase = true;
  bool side_to_move = true;
  bool rating = false;  // rating_known and rating_diff

  // The fields a model reads (a key with only these still gives every column and offset).
  static KeyFields for_model(const ModelOptions& model);
  // A key with the fields not kept set to zero.
  RowKey project(const RowKey& key) const;
  // True when every field the model reads is kept.
  bool covers(const ModelOptions& model) const;

  friend bool operator==(const KeyFields&, const KeyFields&) = default;
};

class GamePairs {
 public:
  explicit GamePairs(KeyFields fields = {});

  // Adds one game's rows (all from the same game; kUnknown outcomes are ignored).
  void add_game(const std::vector<Row>& rows);
  // Raw access, for statistics that travel between workers: keys are packed projected RowKeys
  // with a ≤ b; `counts` are multiplicity products by outcome.
  void add(std::uint64_t packed_a, std::uint64_t packed_b, const OutcomeCounts& counts);
  void add_games(std::uint64_t games) { games_ += games; }
  void merge(const GamePairs& other);

  std::uint64_t games() const { return games_; }  // games that gave at least one row
  std::size_t distinct() const;
  const KeyFields& fields() const { return fields_; }
  // Calls f(std::uint64_t packed_a, std::uint64_t packed_b, const OutcomeCounts&) for every
  // pair, in an unspecified order.
  template <typename F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < a_.size(); ++i) {
      if (a_[i] != kEmpty) f(a_[i], b_[i], counts_[i]);
    }
  }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

  KeyFields fields_;
  std::uint64_t games_ = 0;
  // Open addressing on (a, b), as Histogram does.
  std::vector<std::uint64_t> a_, b_;
  std::vector<OutcomeCounts> counts_;
  std::size_t size_ = 0;
};

}  // namespace materialist::learn
