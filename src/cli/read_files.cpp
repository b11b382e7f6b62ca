#include "cli/read_files.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "cli/cli_threads.h"
#include "cli/input.h"
#include "cli/read_progress.h"
#include "learn/read/archive_reader.h"

namespace materialist::cli {

// Set by CMakeLists.txt: 0 where std::thread cannot start (the WebAssembly test build).

std::optional<Failure> failure_of(const std::string& name, const InputEnd& end) {
  if (end.read_error) {
    return Failure{input_failure_code(end.read_error_code), *end.read_error};
  }
  if (!end.problem) return std::nullopt;
  // The CLI's documented failure kinds (docs/CLI.md): coarser than the codes, on purpose.
  const ErrorCode code = end.problem->code;
  const FailureCode kind = code == ErrorCode::kUnsupportedFormat ? FailureCode::kUnsupportedFormat
                           : code == ErrorCode::kNoGames         ? FailureCode::kNoGames
                                                                 : FailureCode::kCorruptArchive;
  return Failure{kind, name + ": " + end.problem->message};
}

namespace {

ReadCounts counts_of(const learn::DatasetSplit& split) {
  const learn::DatasetReport live = split.live_report();
  return {live.games.games_read, live.rows};
}

}  // namespace

std::optional<Failure> read_files(const std::vector<std::string>& files, learn::DatasetSplit& split,
                                  const ReadSettings& settings) {
  int jobs = settings.jobs;
  if (jobs <= 0) jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (jobs > 1 && kThreadsAvailable) return read_files_in_parallel(files, split, settings, jobs);

  ReadProgress progress(settings.progress);
  std::uint64_t read_before = 0;  // bytes of the earlier files (for max_megabytes)
  for (const std::string& path : files) {
    const std::string name = path == "-" ? "(stdin)" : path;
    progress.begin_file(name, input_size(path));
    if (split.limit_reached()) break;  // a read limit ended the read in an earlier file
    learn::ArchiveReader reader(split, name);
    const double limit = settings.max_megabytes * 1e6;
    if (limit > 0) {  // what the earlier files left of it (at least a byte)
      reader.stop_after_bytes(static_cast<std::uint64_t>(
          std::max(1.0, std::ceil(limit - static_cast<double>(read_before)))));
    }
    std::uint64_t bytes = 0;
    auto read = stream_file(
        path,
        [&](const char* data, std::size_t size) {
          if (settings.on_stored_bytes) settings.on_stored_bytes(data, size);
          return reader.feed(data, size);
        },
        [&](const InputProgress& p) {
          bytes = p.bytes_read;
          if (progress.due(bytes)) progress.update(bytes, counts_of(split));
        });
    reader.finish();
    read_before += bytes;
    progress.end_file(bytes, counts_of(split));
    InputEnd end;
    if (!read) {
      end.read_error = read.error().message;
      end.read_error_code = read.error().code;
    }
    end.problem = reader.problem();
    if (auto failure = failure_of(name, end)) return failure;
  }
  return std::nullopt;
}

}  // namespace materialist::cli
