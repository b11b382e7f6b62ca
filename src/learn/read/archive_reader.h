// One input file into a DatasetSplit whatever it holds, decoded as it streams (archive::Decoder,
// by magic bytes, not by name): plain text, zstd, gzip or bzip2 are one file named `name`; a
// zip's .pgn entries are one file each, in archive order, named "<name>:<entry>"
// ("games.zip:2023-01.pgn"); its other entries are listed in skipped(). The CLI and the worker
// engine read every file this way.
//
//   ArchiveReader reader(split, "games.pgn.zst");
//   while (chunk) if (!reader.feed(data, n)) break;
//   reader.finish();
//   if (reader.problem()) ...  // unsupported, corrupt, truncated: the games before it stay
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "archive/decoder.h"
#include "core/error.h"
#include "learn/read/dataset_split.h"

namespace materialist::learn {

// Lists a zip entry that is not read ("README.txt (not a .pgn file)"), up to the first 100.
void list_skipped_entry(std::vector<std::string>& skipped, std::string_view entry,
                        std::string_view reason);

// What is wrong with a whole compressed file or archive, for every reader of one (this class,
// the CLI's parallel read, the worker's ChunkDecoder): the decoder's error (kUnsupportedFormat,
// kCorruptData, kTruncatedData), else for a finished zip without .pgn entries kNoGames ("the zip
// archive holds no .pgn file (it holds README.txt (not a .pgn file))", from its skipped
// entries), else nothing.
std::optional<Error> archive_problem(const archive::Decoder& decoder,
                                     const std::optional<Error>& error, std::uint64_t pgn_files,
                                     const std::vector<std::string>& skipped);

class ArchiveReader final : archive::Sink {
 public:
  ArchiveReader(DatasetSplit& split, std::string name,
                archive::DecoderOptions options = archive::DecoderOptions{});
  ArchiveReader(const ArchiveReader&) = delete;
  ArchiveReader& operator=(const ArchiveReader&) = delete;

  // The file's next bytes; false once it cannot be read further (an error: see problem()).
  bool feed(const char* data, std::size_t size);
  // The end of the file: ends the file being read (or reports the truncation).
  void finish();
  // A "first N MB" limit: once `bytes` of this file (as stored: compressed bytes for an archive)
  // are fed, the read ends at the next game end (DatasetSplit::stop_after_game). 0: no limit.
  void stop_after_bytes(std::uint64_t bytes) { byte_limit_ = bytes; }

  archive::Format format() const { return decoder_.format(); }
  // The decoder's error: an unsupported format or feature, corrupt or truncated data.
  const std::optional<Error>& error() const { return error_; }
  // What is wrong with the whole file (archive_problem), or nullopt.
  std::optional<Error> problem() const;
  // The zip entries not read: "README.txt (not a .pgn file)".
  const std::vector<std::string>& skipped() const { return skipped_; }
  // Files begun in the split (1 for a plain or compressed file, one per .pgn entry of a zip).
  std::uint64_t files() const { return files_; }
  const std::string& name() const { return name_; }
  // True once the split's limit ended the read (feed returned false without an error).
  bool stopped_at_limit() const { return stopped_at_limit_; }

 private:
  void begin_entry(std::string_view entry) override;
  void data(const char* bytes, std::size_t size) override;
  void end_entry() override;
  void skipped_entry(std::string_view entry, std::string_view reason) override;
  void error(const Error& error) override;

  DatasetSplit& split_;
  std::string name_;
  archive::Decoder decoder_;
  std::optional<Error> error_;
  std::vector<std::string> skipped_;
  std::uint64_t files_ = 0;
  bool file_open_ = false;
  bool stopped_at_limit_ = false;
  std::uint64_t byte_limit_ = 0;
  std::uint64_t bytes_fed_ = 0;
};

}  // namespace materialist::learn
