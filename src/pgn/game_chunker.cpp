#include "pgn/game_chunker.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

namespace materialist::pgn {

namespace {

// A chunk holds at least one byte, and the cap leaves room for a game start after the target: a
// cap at the target finds none, so every chunk would be cut at the cap, stand alone nowhere and
// be read a second time in order.
GameChunkerOptions checked(GameChunkerOptions options) {
  options.target_bytes = std::max<std::size_t>(options.target_bytes, 1);
  const std::size_t room = std::min(options.target_bytes, SIZE_MAX - options.target_bytes);
  options.max_bytes = std::max({options.max_bytes, options.target_bytes + room, std::size_t{64}});
  return options;
}

}  // namespace

GameChunker::GameChunker(GameChunkerOptions options) : options_(checked(options)) {}

void GameChunker::feed(const char* data, std::size_t size) {
  if (size == 0 || finished_) return;
  buffer_.append(data, size);
  scan();
}

void GameChunker::finish() {
  if (finished_) return;
  finished_ = true;
  scan();
  if (!buffer_.empty()) cut(buffer_.size(), false);
  if (!ready_.empty()) ready_.back().ends_stream = true;
}

std::optional<GameChunk> GameChunker::next() {
  if (ready_.empty()) return std::nullopt;
  GameChunk chunk = std::move(ready_.front());
  ready_.pop_front();
  return chunk;
}

char GameChunker::byte_at(std::ptrdiff_t i) const {
  return i >= 0 ? buffer_[static_cast<std::size_t>(i)] : before_[-i - 1];
}

bool GameChunker::follows_empty_line(std::size_t i) const {
  const auto at = static_cast<std::ptrdiff_t>(i);
  return byte_at(at - 1) == '\n' &&
         (byte_at(at - 2) == '\n' || (byte_at(at - 2) == '\r' && byte_at(at - 3) == '\n'));
}

void GameChunker::scan() {
  for (;;) {
    const std::size_t size = buffer_.size();
    const std::size_t limit = std::min(size, options_.max_bytes);  // a chunk's bytes at most
    bool was_cut = false;
    if (scanned_ < options_.target_bytes) skip_to_target(limit);
    while (scanned_ < limit) {
      const std::size_t i = scanned_;
      if (follows_empty_line(i)) {
        const std::string_view ahead(buffer_.data() + i, std::min(size - i, kGameStart.size()));
        const bool prefix = kGameStart.substr(0, ahead.size()) == ahead;
        if (prefix && ahead.size() < kGameStart.size() && !finished_) break;  // wait for bytes
        if (prefix && ahead.size() == kGameStart.size()) {  // at or after the target
          cut(i, true);
          was_cut = true;
          break;
        }
      }
      // On to just after the next LF.
      const void* lf = std::memchr(buffer_.data() + i, '\n', limit - i);
      const std::size_t end =
          lf != nullptr
              ? static_cast<std::size_t>(static_cast<const char*>(lf) - buffer_.data()) + 1
              : limit;
      if (lf != nullptr) last_line_end_ = end;
      scanned_ = end;
    }
    if (was_cut) continue;
    if (scanned_ < options_.max_bytes) return;
    // No game start for max_bytes: cut after the last line break, or at the bytes scanned; not
    // before the next byte is there (the stream's last chunk says so).
    const std::size_t end = last_line_end_ > 0 ? last_line_end_ : scanned_;
    if (end == buffer_.size()) return;
    cut(end, false);
  }
}

void GameChunker::skip_to_target(std::size_t limit) {
  const std::size_t end = std::min(limit, options_.target_bytes);
  // The scan goes on from `end`, maybe within a line: a cut at max_bytes still finds the last
  // line break before it.
  const std::string_view skipped(buffer_.data() + scanned_, end - scanned_);
  if (const std::size_t lf = skipped.rfind('\n'); lf != std::string_view::npos) {
    last_line_end_ = scanned_ + lf + 1;
  }
  scanned_ = end;
}

void GameChunker::cut(std::size_t end, bool before_game_start) {
  GameChunk chunk;
  chunk.offset = offset_;
  chunk.ends_before_game_start = before_game_start;
  char before[3];
  for (std::size_t k = 0; k < 3; ++k) {
    before[k] = byte_at(static_cast<std::ptrdiff_t>(end) - 1 - static_cast<std::ptrdiff_t>(k));
  }
  // The next chunk's buffer holds its target and a feed or two past it without growing: a
  // growing buffer copies all it holds each time. (max_bytes ≥ target_bytes: no overflow.)
  std::string rest;
  if (!finished_) {
    const std::size_t room =
        std::min(options_.target_bytes / 4, options_.max_bytes - options_.target_bytes);
    rest.reserve(std::max(options_.target_bytes + room, buffer_.size() - end));
  }
  rest.append(buffer_, end);
  chunk.bytes = std::move(buffer_);
  chunk.bytes.resize(end);
  buffer_ = std::move(rest);

  offset_ += end;
  std::copy(before, before + 3, before_);
  scanned_ -= end;
  last_line_end_ = 0;  // the cut is at or after the last LF scanned: the rest has none yet
  ready_.push_back(std::move(chunk));
}

}  // namespace materialist::pgn
