// The browser engine behind the Web Worker, in plain C++ (engine_bindings.cpp exposes it to
// JavaScript with Embind). It reads files into a pending dataset that replaces the current one
// only if it yields rows, keeps the histogram, and fits it again and again without re-reading.
//
//   Engine engine;
//   engine.begin_read(options);
//   engine.begin_file("games.pgn", size);  while (chunk) engine.feed(data, n);  engine.end_file();
//   engine.end_read();                                 // commits the dataset (if it has rows)
//   engine.begin_fit(settings);  while (!engine.fit_finished()) draw(engine.step(50));
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "learn/balance_curve.h"
#include "learn/dataset.h"
#include "learn/solvers.h"

namespace materialist::worker {

struct ReadOptions {
  learn::UnknownResultPolicy unknown = learn::UnknownResultPolicy::kTreatAsDraw;
  bool keep_rows = true;  // keep every row in order for the .mat export (6 bytes a row)
};

struct FitSettings {
  std::string preset = "article";
  bool newton = false;
  double step = 1.0;  // gradient descent α
  int iterations = 10000;
  double lambda = 1e-6;
  learn::DrawHandling draws = learn::DrawHandling::kLeaveOut;
};

struct Snapshot {
  int iteration = 0;
  std::vector<double> theta;     // P N B R Q
  std::vector<double> values;    // pawn = 100
  std::vector<double> value_se;  // standard errors of the values (final Newton/GD state only)
  double loss = 0;
  double gradient_norm = 0;
};

// A skipped or partial game with the file it came from.
struct FileIssue {
  std::string file;
  learn::GameIssue issue;
};

// A reader's share of a parallel read: everything its dataset holds, in plain arrays, so it can
// travel between Web Workers and be merged by the coordinating engine (histograms add up).
struct Part {
  std::vector<std::uint64_t> keys;           // packed RowKeys
  std::vector<learn::OutcomeCounts> counts;  // one per key
  learn::IngestReport games;
  std::vector<std::int8_t> rows;  // kept rows, six bytes each
  bool rows_truncated = false;
  std::vector<std::string> file_errors;
};

struct ReadProgress {
  std::uint64_t bytes = 0;  // of every file of this read so far
  std::uint64_t games = 0, used = 0, partial = 0, skipped = 0, rows = 0;
};

class Engine {
 public:
  static constexpr std::size_t kMaxKeptRows = 32u << 20;  // 192 MB of rows at most
  static constexpr std::size_t kMaxListedIssues = 1000;

  // ---- reading ----
  void begin_read(const ReadOptions& options);
  void begin_file(const std::string& name, double size);
  // Parses the next bytes of the current file; false once the file is rejected (binary data):
  // the caller stops sending it.
  bool feed(const char* data, std::size_t size);
  // Ends the current file; its whole-file error (empty, binary, no games), or "".
  std::string end_file();
  ReadProgress progress() const;
  // Ends the read: the pending dataset replaces the current one when it has rows (true).
  bool end_read();
  void cancel_read() { pending_.reset(); }
  bool reading() const { return pending_ != nullptr; }

  // ---- parallel reads ----
  // A reader exports the read it is doing (after end_file, before end_read).
  Part export_part() const;
  // The coordinator builds a pending dataset from parts, in file order: `line_offset` and
  // `game_offset` shift the part's line and game numbers by what came before it in the file.
  void begin_import(const std::string& file_name);
  void import_part(const Part& part, std::uint64_t line_offset, std::uint64_t game_offset);
  // Ends the file the parts came from (`bytes` long); then end_read() commits as usual.
  void end_import(std::uint64_t bytes);

  // ---- the current dataset ----
  bool has_data() const { return current_ != nullptr && current_->histogram.totals().total() > 0; }
  const learn::DatasetReport* report() const;
  // The last read's outcome, even when it was not committed: file errors and issues.
  const learn::DatasetReport& last_read_report() const { return last_read_report_; }
  const std::vector<FileIssue>& last_read_issues() const { return last_read_issues_; }
  const std::vector<std::string>& last_read_errors() const { return last_read_errors_; }
  std::size_t distinct_rows() const;
  std::vector<learn::BalanceBin> balance_bins() const;

  // ---- fitting ----
  // Prepares a fit of the current histogram: returns the planned iteration count.
  Expected<int> begin_fit(const FitSettings& settings);
  // Gradient descent: n more iterations (returns the new state). Newton: the next iterate.
  Snapshot step(int n);
  bool fit_finished() const;
  const FitSettings& fit_settings() const { return settings_; }
  const std::optional<Snapshot>& last_snapshot() const { return last_; }

  // ---- exports ----
  // The kept rows as `.mat` text, max_rows at a time from `from_row`; "" past the end.
  std::string mat_chunk(std::size_t from_row, std::size_t max_rows) const;
  std::size_t kept_rows() const { return current_ ? current_->rows.size() / 6 : 0; }
  bool rows_truncated() const { return current_ && current_->rows_truncated; }
  std::string values_csv() const;
  std::string result_json() const;

  void reset();

 private:
  struct Dataset {
    std::unique_ptr<learn::DatasetBuilder> builder;  // while reading; null once the read ended
    learn::Histogram histogram;                      // set when the read ends
    learn::DatasetReport report;
    std::vector<std::int8_t> rows;  // ΔP ΔN ΔB ΔR ΔQ outcome, six bytes a row
    bool rows_truncated = false;
    std::vector<FileIssue> issues;
    std::vector<std::string> file_errors;
  };

  Snapshot snapshot_from(const learn::FitState& state, bool with_se) const;

  std::unique_ptr<Dataset> current_, pending_;
  learn::DatasetReport last_read_report_;
  std::vector<FileIssue> last_read_issues_;
  std::vector<std::string> last_read_errors_;
  // The file being read.
  std::string file_name_;
  std::uint64_t file_bytes_ = 0;
  std::string file_error_;
  std::size_t issues_before_file_ = 0;
  // The file whose parts are being imported.
  std::string import_name_;
  learn::IngestReport import_report_;

  // The fit in progress.
  FitSettings settings_;
  learn::LogisticData data_;
  std::unique_ptr<learn::GradientDescent> descent_;
  std::vector<learn::FitState> newton_states_;
  std::size_t newton_next_ = 0;
  std::optional<learn::FitResult> newton_result_;
  std::optional<Snapshot> last_;
};

}  // namespace materialist::worker
