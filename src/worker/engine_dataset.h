// The engine's data (worker/engine.h): the dataset a read or statistics files make, pending
// while it is read, then current; the files' digests and the games' issues it lists.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "learn/read/dataset.h"
#include "learn/read/dataset_split.h"
#include "learn/fit/squares.h"
#include "learn/read/ingest.h"
#include "learn/stats/bootstrap_histograms.h"
#include "learn/stats/game_pairs.h"
#include "learn/stats/histogram.h"
#include "protocol/messages.h"

namespace materialist::worker {

// The skipped and partial games a dataset lists (the counts are exact).
inline constexpr std::size_t kMaxListedIssues = 1000;

// A file as read: its bytes' SHA-256 ("" when unknown: rejected, or read by parallel readers).
struct FileDigest {
  std::string name;
  std::uint64_t bytes = 0;
  std::string sha256;
};

// A skipped or partial game with the file it came from.
struct FileIssue {
  std::string file;
  learn::GameIssue issue;
};

// A read's data: what it was read with, its datasets, and what its files said.
struct Dataset {
  protocol::ReadOptions options;
  // The merged dataset and the per-file or per-filter ones, read in one pass (the CLI reads
  // the same way); kept after the read (bootstrap replicates, subsets' histograms).
  std::optional<learn::DatasetSplit> split;
  bool ended = false;
  std::vector<FileDigest> digests;
  learn::Histogram histogram;  // set when the read ends
  learn::GamePairs pairs;      // set when the read ends
  // Statistics files' bootstrap replicates (a read's are its split's).
  std::unique_ptr<learn::BootstrapHistograms> bootstrap;
  std::string stats_source;  // the statistics files it came from ("": games were read)
  learn::DatasetReport report;
  std::string mat_text;         // keep_rows: the rows not yet taken, as .mat lines
  // keep.boards: the positions the squares model fits (draws kept as ½: the fit leaves them out
  // when its settings do, without a new read).
  std::optional<learn::SquaresData> squares;
  std::uint64_t bytes_fed = 0;  // of every file of the read, as stored (for max_megabytes)
  std::vector<FileIssue> issues;
  std::vector<std::string> file_errors;
};

}  // namespace materialist::worker
