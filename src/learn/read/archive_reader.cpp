#include "learn/read/archive_reader.h"

#include <algorithm>

namespace materialist::learn {

namespace {

constexpr std::size_t kMaxListedSkipped = 100;

}  // namespace

ArchiveReader::ArchiveReader(DatasetSplit& split, std::string name, archive::DecoderOptions options)
    : split_(split), name_(std::move(name)), decoder_(*this, options) {}

bool ArchiveReader::feed(const char* data, std::size_t size) {
  if (stopped_at_limit_) return false;
  // Up to the byte limit, then the rest after telling the split to end with the current game.
  std::size_t before_limit = size;
  if (byte_limit_ != 0 && bytes_fed_ < byte_limit_) {
    before_limit =
        static_cast<std::size_t>(std::min<std::uint64_t>(size, byte_limit_ - bytes_fed_));
  } else if (byte_limit_ != 0) {
    before_limit = 0;
  }
  const bool crosses =
      byte_limit_ != 0 && bytes_fed_ + size >= byte_limit_ && bytes_fed_ < byte_limit_;
  bytes_fed_ += size;
  bool more = before_limit == 0 || decoder_.feed(data, before_limit);
  if (crosses) split_.stop_after_game();
  if (more && before_limit < size) more = decoder_.feed(data + before_limit, size - before_limit);
  stopped_at_limit_ = split_.limit_reached();
  return more && !stopped_at_limit_;
}

void ArchiveReader::finish() {
  // Stopped at a limit, the decoder is mid-stream: that is no truncation.
  if (!stopped_at_limit_) decoder_.finish();
  if (file_open_) {  // an error inside an entry: the games read before it are kept
    split_.end_file();
    file_open_ = false;
  }
}

std::optional<Error> ArchiveReader::problem() const {
  return archive_problem(decoder_, error_, files_, skipped_);
}

std::optional<Error> archive_problem(const archive::Decoder& decoder,
                                     const std::optional<Error>& error, std::uint64_t pgn_files,
                                     const std::vector<std::string>& skipped) {
  if (error) return *error;
  if (!decoder.finished() || decoder.format() != archive::Format::kZip || pgn_files > 0) {
    return std::nullopt;
  }
  std::string text = "the zip archive holds no .pgn file";
  if (!skipped.empty()) {
    text += " (it holds ";
    for (std::size_t i = 0; i < skipped.size(); ++i) text += (i ? ", " : "") + skipped[i];
    text += ")";
  }
  return make_error(ErrorCode::kNoGames, text);
}

void ArchiveReader::begin_entry(std::string_view entry) {
  if (stopped_at_limit_ || split_.limit_reached()) {
    stopped_at_limit_ = true;  // no entry begins past the limit
    return;
  }
  ++files_;
  file_open_ = true;
  split_.begin_file(entry.empty() ? name_ : name_ + ":" + std::string(entry));
}

void ArchiveReader::data(const char* bytes, std::size_t size) {
  if (file_open_) split_.feed(bytes, size);
}

void ArchiveReader::end_entry() {
  if (!file_open_) return;
  split_.end_file();
  file_open_ = false;
}

void ArchiveReader::skipped_entry(std::string_view entry, std::string_view reason) {
  list_skipped_entry(skipped_, entry, reason);
}

void list_skipped_entry(std::vector<std::string>& skipped, std::string_view entry,
                        std::string_view reason) {
  if (skipped.size() < kMaxListedSkipped) {
    skipped.push_back(std::string(entry) + " (" + std::string(reason) + ")");
  }
}

void ArchiveReader::error(const Error& error) {
  error_ = error;
}

}  // namespace materialist::learn
