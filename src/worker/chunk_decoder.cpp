// A compressed file decoded here and cut at game starts for parallel readers
// (worker/chunk_decoder.h).
#include "worker/chunk_decoder.h"

#include <deque>
#include <string_view>
#include <utility>
#include <vector>

#include "archive/decoder.h"
#include "learn/read/archive_reader.h"
#include "pgn/game_chunker.h"

namespace materialist::worker {

// The decoder's sink: each entry through its own chunker into the queue of ready pieces.
struct ChunkDecoder::State final : archive::Sink {
  State(std::string file_name, std::size_t target)
      : name(std::move(file_name)), target_bytes(target) {}

  void begin_entry(std::string_view entry) override {
    ++files;
    file = entry.empty() ? name : name + ":" + std::string(entry);
    file_bytes = 0;
    // A stretch of 8 MiB without a game start is cut anyway (the read is then done again in
    // order): the heap holds a few chunks, never a huge one. The readers' parsers count the
    // lines (chunk-done's `lines`): the chunker only cuts.
    chunker.emplace(pgn::GameChunkerOptions{.target_bytes = target_bytes, .max_bytes = 8u << 20});
    DecodedPiece begin;
    begin.kind = DecodedPiece::Kind::kBeginFile;
    begin.file = file;
    ready.push_back(std::move(begin));
  }
  void data(const char* bytes, std::size_t size) override {
    file_bytes += size;
    chunker->feed(bytes, size);
    take_chunks();
  }
  void end_entry() override {
    chunker->finish();
    take_chunks();
    chunker.reset();
    DecodedPiece end;
    end.kind = DecodedPiece::Kind::kEndFile;
    end.file = file;
    end.file_bytes = file_bytes;
    ready.push_back(std::move(end));
  }
  void skipped_entry(std::string_view entry, std::string_view reason) override {
    learn::list_skipped_entry(skipped, entry, reason);
  }
  void error(const Error& e) override { failure = e; }

  void take_chunks() {
    while (std::optional<pgn::GameChunk> chunk = chunker->next()) {
      DecodedPiece piece;
      piece.file = file;
      piece.bytes = std::move(chunk->bytes);
      piece.ends_before_game_start = chunk->ends_before_game_start;
      ready.push_back(std::move(piece));
    }
  }

  std::string name;
  std::size_t target_bytes;
  std::string file;  // the entry being decoded
  std::uint64_t file_bytes = 0;
  std::optional<pgn::GameChunker> chunker;  // of the entry being decoded
  std::deque<DecodedPiece> ready;
  std::vector<std::string> skipped;
  std::optional<Error> failure;
  std::uint64_t files = 0;
  archive::Decoder decoder{*this};  // last: it calls back into the members above
};

ChunkDecoder::ChunkDecoder(std::string name, std::size_t target_chunk_bytes)
    : state_(std::make_unique<State>(std::move(name), target_chunk_bytes)) {}

ChunkDecoder::~ChunkDecoder() = default;

bool ChunkDecoder::feed(const char* data, std::size_t size) {
  return state_->decoder.feed(data, size);
}

void ChunkDecoder::finish() {
  state_->decoder.finish();
  if (state_->chunker) state_->end_entry();  // an error inside an entry: its chunks so far count
}

std::optional<DecodedPiece> ChunkDecoder::next() {
  if (state_->ready.empty()) return std::nullopt;
  DecodedPiece piece = std::move(state_->ready.front());
  state_->ready.pop_front();
  return piece;
}

bool ChunkDecoder::zip() const {
  return state_->decoder.format() == archive::Format::kZip;
}

std::optional<Error> ChunkDecoder::problem() const {
  return learn::archive_problem(state_->decoder, state_->failure, state_->files, state_->skipped);
}

}  // namespace materialist::worker
