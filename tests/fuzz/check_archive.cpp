// The archive decoders' fuzz properties (fuzz_checks.h).
#include <cstring>
#include <string>
#include <vector>

#include "archive/decoder.h"
#include "fuzz_checks.h"

namespace materialist::fuzz {

namespace {

// Decompressed bytes past which a read stops (a bomb is only slow, not a finding).
constexpr std::uint64_t kMaxOutput = 4 << 20;
// The decoder's own buffers (decoder.h): the output chunk, the sniffed head, one local header.
constexpr std::size_t kMaxBuffers = (64 << 10) + 64 + 30 + 2 * 65535;

const char* kind_name(archive::ErrorKind kind) {
  switch (kind) {
    case archive::ErrorKind::kUnsupported:
      return "unsupported";
    case archive::ErrorKind::kCorrupt:
      return "corrupt";
    case archive::ErrorKind::kTruncated:
      return "truncated";
  }
  return "?";
}

// Writes what the decoder reports as text lines; entries' bytes as a length and an FNV digest.
class Transcript : public archive::Sink {
 public:
  std::vector<std::string> lines;
  std::uint64_t output = 0;

  void begin_entry(std::string_view name) override {
    lines.push_back("begin " + std::string(name));
    size_ = 0;
    digest_ = 14695981039346656037ull;
    pending_ = 0;
    pending_bytes_ = 0;
  }
  void data(const char* bytes, std::size_t size) override {
    if (size == 0) lines.push_back("empty data() call");
    // FNV-1a over the stream's 8-byte words (a bomb's megabytes stay cheap); a word split
    // between two calls is completed from the next, so the digest ignores how data() splits.
    std::size_t i = 0;
    for (; i < size && pending_bytes_ != 0; ++i) take_byte(bytes[i]);
    for (; i + 8 <= size; i += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, bytes + i, 8);
      digest_ = (digest_ ^ word) * 1099511628211ull;
    }
    for (; i < size; ++i) take_byte(bytes[i]);
    size_ += size;
    output += size;
  }
  void end_entry() override { lines.push_back("end " + totals()); }
  void skipped_entry(std::string_view name, std::string_view reason) override {
    lines.push_back("skipped " + std::string(name) + ": " + std::string(reason));
  }
  // The kind, not the message: where a library notices a problem, and which problem it names
  // first ("Dictionary mismatch" or "Data corruption detected"), depends on how much it was given.
  void error(const archive::DecodeError& error) override {
    lines.push_back("error after " + totals() + ": " + kind_name(error.kind) + " " +
                    archive::format_name(error.format));
  }

 private:
  void take_byte(char byte) {
    pending_ |= static_cast<std::uint64_t>(static_cast<unsigned char>(byte))
                << (8 * pending_bytes_);
    if (++pending_bytes_ == 8) {
      digest_ = (digest_ ^ pending_) * 1099511628211ull;
      pending_ = 0;
      pending_bytes_ = 0;
    }
  }
  std::string totals() const {
    return std::to_string(size_) + "/" + std::to_string(digest_) + "+" + std::to_string(pending_);
  }
  std::uint64_t size_ = 0;
  std::uint64_t digest_ = 0;
  std::uint64_t pending_ = 0;  // the last word's first bytes
  int pending_bytes_ = 0;
};

struct Decoded {
  std::vector<std::string> lines;
  bool capped = false;  // stopped at kMaxOutput
  std::size_t peak_buffers = 0;
  archive::Format format = archive::Format::kUnknown;
};

template <typename NextSize>
Decoded decode(std::string_view input, NextSize&& next_size) {
  Transcript transcript;
  archive::DecoderOptions options;
  options.chunk_bytes = 1000;  // several data() calls per library step
  archive::Decoder decoder(transcript, options);
  Decoded decoded;
  std::size_t at = 0;
  while (at < input.size() && transcript.output <= kMaxOutput) {
    const std::size_t n = next_size(input.size() - at);
    if (!decoder.feed(input.data() + at, n)) break;
    at += n;
  }
  decoded.capped = transcript.output > kMaxOutput;
  if (!decoded.capped) decoder.finish();
  decoded.lines = std::move(transcript.lines);
  decoded.peak_buffers = decoder.peak_buffer_bytes();
  decoded.format = decoder.format();
  return decoded;
}

Failure check_archive(std::string_view input, std::string_view magic, archive::Format format) {
  std::string bytes(input);
  if (archive::sniff_format(bytes) != format) bytes.insert(0, magic);
  const Decoded big = decode(bytes, [](std::size_t remaining) {
    return remaining < 4096 ? remaining : std::size_t{4096};
  });
  Chunking chunking(input);
  const Decoded small =
      decode(bytes, [&](std::size_t remaining) { return chunking.next(remaining); });
  if (big.format != format) return std::string("not recognised as ") + archive::format_name(format);
  if (big.peak_buffers > kMaxBuffers || small.peak_buffers > kMaxBuffers)
    return "decoder buffers grew to " +
           std::to_string(std::max(big.peak_buffers, small.peak_buffers));
  if (big.capped || small.capped) return std::nullopt;
  for (std::size_t i = 0; i < big.lines.size() || i < small.lines.size(); ++i) {
    const std::string a = i < big.lines.size() ? big.lines[i] : "<none>";
    const std::string b = i < small.lines.size() ? small.lines[i] : "<none>";
    if (a != b)
      return "event " + std::to_string(i) + ": 4 KiB chunks '" + a + "', small '" + b + "'";
  }
  return std::nullopt;
}

}  // namespace

Failure check_archive_zstd(std::string_view input) {
  return check_archive(input, std::string_view("\x28\xb5\x2f\xfd", 4), archive::Format::kZstd);
}
Failure check_archive_gzip(std::string_view input) {
  return check_archive(input, std::string_view("\x1f\x8b\x08", 3), archive::Format::kGzip);
}
Failure check_archive_bzip2(std::string_view input) {
  return check_archive(input, "BZh9", archive::Format::kBzip2);
}
Failure check_archive_zip(std::string_view input) {
  return check_archive(input, std::string_view("PK\x03\x04", 4), archive::Format::kZip);
}

}  // namespace materialist::fuzz
