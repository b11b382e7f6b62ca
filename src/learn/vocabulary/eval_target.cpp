#include "learn/vocabulary/eval_target.h"

#include <algorithm>
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

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

// The argument of one [%eval] command: "0.17", "-1.05,23", "#3", "#-2".
bool read_argument(std::string_view text, EvalReading& reading) {
  text = trimmed(text);
  // An optional ",depth" (digits) after the value.
  if (const std::size_t comma = text.find(','); comma != std::string_view::npos) {
    const std::string_view depth = trimmed(text.substr(comma + 1));
    if (depth.empty() || depth.size() > 4 || !std::all_of(depth.begin(), depth.end(), is_digit)) {
      return false;
    }
    text = trimmed(text.substr(0, comma));
  }
  if (text.empty()) return false;
  const bool mate = text.front() == '#';
  if (mate) text.remove_prefix(1);
  int sign = 1;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    sign = text.front() == '-' ? -1 : 1;
    text.remove_prefix(1);
  }
  if (text.empty() || !is_digit(text.front())) return false;
  if (mate) {
    if (text.size() > 4 || !std::all_of(text.begin(), text.end(), is_digit)) return false;
    int moves = 0;
    for (char c : text) moves = moves * 10 + (c - '0');
    if (moves == 0) return false;  // "#0": mated already, no side to credit
    reading.mate = sign * moves;
    reading.centipawns = 0;
    reading.score = sign > 0 ? 1.0 : 0.0;
    return true;
  }
  // Pawns: digits, optionally a '.' and more digits (at most 6 before, 6 after).
  std::size_t i = 0;
  double whole = 0;
  while (i < text.size() && is_digit(text[i])) whole = whole * 10 + (text[i++] - '0');
  if (i > 6) return false;
  double fraction = 0, scale = 1;
  if (i < text.size() && text[i] == '.') {
    const std::size_t start = ++i;
    while (i < text.size() && is_digit(text[i])) {
      scale /= 10;
      fraction += (text[i++] - '0') * scale;
    }
    if (i - start > 6) return false;
  }
  if (i != text.size()) return false;
  reading.mate = 0;
  reading.centipawns = sign * (whole + fraction) * 100.0;
  reading.score = expected_score_of_centipawns(reading.centipawns);
  return true;
}

}  // namespace

EvalReading read_eval_comment(std::string_view comment) {
  constexpr std::string_view kCommand = "[%eval";
  EvalReading reading;
  std::size_t from = 0;
  while (true) {
    const std::size_t at = comment.find(kCommand, from);
    if (at == std::string_view::npos) break;
    from = at + kCommand.size();
    // "[%evaluation ...]" is another command: the name ends at a blank or ']'.
    if (from < comment.size() && !is_blank(comment[from]) && comment[from] != ']') continue;
    const std::size_t close = comment.find(']', from);
    EvalReading candidate;
    const bool ok = close != std::string_view::npos &&
                    comment.substr(from, close - from).find('[') == std::string_view::npos &&
                    read_argument(comment.substr(from, close - from), candidate);
    if (!ok) {
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

}  // namespace materialist::learn
