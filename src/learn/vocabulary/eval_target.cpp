#include "learn/vocabulary/eval_target.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

#include "core/enum_names.h"

namespace materialist::learn {

const char* target_name(Target target) {
  return name_of(kTargetNames, target);
}

std::optional<Target> parse_target(std::string_view name) {
  return value_named<Target>(kTargetNames, name);
}

double expected_score_of_centipawns(double centipawns) {
  const double cp = std::clamp(centipawns, -kEvalClampCentipawns, kEvalClampCentipawns);
  return 1.0 / (1.0 + std::exp(-kEvalLogisticScale * cp));
}

TargetUnits target_units(double score) {
  const double clamped = std::clamp(score, 0.0, 1.0);
  return static_cast<TargetUnits>(std::llround(clamped * static_cast<double>(kTargetOne)));
}

double target_score(TargetUnits units) {
  return static_cast<double>(units) / static_cast<double>(kTargetOne);
}

namespace {

constexpr bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
constexpr bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Comments are short (a lichess comment is about 30 bytes): plain loops beat library searches.
std::size_t skip_blanks(std::string_view text, std::size_t i) {
  while (i < text.size() && is_blank(text[i])) ++i;
  return i;
}
std::size_t skip_digits(std::string_view text, std::size_t i) {
  while (i < text.size() && is_digit(text[i])) ++i;
  return i;
}

// The argument of one [%eval] command, read in one pass: blanks, then "0.17", "+3", "#3" or
// "#-2", blanks, and an optional ",depth" (1 to 4 digits) with blanks around it.
bool read_argument(std::string_view text, EvalReading& reading) {
  std::size_t i = skip_blanks(text, 0);
  const bool mate = i < text.size() && text[i] == '#';
  if (mate) ++i;
  int sign = 1;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) sign = text[i++] == '-' ? -1 : 1;
  const std::size_t whole_start = i;
  i = skip_digits(text, i);
  const std::size_t whole_digits = i - whole_start;
  if (whole_digits == 0 || whole_digits > (mate ? 4 : 6)) return false;
  std::size_t fraction_start = i, fraction_end = i;
  if (!mate && i < text.size() && text[i] == '.') {
    fraction_start = i + 1;
    fraction_end = i = skip_digits(text, fraction_start);
    if (fraction_end - fraction_start > 6) return false;
  }
  i = skip_blanks(text, i);
  if (i < text.size() && text[i] == ',') {
    const std::size_t depth_start = skip_blanks(text, i + 1);
    const std::size_t depth_end = skip_digits(text, depth_start);
    if (depth_end == depth_start || depth_end - depth_start > 4) return false;
    i = skip_blanks(text, depth_end);
  }
  if (i != text.size()) return false;
  if (mate) {
    int moves = 0;
    for (std::size_t k = whole_start; k < whole_start + whole_digits; ++k)
      moves = moves * 10 + (text[k] - '0');
    if (moves == 0) return false;  // "#0": mated already, no side to credit
    reading.mate = sign * moves;
    reading.centipawns = 0;
    return true;
  }
  // All the digits as one integer (at most 12, exact), then one correctly rounded division.
  std::int64_t digits = 0;
  for (std::size_t k = whole_start; k < whole_start + whole_digits; ++k)
    digits = digits * 10 + (text[k] - '0');
  for (std::size_t k = fraction_start; k < fraction_end; ++k)
    digits = digits * 10 + (text[k] - '0');
  // Up to two decimals (lichess writes two) the centipawns are an integer: no division.
  constexpr std::array<std::int64_t, 3> kCentipawnScale = {100, 10, 1};
  constexpr std::array<double, 7> kPowersOfTen = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
  const std::size_t decimals = fraction_end - fraction_start;
  const double centipawns = decimals <= 2
                                ? static_cast<double>(digits * kCentipawnScale[decimals])
                                : static_cast<double>(digits * 100) / kPowersOfTen[decimals];
  reading.mate = 0;
  reading.centipawns = sign * centipawns;
  return true;
}

// Where the next "[%eval" starts at or after `from`, or npos.
std::size_t find_eval_command(std::string_view comment, std::size_t from) {
  constexpr std::string_view kCommand = "[%eval";
  for (std::size_t i = from; i + kCommand.size() <= comment.size(); ++i) {
    if (comment[i] == '[' && comment.substr(i, kCommand.size()) == kCommand) return i;
  }
  return std::string_view::npos;
}

// The command's argument: from `from` to the first ']', or npos if a '[' or the comment's end
// comes first.
std::size_t find_argument_end(std::string_view comment, std::size_t from) {
  for (std::size_t i = from; i < comment.size(); ++i) {
    if (comment[i] == ']') return i;
    if (comment[i] == '[') return std::string_view::npos;
  }
  return std::string_view::npos;
}

// ---- lichess's shape, a word at a time ----
// lichess writes " [%eval 0.17] [%clk 0:03:00] " after every move. Its number is read with word
// operations and no branch on its length, which varies from move to move (a loop over its digits
// mispredicts its exit: the reading took twice as long). Any other shape, or a number the words
// cannot take, goes to the general reader above, which decides.

static_assert(std::endian::native == std::endian::little, "byte 0 of a word is its lowest");
constexpr std::uint64_t kOnes = 0x0101010101010101;
constexpr std::uint64_t kHighBits = 0x8080808080808080;

std::uint64_t load_word(const char* p) {
  std::uint64_t word;
  std::memcpy(&word, p, sizeof word);
  return word;
}

// The high bit of every byte of `word` equal to `value`, exactly (no borrow between bytes).
constexpr std::uint64_t bytes_equal(std::uint64_t word, std::uint8_t value) {
  const std::uint64_t t = word ^ (kOnes * value);
  return ~(((t & ~kHighBits) + ~kHighBits) | t) & kHighBits;
}

// The high bit of every byte of `word` that is an ASCII digit, exactly.
constexpr std::uint64_t digit_bytes(std::uint64_t word) {
  const std::uint64_t t = word ^ (kOnes * '0');  // '0'..'9' become 0..9, nothing else does
  const std::uint64_t ten_or_more = (t & ~kHighBits) + kOnes * (0x80 - 10);
  return ~(ten_or_more | t) & kHighBits;
}

// The argument at `argument` (8 bytes readable) if it is lichess's: "0.17]", "-1.05]", "12]" (at
// most 6 digits before the point, at most 2 after it) or "#4]", "#-2]" (1 to 4 digits, not all
// 0), ended by its ']' within the word. Returns its length (without the ']'), or -1 for anything
// else. Checked, not read: the value is read only for the few comments whose row is recorded.
int lichess_argument_length(const char* argument) {
  const std::uint64_t word = load_word(argument);
  const std::uint64_t close = bytes_equal(word, ']');
  if (close == 0) return -1;
  const int length = std::countr_zero(close) / 8;  // the argument's bytes, 0..7
  const std::uint64_t inside = ((std::uint64_t{1} << (8 * length)) - 1) & kHighBits;
  const std::uint64_t digits = digit_bytes(word) & inside;
  const std::uint64_t dots = bytes_equal(word, '.') & inside;
  const bool mate = (bytes_equal(word, '#') & inside) == 0x80;  // a '#' first, and only there
  const std::uint64_t sign_bit = mate ? 0x8000 : 0x80;          // a '-' right after it
  const bool negative = (bytes_equal(word, '-') & inside) == sign_bit;
  const std::uint64_t marks = (mate ? 0x80 : 0) | (negative ? sign_bit : 0) | dots;
  // Every byte a digit but for those marks; at most one point, none in a mate.
  if ((digits | marks) != inside || (dots & (dots - 1)) != 0 || (mate && dots != 0)) return -1;
  const int start = (mate ? 1 : 0) + (negative ? 1 : 0);
  const int point = dots != 0 ? std::countr_zero(dots) / 8 : length;
  const int whole = point - start;
  const int decimals = dots != 0 ? length - point - 1 : 0;
  if (whole < 1 || whole > (mate ? 4 : 6) || decimals > 2) return -1;
  const bool zero = (bytes_equal(word, '0') & digits) == digits;
  if (mate && zero) return -1;  // "#0": malformed, as the general reader says
  return length;
}

// What follows lichess's "[%eval X]" when it writes nothing more ("", " ") or only its clock,
// " [%clk H:MM:SS] ": then the comment holds no other command.
bool is_lichess_rest(std::string_view rest) {
  if (rest.size() <= 1) return rest.empty() || is_blank(rest[0]);
  if (rest.size() != 16) return false;
  constexpr std::uint64_t kClockCommand = 0x206b6c63255b20;  // " [%clk " in bytes 0..6
  const std::uint64_t first = load_word(rest.data()), second = load_word(rest.data() + 8);
  const std::uint64_t brackets_first = bytes_equal(first, '[') | bytes_equal(first, ']');
  const std::uint64_t brackets_second = bytes_equal(second, '[') | bytes_equal(second, ']');
  return (first & 0x00FFFFFFFFFFFFFF) == kClockCommand && (brackets_first >> 56) == 0 &&
         (brackets_second & 0x0000808080808080) == 0 && (second >> 48) == 0x205d;  // "] "
}

}  // namespace

EvalScan scan_eval_comment(std::string_view comment) {
  constexpr std::size_t kCommandSize = 6;  // "[%eval"
  EvalScan scan;
  std::size_t from = 0;
  // lichess's shape, " [%eval 0.17] [%clk 0:03:00] ", in a few word operations; any other
  // comment is read by the loop below, from the start or from after the first command.
  if (comment.size() >= 16 && comment.substr(0, 8) == " [%eval ") {
    if (const int length = lichess_argument_length(comment.data() + 8); length >= 0) {
      scan.status = EvalStatus::kValid;
      scan.argument = comment.substr(8, static_cast<std::size_t>(length));
      from = 8 + static_cast<std::size_t>(length) + 1;
      if (is_lichess_rest(comment.substr(from))) return scan;
    }
  }
  while (true) {
    const std::size_t at = find_eval_command(comment, from);
    if (at == std::string_view::npos) break;
    from = at + kCommandSize;
    // "[%evaluation ...]" is another command: the name ends at a blank or ']'.
    if (from < comment.size() && !is_blank(comment[from]) && comment[from] != ']') continue;
    const std::size_t close = find_argument_end(comment, from);
    EvalReading candidate;
    if (close == std::string_view::npos ||
        !read_argument(comment.substr(from, close - from), candidate)) {
      ++scan.malformed;
      continue;
    }
    if (scan.status != EvalStatus::kValid) {
      scan.status = EvalStatus::kValid;
      scan.argument = comment.substr(from, close - from);
    }
    from = close + 1;
  }
  if (scan.status != EvalStatus::kValid && scan.malformed > 0) scan.status = EvalStatus::kMalformed;
  return scan;
}

EvalReading read_eval_comment(std::string_view comment) {
  const EvalScan scan = scan_eval_comment(comment);
  EvalReading reading;
  reading.malformed = scan.malformed;
  reading.status = scan.status;
  if (scan.status == EvalStatus::kValid) {
    read_argument(scan.argument, reading);  // valid: the scan checked it
    reading.score = eval_argument_score(scan.argument);
  }
  return reading;
}

double eval_argument_score(std::string_view argument) {
  EvalReading reading;
  if (!read_argument(argument, reading)) return 0.5;  // not a valid argument: no side favoured
  if (reading.mate != 0) return reading.mate > 0 ? 1.0 : 0.0;
  return expected_score_of_centipawns(reading.centipawns);
}

}  // namespace materialist::learn
