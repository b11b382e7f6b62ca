// Format detection and the Decoder's driver (sniffing, feeding, finishing, errors), with the
// zstd, gzip and bzip2 streams; the zip reader is zip_reader.cpp.
#include "archive/decoder.h"

#include <zstd_errors.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "archive/decoder_internal.h"

namespace materialist::archive {

namespace {

using namespace std::string_view_literals;

using detail::at_byte;

struct Magic {
  std::string_view bytes;
  Format format;
};

// From each format's specification: RFC 8878, RFC 1952, xz, 7z, PKWARE APPNOTE (local header,
// empty archive, spanned archive marker), RAR 4 and RAR 5. bzip2 ("BZh" and a digit) is below.
constexpr std::array kMagics = {
    Magic{"\x28\xB5\x2F\xFD"sv, Format::kZstd},
    Magic{"\x1F\x8B"sv, Format::kGzip},
    Magic{"\xFD\x37\x7A\x58\x5A\x00"sv, Format::kXz},
    Magic{"\x37\x7A\xBC\xAF\x27\x1C"sv, Format::k7z},
    Magic{"PK\x03\x04"sv, Format::kZip},
    Magic{"PK\x05\x06"sv, Format::kZip},
    Magic{"PK\x07\x08"sv, Format::kZip},
    Magic{"Rar!\x1A\x07\x00"sv, Format::kRar},
    Magic{"Rar!\x1A\x07\x01\x00"sv, Format::kRar},
};

constexpr std::array kFormatNames = {"unknown", "plain", "zstd", "gzip", "bzip2",
                                     "zip",     "xz",    "7z",   "rar"};
static_assert(kFormatNames.size() == static_cast<std::size_t>(Format::kRar) + 1);

// What to run to decompress a format Materialist refuses.
const char* decompress_command(Format format) {
  switch (format) {
    case Format::kXz:
      return "xz -d";
    case Format::k7z:
      return "7z x";
    case Format::kRar:
      return "unrar x";
    default:
      return "";
  }
}

// zstd's largest window (ZSTD_WINDOWLOG_MAX, in zstd.h's experimental section): 2^31 bytes with
// 64-bit size_t, 2^30 in 32-bit WebAssembly.
constexpr int kZstdWindowLogMax = sizeof(std::size_t) == 4 ? 30 : 31;

}  // namespace

const char* format_name(Format format) {
  return kFormatNames[static_cast<std::size_t>(format)];
}

bool format_supported(Format format) {
  return format == Format::kPlain || format == Format::kZstd || format == Format::kGzip ||
         format == Format::kBzip2 || format == Format::kZip;
}

Format sniff_format(std::string_view head) {
  for (const Magic& magic : kMagics) {
    if (head.substr(0, magic.bytes.size()) == magic.bytes) return magic.format;
  }
  if (head.size() >= 4 && head.substr(0, 3) == "BZh" && head[3] >= '1' && head[3] <= '9') {
    return Format::kBzip2;
  }
  return Format::kPlain;
}

Decoder::Decoder(Sink& sink, DecoderOptions options) : sink_(sink), options_(options) {
  options_.chunk_bytes = std::max<std::size_t>(1, options_.chunk_bytes);
}

Decoder::~Decoder() = default;

int Decoder::zstd_window_log_max() const {
  const int asked = options_.zstd_window_log_max;
  return asked > 0 && asked < kZstdWindowLogMax ? asked : kZstdWindowLogMax;
}

std::size_t Decoder::buffer_bytes() const {
  return out_.capacity() + head_.capacity() + zip_header_.capacity() + zip_name_.capacity();
}

void Decoder::note_buffers() {
  peak_buffer_bytes_ = std::max(peak_buffer_bytes_, buffer_bytes());
}

void Decoder::fail(ErrorCode code, std::uint64_t offset, std::string message) {
  if (failed_) return;
  failed_ = true;
  error_offset_ = offset;
  sink_.error(make_error(code, std::move(message)));
}

void Decoder::emit(const char* data, std::size_t size) {
  while (size > 0) {
    const std::size_t n = std::min(size, options_.chunk_bytes);
    output_bytes_ += n;
    sink_.data(data, n);
    data += n;
    size -= n;
  }
}

void Decoder::begin_entry(std::string_view name) {
  entry_open_ = true;
  ++entries_;
  sink_.begin_entry(name);
}

void Decoder::end_entry() {
  entry_open_ = false;
  sink_.end_entry();
}

void Decoder::start(Format format) {
  format_ = format;
  if (!format_supported(format)) {
    fail(ErrorCode::kUnsupportedFormat, 0,
         std::string(format_name(format)) +
             (format == Format::kXz ? "-compressed data" : " archive") +
             " is not supported: Materialist reads zstd, gzip, bzip2 and zip; " +
             (format == Format::kXz ? "decompress it first (" : "extract it first (") +
             decompress_command(format) + ")");
    return;
  }
  if (format == Format::kPlain) {
    begin_entry("");
    return;
  }
  codec_ = std::make_unique<Codec>();
  out_.resize(options_.chunk_bytes);
  bool ready = true;
  switch (format) {
    case Format::kZstd:
      codec_->zstd = ZSTD_createDCtx();
      ready =
          codec_->zstd != nullptr && !ZSTD_isError(ZSTD_DCtx_setParameter(
                                         codec_->zstd, ZSTD_d_windowLogMax, zstd_window_log_max()));
      break;
    case Format::kGzip:
      ready = codec_->init_zlib(15 + 16);
      break;  // gzip wrapper only
    case Format::kBzip2:
      ready = codec_->init_bzip();
      break;
    case Format::kZip:
      ready = codec_->init_zlib(-15);
      break;  // raw deflate
    default:
      break;
  }
  if (!ready) {
    fail(ErrorCode::kCorruptData, 0, std::string(format_name(format)) + ": out of memory");
    return;
  }
  if (format != Format::kZip) begin_entry("");
}

bool Decoder::feed(const char* data, std::size_t size) {
  if (failed_ || finished_) return !failed_;
  input_bytes_ += size;
  if (format_ == Format::kUnknown) {
    const std::size_t take = std::min(size, kSniffBytes - head_.size());
    head_.append(data, take);
    data += take;
    size -= take;
    if (head_.size() < kSniffBytes) {
      note_buffers();
      return true;
    }
    start(sniff_format(head_));
    std::string head;
    head.swap(head_);
    consume(head.data(), head.size());
  }
  consume(data, size);
  note_buffers();
  return !failed_;
}

void Decoder::consume(const char* data, std::size_t size) {
  while (size > 0 && !failed_) {
    std::size_t used = 0;
    if (format_ == Format::kPlain) {
      emit(data, size);
      used = size;
    } else if (format_ == Format::kZip) {
      used = zip_step(data, size);
    } else {
      used = stream_step(data, size);
    }
    consumed_ += used;
    data += used;
    size -= used;
  }
}

void Decoder::finish() {
  if (finished_ || failed_) {
    finished_ = true;
    return;
  }
  if (format_ == Format::kUnknown) {
    start(sniff_format(head_));
    std::string head;
    head.swap(head_);
    consume(head.data(), head.size());
    if (failed_) {
      finished_ = true;
      return;
    }
  }
  finished_ = true;
  switch (format_) {
    case Format::kPlain:
      end_entry();
      break;
    case Format::kZstd:
    case Format::kGzip:
    case Format::kBzip2:
      if (codec_->open) {
        const char* what = format_ == Format::kZstd   ? "a frame"
                           : format_ == Format::kGzip ? "a member"
                                                      : "a stream";
        fail(ErrorCode::kTruncatedData, consumed_,
             std::string("truncated ") + format_name(format_) + " data: the input ends inside " +
                 what + at_byte(consumed_));
      } else {
        end_entry();
      }
      break;
    case Format::kZip:
      if (zip_state_ == ZipState::kDone) break;
      if (zip_state_ == ZipState::kHeader && zip_header_.empty()) {
        fail(ErrorCode::kTruncatedData, consumed_,
             "truncated zip archive: it ends before its central directory" + at_byte(consumed_));
      } else {
        fail(ErrorCode::kTruncatedData, consumed_,
             "truncated zip archive: it ends inside " +
                 (zip_name_.empty() ? std::string("a local header") : "the entry " + zip_name_) +
                 at_byte(consumed_));
      }
      break;
    default:
      break;
  }
}

// ---- zstd, gzip, bzip2: one stream of frames, members or streams ----

namespace {

// The bytes of a zstd frame's header known from its first `have` bytes (RFC 8878, 3.1.1.1): the
// magic (4) first; a skippable frame's header is its magic and size (8); a frame's, its magic,
// descriptor, window byte (unless single-segment), dictionary id and content size.
std::size_t zstd_header_bytes(const std::array<char, 18>& header, std::size_t have) {
  if (have < 4) return 4;
  const std::uint32_t magic = detail::le32(std::string_view(header.data(), 4), 0);
  if ((magic & ZSTD_MAGIC_SKIPPABLE_MASK) == ZSTD_MAGIC_SKIPPABLE_START) return 8;
  if (have < 5) return 5;
  const auto descriptor = static_cast<unsigned char>(header[4]);
  const bool single_segment = ((descriptor >> 5) & 1) != 0;
  const unsigned content_size_code = descriptor >> 6;
  constexpr std::array<std::size_t, 4> kDictionaryIdBytes = {0, 1, 2, 4};
  const std::size_t content_size_bytes =
      content_size_code == 0 ? (single_segment ? 1 : 0) : std::size_t{1} << content_size_code;
  return 5 + (single_segment ? 0 : 1) + kDictionaryIdBytes[descriptor & 3] + content_size_bytes;
}

}  // namespace

void Decoder::fail_zstd(std::size_t error, std::uint64_t at) {
  const bool window = ZSTD_getErrorCode(error) == ZSTD_error_frameParameter_windowTooLarge;
  fail(window ? ErrorCode::kUnsupportedFormat : ErrorCode::kCorruptData, at,
       window ? "zstd frame needs a window larger than 2^" + std::to_string(zstd_window_log_max()) +
                    " bytes" + at_byte(at)
              : std::string("corrupt zstd data (") + ZSTD_getErrorName(error) + ")" + at_byte(at));
}

// Gathers a zstd frame's header from `data`, checks its magic (a frame or a skippable frame; no
// legacy format, which the browser's libzstd lacks) and hands it to libzstd whole, in one call:
// libzstd checks a header that comes in pieces differently from a whole one (found by fuzzing:
// the legacy magics on a call's input, a descriptor's reserved bit only on some pieces), so an
// error's kind would depend on the chunking. `at` is the offset of `data` in the input. Returns
// the bytes taken.
std::size_t Decoder::take_zstd_header(const char* data, std::size_t size, std::uint64_t at) {
  Codec& codec = *codec_;
  std::array<char, 18>& header = codec.zstd_header;
  std::size_t taken = 0;
  if (codec.zstd_header_size == 0) codec.zstd_frame_at = at;
  codec.open = true;  // an input that ends inside the header is a truncated frame
  for (std::size_t need = zstd_header_bytes(header, codec.zstd_header_size);
       codec.zstd_header_size < need; need = zstd_header_bytes(header, codec.zstd_header_size)) {
    const std::size_t take = std::min(size - taken, need - codec.zstd_header_size);
    std::copy_n(data + taken, take, header.data() + codec.zstd_header_size);
    codec.zstd_header_size += take;
    taken += take;
    if (codec.zstd_header_size < need) return taken;  // the header goes on in the next input
    if (codec.zstd_header_size == 4) {
      const std::uint32_t magic = detail::le32(std::string_view(header.data(), 4), 0);
      if (magic != ZSTD_MAGICNUMBER &&
          (magic & ZSTD_MAGIC_SKIPPABLE_MASK) != ZSTD_MAGIC_SKIPPABLE_START) {
        fail(ErrorCode::kCorruptData, codec.zstd_frame_at,
             "corrupt zstd data (no zstd frame starts here: its first bytes are not 28 B5 2F FD)" +
                 at_byte(codec.zstd_frame_at));
        return taken;
      }
    }
  }
  ZSTD_inBuffer header_in{header.data(), codec.zstd_header_size, 0};
  ZSTD_outBuffer no_out{out_.data(), 0, 0};
  const std::size_t ret = ZSTD_decompressStream(codec.zstd, &no_out, &header_in);
  if (ZSTD_isError(ret)) {
    fail_zstd(ret, codec.zstd_frame_at);
    return taken;
  }
  if (header_in.pos != header_in.size) {
    fail(ErrorCode::kCorruptData, codec.zstd_frame_at,
         "corrupt zstd data (frame header)" + at_byte(codec.zstd_frame_at));
    return taken;
  }
  codec.zstd_hint = ret == 0 ? 1 : ret;
  codec.zstd_header_size = 0;
  codec.zstd_frame_start = ret == 0;  // an empty skippable frame ends with its header
  codec.open = ret != 0;
  return taken;
}

std::size_t Decoder::stream_step(const char* data, std::size_t size) {
  if (format_ == Format::kZstd) return zstd_step(data, size);
  if (format_ == Format::kGzip) return gzip_step(data, size);
  return bzip2_step(data, size);
}

// Frames one after the other; an empty skippable frame is skipped whole.
std::size_t Decoder::zstd_step(const char* data, std::size_t size) {
  Codec& codec = *codec_;
  ZSTD_inBuffer in{data, size, 0};
  bool output_full = false;
  for (;;) {
    if (codec.zstd_frame_start) {
      in.pos += take_zstd_header(data + in.pos, size - in.pos, consumed_ + in.pos);
      if (failed_ || in.pos == in.size) break;
      if (codec.zstd_frame_start) continue;  // an empty skippable frame: the next one
    }
    const std::size_t read_before = in.pos;
    ZSTD_outBuffer out{out_.data(), out_.size(), 0};
    // An error loses the output of the call that meets it (a good block's, before a corrupt
    // one or a wrong checksum), so one call never both writes and reads much: after a full
    // output, a call with no new input only writes what is pending; otherwise a call gets
    // at most the bytes zstd asks for (one block).
    const std::size_t limit = output_full ? in.pos : std::min(size, in.pos + codec.zstd_hint);
    ZSTD_inBuffer piece{data, limit, in.pos};
    const std::size_t ret = ZSTD_decompressStream(codec.zstd, &out, &piece);
    in.pos = piece.pos;
    if (!ZSTD_isError(ret)) codec.zstd_hint = ret == 0 ? 1 : ret;
    if (ZSTD_isError(ret)) {
      fail_zstd(ret, consumed_ + in.pos);
      return size;
    }
    emit(out_.data(), out.pos);
    output_full = out.pos == out.size;
    // After a frame's last byte, a call with nothing to read hints at the next frame's
    // header (ret != 0) without starting one: only a call that read or wrote opens a frame.
    if (ret == 0) {
      codec.open = false;
      codec.zstd_frame_start = true;
      if (in.pos == in.size) break;
    } else if (in.pos > read_before || out.pos > 0) {
      codec.open = true;
    }
    if (in.pos == in.size && out.pos < out.size) break;
  }
  return size;
}

// Members one after the other (inflateReset between them).
std::size_t Decoder::gzip_step(const char* data, std::size_t size) {
  Codec& codec = *codec_;
  z_stream& z = codec.zlib;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
  z.avail_in = static_cast<uInt>(size);
  for (;;) {
    if (z.avail_in > 0) codec.open = true;
    z.next_out = reinterpret_cast<Bytef*>(out_.data());
    z.avail_out = static_cast<uInt>(out_.size());
    const int ret = inflate(&z, Z_NO_FLUSH);
    emit(out_.data(), out_.size() - z.avail_out);
    const std::uint64_t at = consumed_ + (size - z.avail_in);
    if (ret == Z_STREAM_END) {
      codec.open = false;
      inflateReset(&z);  // the next member, if any
      if (z.avail_in == 0) break;
      continue;
    }
    if (ret != Z_OK && ret != Z_BUF_ERROR) {
      fail(ErrorCode::kCorruptData, at,
           std::string("corrupt gzip data (") + (z.msg ? z.msg : "inflate error") + ")" +
               at_byte(at));
      return size;
    }
    if (z.avail_in == 0 && z.avail_out != 0) break;
  }
  return size;
}

// Streams one after the other (a fresh decompressor for each).
std::size_t Decoder::bzip2_step(const char* data, std::size_t size) {
  Codec& codec = *codec_;
  bz_stream& bz = codec.bzip;
  bz.next_in = const_cast<char*>(data);
  bz.avail_in = static_cast<unsigned>(size);
  for (;;) {
    if (bz.avail_in > 0) codec.open = true;
    bz.next_out = out_.data();
    bz.avail_out = static_cast<unsigned>(out_.size());
    const int ret = BZ2_bzDecompress(&bz);
    emit(out_.data(), out_.size() - bz.avail_out);
    const std::uint64_t at = consumed_ + (size - bz.avail_in);
    if (ret == BZ_STREAM_END) {
      codec.open = false;
      const char* rest = bz.next_in;
      const unsigned rest_size = bz.avail_in;
      BZ2_bzDecompressEnd(&bz);
      codec.bzip_ready = false;
      if (!codec.init_bzip()) {
        fail(ErrorCode::kCorruptData, at, "bzip2: out of memory");
        return size;
      }
      if (rest_size == 0) break;
      bz.next_in = const_cast<char*>(rest);
      bz.avail_in = rest_size;
      continue;
    }
    if (ret != BZ_OK) {
      fail(ErrorCode::kCorruptData, at,
           std::string("corrupt bzip2 data (") +
               (ret == BZ_DATA_ERROR_MAGIC ? "not a bzip2 stream"
                : ret == BZ_MEM_ERROR      ? "out of memory"
                                           : "data error") +
               ")" + at_byte(at));
      return size;
    }
    if (bz.avail_in == 0 && bz.avail_out != 0) break;
  }
  return size;
}

}  // namespace materialist::archive
