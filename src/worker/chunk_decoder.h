// A compressed file or archive decoded by the coordinator for parallel readers
// (web/decode-read.js), cut at game starts; the pieces are imported in order by worker/engine.h's
// begin_import, import_part, end_decoded_entry and end_decoded.
//
//   ChunkDecoder decoder("games.pgn.zst", 4 << 20);
//   while (bytes && decoder.feed(data, n)) while (auto piece = decoder.next()) send(*piece);
//   decoder.finish();  while (auto piece = decoder.next()) send(*piece);
//   engine.end_decoded(bytes, entries, decoder.problem(), decoder.zip());
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/error.h"

namespace materialist::worker {

// A compressed file or archive, decoded as it streams (archive::Decoder, by its first bytes)
// and cut by pgn::GameChunker into pieces that readers parse apart: per file (a
// zip's .pgn entries are files "<name>:<entry>", as learn::ArchiveReader names them) a begin, its
// chunks in order, an end. Nothing grows with the file: ready pieces wait only until taken.
struct DecodedPiece {
  enum class Kind : std::uint8_t { kBeginFile, kChunk, kEndFile };
  Kind kind = Kind::kChunk;
  std::string file;   // the file it belongs to
  std::string bytes;  // kChunk: decompressed text, from a game start to just before one
  // kChunk: false when cut inside a game (no game start for 8 MiB), so a parser of the next
  // chunk would not see what a sequential read sees. (Its line and game offsets in the file are
  // the line breaks and games of the chunks before it: Engine::line_breaks, games read.)
  bool ends_before_game_start = true;
  std::uint64_t file_bytes = 0;  // kEndFile: the file's decompressed bytes
};

class ChunkDecoder {
 public:
  ChunkDecoder(std::string name, std::size_t target_chunk_bytes);
  ~ChunkDecoder();
  ChunkDecoder(const ChunkDecoder&) = delete;
  ChunkDecoder& operator=(const ChunkDecoder&) = delete;
  // The file's next compressed bytes; false once the decoder stopped (an error: problem()).
  bool feed(const char* data, std::size_t size);
  // The end of the file: the last chunk and file end become ready (or a truncation error).
  void finish();
  // The next ready piece, in order; nullopt when none is ready.
  std::optional<DecodedPiece> next();
  // What is wrong with the whole file (learn::archive_problem), or nullopt.
  std::optional<Error> problem() const;
  bool zip() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace materialist::worker
