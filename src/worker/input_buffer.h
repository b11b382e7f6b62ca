// The buffer JavaScript copies input into (HEAPU8.set) before a feed, for every Embind face
// that takes bytes (the engine, the chunk decoder): chunks travel through one malloc'ed buffer,
// which is about five times faster than passing a std::string per chunk.
//
//   std::uintptr_t at = input.at_least(n);  // JavaScript: HEAPU8.set(bytes, at); feed(at, n)
#pragma once

#include <cstdint>
#include <cstdlib>

namespace materialist::worker {

// Allocated once, grown on demand; at_least gives 0 when an allocation fails.
class InputBuffer {
 public:
  InputBuffer() = default;
  InputBuffer(const InputBuffer&) = delete;
  InputBuffer& operator=(const InputBuffer&) = delete;
  ~InputBuffer() { std::free(data_); }

  std::uintptr_t at_least(int capacity) {
    if (capacity > capacity_) {
      std::free(data_);
      data_ = static_cast<char*>(std::malloc(static_cast<std::size_t>(capacity)));
      capacity_ = data_ ? capacity : 0;
    }
    return reinterpret_cast<std::uintptr_t>(data_);
  }

 private:
  char* data_ = nullptr;
  int capacity_ = 0;
};

}  // namespace materialist::worker
