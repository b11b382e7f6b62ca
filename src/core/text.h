// Small text helpers every module reads input with: ASCII trimming, case-insensitive comparison
// whole-text integer parsing with a range, and the thousands-grouped number format.
//
//   trim("  2450\r\n") == "2450"
//   equals_ignoring_case("Chess960", "chess960")
//   parse_integer("12", 0, 100) == 12;   parse_integer("12x") and parse_integer("101", 0, 100):
//   none
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace materialist {

// Space, tab, carriage return, line feed, form feed and vertical tab.
constexpr bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

// `text` without ASCII whitespace at either end.
std::string_view trim(std::string_view text);

// ASCII lower case; other bytes (UTF-8 included) unchanged.
constexpr char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}
std::string to_lower(std::string_view text);

bool equals_ignoring_case(std::string_view a, std::string_view b);
bool contains_ignoring_case(std::string_view haystack, std::string_view needle);
bool ends_with_ignoring_case(std::string_view text, std::string_view suffix);

// `text` safe to print in a terminal, a log, a code comment or a single-line message: control
// bytes (C0 and DEL: newlines, escape sequences, bells) become '?', and a text longer than
// `max_bytes` is cut at a UTF-8 character boundary and ends in "...". Names and tag text from
// files pass through this before they reach a report. Inline: the archive library uses it too.
inline std::string printable(std::string_view text, std::size_t max_bytes = 256) {
  std::size_t keep = text.size();
  if (keep > max_bytes) {
    keep = max_bytes;
    // Back to the start of a UTF-8 character: continuation bytes are 10xxxxxx.
    while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
  }
  std::string out(text.substr(0, keep));
  for (char& c : out) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) c = '?';
  }
  if (keep < text.size()) out += "...";
  return out;
}

// `n` with its thousands grouped by commas, the one number format of every text a user reads
// (the page, the worker's status lines, the CLI's reports): grouped(1234567) == "1,234,567".
std::string grouped(std::uint64_t n);

// A decimal integer spanning the whole of `text` (an optional '-', then digits: no spaces, no
// '+'), within [minimum, maximum]; nullopt otherwise, overflow included.
std::optional<std::int64_t> parse_integer(
    std::string_view text, std::int64_t minimum = std::numeric_limits<std::int64_t>::min(),
    std::int64_t maximum = std::numeric_limits<std::int64_t>::max());

// A finite decimal number spanning the whole of `text` once trimmed (strtod's syntax: "-3.5",
// "1e-6"); nullopt for an empty text, other characters after it, infinity or NaN. The one parser
// of numbers a user types or a link carries (the CLI's options, value sets, the page's fields).
std::optional<double> parse_real(std::string_view text);

// The same for an int: the range defaults to int's.
std::optional<int> parse_int(std::string_view text, int minimum = std::numeric_limits<int>::min(),
                             int maximum = std::numeric_limits<int>::max());

}  // namespace materialist
