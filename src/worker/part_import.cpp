// A file's shares imported in file order (worker/part_import.h).
#include "worker/part_import.h"

#include <utility>

namespace materialist::worker {

Part part_of(const learn::Histogram& histogram, const learn::GamePairs& pairs,
             const learn::IngestReport& games) {
  Part part;
  histogram.for_each([&part](const learn::RowKey& key, const learn::OutcomeCounts& counts) {
    part.keys.push_back(key.pack());
    part.counts.push_back(counts);
  });
  pairs.for_each([&part](std::uint64_t a, std::uint64_t b, const learn::OutcomeCounts& counts) {
    part.pair_a.push_back(a);
    part.pair_b.push_back(b);
    part.pair_counts.push_back(counts);
  });
  part.pair_games = pairs.games_by_outcome();
  part.pair_rated_games = pairs.rated_games_by_outcome();
  part.games = games;
  return part;
}

void PartImport::begin(const std::string& file_name, const learn::KeyFields& fields) {
  name_ = file_name;
  report_ = {};
  pairs_ = learn::GamePairs(fields);
}

void PartImport::add(Dataset& data, const Part& part, std::uint64_t line_offset,
                     std::uint64_t game_offset) {
  for (std::size_t i = 0; i < part.keys.size(); ++i) {
    data.histogram.add(learn::RowKey::unpack(part.keys[i]), part.counts[i]);
  }
  for (std::size_t i = 0; i < part.pair_a.size(); ++i) {
    pairs_.add(part.pair_a[i], part.pair_b[i], part.pair_counts[i]);
  }
  pairs_.add_games(part.pair_games, part.pair_rated_games);
  if (data.squares && part.has_squares) data.squares->absorb(part.squares_rows, part.squares_tally);
  learn::IngestReport shifted = part.games;
  for (learn::GameIssue& issue : shifted.issues) {
    issue.line += line_offset;
    issue.game += game_offset;
    if (data.issues.size() < kMaxListedIssues) data.issues.push_back({name_, issue});
  }
  learn::merge_ingest_reports(report_, shifted, kMaxListedIssues);
}

learn::FileReport PartImport::close(Dataset& data, const std::string& name, std::uint64_t bytes) {
  learn::FileReport file;
  file.name = name;
  file.bytes = bytes;
  file.games = report_.games_read;
  file.rows = report_.rows;
  // As learn::DatasetBuilder::end_file judges a whole file (binary data is the readers' to find).
  const bool none_usable = report_.games_used + report_.games_partial + report_.games_filtered == 0;
  if (file.games == 0 && bytes > 0) {
    file.fail(ErrorCode::kNoGames, learn::kNoGamesFound);
  } else if (file.games > 0 && none_usable) {
    file.fail(ErrorCode::kNoUsableGames, learn::kNoUsableGame);
  }
  learn::merge_ingest_reports(data.report.games, report_, kMaxListedIssues);
  data.pairs.merge(pairs_);
  pairs_ = learn::GamePairs(data.pairs.fields());
  data.report.bytes += bytes;
  data.report.rows += file.rows;
  return file;
}

std::optional<Error> PartImport::end_file(Dataset& data, std::uint64_t bytes) {
  learn::FileReport file = close(data, name_, bytes);
  std::optional<Error> error;
  if (!file.error.empty()) {
    error = make_error(file.error_code, file.error);
    data.file_errors.push_back(name_ + ": " + file.error);
  }
  data.digests.push_back({name_, bytes, ""});
  data.report.files.push_back(std::move(file));
  report_ = {};
  return error;
}

void PartImport::end_entry(Dataset& data, const std::string& entry, std::uint64_t bytes) {
  learn::FileReport file = close(data, entry, bytes);
  data.report.files.push_back(std::move(file));
  report_ = {};
}

}  // namespace materialist::worker
