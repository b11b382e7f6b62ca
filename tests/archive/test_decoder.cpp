#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "archive/decoder.h"
#include "test_util.h"

namespace {

using materialist::ErrorCode;
using materialist::archive::Decoder;
using materialist::archive::DecoderOptions;
using materialist::archive::Format;
using materialist::archive::sniff_format;
using materialist::testing::contains;
using materialist::testing::read_fixture;

struct Entry {
  std::string name;
  std::string bytes;
  bool ended = false;
};

// Records what a decoder gives: entries, skipped entries, the error, the largest chunk.
struct Recorder : materialist::archive::Sink {
  std::vector<Entry> entries;
  std::vector<std::string> skipped;
  std::optional<materialist::Error> error_seen;
  Format error_format = Format::kUnknown;  // the decoder's, once it finished
  std::uint64_t error_offset = 0;
  std::size_t largest_chunk = 0;
  std::uint64_t total = 0;
  bool keep_bytes = true;

  void begin_entry(std::string_view name) override {
    entries.push_back({std::string(name), "", false});
  }
  void data(const char* bytes, std::size_t size) override {
    REQUIRE(!entries.empty());
    largest_chunk = std::max(largest_chunk, size);
    total += size;
    if (keep_bytes) entries.back().bytes.append(bytes, size);
  }
  void end_entry() override { entries.back().ended = true; }
  void skipped_entry(std::string_view name, std::string_view reason) override {
    skipped.push_back(std::string(name) + ": " + std::string(reason));
  }
  void error(const materialist::Error& error) override {
    CHECK_FALSE(error_seen.has_value());  // at most once
    error_seen = error;
  }

  std::string all() const {
    std::string text;
    for (const Entry& entry : entries) text += entry.bytes;
    return text;
  }
};

// Feeds `input` to a decoder in `chunk`-byte pieces, then finishes.
Recorder decode(const std::string& input, std::size_t chunk, DecoderOptions options = {}) {
  Recorder recorder;
  Decoder decoder(recorder, options);
  for (std::size_t at = 0; at < input.size(); at += chunk) {
    if (!decoder.feed(input.data() + at, std::min(chunk, input.size() - at))) break;
  }
  decoder.finish();
  CHECK(decoder.finished());
  if (recorder.error_seen) {
    recorder.error_format = decoder.format();
    recorder.error_offset = decoder.error_offset();
  }
  return recorder;
}

const std::string& plain() {
  static const std::string text = read_fixture("pgn/lichess-100.pgn");
  return text;
}

// Decodes the fixture `name` in pieces of 1, 7, 4096 and 65536 bytes and whole, giving each
// result and the input to `check`.
template <typename Check>
void decode_in_every_chunking(const char* name, Check check) {
  const std::string input = read_fixture(name);
  REQUIRE(!input.empty());
  for (const std::size_t chunk : std::vector<std::size_t>{1, 7, 4096, 65536, input.size()}) {
    CAPTURE(name);
    CAPTURE(chunk);
    check(decode(input, chunk), input);
  }
}

}  // namespace

TEST_CASE("archive: formats are recognised by their magic bytes") {
  using namespace std::string_literals;
  CHECK(sniff_format("\x1F\x8B\x08\x00rest"s) == Format::kGzip);
  CHECK(sniff_format("\x28\xB5\x2F\xFD\x24\x00"s) == Format::kZstd);
  CHECK(sniff_format("BZh91AY&SY"s) == Format::kBzip2);
  CHECK(sniff_format("\xFD"
                     "7zXZ\x00\x00\x04"s) == Format::kXz);
  CHECK(sniff_format("7z\xBC\xAF\x27\x1C\x00\x04"s) == Format::k7z);
  CHECK(sniff_format("PK\x03\x04\x14\x00"s) == Format::kZip);
  CHECK(sniff_format("PK\x05\x06\x00\x00"s) == Format::kZip);
  CHECK(sniff_format("Rar!\x1A\x07\x00\xCF"s) == Format::kRar);
  CHECK(sniff_format("Rar!\x1A\x07\x01\x00"s) == Format::kRar);
  // PGN, .mat rows, a UTF-8 byte-order mark and near misses are plain.
  CHECK(sniff_format("[Event \"Rated Blitz game\"]\n") == Format::kPlain);
  CHECK(sniff_format(" 1  0  0  0  0  2\n") == Format::kPlain);
  CHECK(sniff_format("\xEF\xBB\xBF[Event \"x\"]") == Format::kPlain);
  CHECK(sniff_format("BZh") == Format::kPlain);
  CHECK(sniff_format("BZhx") == Format::kPlain);
  CHECK(sniff_format("PK") == Format::kPlain);
  CHECK(sniff_format("") == Format::kPlain);
  CHECK(std::string(materialist::archive::format_name(Format::kZstd)) == "zstd");
}

TEST_CASE("archive: every format gives exactly the plain file, in chunks of 1 byte to whole") {
  for (const char* name : {"archive/lichess-100.pgn.zst", "archive/lichess-100.pgn.gz",
                           "archive/lichess-100.pgn.bz2", "pgn/lichess-100.pgn"}) {
    decode_in_every_chunking(name, [](const Recorder& got, const std::string& /*input*/) {
      CHECK_FALSE(got.error_seen.has_value());
      REQUIRE(got.entries.size() == 1);
      CHECK(got.entries[0].name.empty());
      CHECK(got.entries[0].ended);
      CHECK(got.entries[0].bytes == plain());
      CHECK(got.largest_chunk <= DecoderOptions{}.chunk_bytes);
    });
  }
}

TEST_CASE("archive: a zip gives its .pgn entries in order and skips the others by name") {
  for (const char* name : {"archive/lichess-100-three.zip", "archive/lichess-100-streamed.zip"}) {
    decode_in_every_chunking(name, [](const Recorder& got, const std::string& /*input*/) {
      CHECK_FALSE(got.error_seen.has_value());
      if (got.error_seen) MESSAGE(got.error_seen->message);
      REQUIRE(got.entries.size() == 3);
      CHECK(got.entries[0].name == "games1.pgn");
      CHECK(got.entries[1].name == "games2.pgn");
      CHECK(got.entries[2].name == "games3.pgn");
      for (const Entry& entry : got.entries) CHECK(entry.ended);
      CHECK(got.all() == plain());
      CHECK(got.skipped == std::vector<std::string>{"README.txt: not a .pgn file"});
    });
  }
}

TEST_CASE("archive: a truncated stream keeps what came before and says where it ends") {
  decode_in_every_chunking(
      "archive/lichess-100-truncated.pgn.zst", [](const Recorder& got, const std::string& input) {
        REQUIRE(got.error_seen.has_value());
        CHECK(got.error_seen->code == ErrorCode::kTruncatedData);
        CHECK(got.error_format == Format::kZstd);
        CHECK(got.error_offset == input.size());
        CHECK(contains(got.error_seen->message, "truncated zstd data"));
        CHECK(contains(got.error_seen->message, "at byte " + std::to_string(input.size())));
        REQUIRE(got.entries.size() == 1);
        CHECK_FALSE(got.entries[0].ended);
        // A prefix of the plain file, more than the first frame's half.
        CHECK(got.entries[0].bytes.size() > plain().size() / 2);
        CHECK(got.entries[0].bytes.size() < plain().size());
        CHECK(plain().compare(0, got.entries[0].bytes.size(), got.entries[0].bytes) == 0);
      });
  // A zip cut inside its second entry: the first entry whole, an error naming the second.
  const std::string zip = read_fixture("archive/lichess-100-three.zip");
  const Recorder cut = decode(zip.substr(0, 80000), 4096);
  REQUIRE(cut.error_seen.has_value());
  CHECK(cut.error_seen->code == ErrorCode::kTruncatedData);
  CHECK(cut.error_offset == 80000);
  REQUIRE(cut.entries.size() >= 1);
  CHECK(cut.entries[0].ended);
}

TEST_CASE("archive: corrupt data is an error with its offset, after what decoded before it") {
  std::string gzip = read_fixture("archive/lichess-100.pgn.gz");
  REQUIRE(gzip.size() > 30000);
  for (std::size_t i = 20000; i < 20064; ++i) gzip[i] = static_cast<char>(gzip[i] ^ 0x5A);
  const Recorder got = decode(gzip, 4096);
  REQUIRE(got.error_seen.has_value());
  CHECK(got.error_seen->code == ErrorCode::kCorruptData);
  CHECK(got.error_format == Format::kGzip);
  CHECK(got.error_offset >= 20000);
  CHECK(got.error_offset <= gzip.size());
  CHECK(contains(got.error_seen->message, "corrupt gzip data"));
  REQUIRE(got.entries.size() == 1);
  const std::string& before = got.entries[0].bytes;
  CHECK(before.size() > 0);
  // What came out before the damage matches the plain file (deflate may have emitted a little
  // damaged data before noticing; the first 40 KB are well before it).
  CHECK(plain().compare(0, 40000, before, 0, 40000) == 0);

  std::string zstd = read_fixture("archive/lichess-100.pgn.zst");
  for (std::size_t i = 10000; i < 10100; ++i) zstd[i] = static_cast<char>(zstd[i] ^ 0x5A);
  const Recorder bad = decode(zstd, 65536);
  REQUIRE(bad.error_seen.has_value());
  CHECK(bad.error_seen->code == ErrorCode::kCorruptData);
  CHECK(contains(bad.error_seen->message, "corrupt zstd data"));
}

TEST_CASE("archive: xz, 7z and rar are refused, naming the format, before any output") {
  const Recorder xz = decode(read_fixture("archive/lichess-100.pgn.xz"), 4096);
  REQUIRE(xz.error_seen.has_value());
  CHECK(xz.error_seen->code == ErrorCode::kUnsupportedFormat);
  CHECK(xz.error_format == Format::kXz);
  CHECK(xz.error_offset == 0);
  CHECK(contains(xz.error_seen->message, "xz-compressed data is not supported"));
  CHECK(contains(xz.error_seen->message, "(xz -d)"));
  CHECK(xz.entries.empty());

  const Recorder seven = decode(read_fixture("archive/renamed-7z.pgn"), 3);
  REQUIRE(seven.error_seen.has_value());
  CHECK(seven.error_format == Format::k7z);
  CHECK(contains(seven.error_seen->message, "7z archive is not supported"));
  CHECK(seven.entries.empty());

  const Recorder rar = decode(std::string("Rar!\x1A\x07\x01\x00more", 12), 1);
  REQUIRE(rar.error_seen.has_value());
  CHECK(contains(rar.error_seen->message, "rar archive is not supported"));
}

TEST_CASE("archive: a decompression bomb is a long stream through bounded buffers") {
  // 200 MB of zeros in a 6 KB zstd file.
  const std::string input = read_fixture("archive/zeros-200MB.zst");
  REQUIRE(input.size() < 10000);
  Recorder recorder;
  recorder.keep_bytes = false;
  Decoder decoder(recorder);
  for (std::size_t at = 0; at < input.size(); at += 1000) {
    REQUIRE(decoder.feed(input.data() + at, std::min<std::size_t>(1000, input.size() - at)));
  }
  decoder.finish();
  CHECK_FALSE(recorder.error_seen.has_value());
  CHECK(recorder.total == 200000000u);
  CHECK(decoder.output_bytes() == 200000000u);
  CHECK(recorder.largest_chunk <= DecoderOptions{}.chunk_bytes);
  // The decoder's own buffers: the output chunk and a few sniffed bytes, never the stream.
  CHECK(decoder.peak_buffer_bytes() <= DecoderOptions{}.chunk_bytes + 1024);
  CHECK(decoder.buffer_bytes() <= DecoderOptions{}.chunk_bytes + 1024);
}

TEST_CASE("archive: a zstd frame that ends exactly at an output chunk's end is complete") {
  // 1 MiB then 64 KiB of zeros, two frames: both end where a 64 KiB output chunk is full.
  const std::string input = read_fixture("archive/zeros-1MiB-64KiB.zst");
  for (const std::size_t piece :
       {std::size_t{1}, std::size_t{7}, std::size_t{4096}, input.size()}) {
    Recorder recorder;
    recorder.keep_bytes = false;
    Decoder decoder(recorder);
    for (std::size_t at = 0; at < input.size(); at += piece) {
      REQUIRE(decoder.feed(input.data() + at, std::min(piece, input.size() - at)));
    }
    decoder.finish();
    CHECK_MESSAGE(!recorder.error_seen.has_value(), "in pieces of " << piece << " bytes");
    CHECK(recorder.total == (1u << 20) + (1u << 16));
  }
}

TEST_CASE("archive: each zstd frame's header is checked whole, whatever the chunking") {
  // Found by fuzzing (tests/fixtures/fuzz/archive_zstd): libzstd took a next frame whose magic
  // came split across calls, 28 then 25 B5 2F FD, as a legacy v0.5 frame (it checks the legacy
  // magics on the call's input), but rejected it when the 25 came alone.
  const std::string frame = read_fixture("archive/lichess-100.pgn.zst");
  const std::string skippable = std::string("\x50\x2a\x4d\x18\x03\x00\x00\x00", 8) + "abc";
  const std::string legacy = std::string("\x28\x25\xb5\x2f\xfd\x00\x50\x4b\x50\x0d", 10);
  for (const std::size_t chunk : std::vector<std::size_t>{1, 2, 3, 5, 4096, 1 << 20}) {
    CAPTURE(chunk);
    // A frame, a skippable frame, the frame again: two copies of the games.
    const Recorder good = decode(frame + skippable + frame, chunk);
    CHECK_FALSE(good.error_seen.has_value());
    CHECK(good.all() == plain() + plain());
    // A frame, then bytes that are no frame: the games, then an error at the bad frame's start.
    const Recorder bad = decode(frame + legacy, chunk);
    REQUIRE(bad.error_seen.has_value());
    CHECK(bad.error_seen->code == ErrorCode::kCorruptData);
    CHECK(bad.error_offset == frame.size());
    CHECK(contains(bad.error_seen->message, "no zstd frame starts here"));
    CHECK(bad.all() == plain());
    // A frame, then a header whose descriptor sets the reserved bit: libzstd rejected it when the
    // header came in pieces and took it with the bytes after it (fuzzing); now every chunking
    // rejects it, at the frame's start.
    const std::string reserved_bit =
        std::string("\x28\xb5\x2f\xfd\xfd\x37\x7a\x9e\x27\xb5\x2f\xfd\xfd\x58\x5a\x00", 16);
    const Recorder header = decode(frame + reserved_bit, chunk);
    REQUIRE(header.error_seen.has_value());
    CHECK(header.error_seen->code == ErrorCode::kCorruptData);
    CHECK(header.error_offset == frame.size());
    CHECK(contains(header.error_seen->message, "Unsupported frame parameter"));
    CHECK(header.all() == plain());
    // A frame, then the start of a magic: a truncated frame.
    const Recorder cut = decode(frame + "\x28\xb5", chunk);
    REQUIRE(cut.error_seen.has_value());
    CHECK(cut.error_seen->code == ErrorCode::kTruncatedData);
    CHECK(cut.all() == plain());
  }
}

TEST_CASE("archive: a zstd window above the accepted one is unsupported, named in the message") {
  // The fixture's frames have zstd's window of 8 MiB (2^23 bytes, `zstd -lv`).
  const std::string input = read_fixture("archive/zeros-1MiB-64KiB.zst");
  DecoderOptions options;
  options.zstd_window_log_max = 22;
  const Recorder refused = decode(input, 4096, options);
  REQUIRE(refused.error_seen.has_value());
  CHECK(refused.error_seen->code == ErrorCode::kUnsupportedFormat);
  CHECK(contains(refused.error_seen->message, "window larger than 2^22 bytes"));
  CHECK(refused.total == 0);
  options.zstd_window_log_max = 23;
  const Recorder accepted = decode(input, 4096, options);
  CHECK_FALSE(accepted.error_seen.has_value());
  CHECK(accepted.total == (1u << 20) + (1u << 16));
}

TEST_CASE("archive: small chunks, empty and tiny inputs") {
  // Output chunks are bounded by the option.
  const Recorder small = decode(read_fixture("archive/lichess-100.pgn.bz2"), 65536, {1000});
  CHECK(small.largest_chunk <= 1000);
  CHECK(small.all() == plain());
  // Empty input: one empty plain entry.
  const Recorder empty = decode("", 1);
  REQUIRE(empty.entries.size() == 1);
  CHECK(empty.entries[0].ended);
  CHECK(empty.entries[0].bytes.empty());
  // Fewer bytes than the sniff: still passed through.
  const Recorder tiny = decode("1-0\n", 1);
  REQUIRE(tiny.entries.size() == 1);
  CHECK(tiny.entries[0].bytes == "1-0\n");
  // An empty zip archive: no entry, no error.
  const Recorder no_entries = decode(std::string("PK\x05\x06", 4) + std::string(18, '\0'), 5);
  CHECK(no_entries.entries.empty());
  CHECK_FALSE(no_entries.error_seen.has_value());
  // A zip whose first entry is zip64 or encrypted says so.
  std::string zip = read_fixture("archive/lichess-100-three.zip");
  std::string encrypted = zip;
  encrypted[6] = static_cast<char>(encrypted[6] | 1);
  const Recorder locked = decode(encrypted, 4096);
  REQUIRE(locked.error_seen.has_value());
  CHECK(locked.error_seen->code == ErrorCode::kUnsupportedFormat);
  CHECK(contains(locked.error_seen->message, "encrypted zip entries are not supported"));
  std::string zip64 = zip;
  for (int i = 18; i < 26; ++i) zip64[i] = '\xFF';
  const Recorder big = decode(zip64, 4096);
  REQUIRE(big.error_seen.has_value());
  CHECK(contains(big.error_seen->message, "zip64 archives are not supported"));
}

TEST_CASE(
    "archive: a damaged byte anywhere decodes or says why, never more than the input allows") {
  for (const char* name :
       {"archive/lichess-100.pgn.zst", "archive/lichess-100.pgn.gz", "archive/lichess-100.pgn.bz2",
        "archive/lichess-100-three.zip", "archive/lichess-100-streamed.zip"}) {
    const std::string input = read_fixture(name);
    REQUIRE(!input.empty());
    for (std::size_t k = 0; k < 40; ++k) {
      const std::size_t at = (k * 7919 + k * k * 104729) % input.size();
      std::string damaged = input;
      damaged[at] = static_cast<char>(damaged[at] ^ (1 << (k % 8)));
      CAPTURE(name);
      CAPTURE(at);
      const Recorder got = decode(damaged, 8192);
      if (got.error_seen) {
        CHECK(got.error_offset <= damaged.size());
        CHECK(contains(got.error_seen->message, "at byte"));
      }
      CHECK(got.largest_chunk <= DecoderOptions{}.chunk_bytes);
    }
    // Cut anywhere: a truncation error (or, cut exactly between members, none), never a crash.
    for (std::size_t k = 1; k < 20; ++k) {
      const Recorder got = decode(input.substr(0, input.size() * k / 20), 4096);
      if (got.error_seen) CHECK(got.error_offset <= input.size());
    }
  }
}

TEST_CASE("archive: a wrong zstd checksum comes after every byte of the frame, in any chunking") {
  // Found by fuzzing (tests/fixtures/fuzz/archive_zstd): a call that wrote a frame's last bytes
  // and then read its wrong checksum lost those bytes, so what came out depended on the chunking.
  std::string zstd = read_fixture("archive/lichess-100.pgn.zst");
  REQUIRE(zstd.size() > 4);
  zstd.back() = static_cast<char>(zstd.back() ^ 1);  // the frame's checksum ends the file
  for (const std::size_t chunk : std::vector<std::size_t>{1, 7, 4096, zstd.size()}) {
    CAPTURE(chunk);
    const Recorder got = decode(zstd, chunk);
    REQUIRE(got.error_seen.has_value());
    CHECK(got.error_seen->code == ErrorCode::kCorruptData);
    CHECK(got.all() == plain());
  }
}
