#include "cli/input.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace materialist::cli {

namespace {

constexpr std::size_t kChunkBytes = 1 << 20;
constexpr std::uint64_t kProgressEveryBytes = 64ull << 20;

struct FileCloser {
  void operator()(std::FILE* file) const {
    if (file != nullptr && file != stdin) std::fclose(file);
  }
};

struct Magic {
  std::string_view bytes;
  CompressedFormat format;
};

using namespace std::string_view_literals;

// Magic numbers from each format's specification (RFC 1952, RFC 8878, bzip2, xz, 7z, PKWARE
// APPNOTE local header / empty archive / spanned, RAR 4 and RAR 5).
constexpr Magic kMagics[] = {
    {"\x1F\x8B"sv, {"gzip", false, "gzip -d"}},
    {"\x28\xB5\x2F\xFD"sv, {"zstd", false, "zstd -d"}},
    {"\xFD\x37\x7A\x58\x5A\x00"sv, {"xz", false, "xz -d"}},
    {"\x37\x7A\xBC\xAF\x27\x1C"sv, {"7z", true, "7z x"}},
    {"PK\x03\x04"sv, {"zip", true, "unzip"}},
    {"PK\x05\x06"sv, {"zip", true, "unzip"}},
    {"PK\x07\x08"sv, {"zip", true, "unzip"}},
    {"Rar!\x1A\x07\x00"sv, {"rar", true, "unrar x"}},
    {"Rar!\x1A\x07\x01\x00"sv, {"rar", true, "unrar x"}},
};

}  // namespace

std::optional<CompressedFormat> compressed_format(std::string_view head) {
  for (const Magic& magic : kMagics) {
    if (head.substr(0, magic.bytes.size()) == magic.bytes) return magic.format;
  }
  // bzip2: "BZh" and the block size digit 1-9.
  if (head.size() >= 4 && head.substr(0, 3) == "BZh" && head[3] >= '1' && head[3] <= '9') {
    return CompressedFormat{"bzip2", false, "bzip2 -d"};
  }
  return std::nullopt;
}

std::string compressed_file_message(const std::string& name, const CompressedFormat& format) {
  const std::string what = format.archive ? std::string("a ") + format.name + " archive"
                                          : std::string(format.name) + "-compressed";
  return name + " is " + what + ": Materialist cannot read compressed files yet; " +
         (format.archive ? "extract it first (" : "decompress it first (") + format.decompress +
         ")";
}

namespace {

// The size of a regular file, when it can be known up front.
std::optional<std::uint64_t> file_size(const std::string& path) {
  struct stat info {};
  if (path == "-" || ::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
    return std::nullopt;
  return static_cast<std::uint64_t>(info.st_size);
}

}  // namespace

Expected<std::uint64_t> stream_file(const std::string& path, const ChunkSink& sink,
                                    const ProgressSink& progress) {
  struct stat info {};
  if (path != "-" && ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    return make_error(ErrorCode::kIo, path + ": is a directory");
  }
  std::unique_ptr<std::FILE, FileCloser> file(path == "-" ? stdin : std::fopen(path.c_str(), "rb"));
  if (!file) return make_error(ErrorCode::kIo, path + ": " + std::strerror(errno));

  InputProgress state;
  state.total_bytes = file_size(path).value_or(0);
  std::uint64_t next_report = kProgressEveryBytes;
  std::vector<char> buffer(kChunkBytes);
  for (;;) {
    const std::size_t got = std::fread(buffer.data(), 1, buffer.size(), file.get());
    if (got > 0) {
      state.bytes_read += got;
      if (!sink(buffer.data(), got)) break;
      if (progress && state.bytes_read >= next_report) {
        progress(state);
        next_report += kProgressEveryBytes;
      }
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
