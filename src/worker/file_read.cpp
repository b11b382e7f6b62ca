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

void FileRead::begin(Dataset& data, const std::string& name) {
  file_name_ = name;
  file_bytes_ = 0;
  file_error_.clear();
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
  if (!file_reader_ || !file_error_.empty()) return false;
  if (file_bytes_ == 0 && size > 0 &&
      archive::sniff_format(std::string_view(bytes, size)) == archive::Format::kPlain) {
    if (const char* kind = binary_kind(bytes, size)) {
      file_error_ = "not PGN text: it looks like " + std::string(kind);
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

std::string FileRead::end(Dataset& data) {
  file_reader_->finish();
  const bool stopped = file_reader_->stopped_at_limit();  // read in part: no digest of it
  const std::string problem = file_reader_->problem();
  const bool archive = file_reader_->format() == archive::Format::kZip;
  file_reader_.reset();
  const learn::DatasetReport& report = data.split->merged().report();
  std::string error = file_error_.empty() ? problem : file_error_;
  if (error.empty() && file_bytes_ == 0) error = "the file is empty";
  if (error.empty()) {
    // The file's own problem (no games, binary), or for a zip each entry's: "a.pgn: ...".
    for (std::size_t i = files_before_file_; i < report.files.size(); ++i) {
      const learn::FileReport& file = report.files[i];
      if (file.error.empty()) continue;
      const std::string entry =
          archive ? file.name.substr(std::min(file.name.size(), file_name_.size() + 1)) + ": " : "";
      error += (error.empty() ? "" : "; ") + entry + file.error;
    }
  }
  // A file that stopped part way (truncated, corrupt) keeps the games before that point: said, so
  // that it is not taken for a file that was not read.
  if (!error.empty()) {
    std::uint64_t games = 0, rows = 0;
    for (std::size_t i = files_before_file_; i < report.files.size(); ++i) {
      games += report.files[i].games;
      rows += report.files[i].rows;
    }
    error = with_games_kept(error, games, rows);
  }
  const auto& issues = report.games.issues;
  for (std::size_t i = issues_before_file_; i < issues.size(); ++i) {
    data.issues.push_back({file_name_, issues[i]});
  }
  if (!error.empty()) data.file_errors.push_back(file_name_ + ": " + error);
  data.digests.push_back({file_name_, file_bytes_,
                          file_error_.empty() && !stopped && data.options.hash_files
                              ? file_hash_.hex()
                              : std::string()});
  return error;
}

}  // namespace materialist::worker
