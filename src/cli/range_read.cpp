#include "cli/range_read.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "archive/decoder.h"
#include "cli/file_closer.h"
#include "core/sha256.h"
#include "learn/read/dataset_part.h"
#include "pgn/game_chunker.h"

namespace materialist::cli {

namespace {

constexpr std::size_t kBlockBytes = 1u << 20;

Error io_error(const std::string& path, const char* what) {
  return make_error(ErrorCode::kIo, path + ": " + what + ": " + std::strerror(errno));
}

bool seek(std::FILE* file, std::uint64_t offset) {
  return ::fseeko(file, static_cast<off_t>(offset), SEEK_SET) == 0;
}

// Line breaks as pgn::Parser counts them: LF, CR and CRLF are one each.
struct LineCounter {
  std::uint64_t lines = 0;
  bool after_cr = false;

  void feed(const char* data, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
      if (data[i] == '\n') {
        if (!after_cr) ++lines;
        after_cr = false;
      } else {
        after_cr = data[i] == '\r';
        if (after_cr) ++lines;
      }
    }
  }
};

}  // namespace

Expected<std::uint64_t> next_game_start(std::FILE* file, std::uint64_t from, std::uint64_t size) {
  if (from == 0) return std::uint64_t{0};
  if (from >= size) return size;
  // A game start at p needs the 3 bytes before it: read from there, in blocks that overlap by
  // the 3 bytes of context and the 8 of kGameStart.
  constexpr std::uint64_t kBefore = 3;
  const std::string_view start = pgn::kGameStart;
  std::uint64_t at = from >= kBefore ? from - kBefore : 0;
  std::vector<char> block(kBlockBytes);
  while (at < size) {
    if (!seek(file, at)) return make_error(ErrorCode::kIo, std::strerror(errno));
    const std::size_t got = std::fread(block.data(), 1, block.size(), file);
    if (got == 0) break;
    const std::string_view text(block.data(), got);
    for (std::size_t i = 0; i + start.size() <= text.size(); ++i) {
      const std::uint64_t p = at + i;
      if (p < from || text[i] != '[' || text.compare(i, start.size(), start) != 0) continue;
      const auto before = [&](std::size_t k) { return i >= k ? text[i - k] : '\0'; };
      const bool blank_before = (before(1) == '\n' && before(2) == '\n') ||
                                (before(1) == '\n' && before(2) == '\r' && before(3) == '\n');
      if (blank_before) return p;
    }
    if (got < block.size()) break;
    at += got - (start.size() + kBefore);
  }
  return size;
}

Expected<learn::StatsEntry> read_range(const std::string& path, ByteRange range,
                                       const learn::DatasetSplit& split) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return io_error(path, "cannot read");
  if (S_ISDIR(info.st_mode)) return make_error(ErrorCode::kIo, path + ": is a directory");
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) return io_error(path, "cannot open");
  const auto size = static_cast<std::uint64_t>(info.st_size);

  char head[archive::kSniffBytes] = {};
  const std::size_t head_size = std::fread(head, 1, sizeof head, file.get());
  const archive::Format format = archive::sniff_format(std::string_view(head, head_size));
  if (format != archive::Format::kPlain) {
    return make_error(ErrorCode::kInvalidArgument,
                      "--range reads plain PGN files; " + path + " is " +
                          archive::format_name(format) +
                          " data: read it whole, or decompress it first");
  }
  if (learn::file_kind_of(path) != learn::FileKind::kPgn) {
    return make_error(ErrorCode::kInvalidArgument, "--range reads PGN files, not .mat rows");
  }

  auto start = next_game_start(file.get(), range.start, size);
  if (!start) return start.error();
  auto end = next_game_start(file.get(), range.end, size);
  if (!end) return end.error();

  learn::StatsEntry entry;
  entry.name = path;
  entry.file_index = split.options().first_file_index;
  entry.size = size;
  entry.is_range = true;
  entry.start = *start;
  entry.end = *end;

  learn::PartReader reader(split.part_targets(0), entry.start);
  Sha256 hash;
  LineCounter lines;
  if (!seek(file.get(), entry.start)) return io_error(path, "cannot seek");
  std::vector<char> block(kBlockBytes);
  for (std::uint64_t left = entry.end - entry.start; left > 0;) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(left, block.size()));
    const std::size_t got = std::fread(block.data(), 1, want, file.get());
    if (got == 0) {
      return make_error(ErrorCode::kIo, path + ": the file ended at byte " +
                                            std::to_string(entry.end - left) +
                                            " (did it change while being read?)");
    }
    reader.feed(block.data(), got);
    hash.update(block.data(), got);
    lines.feed(block.data(), got);
    left -= got;
  }
  if (entry.end < size) {
    entry.stands_alone = reader.end_before_game_start();
  } else {
    reader.finish();
  }
  entry.lines = lines.lines;
  entry.sha256 = hash.hex();
  reader.set_game_offset(0);  // a range starting later has no bootstrap (stats refuses it)
  std::vector<learn::DatasetPart> parts = reader.take_parts();
  learn::DatasetPart& part = parts.front();
  entry.sniffed_bytes = part.sniffed_bytes;
  entry.sniffed_binary = part.sniffed_binary;
  entry.stats.histogram = std::move(part.histogram);
  entry.stats.pairs = std::move(part.pairs);
  entry.stats.bootstrap = std::move(part.bootstrap);
  entry.stats.report.games = std::move(part.games);
  return entry;
}

}  // namespace materialist::cli
