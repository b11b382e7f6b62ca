// Simulated rows with each side's absolute counts, for the imbalance and split-sides tests:
// positions drawn from a fixed-seed RNG, outcomes drawn from a known model's σ(η).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "learn/fit/models.h"
#include "learn/random.h"

namespace materialist::testing {

// One side's material: pawns 0..8, knights, bishops and rooks 0..2, a queen or not.
inline std::array<std::uint8_t, learn::kPieceKinds> random_side(Rng& rng) {
  return {
      static_cast<std::uint8_t>(rng.between(0, 8)), static_cast<std::uint8_t>(rng.between(0, 2)),
      static_cast<std::uint8_t>(rng.between(0, 2)), static_cast<std::uint8_t>(rng.between(0, 2)),
      static_cast<std::uint8_t>(rng.between(0, 1))};
}

// A key with both sides' counts (the second side a copy of the first with a few changes half the
// time, so that balanced and near-balanced material, as in games, is common).
inline learn::RowKey random_counts_key(Rng& rng) {
  learn::MaterialCounts counts;
  counts.white = random_side(rng);
  counts.black = rng.uniform() < 0.5 ? random_side(rng) : counts.white;
  if (counts.black == counts.white) {
    const int piece = rng.between(0, learn::kPieceKinds - 1);
    const int limit = piece == learn::kPawnIndex ? 8 : piece == learn::kQueenIndex ? 1 : 2;
    counts.black[piece] = static_cast<std::uint8_t>(rng.between(0, limit));
  }
  learn::RowKey key = learn::RowKey::from_delta(counts.delta());
  key.counts_known = 1;
  key.white_counts = counts.white;
  // One bishop each: on opposite colours when the pawns add up to an odd number (drawn without
  // the RNG, so the positions of the tests before this field stay the same).
  key.opposite_bishops =
      counts.white[learn::kBishopIndex] == 1 && counts.black[learn::kBishopIndex] == 1 &&
              (counts.white[learn::kPawnIndex] + counts.black[learn::kPawnIndex]) % 2 == 1
          ? 1
          : 0;
  key.bishop_pair = static_cast<std::int8_t>(counts.bishop_pair_delta());
  return key;
}

// A histogram of `rows` positions with binary outcomes drawn from σ(θ·x) of the model's columns.
inline learn::Histogram simulate_counts(const learn::ModelOptions& options,
                                        const std::vector<double>& theta, int rows,
                                        std::uint64_t seed) {
  Rng rng(seed);
  const learn::ModelSpec spec = learn::model_spec(options);
  learn::Histogram histogram;
  for (int i = 0; i < rows; ++i) {
    const learn::RowKey key = random_counts_key(rng);
    double eta = 0;
    for (std::size_t j = 0; j < spec.features.size(); ++j) {
      eta += theta[j] * spec.features[j].value(key);
    }
    const double p = 1.0 / (1.0 + std::exp(-eta));
    histogram.add(key, rng.uniform() < p ? learn::Outcome::kWhiteWin : learn::Outcome::kBlackWin);
  }
  return histogram;
}

}  // namespace materialist::testing
