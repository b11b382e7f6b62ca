#include "learn/stats/mat_io.h"

#include <array>
#include <charconv>
#include <cstdio>

namespace materialist::learn {

namespace {

constexpr bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

void append_field(std::string& out, int value) {
  char buffer[8];
  const int written = std::snprintf(buffer, sizeof buffer, "%2d", value);
  out.append(buffer, written > 0 ? static_cast<std::size_t>(written) : 0);
}

}  // namespace

void append_mat_row(std::string& out, const MaterialVector& delta, Outcome outcome) {
  for (int i = 0; i < kPieceKinds; ++i) {
    append_field(out, delta[i]);
    out.push_back(' ');
  }
  append_field(out, outcome_code(outcome));
  out.push_back('\n');
}

void MatReader::feed(const char* data, std::size_t size) {
  report_.bytes += size;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = data[i];
    if (c == '\n') {
      end_line();
    } else if (line_.size() < kMaxLine) {
      line_.push_back(c);
    } else {
      line_too_long_ = true;
    }
  }
}

void MatReader::finish() {
  if (!line_.empty() || line_too_long_) end_line();
}

void MatReader::end_line() {
  ++report_.lines;
  std::array<int, kPieceKinds + 1> values{};
  int count = 0;
  const char* p = line_.data();
  const char* end = p + line_.size();
  const char* problem = nullptr;
  if (line_too_long_) problem = "line longer than 256 bytes";
  while (!problem) {
    while (p < end && is_blank(*p)) ++p;
    if (p == end) break;
    if (count == kPieceKinds + 1) {
      problem = "more than six numbers";
      break;
    }
    if (*p == '+') ++p;  // from_chars takes '-' but not '+'
    int value = 0;
    const auto [next, error] = std::from_chars(p, end, value);
    if (error != std::errc() || (next < end && !is_blank(*next))) {
      problem = "not an integer";
      break;
    }
    values[count++] = value;
    p = next;
  }
  if (!problem && count == 0) {  // a blank line
    line_.clear();
    return;
  }
  if (!problem && count < kPieceKinds + 1) problem = "fewer than six numbers";
  MaterialVector delta{};
  for (int i = 0; !problem && i < kPieceKinds; ++i) {
    if (values[i] < -64 || values[i] > 63) problem = "delta outside -64..63";
    delta[i] = static_cast<std::int8_t>(values[i]);
  }
  if (!problem && (values[kPieceKinds] < 0 || values[kPieceKinds] > 2)) {
    problem = "result is not 0, 1 or 2";
  }
  if (problem) {
    reject(problem);
  } else {
    const Row row{RowKey::from_delta(delta), static_cast<Outcome>(values[kPieceKinds])};
    histogram_.add(row.key, row.outcome);
    if (sink_) sink_(row);
    ++report_.rows;
  }
  line_.clear();
  line_too_long_ = false;
}

void MatReader::reject(const char* reason) {
  ++report_.bad_lines;
  if (report_.first_bad_lines.size() < max_reported_) {
    report_.first_bad_lines.push_back({report_.lines, reason});
  }
}

}  // namespace materialist::learn
