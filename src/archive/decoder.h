// A push-style streaming decoder for compressed files and archives, recognised by their magic
// bytes whatever the file is called: the same C++ natively (Debian's libzstd, zlib, libbz2) and
// in WebAssembly (the same Debian source packages, built by cmake/web.cmake).
//
//   struct Games : archive::Sink { ... };           // begin_entry, data, end_entry, skipped, error
//   archive::Decoder decoder(games);
//   while (read chunk) if (!decoder.feed(chunk, n)) break;   // false once an error was reported
//   decoder.finish();                                         // reports truncation
//
// Formats (Format):
//   plain  anything else: passed through as one entry.
//   zstd   RFC 8878, any number of frames (and skippable frames) back to back: one entry. Windows
//          up to 2^ZSTD_WINDOWLOG_MAX (2 GiB natively, 1 GiB in 32-bit WebAssembly) are accepted:
//          lichess's database files are written with large windows (zstd --long), which the
//          library's default limit (2^27, 128 MiB) refuses. zstd allocates the window a frame
//          declares, so a frame with a 2 GiB window needs that much memory to decode.
//   gzip   RFC 1952, any number of members back to back: one entry.
//   bzip2  any number of streams back to back: one entry.
//   zip    every entry whose name ends in ".pgn" (any case), in archive order, one entry each,
//          streamed through the local headers (the central directory is never needed): stored or
//          deflate, sizes in the local header or, for deflate, a data descriptor after the data;
//          CRC-32 checked. Other entries are reported skipped with their names. Not supported, an
//          error naming it: zip64, encrypted entries, other compression methods (bzip2, lzma,
//          ...) in a .pgn entry, stored entries with a data descriptor.
//   xz, 7z, rar: recognised and refused (an error naming the format) before any output.
//
// Memory: the decoder's own buffers are bounded (buffer_bytes(): the output chunk, at most
// 64 KiB by default, the first bytes sniffed and one zip local header, at most 30 + 2 * 65535
// bytes); the libraries add their state (zlib 32 KiB window, bzip2 up to 3.6 MiB, zstd the frame's
// window). Nothing grows with the file: a decompression bomb is just a long stream of chunks.
//
// Errors: a corrupt or truncated input reports one error (with the offset in the compressed
// input where it was found) after every byte decoded before it; then the decoder stops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace materialist::archive {

enum class Format : std::uint8_t { kUnknown, kPlain, kZstd, kGzip, kBzip2, kZip, kXz, k7z, kRar };

// "plain", "zstd", "gzip", "bzip2", "zip", "xz", "7z", "rar" ("unknown" before detection).
const char* format_name(Format format);
// True for the formats the decoder reads (plain, zstd, gzip, bzip2, zip).
bool format_supported(Format format);

// How many first bytes decide the format (fewer are enough for most, not for rar).
inline constexpr std::size_t kSniffBytes = 8;
// The format whose magic bytes start `head`; kPlain when none does. With fewer than kSniffBytes
// bytes, a head that could still become a magic number is judged on what is there.
Format sniff_format(std::string_view head);

// Where decoded bytes go. An entry is one decompressed stream: the whole input for plain, zstd,
// gzip and bzip2 (name ""), one .pgn file of a zip (its name in the archive).
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void begin_entry(std::string_view name) = 0;
  // The entry's next decompressed bytes, at most DecoderOptions::chunk_bytes at a time.
  virtual void data(const char* bytes, std::size_t size) = 0;
  virtual void end_entry() = 0;
  // A zip entry not read, with why ("not a .pgn file", "a directory").
  virtual void skipped_entry(std::string_view /*name*/, std::string_view /*reason*/) {}
  // At most once; an entry begun and not ended stays so (no end_entry follows). The code is
  // kUnsupportedFormat (a format or feature this decoder does not read: xz, zip64, encryption),
  // kCorruptData (bytes that are not what the format says) or kTruncatedData (the input ends
  // inside a frame, member, stream or archive); the message says the format, what is wrong and
  // the offset (Decoder::error_offset).
  virtual void error(const Error& /*error*/) {}
};

struct DecoderOptions {
  std::size_t chunk_bytes = 64 << 10;  // largest data() call (at least 1)
  // The largest zstd window accepted, as a power of two (0: zstd's own largest, 2^31 bytes, 2^30
  // in 32-bit WebAssembly); a frame that needs more is reported as unsupported.
  int zstd_window_log_max = 0;
};

class Decoder {
 public:
  explicit Decoder(Sink& sink, DecoderOptions options = {});
  ~Decoder();
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  // The input's next bytes. False once an error was reported (later bytes are ignored).
  bool feed(const char* data, std::size_t size);
  // The end of the input: ends the open entry, or reports the truncation.
  void finish();

  Format format() const { return format_; }
  bool failed() const { return failed_; }
  // Where in the compressed input the error was found (0 before one).
  std::uint64_t error_offset() const { return error_offset_; }
  bool finished() const { return finished_; }
  std::uint64_t input_bytes() const { return input_bytes_; }    // compressed bytes fed
  std::uint64_t output_bytes() const { return output_bytes_; }  // decompressed bytes given
  std::uint64_t entries() const { return entries_; }            // entries begun
  // The capacity of the decoder's own buffers now, and the most they ever held (libraries'
  // internal state aside): bounded whatever the input.
  std::size_t buffer_bytes() const;
  std::size_t peak_buffer_bytes() const { return peak_buffer_bytes_; }

  struct Codec;  // the library state of the format being read (decoder_internal.h)

 private:
  int zstd_window_log_max() const;
  void start(Format format);
  void consume(const char* data, std::size_t size);
  void fail(ErrorCode code, std::uint64_t offset, std::string message);
  void emit(const char* data, std::size_t size);
  void begin_entry(std::string_view name);
  void end_entry();
  void note_buffers();

  // One step each: how many of `size` bytes were used (all, unless the step changed state).
  std::size_t stream_step(const char* data, std::size_t size);
  std::size_t zstd_step(const char* data, std::size_t size);
  std::size_t gzip_step(const char* data, std::size_t size);
  std::size_t bzip2_step(const char* data, std::size_t size);
  std::size_t take_zstd_header(const char* data, std::size_t size, std::uint64_t at);
  void fail_zstd(std::size_t error, std::uint64_t at);
  std::size_t zip_step(const char* data, std::size_t size);
  std::size_t zip_header_step(const char* data, std::size_t size);
  void start_zip_entry();
  std::size_t zip_data_step(const char* data, std::size_t size);
  std::size_t zip_descriptor_step(const char* data, std::size_t size);
  void zip_entry_done(std::uint32_t crc_expected);

  Sink& sink_;
  DecoderOptions options_;
  Format format_ = Format::kUnknown;
  bool failed_ = false;
  std::uint64_t error_offset_ = 0;
  bool finished_ = false;
  bool entry_open_ = false;
  std::uint64_t input_bytes_ = 0;  // fed so far
  std::uint64_t consumed_ = 0;     // handed to a format's steps so far
  std::uint64_t output_bytes_ = 0;
  std::uint64_t entries_ = 0;
  std::string head_;       // the first bytes, until the format is known
  std::vector<char> out_;  // the libraries' output chunk
  std::size_t peak_buffer_bytes_ = 0;
  std::unique_ptr<Codec> codec_;

  // ---- zip ----
  enum class ZipState : std::uint8_t { kHeader, kData, kDescriptor, kDone };
  ZipState zip_state_ = ZipState::kHeader;
  std::string zip_header_;  // the local header being gathered (or the descriptor)
  std::uint64_t zip_header_offset_ = 0;
  std::string zip_name_;
  bool zip_read_ = false;            // a .pgn entry: its bytes go to the sink
  bool zip_inflate_ = false;         // deflate, else stored (or skipped unread)
  bool zip_descriptor_ = false;      // sizes and CRC follow the data
  std::uint64_t zip_remaining_ = 0;  // compressed bytes left (sizes known)
  std::uint32_t zip_crc_expected_ = 0;
  std::uint32_t zip_crc_ = 0;
  bool zip_any_header_ = false;
};

}  // namespace materialist::archive
