// The browser engine behind the Web Worker, in plain C++ (engine_bindings.cpp exposes it to
// JavaScript with Embind). It reads files into a pending dataset that replaces the current one
// only if it yields rows, keeps the histogram, and fits it again and again without re-reading.
//
//   Engine engine;
//   engine.begin_read(options);
//   engine.begin_file("games.pgn", size);  while (chunk) engine.feed(data, n);  engine.end_file();
//   engine.end_read();                                 // commits the dataset (if it has rows)
//   engine.begin_fit(settings);  while (!engine.fit_session().finished) draw(engine.step(50));
//   engine.exports().fits_json();                      // every dataset's fit, relations, curve
//
// Split by job: engine_read.cpp (reading, the dataset split; worker/part_import.h imports the
// parallel readers' shares), engine_fit.cpp (fitting: the state machine is
// worker/fit_session.h's FitSession, replaced as a whole), and worker/exporter.h (values CSV/JSON,
// provenance, code, status line). The data are worker/engine_dataset.h's.
//
// The read options (protocol::ReadOptions, web/PROTOCOL.md) carry a game filter, quiet-filter
// options, bootstrap replicates and a dataset split (per file or per filter, read in one pass by
// learn::DatasetSplit); the fit settings carry the model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/json.h"
#include "core/sha256.h"
#include "learn/fit/analysis.h"
#include "learn/fit/balance_curve.h"
#include "learn/fit/models.h"
#include "learn/fit/solvers.h"
#include "learn/read/archive_reader.h"
#include "learn/read/dataset.h"
#include "learn/read/dataset_split.h"
#include "learn/read/mstats.h"
#include "learn/stats/game_pairs.h"
#include "protocol/messages.h"
#include "worker/engine_dataset.h"
#include "worker/exporter.h"
#include "worker/file_read.h"
#include "worker/fit_session.h"
#include "worker/part_import.h"
#include "worker/squares_session.h"

namespace materialist::worker {

// The settings and results the engine takes and gives are the protocol's (protocol/messages.h).
using protocol::DatasetMode;
using protocol::DatasetSummary;
using protocol::FitSettings;
using protocol::ReadOptions;
using protocol::Snapshot;

class Engine {
 public:
  static constexpr std::size_t kMaxListedIssues = worker::kMaxListedIssues;
  // A live preview of values by square fits a sample of this many positions (4 MB; a fraction
  // of a second in the worker), so that the read streams on between previews.
  static constexpr std::uint64_t kLiveSquaresRows = 100'000;

  // ---- reading ----
  // Fails (and starts nothing) when the filter text does not parse.
  std::optional<Error> begin_read(const ReadOptions& options);
  void begin_file(const std::string& name, double size);
  // Instead of begin_file, for a parallel reader: a stretch of the file `name` cut at game starts
  // (worker/file_read.h's FileStretch; `file_start`: it begins at byte 0). Its end_file gives no
  // whole-file error but binary data at the file's start: the coordinator's end_import judges
  // the file.
  void begin_range(const std::string& name, bool file_start);
  // Parses the next bytes of the current file, decoded by content (plain, zstd, gzip, bzip2, zip:
  // learn::ArchiveReader; a zip's .pgn entries are files named "<name>:<entry>"); false once
  // the file is rejected (binary data, an unsupported format, corrupt compressed data): the
  // caller stops sending it.
  bool feed(const char* data, std::size_t size);
  // Ends the current file; its whole-file error (kEmptyFile, kNotText, kNoGames, kNoUsableGames,
  // kUnsupportedFormat, kCorruptData, kTruncatedData: the games before the damage are kept, and
  // read_in_part says so), or nullopt.
  std::optional<FileError> end_file();
  // Bytes, games and rows of this read so far (the page adds rates and file names).
  protocol::Progress progress() const;
  // Ends the read: the pending dataset replaces the current one when it has rows (true).
  bool end_read();
  void cancel_read() {
    file_.close();  // it reads into pending_
    pending_.reset();
  }
  bool reading() const { return pending_ != nullptr; }
  // True once a read limit (ReadOptions::max_games, max_megabytes) ended the read: the caller
  // stops feeding and begins no further file.
  bool limit_reached() const { return pending_ && pending_->split->limit_reached(); }
  // An exact fit (Newton, the settings' model) of every dataset read so far, with game-clustered
  // errors: the live view while a long read goes on. Empty fits before any row.
  protocol::Estimate estimate(const FitSettings& settings) const;

  // ---- parallel reads ----
  // A reader exports the read it is doing (after end_file, before end_read).
  Part export_part() const;
  // Line breaks in the files this read has ended (a reader's: the next range's line offset).
  std::uint64_t line_breaks() const;
  // The coordinator builds a pending dataset from parts, in file order: `line_offset` and
  // `game_offset` shift the part's line and game numbers by what came before it in the file.
  void begin_import(const std::string& file_name);
  void import_part(const Part& part, std::uint64_t line_offset, std::uint64_t game_offset);
  // Ends the file the parts came from (`bytes` long); then end_read() commits as usual. Returns
  // the file's error (kNoGames: the read's file errors list it as "name: no games found: ..."),
  // or nullopt.
  std::optional<FileError> end_import(std::uint64_t bytes);

  // ---- live estimates of parallel reads (engine_decode.cpp) ----
  // A reader's share so far without its rows and issues (live histogram, game pairs, counts):
  // what the coordinator needs for an estimate while the readers go on.
  // With `with_squares`, a sample of its kept positions (at most kLiveSquaresRows) for the
  // coordinator's live values by square.
  Part export_live_part(bool with_squares = false) const;
  // estimate() of everything read so far: the files read here, the parts imported (those of a
  // file still being imported too) and `parts`, the readers' live shares. Merged reads only
  // (other modes: estimate(settings)).
  protocol::Estimate estimate_with(const std::vector<Part>& parts,
                                   const FitSettings& settings) const;
  // A file decoded by a ChunkDecoder and parsed by readers, imported in order: begin_import(its
  // name), per entry its chunks' import_part and end_decoded_entry(entry, bytes) (end_import
  // without the source's digest and error); then end_decoded(bytes, entries, decoder's problem,
  // zip) ends the source file as end_file would: its digest, its error (returned).
  void end_decoded_entry(const std::string& entry, std::uint64_t bytes);
  std::optional<FileError> end_decoded(std::uint64_t bytes, std::size_t entries,
                                       std::optional<Error> problem, bool zip);

  // ---- statistics files (docs/MSTATS.md; engine_stats.cpp) ----
  // Instead of a read: .mstats files, added one by one ("" or why a file cannot be read: the
  // files added before it are dropped too), then
  // merged into the pending dataset with the settings they were made with ("" or why they do
  // not merge); end_read() commits it as after a read.
  std::optional<Error> add_stats(const std::string& name, const char* data, std::size_t size);
  std::optional<Error> end_stats();
  // The read options of the statistics being added or last committed (their data settings).
  const ReadOptions& stats_options() const { return stats_options_; }

  // ---- the current dataset ----
  bool has_data() const { return current_ != nullptr && current_->histogram.totals().total() > 0; }
  const learn::DatasetReport* report() const;
  // The last read's outcome, even when it was not committed: file errors and issues.
  const learn::DatasetReport& last_read_report() const { return last_read_report_; }
  const std::vector<FileIssue>& last_read_issues() const { return last_read_issues_; }
  const std::vector<std::string>& last_read_errors() const { return last_read_errors_; }
  std::size_t distinct_rows() const;
  // The article's first chart on all the data (every dataset together).
  protocol::Balance balance() const;
  // The committed data's report (or the last read's when it was not committed), with the last
  // read's file errors and issues.
  protocol::DataReport data_report() const;
  // The datasets fits are made for: one when merged, else one per file or per filter.
  std::vector<DatasetSummary> dataset_summaries() const;
  const std::vector<FileDigest>& digests() const;
  // Sets the digest of the index-th file of the current data (files read in parallel).
  void set_digest(std::size_t index, const std::string& sha256);
  const ReadOptions& read_options() const;

  // ---- fitting ----
  // Prepares a fit of the current histogram: returns the planned iteration count.
  Expected<int> begin_fit(const FitSettings& settings);
  // Gradient descent: n more iterations (returns the new state). Newton: the next iterate.
  Snapshot step(int n);
  // The fit's state: finished, each dataset's fit, the solver's reason, the last snapshot.
  const FitSession& fit_session() const { return fit_; }
  // Both targets fitted on the current data's annotated positions (a read for the evaluation
  // target), with `settings`' model; the result fit takes draws as half points unless the model
  // is ordinal (refused, as is the rating offset), so both read every annotated position.
  protocol::TargetCompare compare_targets(const FitSettings& settings) const;

  // ---- values by square (worker/squares_session.h) ----
  // The current data's kept positions (a read with keep.boards) fitted with the settings' draws:
  // a "squares" message (web/PROTOCOL.md); the fit is kept for squares_export.
  std::string fit_squares(const FitSettings& settings) {
    return squares_.fit(current_.get(), settings);
  }
  // A live preview of values by square while a read goes on: a sample of at most
  // kLiveSquaresRows of the positions kept here and in the readers' live shares `parts`;
  // "" when the read keeps no boards or has too few positions yet.
  std::string fit_squares_live(const std::vector<Part>& parts, const FitSettings& settings);
  std::string squares_export(const std::string& name) const {
    return squares_.export_text(name, units_);
  }
  std::string squares_positions() const { return SquaresSession::positions(current_.get()); }

  // ---- exports ----
  // A read with ReadOptions::keep_rows: the rows read since the last call, in order, as `.mat`
  // text (the `.mat` export reads the files again and drains it chunk by chunk, so no row is
  // held longer than a chunk: memory stays bounded by the model).
  std::string take_mat_text();
  // The exports and messages of the current fit (worker/exporter.h): fit-begin, fit-done and its
  // JSON, values CSV/JSON, provenance, a C++ header, the status line.
  Exporter exports() const { return Exporter(fit_, current_.get(), read_options(), units_); }
  // The unit values are shown in (the app's choice): the status line, the settings the JSON
  // exports record and the C++ header's terms follow it. Kept across reads and resets.
  void set_units(protocol::Units units) { units_ = units; }
  protocol::Units units() const { return units_; }

  void reset();

 private:
  std::vector<FitTarget> fit_targets() const;

  std::unique_ptr<Dataset> current_, pending_;
  learn::DatasetReport last_read_report_;
  learn::Target last_read_target_ = learn::Target::kResult;
  std::optional<ReadOptions> last_read_made_with_;  // statistics files' data settings
  std::vector<FileIssue> last_read_issues_;
  std::vector<std::string> last_read_errors_;
  // The file being read into pending_'s split: declared after pending_, so it goes first.
  FileRead file_;
  // The file whose parts are being imported.
  PartImport import_;

  protocol::Units units_ = protocol::Units::kPawn;
  FitSession fit_;
  SquaresSession squares_;  // the last values by square of current_
  // Statistics files added since the last end_stats, with their names.
  std::vector<learn::StatsFile> stats_files_;
  std::vector<std::string> stats_names_;
  ReadOptions stats_options_;
};

}  // namespace materialist::worker
