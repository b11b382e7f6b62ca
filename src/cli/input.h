// Streams a file (or standard input for "-") in fixed chunks, so memory stays flat for any size.
// What the bytes hold (compressed or not) is learn::ArchiveReader's business.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "core/error.h"

namespace materialist::cli {

struct InputProgress {
  std::uint64_t bytes_read = 0;
  std::uint64_t total_bytes = 0;  // 0 when unknown (a pipe)
};

// Receives the file's bytes in order; returns false to stop reading (not an error).
using ChunkSink = std::function<bool(const char* data, std::size_t size)>;
using ProgressSink = std::function<void(const InputProgress&)>;

// The size of a regular file, 0 when it cannot be known up front (standard input, a pipe).
std::uint64_t input_size(const std::string& path);

// Reads `path` chunk by chunk into `sink`; calls `progress` after every chunk (1 MiB). Returns
// the bytes read.
Expected<std::uint64_t> stream_file(const std::string& path, const ChunkSink& sink,
                                    const ProgressSink& progress = {});

}  // namespace materialist::cli
