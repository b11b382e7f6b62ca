// The article's intermediate `.mat` file: one row per line, "ΔP ΔN ΔB ΔR ΔQ result", result 0
// (black wins), 1 (draw) or 2 (white wins), whitespace separated, so Octave, R or NumPy load it.
//
//   std::string text;
//   append_mat_row(text, {1, 0, 0, 0, 0}, Outcome::kWhiteWin);   // " 1  0  0  0  0  2\n"
//
//   Histogram histogram;
//   MatReader reader(histogram);
//   reader.feed(chunk, size);  ...  reader.finish();              // any chunking
//   reader.report().bad_lines                                       // with line numbers
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "learn/stats/histogram.h"

namespace materialist::learn {

// Appends one row in the original tool's layout (each number right-aligned in two columns).
void append_mat_row(std::string& out, const MaterialVector& delta, Outcome outcome);

struct MatBadLine {
  std::uint64_t line = 0;  // 1-based
  std::string reason;
};

struct MatReadReport {
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;                  // lines seen, blank ones included
  std::uint64_t rows = 0;                   // rows added to the histogram
  std::uint64_t bad_lines = 0;              // exact, however many
  std::vector<MatBadLine> first_bad_lines;  // the first `max_reported` of them
};

// Streams `.mat` text into a histogram (keys carry only the deltas). Blank lines are ignored; a
// line that is not six integers with deltas in -64..63 and a result of 0, 1 or 2 is reported
// and skipped. Lines longer than 256 bytes are rejected without buffering them.
class MatReader {
 public:
  explicit MatReader(Histogram& histogram, std::size_t max_reported = 1000)
      : histogram_(histogram), max_reported_(max_reported) {}

  // Also passes every good row, in file order, to `sink` (e.g. to re-export it).
  void set_row_sink(RowSink sink) { sink_ = std::move(sink); }

  void feed(const char* data, std::size_t size);
  // Reads a last line that has no newline.
  void finish();
  const MatReadReport& report() const { return report_; }

 private:
  static constexpr std::size_t kMaxLine = 256;

  void end_line();
  void reject(const char* reason);

  Histogram& histogram_;
  RowSink sink_;
  std::size_t max_reported_;
  MatReadReport report_;
  std::string line_;
  bool line_too_long_ = false;
};

}  // namespace materialist::learn
