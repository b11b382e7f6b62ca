// Internal to src/archive: what decoder.cpp (format detection, the Decoder's driver, the zstd,
// gzip and bzip2 streams) and zip_reader.cpp (the zip steps) both use. Not part of the API.
#pragma once

#include <bzlib.h>
#include <zlib.h>
#include <zstd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "archive/decoder.h"

namespace materialist::archive {

namespace detail {

// Little-endian integers at `at` in `bytes` (zip's headers).
inline std::uint32_t le16(std::string_view bytes, std::size_t at) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 1])) << 8;
}

inline std::uint32_t le32(std::string_view bytes, std::size_t at) {
  return le16(bytes, at) | le16(bytes, at + 2) << 16;
}

// " at byte N", the end of every error message.
inline std::string at_byte(std::uint64_t offset) {
  return " at byte " + std::to_string(offset);
}

}  // namespace detail

// The library state of the format being read: one of them is used.
struct Decoder::Codec {
  ZSTD_DCtx* zstd = nullptr;
  z_stream zlib{};
  bool zlib_ready = false;
  bz_stream bzip{};
  bool bzip_ready = false;
  bool open = false;  // inside a zstd frame, a gzip member or a bzip2 stream
  // The input zstd asks for next (ZSTD_decompressStream's hint: the next block and its header).
  std::size_t zstd_hint = 1;
  // A zstd frame's header (at most 18 bytes), gathered and checked before libzstd sees it:
  // libzstd takes a header that comes in pieces differently from a whole one, so an error's
  // kind would depend on the chunking (decoder.cpp, take_zstd_header).
  bool zstd_frame_start = true;
  std::array<char, 18> zstd_header{};
  std::size_t zstd_header_size = 0;
  std::uint64_t zstd_frame_at = 0;  // the input offset of the header's first byte

  ~Codec() {
    if (zstd != nullptr) ZSTD_freeDCtx(zstd);
    if (zlib_ready) inflateEnd(&zlib);
    if (bzip_ready) BZ2_bzDecompressEnd(&bzip);
  }
  bool init_zlib(int window_bits) {
    zlib = z_stream{};
    zlib_ready = inflateInit2(&zlib, window_bits) == Z_OK;
    return zlib_ready;
  }
  bool init_bzip() {
    bzip = bz_stream{};
    bzip_ready = BZ2_bzDecompressInit(&bzip, 0, 0) == BZ_OK;
    return bzip_ready;
  }
};

}  // namespace materialist::archive
