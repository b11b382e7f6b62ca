// The .mstats body's encoding (docs/MSTATS.md): unsigned LEB128 integers, length-prefixed
// strings and wide target sums; a Reader whose first error sticks.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "learn/stats/histogram.h"  // OutcomeCounts, TargetSum

namespace materialist::learn::detail {

class Writer {
 public:
  void raw(const void* data, std::size_t size) {
    out_.append(static_cast<const char*>(data), size);
  }
  void fixed(std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out_.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  }
  void uint(std::uint64_t value) {
    while (value >= 0x80) {
      out_.push_back(static_cast<char>((value & 0x7F) | 0x80));
      value >>= 7;
    }
    out_.push_back(static_cast<char>(value));
  }
  void text(std::string_view value) {
    uint(value.size());
    out_.append(value);
  }
  void counts(const OutcomeCounts& counts) {
    for (std::uint64_t c : counts.by_outcome) uint(c);
  }
  void wide(TargetSum value) {  // low 64 bits, then high
    uint(static_cast<std::uint64_t>(value));
    uint(static_cast<std::uint64_t>(value >> 64));
  }
  std::string& bytes() { return out_; }

 private:
  std::string out_;
};

// Reads the body; the first failure sticks (every later read gives 0 or "").
class Reader {
 public:
  explicit Reader(std::string_view bytes) : in_(bytes) {}

  std::uint64_t uint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= in_.size()) return fail("the body ends inside a number");
      const auto byte = static_cast<unsigned char>(in_[pos_++]);
      value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
      if (!(byte & 0x80)) return value;
    }
    return fail("a number longer than 64 bits");
  }
  // A count of items, each at least `min_bytes` long: never more than the bytes left allow.
  std::uint64_t count(std::size_t min_bytes = 1) {
    const std::uint64_t n = uint();
    if (n > (in_.size() - pos_) / std::max<std::size_t>(min_bytes, 1)) {
      return fail("a count larger than the bytes left");
    }
    return n;
  }
  bool flag() { return uint() != 0; }
  std::string text() {
    const std::uint64_t size = count();
    if (!error_.empty()) return {};
    std::string value(in_.substr(pos_, size));
    pos_ += size;
    return value;
  }
  OutcomeCounts counts() {
    OutcomeCounts counts;
    for (std::uint64_t& c : counts.by_outcome) c = uint();
    return counts;
  }
  TargetSum wide() {
    const std::uint64_t low = uint();
    return static_cast<TargetSum>(uint()) << 64 | low;
  }
  // An enum's value, below `limit`.
  std::uint64_t below(std::uint64_t limit, const char* what) {
    const std::uint64_t value = uint();
    if (value >= limit) return fail(std::string("a bad ") + what);
    return value;
  }
  std::uint64_t fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
    pos_ = in_.size();
    return 0;
  }
  bool at_end() const { return pos_ == in_.size(); }
  const std::string& error() const { return error_; }

 private:
  std::string_view in_;
  std::size_t pos_ = 0;
  std::string error_;
};

}  // namespace materialist::learn::detail
