// Streams a file (or standard input for "-") in fixed chunks, so memory stays flat for any size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace materialist::cli {

struct InputProgress {
  std::uint64_t bytes_read = 0;
  std::uint64_t total_bytes = 0;  // 0 when unknown (a pipe)
};

// Receives the file's bytes in order; returns false to stop reading (not an error).
using ChunkSink = std::function<bool(const char* data, std::size_t size)>;
using ProgressSink = std::function<void(const InputProgress&)>;

// Reads `path` chunk by chunk into `sink`; calls `progress` about every 64 MiB. Returns the bytes
// read.
Expected<std::uint64_t> stream_file(const std::string& path, const ChunkSink& sink,
                                    const ProgressSink& progress = {});

// A compressed or archive format, recognised by its magic bytes.
struct CompressedFormat {
  const char* name;        // "gzip", "zstd", "bzip2", "xz", "7z", "zip", "rar"
  bool archive;            // 7z, zip and rar hold files; the others compress one stream
  const char* decompress;  // the usual command: "gzip -d", "zstd -d", "unzip", ...
};

// The format whose magic bytes start `head` (the first bytes of a file; 8 are enough), if any.
std::optional<CompressedFormat> compressed_format(std::string_view head);

// "games.pgn.zst is zstd-compressed: Materialist cannot read compressed files yet; decompress it
// first (zstd -d)", or "... is a zip archive: ...; extract it first (unzip)".
std::string compressed_file_message(const std::string& name, const CompressedFormat& format);

}  // namespace materialist::cli
