// The input files into a DatasetSplit, decoded by content (learn::ArchiveReader's formats: plain,
// zstd, gzip, bzip2, zip): on this thread, or with parse threads (-j, parallel_read.cpp). Both
// give the same split, byte for byte in every report.
#pragma once

#include <cstddef>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "archive/decoder.h"
#include "cli/failure.h"
#include "learn/read/dataset_split.h"

namespace materialist::cli {

struct ReadSettings {
  int jobs = 1;  // parse threads; 1: none, 0 or less: one per core
  // The CLI passes CliOptions::chunk_bytes, the same default.
  std::size_t chunk_bytes = 1u << 20;
  double max_megabytes = 0;       // "the first N MB" of the files (as stored); 0: all
  std::FILE* progress = nullptr;  // null: silent
  // Every byte read, as stored (before decoding), in order: the stats command hashes the very
  // bytes it read (a second download of a player's games may differ, and costs a second request).
  std::function<void(const char* data, std::size_t size)> on_stored_bytes;
};

// Reads every file once into the split's datasets; stops at the first file that cannot be read
// (missing, a directory, an unsupported format, corrupt or truncated data: the games before the
// problem stay in the split, but the command gives no fit on a partial file).
[[nodiscard]] std::optional<Failure> read_files(const std::vector<std::string>& files,
                                                learn::DatasetSplit& split,
                                                const ReadSettings& settings);

// The same with `jobs` parse threads (at least 1) and one reading and decoding thread.
[[nodiscard]] std::optional<Failure> read_files_in_parallel(const std::vector<std::string>& files,
                                                            learn::DatasetSplit& split,
                                                            const ReadSettings& settings, int jobs);

// How an input file ended, and the failure it is (nullopt: read to its end): a read error
// first, then the decoder's error, then a zip without .pgn entries.
struct InputEnd {
  std::optional<std::string> read_error;
  ErrorCode read_error_code = ErrorCode::kIo;  // a service's: unknown-user, rate-limited, ...
  // learn::archive_problem: the decoder's error, or a zip without .pgn entries.
  std::optional<Error> problem;
};
[[nodiscard]] std::optional<Failure> failure_of(const std::string& name, const InputEnd& end);

}  // namespace materialist::cli
