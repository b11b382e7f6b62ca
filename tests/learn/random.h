// A small deterministic generator for simulated data (xorshift64*): the same numbers on every
// platform, natively and in WebAssembly.
#pragma once

#include <cstdint>

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

}  // namespace materialist::testing
