#include <doctest/doctest.h>

#include <string>

#include "pgn/byte_scan.h"
#include "pgn/recorder.h"

namespace materialist::pgn {
namespace {

const char* slow_comment_stop(const char* p, const char* end) {
  while (p < end && *p != '}' && !is_newline(*p)) ++p;
  return p;
}

TEST_CASE("pgn/byte_scan: the comment stop is the first '}', LF or CR, whatever the bytes") {
  // Bytes near the candidate tests' edges (0x0D and 0x0E, '}' and its neighbours, bytes with
  // the high bit set that a borrow could reach) are drawn often; any byte can be drawn.
  const unsigned char kEdges[] = {0x00, 0x01, 0x09, 0x0A, 0x0C, 0x0D, 0x0E, 0x0F, 0x7C,
                                  0x7D, 0x7E, 0x80, 0x8D, 0xFD, 0xFE, 0xFF, ' ',  'k'};
  testing::Lcg random{17};
  for (int round = 0; round < 20'000; ++round) {
    const std::size_t size = random.below(40);
    std::string text;
    for (std::size_t i = 0; i < size; ++i) {
      const bool edge = random.below(4) == 0;
      text.push_back(static_cast<char>(edge ? kEdges[random.below(sizeof kEdges)]
                                            : 0x20 + random.below(0x5D)));
    }
    // A stop just past the end must not be found: the scan reads only [p, end).
    text += "}\n";
    const char* begin = text.data();
    const char* end = begin + size;
    for (const char* p = begin; p <= end; ++p) {
      const char* fast = find_comment_stop(p, end);
      const char* slow = slow_comment_stop(p, end);
      REQUIRE_MESSAGE(fast == slow, "round ", round, ", start ", p - begin);
    }
  }
}

TEST_CASE("pgn/byte_scan: a tab or another control byte before the '}' is passed over") {
  const std::string text = "\t[%clk\x01 0:03:00]\x0b }  ";
  const char* stop = find_comment_stop(text.data(), text.data() + text.size());
  CHECK(stop - text.data() == static_cast<std::ptrdiff_t>(text.find('}')));
}

}  // namespace
}  // namespace materialist::pgn
