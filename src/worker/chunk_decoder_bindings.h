// The Embind face of worker::ChunkDecoder (web/decode-read.js): compressed bytes in through one
// buffer, as Engine.feed takes them; pieces out one at a time as plain objects, a chunk's text
// copied into its own Uint8Array (its buffer is transferred to a reader).
//
//   const decoder = new wasm.ChunkDecoder(name, targetBytes);
//   decoder.feed(pointer, n);  for (let p = decoder.next(); p; p = decoder.next()) ...
//   engine.endDecoded(bytes, entries, decoder);  // the source file's end: its error
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <utility>

#include "worker/chunk_decoder.h"
#include "worker/input_buffer.h"

namespace materialist::worker {

class JsChunkDecoder {
 public:
  JsChunkDecoder(std::string name, int target_bytes)
      : decoder_(std::move(name), static_cast<std::size_t>(target_bytes)) {}

  std::uintptr_t buffer(int capacity) { return input_.at_least(capacity); }
  bool feed(std::uintptr_t pointer, int length) {
    return decoder_.feed(reinterpret_cast<const char*>(pointer), static_cast<std::size_t>(length));
  }
  void finish() { decoder_.finish(); }
  // {kind: "begin-file" | "chunk" | "end-file", file, bytes, endsBeforeGameStart, fileBytes},
  // or null.
  emscripten::val next();
  // The decoder itself: Engine.endDecoded reads its problem and whether it is a zip.
  const ChunkDecoder& decoder() const { return decoder_; }

 private:
  ChunkDecoder decoder_;
  InputBuffer input_;
};

}  // namespace materialist::worker
