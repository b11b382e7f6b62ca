#include <doctest/doctest.h>

#include <string>

#include "pgn/byte_scan.h"
#include "pgn/recorder.h"

namespace materialist::pgn {
namespace {

using Scan = const char* (*)(const char*, const char*);

// Runs `fast` against `slow` from every start of 20 000 random texts of up to 40 bytes. Bytes
// near the candidate tests' edges (0x0D and 0x0E, each stop and its neighbours, bytes with the
// high bit set that a borrow could reach) are drawn often; any byte can be drawn. A stop just
// past the end must not be found: a scan reads only [p, end).
void check_against_slow_scan(Scan fast, Scan slow) {
  const unsigned char kEdges[] = {0x00, 0x01, 0x09, 0x0A, 0x0C, 0x0D, 0x0E, 0x0F, 0x21,
                                  0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7C, 0x7D, 0x7E, 0x80,
                                  0x8D, 0xA2, 0xDC, 0xFD, 0xFE, 0xFF, ' ',  'k'};
  testing::Lcg random{17};
  for (int round = 0; round < 20'000; ++round) {
    const std::size_t size = random.below(40);
    std::string text;
    for (std::size_t i = 0; i < size; ++i) {
      const bool edge = random.below(4) == 0;
      text.push_back(static_cast<char>(edge ? kEdges[random.below(sizeof kEdges)]
                                            : 0x20 + random.below(0x5F)));
    }
    text += "}\"\\\n";
    const char* begin = text.data();
    const char* end = begin + size;
    for (const char* p = begin; p <= end; ++p) {
      REQUIRE_MESSAGE(fast(p, end) == slow(p, end), "round ", round, ", start ", p - begin);
    }
  }
}

TEST_CASE("pgn/byte_scan: the comment stop is the first '}', LF or CR, whatever the bytes") {
  check_against_slow_scan(find_comment_stop, [](const char* p, const char* end) {
    while (p < end && *p != '}' && !is_newline(*p)) ++p;
    return p;
  });
}

TEST_CASE("pgn/byte_scan: the tag value stop is the first quote, backslash, LF or CR") {
  check_against_slow_scan(find_tag_value_stop, [](const char* p, const char* end) {
    while (p < end && *p != '"' && *p != '\\' && !is_newline(*p)) ++p;
    return p;
  });
}

TEST_CASE("pgn/byte_scan: a tab or another control byte before the stop is passed over") {
  const std::string comment = "\t[%clk\x01 0:03:00]\x0b }  ";
  const char* stop = find_comment_stop(comment.data(), comment.data() + comment.size());
  CHECK(stop - comment.data() == static_cast<std::ptrdiff_t>(comment.find('}')));
  const std::string value = "Magnus\tCarlsen\x01\x0c\"]";
  stop = find_tag_value_stop(value.data(), value.data() + value.size());
  CHECK(stop - value.data() == static_cast<std::ptrdiff_t>(value.find('"')));
}

}  // namespace
}  // namespace materialist::pgn
