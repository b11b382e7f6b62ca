// Cuts a PGN stream into chunks that parsers can read apart and in parallel: each chunk ends just
// before a game-start line. The chunker only cuts: each chunk's parser counts its own lines and
// games, and the reader adds up the earlier chunks' counts (learn::DatasetPart::line_breaks) to
// give the numbers of a sequential read.
//
//   GameChunker chunker({.target_bytes = 4 << 20});
//   while (read a piece) {                       // any split of the stream, 1 byte up
//     chunker.feed(piece, size);
//     while (std::optional<GameChunk> chunk = chunker.next()) hand_to_a_parser(*chunk);
//   }
//   chunker.finish();
//   while (std::optional<GameChunk> chunk = chunker.next()) hand_to_a_parser(*chunk);
//
// A game-start line begins with `[Event "` (kGameStart) after an empty line ("\n\n" or
// "\n\r\n"), or at the start of the stream (web/parallel-read.js cuts files the same way, on
// `[Event `). A chunk ends at the first game start at or after target_bytes: its first
// target_bytes are not looked at, only where it may end. The chunks are the same whatever the
// split of the fed pieces.
//
// A stretch of max_bytes without a game start (one enormous game, junk, a file that is not PGN)
// is cut anyway, after its last line break (or at max_bytes when it has none), so memory stays
// bounded; such a chunk has neither ends_before_game_start nor ends_stream, and a reader that
// wants the sequential result reads the rest of that stream with one continuing parser. A cut
// before a game start can still be wrong for a parser in a rare state (a `{` comment left open in a
// tag section swallows the next game's tags): learn::PartReader::end_before_game_start says whether
// it was, for the same fallback.
//
// Pure: no threads, no exceptions, no globals (the browser's coordinator uses it from
// WebAssembly).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace materialist::pgn {

// The first bytes of a game-start line.
inline constexpr std::string_view kGameStart = "[Event \"";

struct GameChunkerOptions {
  std::size_t target_bytes = 4u << 20;  // a chunk ends at the first game start from here on
  // Without one, a chunk is cut at its last line break; at least twice target_bytes.
  std::size_t max_bytes = 64u << 20;
};

struct GameChunk {
  std::string bytes;
  std::uint64_t offset = 0;  // of its first byte in the stream
  // True when kGameStart follows its last byte; false for the stream's last chunk and for a
  // chunk cut at max_bytes.
  bool ends_before_game_start = false;
  bool ends_stream = false;  // the stream's last chunk
};

class GameChunker {
 public:
  explicit GameChunker(GameChunkerOptions options = {});

  // The stream's next bytes; the chunks they complete become available through next().
  void feed(const char* data, std::size_t size);
  // The end of the stream: the bytes held become its last chunk (none for an empty stream).
  void finish();
  // The next complete chunk, in stream order, or nullopt when there is none yet.
  std::optional<GameChunk> next();

  // Bytes held for the chunk being gathered (at most max_bytes plus the last piece fed).
  std::size_t buffered_bytes() const { return buffer_.size(); }
  const GameChunkerOptions& options() const { return options_; }

 private:
  // The stream byte at buffer position `i` (negative: before the buffer).
  char byte_at(std::ptrdiff_t i) const;
  // Whether the line starting at buffer position `i` follows an empty line.
  bool follows_empty_line(std::size_t i) const;
  // Cuts chunks as far as the bytes held allow.
  void scan();
  // On to target_bytes (or `limit`) at once: no game start before it can end the chunk.
  void skip_to_target(std::size_t limit);
  // Makes buffer_[0, end) a chunk; the rest starts the next one.
  void cut(std::size_t end, bool before_game_start);

  GameChunkerOptions options_;
  std::string buffer_;  // the chunk being gathered
  std::deque<GameChunk> ready_;
  bool finished_ = false;

  // Before the buffer.
  std::uint64_t offset_ = 0;
  char before_[3] = {'\n', '\n', '\n'};  // the 3 bytes before it, last first (a blank start)

  // In buffer_[0, scanned_).
  std::size_t scanned_ = 0;
  std::size_t last_line_end_ = 0;  // just after the last LF scanned (0: none yet)
};

}  // namespace materialist::pgn
