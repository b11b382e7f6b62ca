#include "cli/input.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "cli/file_closer.h"
#include "cli/http_input.h"

namespace materialist::cli {

namespace {

constexpr std::size_t kChunkBytes = 1 << 20;

// The size of a regular file, when it can be known up front.
std::optional<std::uint64_t> file_size(const std::string& path) {
  struct stat info {};
  if (path == "-" || ::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
    return std::nullopt;
  return static_cast<std::uint64_t>(info.st_size);
}

}  // namespace

std::uint64_t input_size(const std::string& path) {
  return file_size(path).value_or(0);
}

Expected<std::uint64_t> stream_file(const std::string& path, const ChunkSink& sink,
                                    const ProgressSink& progress) {
  if (is_url(path)) return stream_url(path, sink, progress);  // --lichess, --chesscom
  struct stat info {};
  if (path != "-" && ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    return make_error(ErrorCode::kIo, path + ": is a directory");
  }
  std::unique_ptr<std::FILE, FileCloser> file(path == "-" ? stdin : std::fopen(path.c_str(), "rb"));
  if (!file) return make_error(ErrorCode::kIo, path + ": " + std::strerror(errno));

  InputProgress state;
  state.total_bytes = file_size(path).value_or(0);
  std::vector<char> buffer(kChunkBytes);
  for (;;) {
    const std::size_t got = std::fread(buffer.data(), 1, buffer.size(), file.get());
    if (got > 0) {
      state.bytes_read += got;
      if (!sink(buffer.data(), got)) break;
      if (progress) progress(state);
    }
    if (got < buffer.size()) {
      if (std::ferror(file.get())) {
        return make_error(ErrorCode::kIo, path + ": read error: " + std::strerror(errno));
      }
      break;
    }
  }
  return state.bytes_read;
}

}  // namespace materialist::cli
