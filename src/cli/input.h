// Streams a file (or standard input for "-") in fixed chunks, so memory stays flat for any size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/error.h"

namespace materialist::cli {

struct InputProgress {
  std::uint64_t bytes_read = 0;
  std::uint64_t total_bytes = 0;  // 0 when unknown (a pipe)
};

using ChunkSink = std::function<void(const char* data, std::size_t size)>;
using ProgressSink = std::function<void(const InputProgress&)>;

// Reads `path` chunk by chunk into `sink`; calls `progress` about every 64 MiB. Returns the bytes
// read.
Expected<std::uint64_t> stream_file(const std::string& path, const ChunkSink& sink,
                                    const ProgressSink& progress = {});

// The size of a regular file, when it can be known up front.
std::optional<std::uint64_t> file_size(const std::string& path);

}  // namespace materialist::cli
