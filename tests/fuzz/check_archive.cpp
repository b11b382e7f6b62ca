// The archive decoders' fuzz properties (fuzz_checks.h).
#include <functional>
#include <string>
#include <vector>

#include "archive/decoder.h"
#include "fuzz_checks.h"

namespace materialist::fuzz {

namespace {

// Decompressed bytes past which a read stops (a bomb is only slow, not a finding); above 3 of
// the decoder's 64 KiB output chunks, and small enough that the run-length bombs a mutation makes
// of a bzip2 block do not take most of the time.
constexpr std::uint64_t kMaxOutput = 200 << 10;
// The decoder's own buffers (decoder.h): the output chunk, the sniffed head, one local header.
constexpr std::size_t kMaxBuffers = (64 << 10) + 64 + 30 + 2 * 65535;

// Writes what the decoder reports as text lines (an ended entry's bytes as a length and a hash);
// keeps the bytes of an entry an error cut short.
class Transcript : public archive::Sink {
 public:
  std::vector<std::string> lines;
  std::string cut_entry;  // what the entry open at the error gave before it
  std::uint64_t output = 0;

  void begin_entry(std::string_view name) override {
    lines.push_back("begin " + std::string(name));
    entry_.clear();
  }
  void data(const char* bytes, std::size_t size) override {
    if (size == 0) lines.push_back("empty data() call");
    // Past the cap the result is not compared: counting is enough (one feed of a bzip2 block
    // can give megabytes).
    if (output <= kMaxOutput) entry_.append(bytes, size);
    output += size;
  }
  void end_entry() override {
    lines.push_back("end " + std::to_string(entry_.size()) + "/" +
                    std::to_string(std::hash<std::string>{}(entry_)));
    entry_.clear();
  }
  void skipped_entry(std::string_view name, std::string_view reason) override {
    lines.push_back("skipped " + std::string(name) + ": " + std::string(reason));
  }
  // The code, not the message: where a library notices a problem, and which problem it names
  // first ("Dictionary mismatch" or "Data corruption detected"), depends on how much it was given.
  // (The format is the decoder's, Decoded::format.)
  void error(const Error& error) override {
    lines.push_back(std::string("error: ") + error_code_name(error.code));
    cut_entry = std::move(entry_);
  }

 private:
  std::string entry_;  // the open entry's bytes (at most kMaxOutput and one chunk)
};

struct Decoded {
  std::vector<std::string> lines;
  std::string cut_entry;
  bool capped = false;  // stopped at kMaxOutput
  std::size_t peak_buffers = 0;
  archive::Format format = archive::Format::kUnknown;
};

template <typename NextSize>
Decoded decode(std::string_view input, NextSize&& next_size) {
  Transcript transcript;
  archive::DecoderOptions options;
  options.chunk_bytes = 1000;  // several data() calls per library step
  // A 1 MiB window at most: a header asking for more is an error like any other, and a large
  // window's pages (touched for every input) made this target 100 times slower than the others.
  options.zstd_window_log_max = 20;
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
  decoded.cut_entry = std::move(transcript.cut_entry);
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
  // Before an error, one chunking may give a few bytes more of the damaged block: zstd streams a
  // raw block's bytes as they arrive and rejects, with the error, the piece that crosses the
  // frame's declared size. What both gave must be the same bytes.
  const std::string& a = big.cut_entry;
  const std::string& b = small.cut_entry;
  if (a.compare(0, b.size(), b, 0, a.size()) != 0)
    return "before the error: " + std::to_string(a.size()) + " bytes (4 KiB chunks) and " +
           std::to_string(b.size()) + " (small) differ where both have bytes";
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
  // Block size 1 (100 kB) whatever the header says: a block of level 9 (3.6 MB of tables, up
  // to 900 kB of symbols and megabytes of run-length output per input) made this target 100
  // times slower than the others, all of it inside libbz2.
  std::string bytes(input);
  if (bytes.size() >= 4 && bytes.compare(0, 3, "BZh") == 0) bytes[3] = '1';
  return check_archive(bytes, "BZh1", archive::Format::kBzip2);
}
Failure check_archive_zip(std::string_view input) {
  return check_archive(input, std::string_view("PK\x03\x04", 4), archive::Format::kZip);
}

}  // namespace materialist::fuzz
