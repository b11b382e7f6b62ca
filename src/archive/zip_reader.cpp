// The zip reader of Decoder: local header, data (stored or deflate, or skipped), optional data
// descriptor, one entry after another; the central directory ends the reading (decoder.h says
// what is read and what is refused).
#include <algorithm>
#include <string>
#include <string_view>

#include "archive/decoder.h"
#include "archive/decoder_internal.h"
#include "core/text.h"

namespace materialist::archive {

namespace {

using detail::at_byte;
using detail::le16;
using detail::le32;

constexpr std::uint32_t kZipLocalHeader = 0x04034b50;    // PK\3\4
constexpr std::uint32_t kZipCentralHeader = 0x02014b50;  // PK\1\2
constexpr std::uint32_t kZipEnd = 0x06054b50;            // PK\5\6
constexpr std::uint32_t kZip64End = 0x06064b50;          // PK\6\6
constexpr std::uint32_t kZipDescriptor = 0x08074b50;     // PK\7\8
constexpr std::size_t kZipLocalHeaderBytes = 30;

bool ends_with_pgn(std::string_view name) {
  if (name.size() < 4) return false;
  std::string tail(name.substr(name.size() - 4));
  for (char& c : tail) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return tail == ".pgn";
}

const char* zip_method_name(std::uint32_t method) {
  switch (method) {
    case 1:
      return "shrink";
    case 6:
      return "implode";
    case 9:
      return "deflate64";
    case 12:
      return "bzip2";
    case 14:
      return "lzma";
    case 93:
      return "zstd";
    case 95:
      return "xz";
    case 99:
      return "AES encryption";
    default:
      return "unknown";
  }
}

}  // namespace

std::size_t Decoder::zip_step(const char* data, std::size_t size) {
  switch (zip_state_) {
    case ZipState::kHeader:
      return zip_header_step(data, size);
    case ZipState::kData:
      return zip_data_step(data, size);
    case ZipState::kDescriptor:
      return zip_descriptor_step(data, size);
    case ZipState::kDone:
      return size;  // the central directory and what follows it
  }
  return size;
}

std::size_t Decoder::zip_header_step(const char* data, std::size_t size) {
  if (zip_header_.empty()) zip_header_offset_ = consumed_;
  std::size_t need = 4;
  if (zip_header_.size() >= 4 && le32(zip_header_, 0) == kZipLocalHeader) {
    need = kZipLocalHeaderBytes;
    if (zip_header_.size() >= kZipLocalHeaderBytes) {
      need += le16(zip_header_, 26) + le16(zip_header_, 28);
    }
  }
  const std::size_t take = std::min(size, need - zip_header_.size());
  zip_header_.append(data, take);
  if (zip_header_.size() < need) return take;

  const std::uint32_t signature = le32(zip_header_, 0);
  if (signature == kZipCentralHeader || signature == kZipEnd || signature == kZip64End) {
    zip_state_ = ZipState::kDone;
    zip_header_.clear();
    return take;
  }
  if (signature == kZipDescriptor && !zip_any_header_) {  // a spanned archive's marker
    zip_header_.clear();
    return take;
  }
  if (signature != kZipLocalHeader) {
    fail(ErrorCode::kCorruptData, zip_header_offset_,
         "corrupt zip archive: no local file header" + at_byte(zip_header_offset_));
    return take;
  }
  if (zip_header_.size() < kZipLocalHeaderBytes) return take;
  const std::size_t name_size = le16(zip_header_, 26);
  const std::size_t extra_size = le16(zip_header_, 28);
  if (zip_header_.size() < kZipLocalHeaderBytes + name_size + extra_size) return take;

  start_zip_entry();  // the whole local header is here
  return take;
}

// A local header read whole: the entry it opens, read (a .pgn entry) or skipped.
void Decoder::start_zip_entry() {
  zip_any_header_ = true;
  const std::string_view header(zip_header_);
  const std::size_t name_size = le16(header, 26);
  const std::size_t extra_size = le16(header, 28);
  const std::uint32_t flags = le16(header, 6);
  const std::uint32_t method = le16(header, 8);
  const std::uint32_t crc = le32(header, 14);
  const std::uint32_t compressed = le32(header, 18);
  const std::uint32_t uncompressed = le32(header, 22);
  zip_name_ = printable(header.substr(kZipLocalHeaderBytes, name_size));
  const std::string_view extra = header.substr(kZipLocalHeaderBytes + name_size, extra_size);
  bool zip64 = compressed == 0xFFFFFFFFu || uncompressed == 0xFFFFFFFFu;
  for (std::size_t at = 0; at + 4 <= extra.size(); at += 4 + le16(extra, at + 2)) {
    if (le16(extra, at) == 0x0001) zip64 = true;
  }
  const std::uint64_t at = zip_header_offset_;
  const std::string entry = " (entry " + zip_name_ + at_byte(at) + ")";
  if (zip64) {
    fail(ErrorCode::kUnsupportedFormat, at, "zip64 archives are not supported" + entry);
    return;
  }
  const bool encrypted = (flags & 1u) != 0;
  zip_descriptor_ = (flags & 8u) != 0;
  const bool directory = !zip_name_.empty() && zip_name_.back() == '/';
  zip_read_ = !directory && ends_with_pgn(zip_name_);
  zip_remaining_ = compressed;
  zip_crc_expected_ = crc;
  zip_crc_ = static_cast<std::uint32_t>(crc32(0L, Z_NULL, 0));
  zip_header_.clear();

  if (zip_read_) {
    if (encrypted) {
      fail(ErrorCode::kUnsupportedFormat, at, "encrypted zip entries are not supported" + entry);
      return;
    }
    if (method != 0 && method != 8) {
      fail(ErrorCode::kUnsupportedFormat, at,
           "zip compression method " + std::to_string(method) + " (" + zip_method_name(method) +
               ") is not supported: only stored and deflate" + entry);
      return;
    }
    if (method == 0 && zip_descriptor_) {
      fail(ErrorCode::kUnsupportedFormat, at,
           "stored zip entries with a data descriptor are not supported" + entry);
      return;
    }
    zip_inflate_ = method == 8;
    begin_entry(zip_name_);
  } else {
    sink_.skipped_entry(zip_name_, directory ? "a directory" : "not a .pgn file");
    if (zip_descriptor_ && (method != 8 || encrypted)) {
      fail(ErrorCode::kUnsupportedFormat, at,
           "zip entries of unknown size that are not deflate-compressed cannot be skipped" + entry);
      return;
    }
    zip_inflate_ = zip_descriptor_;  // its end is found by inflating it; else skipped by size
  }
  if (zip_inflate_) inflateReset(&codec_->zlib);
  zip_state_ = ZipState::kData;
  if (!zip_inflate_ && zip_remaining_ == 0) zip_entry_done(zip_crc_expected_);
}

std::size_t Decoder::zip_data_step(const char* data, std::size_t size) {
  const std::size_t avail =
      zip_descriptor_ ? size
                      : static_cast<std::size_t>(std::min<std::uint64_t>(size, zip_remaining_));
  if (!zip_inflate_) {  // stored, or skipped by its size
    if (zip_read_) {
      zip_crc_ = static_cast<std::uint32_t>(
          crc32(zip_crc_, reinterpret_cast<const Bytef*>(data), static_cast<uInt>(avail)));
      emit(data, avail);
    }
    zip_remaining_ -= avail;
    if (zip_remaining_ == 0) zip_entry_done(zip_crc_expected_);
    return avail;
  }
  z_stream& z = codec_->zlib;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
  z.avail_in = static_cast<uInt>(avail);
  for (;;) {
    z.next_out = reinterpret_cast<Bytef*>(out_.data());
    z.avail_out = static_cast<uInt>(out_.size());
    const int ret = inflate(&z, Z_NO_FLUSH);
    const std::size_t produced = out_.size() - z.avail_out;
    if (zip_read_ && produced > 0) {
      zip_crc_ = static_cast<std::uint32_t>(crc32(
          zip_crc_, reinterpret_cast<const Bytef*>(out_.data()), static_cast<uInt>(produced)));
      emit(out_.data(), produced);
    }
    const std::size_t used = avail - z.avail_in;
    if (ret == Z_STREAM_END) {
      if (!zip_descriptor_) {
        zip_remaining_ -= used;
        if (zip_remaining_ != 0) {
          fail(ErrorCode::kCorruptData, consumed_ + used,
               "corrupt zip entry " + zip_name_ + ": its deflate data ends before its size" +
                   at_byte(consumed_ + used));
          return used;
        }
        zip_entry_done(zip_crc_expected_);
      } else {
        zip_state_ = ZipState::kDescriptor;
      }
      return used;
    }
    if (ret != Z_OK && ret != Z_BUF_ERROR) {
      fail(ErrorCode::kCorruptData, consumed_ + used,
           "corrupt zip entry " + zip_name_ + " (" + (z.msg ? z.msg : "inflate error") + ")" +
               at_byte(consumed_ + used));
      return size;
    }
    if (z.avail_in == 0 && z.avail_out != 0) break;
  }
  if (!zip_descriptor_) {
    zip_remaining_ -= avail;
    if (zip_remaining_ == 0) {
      fail(ErrorCode::kCorruptData, consumed_ + avail,
           "corrupt zip entry " + zip_name_ + ": its deflate data goes on past its size" +
               at_byte(consumed_ + avail));
    }
  }
  return avail;
}

std::size_t Decoder::zip_descriptor_step(const char* data, std::size_t size) {
  std::size_t need = 12;
  if (zip_header_.size() >= 4 && le32(zip_header_, 0) == kZipDescriptor) need = 16;
  const std::size_t take = std::min(size, (zip_header_.size() < 4 ? 4 : need) - zip_header_.size());
  zip_header_.append(data, take);
  if (zip_header_.size() < 4) return take;
  need = le32(zip_header_, 0) == kZipDescriptor ? 16 : 12;
  if (zip_header_.size() < need) return take;
  const std::uint32_t crc = le32(zip_header_, need == 16 ? 4 : 0);
  zip_header_.clear();
  zip_entry_done(crc);
  return take;
}

void Decoder::zip_entry_done(std::uint32_t crc_expected) {
  zip_state_ = ZipState::kHeader;
  zip_header_.clear();
  if (!zip_read_) {
    zip_name_.clear();
    return;
  }
  if (zip_crc_ != crc_expected) {
    fail(ErrorCode::kCorruptData, consumed_,
         "corrupt zip entry " + zip_name_ + ": CRC-32 mismatch" + at_byte(consumed_));
    return;
  }
  zip_name_.clear();
  end_entry();
}

}  // namespace materialist::archive
