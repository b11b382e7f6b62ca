// splitmix64 (Steele, Lea, Flood 2014): its finaliser hashes packed keys for the open-addressing
// tables (histogram, game pairs, bootstrap index) and its step seeds the bootstrap's draws.
#pragma once

#include <cstdint>
#include <string_view>

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

// FNV-1a over a text's bytes (a move's SAN, for a game's hash).
constexpr std::uint64_t hash_text(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return hash;
}

}  // namespace materialist
