// A streaming SHA-256 (FIPS 180-4): feed bytes in any chunks, then read the digest. The CLI can
// hash while reading; the browser worker hashes its files when the provenance export asks (in
// WebAssembly SHA-256 costs about as much as parsing).
//
//   Sha256 hash;
//   hash.update(chunk, size); ...
//   std::string hex = hash.hex();   // 64 lowercase hex digits; ends the stream
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace materialist {

class Sha256 {
 public:
  Sha256() { reset(); }
  void reset();
  void update(const void* data, std::size_t size);
  // Pads and returns the digest; update() after it starts over only after reset().
  std::array<std::uint8_t, 32> digest();
  std::string hex();

 private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_{};
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;  // bytes so far
};

}  // namespace materialist
