// The file the engine is reading (worker/engine.h's begin_file, feed, end_file): its bytes
// decoded by content into the pending dataset's split (learn::ArchiveReader), sniffed for binary
// data, hashed when asked, and at its end its error, issues and digest into the dataset.
//
//   FileRead file;
//   file.begin(data, "games.pgn.zst");
//   while (chunk && file.feed(data, chunk, n)) {}
//   std::optional<FileError> error = file.end(data);  // why it gave nothing (a zip: each entry's)
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/sha256.h"
#include "learn/read/archive_reader.h"
#include "worker/engine_dataset.h"

namespace materialist::worker {

// In a file's error (FileRead::end), the words that say the games before the error were read
// and are in the fit (for people: code reads FileError::read_in_part).
inline constexpr const char* kReadInPartMarker = "read up to there";

// A file's error, with the games read before it when they gave positions: "…; read up to there:
// its first 407 games (2,310 positions) are in the fit".
inline std::string with_games_kept(const std::string& error, std::uint64_t games,
                                   std::uint64_t rows) {
  if (games == 0 || rows == 0) return error;
  return error + "; " + kReadInPartMarker + ": its first " + std::to_string(games) +
         (games == 1 ? " game" : " games") + " (" + std::to_string(rows) +
         (rows == 1 ? " position" : " positions") + ") are in the fit";
}

// A whole file's error, and whether positions of the games read before it are in the data (a
// file read in part: truncated or corrupt compressed data, binary data after games).
struct FileError {
  Error error;
  bool read_in_part = false;
};

// The error of a source file once it ended, one rule for a file read here (FileRead::end) and
// one decoded for readers (Engine::end_decoded): its own problem (binary data, the decoder's),
// else kEmptyFile when it held no bytes, else its entries' (files[first..]; a zip's named "a.pgn:
// ..."), with the games kept before it; nullopt when none.
std::optional<FileError> source_file_error(std::optional<Error> own, std::uint64_t bytes,
                                           const std::string& source, bool zip,
                                           const std::vector<learn::FileReport>& files,
                                           std::size_t first);

// What a FileRead reads: a whole file, or a stretch of one cut at game starts that a parallel
// reader reads apart (its start, or one after it). A stretch has no whole-file error of its own
// (no games, no usable game: the coordinator judges the file, PartImport::end_file); only the
// file's start is checked for binary data.
enum class FileStretch : std::uint8_t { kWholeFile, kFileStart, kAfterStart };

class FileRead {
 public:
  // Starts reading `name` into `data`'s split (the read's byte limit counted over every file).
  void begin(Dataset& data, const std::string& name, FileStretch stretch = FileStretch::kWholeFile);
  // Parses the next bytes; false once the file is rejected (binary data, an unsupported format,
  // corrupt compressed data): the caller stops sending it.
  bool feed(Dataset& data, const char* bytes, std::size_t size);
  // Ends the file: its whole-file error (empty, binary, no games, an unsupported format,
  // corrupt or truncated compressed data: the games before the damage are kept), or nullopt.
  std::optional<FileError> end(Dataset& data);
  // True between begin and end.
  bool open() const { return file_reader_ != nullptr; }
  // Drops the file without ending it (a cancelled read; it reads into the dataset).
  void close() { file_reader_.reset(); }
  const std::string& name() const { return file_name_; }

 private:
  // A stretch's error at its end: binary data at the file's start, or none.
  std::optional<FileError> stretch_error(const std::vector<learn::FileReport>& files) const;

  std::string file_name_;
  std::uint64_t file_bytes_ = 0;
  FileStretch stretch_ = FileStretch::kWholeFile;
  std::optional<Error> file_error_;  // why feed refused the file
  std::size_t issues_before_file_ = 0;
  std::size_t files_before_file_ = 0;  // the merged report's files when it began
  Sha256 file_hash_;
  std::unique_ptr<learn::ArchiveReader> file_reader_;
};

}  // namespace materialist::worker
