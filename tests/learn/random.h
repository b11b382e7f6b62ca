// A small deterministic generator for simulated data (xorshift64*): the same numbers on every
// platform, natively and in WebAssembly.
#pragma once

#include <cstdint>

#include "learn/stats/histogram.h"

namespace materialist::testing {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1Dull;
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  int between(int low, int high) { return low + static_cast<int>(next() % (high - low + 1)); }

 private:
  std::uint64_t state_;
};

// A random recorded position: small material imbalances (with `rare_queens` a queen is up or down
// half as often), any bishop pair, phase and side to move, both ratings known and at most
// `rating_span` apart.
inline learn::RowKey random_key(Rng& rng, int rating_span, bool rare_queens) {
  learn::RowKey key;
  const int pawns = rng.between(-3, 3), knights = rng.between(-1, 1), bishops = rng.between(-1, 1),
            rooks = rng.between(-1, 1);
  int queens = rng.between(-1, 1);
  if (rare_queens && rng.uniform() >= 0.5) queens = 0;
  key.delta = {static_cast<std::int8_t>(pawns), static_cast<std::int8_t>(knights),
               static_cast<std::int8_t>(bishops), static_cast<std::int8_t>(rooks),
               static_cast<std::int8_t>(queens)};
  key.bishop_pair = static_cast<std::int8_t>(rng.between(-1, 1));
  key.phase = static_cast<std::uint8_t>(rng.between(0, 24));
  key.black_to_move = static_cast<std::uint8_t>(rng.between(0, 1));
  key.rating_known = 1;
  key.rating_diff = static_cast<std::int16_t>(rng.between(-rating_span, rating_span));
  return key;
}

}  // namespace materialist::testing
