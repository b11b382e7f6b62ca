// splitmix64 (Steele, Lea, Flood 2014): its finaliser hashes packed keys for the open-addressing
// tables (histogram, game pairs, bootstrap index) and its step seeds the bootstrap's draws.
#pragma once

#include <cstdint>

namespace materialist {

// splitmix64's finaliser: a cheap, well-mixed 64-bit hash.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// One splitmix64 step: advances `state` by the golden gamma and returns its mix.
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  return mix64(state += 0x9E3779B97F4A7C15ULL);
}

}  // namespace materialist
