// The properties the fuzz targets check, one function per target. Each takes the fuzzer's bytes
// and returns nothing when the property holds, else what broke. The libFuzzer entry
// (fuzz_entry.cpp) aborts on a failure; the doctest suite (test_fuzz_findings.cpp) runs the same
// functions on every past finding in tests/fixtures/fuzz/<target>/ and on the seed fixtures.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace materialist::fuzz {

using Failure = std::optional<std::string>;
using Check = Failure (*)(std::string_view input);

// PGN parser: the same events (games, tags, moves, errors) for the whole input and for a
// chunking derived from the input's hash, 1-byte chunks included.
Failure check_pgn_chunking(std::string_view input);
// Parser + SAN + replay + filter: the report adds up (every game used, partial, skipped with a
// reason or filtered) and does not depend on the chunking.
Failure check_ingest(std::string_view input);
// The evaluation target's ingest: the same games and positions as the result target's, the
// annotated ones a part of them, counts that add up, and the same whatever the chunking.
Failure check_ingest_eval(std::string_view input);
// The [%eval] comment reader: a valid reading is an expected score in 0..1 (a mate 0 or 1), no
// more malformed commands than "[%eval" in the text, other commands around it change nothing.
Failure check_eval_comment(std::string_view input);
// SAN on legal positions reached by the input's bytes (standard or Chess960 start): every legal
// move's SAN and UCI resolve back to it, check/mate suffixes are right, and any text the input
// offers as SAN resolves to a legal move or not at all.
Failure check_san(std::string_view input);
// FEN: a parsed position writes a FEN that parses back to the same FEN; its legal moves play.
Failure check_fen(std::string_view input);
// The game filter's text form: what parses formats back to text that parses to the same filter.
Failure check_filter_text(std::string_view input);
// The share link's settings: what decodes encodes to JSON that decodes and re-encodes the same.
Failure check_settings(std::string_view input);
// `.mat` import: the same rows and bad lines whatever the chunking; rows + bad lines <= lines.
Failure check_mat_import(std::string_view input);
// Archive decoders, one target per format: the input gets the format's magic bytes if it lacks
// them; two chunkings must decode the same entries, bytes and error, within bounded buffers.
Failure check_archive_zstd(std::string_view input);
Failure check_archive_gzip(std::string_view input);
Failure check_archive_bzip2(std::string_view input);
Failure check_archive_zip(std::string_view input);
// The play module's text inputs: value sets, books (bundled form, EPD, PGN), a fit's JSON; what
// parses writes back to text that parses the same (check_play.cpp).
Failure check_play_text(std::string_view input);

struct NamedCheck {
  const char* name;  // the target's name: fuzz_<name>, tests/fixtures/fuzz/<name>/
  Check check;
};

inline constexpr NamedCheck kChecks[] = {
    {"pgn_chunking", check_pgn_chunking},
    {"ingest", check_ingest},
    {"san", check_san},
    {"fen", check_fen},
    {"filter_text", check_filter_text},
    {"settings", check_settings},
    {"mat_import", check_mat_import},
    {"archive_zstd", check_archive_zstd},
    {"archive_gzip", check_archive_gzip},
    {"archive_bzip2", check_archive_bzip2},
    {"archive_zip", check_archive_zip},
    {"play_text", check_play_text},
    {"ingest_eval", check_ingest_eval},
    {"eval_comment", check_eval_comment},
};

// Chunk sizes for `size` bytes drawn from the input's own hash (so a finding replays exactly):
// mostly small (1..16 bytes), sometimes large, always covering the input.
class Chunking {
 public:
  explicit Chunking(std::string_view input);
  // The next chunk's size, at most `remaining` (and at least 1 when remaining > 0).
  std::size_t next(std::size_t remaining);

 private:
  std::uint64_t state_;
};

// Feeds `input` through `feed(const char*, size_t)` in the chunks of `chunking`.
template <typename Feed>
void feed_in_chunks(std::string_view input, Chunking& chunking, Feed&& feed) {
  std::size_t at = 0;
  while (at < input.size()) {
    const std::size_t n = chunking.next(input.size() - at);
    feed(input.data() + at, n);
    at += n;
  }
}

}  // namespace materialist::fuzz
