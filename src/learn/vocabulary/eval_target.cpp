#include "learn/vocabulary/eval_target.h"

#include <algorithm>
#include <array>
#include <cmath>

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

// What follows lichess's "[%eval X]" when it writes nothing more ("", " ") or only its clock,
// " [%clk H:MM:SS] ": then the comment holds no other command.
bool is_lichess_rest(std::string_view rest) {
  constexpr std::string_view kClock = " [%clk ";
  if (rest.size() <= 1) return rest.empty() || is_blank(rest[0]);
  if (rest.size() != 16 || rest.substr(0, kClock.size()) != kClock || rest[14] != ']' ||
      rest[15] != ' ') {
    return false;
  }
  for (std::size_t i = kClock.size(); i < 14; ++i)
    if (rest[i] == '[' || rest[i] == ']') return false;
  return true;
}

// lichess's number, "0.17]", "-1.05]", "3]" (at most two decimals): its centipawns and the
// position after its ']', or 0 for anything else (a mate, a depth, blanks), which the general
// reader then reads.
std::size_t read_lichess_number(std::string_view text, std::size_t i, double& centipawns) {
  const bool negative = i < text.size() && text[i] == '-';
  i += negative ? 1 : 0;
  const std::size_t whole_start = i;
  std::int64_t digits = 0;
  for (; i < text.size() && is_digit(text[i]); ++i) digits = digits * 10 + (text[i] - '0');
  if (i == whole_start || i - whole_start > 6) return 0;
  std::size_t decimals = 0;
  if (i < text.size() && text[i] == '.') {
    const std::size_t fraction_start = ++i;
    for (; i < text.size() && is_digit(text[i]); ++i) digits = digits * 10 + (text[i] - '0');
    decimals = i - fraction_start;
    if (decimals > 2) return 0;
  }
  if (i == text.size() || text[i] != ']') return 0;
  constexpr std::array<std::int64_t, 3> kCentipawnScale = {100, 10, 1};
  centipawns = static_cast<double>(digits * kCentipawnScale[decimals]);
  if (negative) centipawns = -centipawns;
  return i + 1;
}

}  // namespace

EvalReading scan_eval_comment(std::string_view comment) {
  constexpr std::size_t kCommandSize = 6;  // "[%eval"
  EvalReading reading;
  std::size_t from = 0;
  // lichess's shape, " [%eval 0.17] [%clk 0:03:00] ", in one pass; any other comment is read
  // by the loop below, from the start or from after the first command.
  if (comment.size() >= 9 && comment.substr(0, 8) == " [%eval ") {
    if (const std::size_t after = read_lichess_number(comment, 8, reading.centipawns)) {
      reading.status = EvalStatus::kValid;
      if (is_lichess_rest(comment.substr(after))) return reading;
      from = after;
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
      ++reading.malformed;
      continue;
    }
    if (reading.status != EvalStatus::kValid) {
      const int malformed = reading.malformed;
      reading = candidate;
      reading.malformed = malformed;
      reading.status = EvalStatus::kValid;
    }
    from = close + 1;
  }
  if (reading.status != EvalStatus::kValid && reading.malformed > 0) {
    reading.status = EvalStatus::kMalformed;
  }
  return reading;
}

double eval_score(const EvalReading& reading) {
  if (reading.mate != 0) return reading.mate > 0 ? 1.0 : 0.0;
  return expected_score_of_centipawns(reading.centipawns);
}

EvalReading read_eval_comment(std::string_view comment) {
  EvalReading reading = scan_eval_comment(comment);
  if (reading.status == EvalStatus::kValid) reading.score = eval_score(reading);
  return reading;
}

}  // namespace materialist::learn
