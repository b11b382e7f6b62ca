// worker/chunk_decoder_bindings.h, and its registration with Embind.
#include "worker/chunk_decoder_bindings.h"

#include <emscripten/bind.h>

#include <optional>

namespace materialist::worker {

using emscripten::val;

val JsChunkDecoder::next() {
  std::optional<DecodedPiece> piece = decoder_.next();
  if (!piece) return val::null();
  val out = val::object();
  out.set("kind", piece->kind == DecodedPiece::Kind::kBeginFile ? "begin-file"
                  : piece->kind == DecodedPiece::Kind::kEndFile ? "end-file"
                                                                : "chunk");
  out.set("file", piece->file);
  out.set("bytes", val::global("Uint8Array")
                       .new_(emscripten::typed_memory_view(
                           piece->bytes.size(),
                           reinterpret_cast<const std::uint8_t*>(piece->bytes.data()))));
  out.set("endsBeforeGameStart", val(piece->ends_before_game_start));
  out.set("fileBytes", val(double(piece->file_bytes)));
  return out;
}

EMSCRIPTEN_BINDINGS(materialist_chunk_decoder) {
  emscripten::class_<JsChunkDecoder>("ChunkDecoder")
      .constructor<std::string, int>()
      .function("buffer", &JsChunkDecoder::buffer)
      .function("feed", &JsChunkDecoder::feed)
      .function("finish", &JsChunkDecoder::finish)
      .function("next", &JsChunkDecoder::next);
}

}  // namespace materialist::worker
