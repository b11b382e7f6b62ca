// The file being read into the pending dataset (worker/file_read.h).
#include "worker/file_read.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "archive/decoder.h"

namespace materialist::worker {
namespace {

constexpr std::size_t kSniffBytes = 4096;

struct Magic {
  std::string_view bytes;
  const char* what;
};
// Compressed data and archives are the decoder's (archive::sniff_format): these are the rest.
constexpr std::array<Magic, 4> kBinaryMagics = {{
    {"\xFF\xD8\xFF", "a JPEG image"},
    {"\x89PNG", "a PNG image"},
    {"GIF8", "a GIF image"},
    {"%PDF", "a PDF document"},
}};

// Names what a plain file's first chunk looks like when it is clearly not text, or returns
// nullptr.
const char* binary_kind(const char* data, std::size_t size) {
  const std::string_view head(data, std::min(size, kSniffBytes));
  for (const Magic& magic : kBinaryMagics) {
    if (head.substr(0, magic.bytes.size()) == magic.bytes) return magic.what;
  }
  // Text never holds NUL bytes; a handful of other control bytes (0x1A, form feeds) it may.
  if (head.find('\0') != std::string_view::npos) return "binary data";
  return nullptr;
}

}  // namespace

void FileRead::begin(Dataset& data, const std::string& name, FileStretch stretch) {
  file_name_ = name;
  stretch_ = stretch;
  file_bytes_ = 0;
  file_error_.reset();
  file_hash_.reset();
  issues_before_file_ = data.split->merged().report().games.issues.size();
  files_before_file_ = data.split->merged().report().files.size();
  file_reader_ = std::make_unique<learn::ArchiveReader>(*data.split, name);
  // max_megabytes over the whole read: what the earlier files left of it (at least a byte).
  const double limit = data.options.max_megabytes * 1e6;
  if (limit > 0) {
    const double left = std::max(1.0, std::ceil(limit - static_cast<double>(data.bytes_fed)));
    file_reader_->stop_after_bytes(static_cast<std::uint64_t>(left));
  }
}

bool FileRead::feed(Dataset& data, const char* bytes, std::size_t size) {
  if (!file_reader_ || file_error_) return false;
  if (file_bytes_ == 0 && size > 0 && stretch_ != FileStretch::kAfterStart &&
      archive::sniff_format(std::string_view(bytes, size)) == archive::Format::kPlain) {
    if (const char* kind = binary_kind(bytes, size)) {
      file_error_ =
          make_error(ErrorCode::kNotText, "not PGN text: it looks like " + std::string(kind));
      return false;
    }
  }
  file_bytes_ += size;
  if (data.options.hash_files) file_hash_.update(bytes, size);
  data.bytes_fed += size;
  if (!file_reader_->feed(bytes, size)) {
    file_error_ = file_reader_->problem();
    return false;
  }
  return true;
}

std::optional<FileError> FileRead::end(Dataset& data) {
  file_reader_->finish();
  const bool stopped = file_reader_->stopped_at_limit();  // read in part: no digest of it
  const std::optional<Error> problem = file_reader_->problem();
  const bool zip = file_reader_->format() == archive::Format::kZip;
  file_reader_.reset();
  const learn::DatasetReport& report = data.split->merged().report();
  const std::optional<FileError> error =
      stretch_ == FileStretch::kWholeFile
          ? source_file_error(file_error_ ? file_error_ : problem, file_bytes_, file_name_, zip,
                              report.files, files_before_file_)
          : stretch_error(report.files);
  const auto& issues = report.games.issues;
  for (std::size_t i = issues_before_file_; i < issues.size(); ++i) {
    data.issues.push_back({file_name_, issues[i]});
  }
  if (error) data.file_errors.push_back(file_name_ + ": " + error->error.message);
  data.digests.push_back(
      {file_name_, file_bytes_,
       !file_error_ && !stopped && data.options.hash_files ? file_hash_.hex() : std::string()});
  return error;
}

std::optional<FileError> FileRead::stretch_error(
    const std::vector<learn::FileReport>& files) const {
  // A file's start may show it is not text (its first bytes, or its control bytes); the rest of
  // the whole-file rules are the coordinator's.
  if (stretch_ != FileStretch::kFileStart) return std::nullopt;
  if (file_error_) return FileError{*file_error_, false};
  for (std::size_t i = files_before_file_; i < files.size(); ++i) {
    if (files[i].error_code == ErrorCode::kNotText) {
      return FileError{make_error(ErrorCode::kNotText, files[i].error), false};
    }
  }
  return std::nullopt;
}

std::optional<FileError> source_file_error(std::optional<Error> own, std::uint64_t bytes,
                                           const std::string& source, bool zip,
                                           const std::vector<learn::FileReport>& files,
                                           std::size_t first) {
  std::optional<Error> error = std::move(own);
  if (!error && bytes == 0) error = make_error(ErrorCode::kEmptyFile, "the file is empty");
  if (!error) {
    // The file's own problem (no games, binary), or for a zip each entry's: "a.pgn: ...".
    for (std::size_t i = first; i < files.size(); ++i) {
      const learn::FileReport& file = files[i];
      if (file.error.empty()) continue;
      const std::string entry =
          zip ? file.name.substr(std::min(file.name.size(), source.size() + 1)) + ": " : "";
      if (!error) error = make_error(file.error_code, "");
      error->message += (error->message.empty() ? "" : "; ") + entry + file.error;
    }
  }
  if (!error) return std::nullopt;
  // A file that stopped part way (truncated, corrupt) keeps the games before that point: said, so
  // that it is not taken for a file that was not read.
  std::uint64_t games = 0, rows = 0;
  for (std::size_t i = first; i < files.size(); ++i) {
    games += files[i].games;
    rows += files[i].rows;
  }
  error->message = with_games_kept(error->message, games, rows);
  return FileError{std::move(*error), games > 0 && rows > 0};
}

}  // namespace materialist::worker
