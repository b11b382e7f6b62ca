// A dataset: one or more files (.pgn games or .mat rows) accumulated into one histogram and
// one report. The CLI and the browser worker both build datasets this way.
//
//   DatasetBuilder builder(IngestOptions::article());
//   builder.begin_file("OpenRating.pgn");       // the name decides: *.mat rows, anything else PGN
//   builder.feed(chunk, size); ...
//   builder.end_file();
//   const Histogram& rows = builder.histogram();  const DatasetReport& report = builder.report();
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "learn/read/dataset_part.h"
#include "learn/read/ingest.h"
#include "learn/stats/bootstrap_histograms.h"
#include "learn/stats/game_pairs.h"
#include "learn/stats/histogram.h"
#include "learn/stats/mat_io.h"

namespace materialist::learn {

enum class FileKind : std::uint8_t { kPgn, kMat };
// .mat by the name's extension (case-insensitive, also compressed: rows.mat.zst), PGN otherwise.
FileKind file_kind_of(const std::string& name);

// A file whose first kBinarySniffBytes hold more than 1% control bytes (control_bytes) is not
// text: an image, an archive, a compressed file.
inline constexpr std::size_t kBinarySniffBytes = 4096;
// Control bytes that never appear in PGN or .mat text (tab, newlines, form feed and the DOS
// end-of-file byte 0x1A do).
std::size_t control_bytes(const char* data, std::size_t size);

// A file's error when it held bytes but not one game (the one wording, for every reader).
inline constexpr const char* kNoGamesFound = "no games found: is this a PGN file?";
// A file's error when it held games but every one was skipped.
inline constexpr const char* kNoUsableGame = "no usable game in this file (see the skipped games)";

struct FileReport {
  std::string name;
  FileKind kind = FileKind::kPgn;
  std::uint64_t bytes = 0;
  std::uint64_t games = 0;  // PGN: games read
  std::uint64_t rows = 0;
  std::uint64_t bad_lines = 0;    // .mat: lines that were not rows
  std::uint64_t line_breaks = 0;  // PGN: read by its parsers (CR, LF and CRLF one each)
  std::string error;              // a whole-file problem (e.g. not text), empty when none
  // Its code (core/error.h: kNotText, kNoGames, ...). kOk beside an error read back from a
  // statistics file, which records the sentence only.
  ErrorCode error_code = ErrorCode::kOk;

  void fail(ErrorCode code, std::string message) {
    error_code = code;
    error = std::move(message);
  }
};

struct DatasetReport {
  IngestReport games;  // every PGN file's games, merged
  MatReadReport mat;   // every .mat file's lines, merged
  std::vector<FileReport> files;
  std::uint64_t bytes = 0;
  std::uint64_t rows = 0;  // rows from games and from .mat files
  // A limit (a number of games, the first megabytes: learn::ReadLimit) ended the read before
  // the end of the input.
  bool stopped_at_limit = false;
};

// Adds b's counts to a (issue lists keep a's first, up to `max_issues`).
void merge_ingest_reports(IngestReport& a, const IngestReport& b, std::size_t max_issues);

class DatasetBuilder {
 public:
  explicit DatasetBuilder(IngestOptions options = IngestOptions::defaults());

  // Every row in order (for .mat export), from games and .mat files alike.
  void set_row_sink(RowSink sink) { sink_ = std::move(sink); }
  const RowSink& row_sink() const { return sink_; }
  bool has_row_sink() const { return static_cast<bool>(sink_); }
  // Also accumulates `replicates` Poisson-bootstrap histograms over games (before any file),
  // their keys projected by key_fields().
  void enable_bootstrap(int replicates, std::uint64_t seed);
  // The bootstrap replicates, or nullptr when not enabled.
  const BootstrapHistograms* bootstrap() const { return bootstrap_.get(); }
  // Which key fields the histogram, the game pairs and the bootstrap keep (call before the first
  // file; a model can be fitted only when they cover it: KeyFields::for_model). Default: the
  // IngestOptions' fields.
  void set_key_fields(KeyFields fields);
  const KeyFields& key_fields() const { return key_fields_; }
  // The games' row-key pairs for game-clustered errors (always collected; .mat rows are one
  // game each).
  const GamePairs* pairs() const { return &pairs_; }
  // The first file's index in a larger collection (see SplitOptions::first_file_index).
  void set_first_file_index(std::uint64_t index) { first_file_index_ = index; }

  // `max_games` > 0: the file's games stop there (the rest of the file is ignored).
  void begin_file(const std::string& name, std::uint64_t max_games = 0);
  void feed(const char* data, std::size_t size);
  // Instead of feed(), for a PGN file read in parts (learn/read/dataset_part.h): the next stretch's
  // share, in file order; `line_offset` and `game_offset` are the file's lines and games before
  // the stretch. Its rows go to the row sink with the file's game numbers.
  void add_part(DatasetPart part, std::uint64_t line_offset, std::uint64_t game_offset);
  // Game pairs kept apart from the parts (learn::PartScratch), in any order once read: added,
  // and those of stretches whose parts were not used taken out again.
  void add_pairs(const GamePairs& pairs) { pairs_.merge(pairs); }
  void subtract_pairs(const GamePairs& pairs) { pairs_.subtract(pairs); }
  void end_file();
  // The current file is read no further than the next game end (pgn::Parser::stop_after_game).
  void stop_after_game();
  // True when a limit stopped the current file (its later bytes are ignored).
  bool stopped() const { return ingestor_ && ingestor_->stopped(); }

  const Histogram& histogram() const { return histogram_; }
  const DatasetReport& report() const { return report_; }
  const IngestOptions& options() const { return options_; }
  // The report including the file being read (for progress while it is read).
  DatasetReport live_report() const;
  // The histogram including the file being read (for estimates while reading): a copy.
  Histogram live_histogram() const;

 private:
  bool looks_binary() const;
  // The sink the current file's reader calls: the user's sink and the grouping by game.
  RowSink reader_sink();
  void flush_game();

  IngestOptions options_;
  RowSink sink_;
  Histogram histogram_;
  DatasetReport report_;
  // The file being read: one of the two.
  std::unique_ptr<Ingestor> ingestor_;
  std::unique_ptr<Histogram> mat_rows_;
  std::unique_ptr<MatReader> mat_reader_;
  FileReport current_;
  IngestReport part_games_;         // the current file's parts, merged
  std::size_t sniffed_bytes_ = 0;   // of the current file's first 4 KiB
  std::size_t sniffed_binary_ = 0;  // control bytes among them
  KeyFields key_fields_;
  GamePairs pairs_;
  std::unique_ptr<BootstrapHistograms> bootstrap_;
  std::vector<Row> game_rows_;  // the rows of the game being collected
  std::uint64_t game_id_ = 0;
  std::uint64_t first_file_index_ = 0;
  std::uint64_t next_mat_row_id_ = 0;  // .mat rows have no games: each row stands alone
};

}  // namespace materialist::learn
