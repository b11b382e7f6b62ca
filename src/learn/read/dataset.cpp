#include "learn/read/dataset.h"

#include <algorithm>
#include <cassert>

#include "core/text.h"

namespace materialist::learn {

FileKind file_kind_of(const std::string& name) {
  for (const char* suffix : {".zst", ".gz", ".bz2"}) {
    if (ends_with_ignoring_case(name, suffix)) {
      return file_kind_of(name.substr(0, name.size() - std::string_view(suffix).size()));
    }
  }
  return ends_with_ignoring_case(name, ".mat") ? FileKind::kMat : FileKind::kPgn;
}

std::size_t control_bytes(const char* data, std::size_t size) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < size; ++i) {
    const auto c = static_cast<unsigned char>(data[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1A) ++count;
  }
  return count;
}

void merge_ingest_reports(IngestReport& a, const IngestReport& b, std::size_t max_issues) {
  a.bytes += b.bytes;
  a.games_read += b.games_read;
  a.games_used += b.games_used;
  a.games_partial += b.games_partial;
  a.games_skipped += b.games_skipped;
  a.games_filtered += b.games_filtered;
  for (int i = 0; i < kIssueReasonCount; ++i) {
    a.skipped_by_reason[i] += b.skipped_by_reason[i];
    a.partial_by_reason[i] += b.partial_by_reason[i];
  }
  a.issue_count += b.issue_count;
  for (const GameIssue& issue : b.issues) {
    if (a.issues.size() >= max_issues) break;
    a.issues.push_back(issue);
  }
  a.filter_tally.merge(b.filter_tally);
  a.rows += b.rows;
  a.rows_by_outcome += b.rows_by_outcome;
  a.plies_replayed += b.plies_replayed;
  a.rows_without_eval += b.rows_without_eval;
  a.games_with_evals += b.games_with_evals;
  a.games_without_evals += b.games_without_evals;
  a.malformed_evals += b.malformed_evals;
  for (const std::string& name : b.filtered_variants) add_variant_name(a.filtered_variants, name);
}

namespace {

void merge_mat_reports(MatReadReport& a, const MatReadReport& b, std::size_t max_reported) {
  a.bytes += b.bytes;
  a.lines += b.lines;
  a.rows += b.rows;
  a.bad_lines += b.bad_lines;
  for (const MatBadLine& bad : b.first_bad_lines) {
    if (a.first_bad_lines.size() >= max_reported) break;
    a.first_bad_lines.push_back(bad);
  }
}

}  // namespace

DatasetBuilder::DatasetBuilder(IngestOptions options)
    : options_(std::move(options)), key_fields_(options_.fields), pairs_(key_fields_) {
  if (options_.target == Target::kEval) {
    histogram_.enable_targets();
    pairs_.enable_targets();
  }
}

void DatasetBuilder::enable_bootstrap(int replicates, std::uint64_t seed) {
  bootstrap_ = std::make_unique<BootstrapHistograms>(replicates, seed, key_fields_);
  if (options_.target == Target::kEval) bootstrap_->enable_targets();
}

void DatasetBuilder::set_key_fields(KeyFields fields) {
  key_fields_ = fields;
  options_.fields = fields;  // the histogram keeps no more than the pairs and the bootstrap
  pairs_ = GamePairs(fields);
  if (options_.target == Target::kEval) pairs_.enable_targets();
  if (bootstrap_) {
    bootstrap_ = std::make_unique<BootstrapHistograms>(bootstrap_->replicate_count(),
                                                       bootstrap_->seed(), fields);
    if (options_.target == Target::kEval) bootstrap_->enable_targets();
  }
}

RowSink DatasetBuilder::reader_sink() {
  // Game ids must not collide across files: the file's index goes above the game number.
  const std::uint64_t file_base =
      (first_file_index_ + static_cast<std::uint64_t>(report_.files.size())) << 40;
  const bool mat = current_.kind == FileKind::kMat;
  return [this, file_base, mat](const Row& row) {
    if (sink_) sink_(row);
    const std::uint64_t id = file_base + (mat ? ++next_mat_row_id_ : row.game);
    if (id != game_id_) flush_game();
    game_id_ = id;
    game_rows_.push_back(row);
  };
}

void DatasetBuilder::flush_game() {
  if (!game_rows_.empty()) {
    pairs_.add_game(game_rows_);
    if (bootstrap_) bootstrap_->add_game(game_id_, game_rows_);
  }
  game_rows_.clear();
}

void DatasetBuilder::begin_file(const std::string& name, std::uint64_t max_games) {
  if (ingestor_ || mat_reader_) end_file();
  current_ = FileReport{};
  part_games_ = IngestReport{};
  sniffed_bytes_ = 0;
  sniffed_binary_ = 0;
  current_.name = printable(name, 1024);
  current_.kind = file_kind_of(name);
  if (current_.kind == FileKind::kMat) {
    mat_rows_ = std::make_unique<Histogram>();
    mat_reader_ = std::make_unique<MatReader>(*mat_rows_, options_.max_reported_issues);
    mat_reader_->set_row_sink(reader_sink());
  } else {
    IngestOptions options = options_;
    options.parser.max_games = max_games;
    ingestor_ = std::make_unique<Ingestor>(options);
    ingestor_->set_row_sink(reader_sink());
  }
}

void DatasetBuilder::feed(const char* data, std::size_t size) {
  if (!ingestor_ && !mat_reader_) begin_file("(stream)");
  if (current_.bytes < kBinarySniffBytes) {
    const std::size_t sniffed =
        std::min(size, kBinarySniffBytes - static_cast<std::size_t>(current_.bytes));
    sniffed_bytes_ += sniffed;
    sniffed_binary_ += control_bytes(data, sniffed);
  }
  current_.bytes += size;
  if (ingestor_)
    ingestor_->feed(data, size);
  else
    mat_reader_->feed(data, size);
}

void DatasetBuilder::add_part(DatasetPart part, std::uint64_t line_offset,
                              std::uint64_t game_offset) {
  if (!ingestor_ && !mat_reader_) begin_file("(stream)");
  current_.bytes += part.bytes;
  current_.line_breaks += part.line_breaks;
  sniffed_bytes_ += part.sniffed_bytes;
  sniffed_binary_ += part.sniffed_binary;
  histogram_.merge(part.histogram);
  pairs_.merge(part.pairs);
  if (bootstrap_ && part.bootstrap) {
    // A part is read with this builder's options (its seed, count and fields): the merge cannot
    // refuse it.
    [[maybe_unused]] const Expected<bool> merged = bootstrap_->merge(*part.bootstrap);
    assert(merged.ok());
  }
  for (GameIssue& issue : part.games.issues) {
    issue.line += line_offset;
    issue.game += game_offset;
  }
  merge_ingest_reports(part_games_, part.games, options_.max_reported_issues);
  if (sink_) {
    for (Row row : part.rows) {
      row.game += game_offset;
      sink_(row);
    }
  }
}

void DatasetBuilder::stop_after_game() {
  if (ingestor_) ingestor_->stop_after_game();
}

void DatasetBuilder::end_file() {
  if (ingestor_) {
    ingestor_->finish();
    // What was fed, then the parts added (a file is read one way or the other).
    IngestReport games = ingestor_->report();
    merge_ingest_reports(games, part_games_, options_.max_reported_issues);
    current_.games = games.games_read;
    current_.rows = games.rows;
    current_.line_breaks += ingestor_->line_breaks();  // the bytes fed, after the parts added
    if (ingestor_->stopped()) report_.stopped_at_limit = true;
    if (looks_binary()) {
      current_.fail(ErrorCode::kNotText, "not a PGN file: it holds binary data");
    } else if (games.games_read == 0 && current_.bytes > 0 && !ingestor_->stopped()) {
      current_.fail(ErrorCode::kNoGames, kNoGamesFound);
    } else if (games.games_used + games.games_partial + games.games_filtered == 0 &&
               games.games_read > 0) {
      current_.fail(ErrorCode::kNoUsableGames, kNoUsableGame);
    }
    histogram_.merge(ingestor_->histogram());
    merge_ingest_reports(report_.games, games, options_.max_reported_issues);
    ingestor_.reset();
  } else if (mat_reader_) {
    mat_reader_->finish();
    const MatReadReport& mat = mat_reader_->report();
    current_.rows = mat.rows;
    current_.bad_lines = mat.bad_lines;
    if (looks_binary())
      current_.fail(ErrorCode::kNotText, "not a .mat file: it holds binary data");
    else if (mat.rows == 0 && current_.bytes > 0)
      current_.fail(ErrorCode::kNoGames, "no rows found: is this a .mat file?");
    histogram_.merge(*mat_rows_);
    merge_mat_reports(report_.mat, mat, options_.max_reported_issues);
    mat_reader_.reset();
    mat_rows_.reset();
  } else {
    return;
  }
  flush_game();
  report_.bytes += current_.bytes;
  report_.rows += current_.rows;
  report_.files.push_back(std::move(current_));
  current_ = FileReport{};
}

bool DatasetBuilder::looks_binary() const {
  // More than 1% control bytes in the first 4 KiB: an image, an archive, a compressed file.
  return sniffed_bytes_ > 0 && sniffed_binary_ * 100 > sniffed_bytes_;
}

Histogram DatasetBuilder::live_histogram() const {
  Histogram live = histogram_;
  if (ingestor_) live.merge(ingestor_->histogram());
  if (mat_rows_) live.merge(*mat_rows_);
  return live;
}

DatasetReport DatasetBuilder::live_report() const {
  DatasetReport live = report_;
  live.bytes += current_.bytes;
  if (ingestor_) {
    merge_ingest_reports(live.games, ingestor_->report(), options_.max_reported_issues);
    merge_ingest_reports(live.games, part_games_, options_.max_reported_issues);
    live.rows += ingestor_->report().rows + part_games_.rows;
  } else if (mat_reader_) {
    merge_mat_reports(live.mat, mat_reader_->report(), options_.max_reported_issues);
    live.rows += mat_reader_->report().rows;
  }
  return live;
}

}  // namespace materialist::learn
