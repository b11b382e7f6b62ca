// The game chunker: chunks end before game starts, the same whatever the fed pieces, and their
// parsers' line counts added up give the line numbers of a sequential read.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "pgn/game_chunker.h"
#include "pgn/recorder.h"

namespace materialist::pgn {
namespace {

using testing::Lcg;
using testing::read_fixture;

std::vector<GameChunk> chunks_of(const std::string& text, GameChunkerOptions options,
                                 std::size_t piece) {
  GameChunker chunker(options);
  std::vector<GameChunk> chunks;
  const auto drain = [&] {
    while (auto chunk = chunker.next()) chunks.push_back(std::move(*chunk));
  };
  if (piece == 0) piece = std::max<std::size_t>(text.size(), 1);
  for (std::size_t at = 0; at < text.size(); at += piece) {
    chunker.feed(text.data() + at, std::min(piece, text.size() - at));
    drain();
  }
  chunker.finish();
  drain();
  return chunks;
}

// Every chunk is where it says, and they add up to the text.
void check_chunks(const std::string& text, const std::vector<GameChunk>& chunks) {
  std::string joined;
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    CAPTURE(k);
    const GameChunk& chunk = chunks[k];
    CHECK(!chunk.bytes.empty());
    CHECK(chunk.offset == joined.size());
    joined += chunk.bytes;
    const bool last = k + 1 == chunks.size();
    CHECK(chunk.ends_stream == last);
    if (chunk.ends_before_game_start) {
      CHECK(!last);
      CHECK(text.compare(joined.size(), kGameStart.size(), kGameStart) == 0);
      CHECK(joined.back() == '\n');
    }
  }
  CHECK(joined == text);
}

TEST_CASE("pgn/chunker: chunks end before '[Event \"' lines, the same whatever the pieces fed") {
  const std::string text = read_fixture("pgn/OpenRating.pgn");
  REQUIRE(text.size() == 2818577);
  GameChunkerOptions options;
  options.target_bytes = 100'000;
  const std::vector<GameChunk> whole = chunks_of(text, options, 0);
  REQUIRE(whole.size() > 20);
  check_chunks(text, whole);
  for (std::size_t k = 0; k + 1 < whole.size(); ++k) {
    CHECK(whole[k].ends_before_game_start);
    CHECK(whole[k].bytes.size() >= options.target_bytes);
    CHECK(whole[k + 1].bytes.rfind(std::string(kGameStart), 0) == 0);
  }
  CHECK_FALSE(whole.back().ends_before_game_start);
  for (std::size_t piece : {1, 2, 7, 8, 9, 4096, 65536}) {
    CAPTURE(piece);
    const std::vector<GameChunk> split = chunks_of(text, options, piece);
    REQUIRE(split.size() == whole.size());
    for (std::size_t k = 0; k < split.size(); ++k) {
      CHECK(split[k].bytes == whole[k].bytes);
      CHECK(split[k].ends_before_game_start == whole[k].ends_before_game_start);
    }
  }
}

// Each chunk read by a parser of its own, its line numbers shifted by the line breaks the parsers
// of the chunks before it read (Parser::line_breaks, as learn::FilePartsMerger adds them up).
std::vector<std::string> begin_lines_read_in_chunks(const std::vector<GameChunk>& chunks) {
  std::vector<std::string> lines;
  std::uint64_t lines_before = 0;
  for (const GameChunk& chunk : chunks) {
    testing::Recorder recorder;
    Parser parser(recorder);
    parser.feed(chunk.bytes.data(), chunk.bytes.size());
    parser.finish();
    for (const std::string& event : recorder.events) {
      if (event.rfind("begin ", 0) != 0) continue;
      const std::uint64_t line = std::stoull(event.substr(6, event.find(':') - 6));
      lines.push_back(std::to_string(line + lines_before));
    }
    lines_before += parser.line_breaks();
  }
  return lines;
}

std::vector<std::string> begin_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (const std::string& event : testing::events_of(text)) {
    if (event.rfind("begin ", 0) == 0) lines.push_back(event.substr(6, event.find(':') - 6));
  }
  return lines;
}

TEST_CASE("pgn/chunker: chunks' parsers and their line counts give the sequential line numbers") {
  const std::string text = read_fixture("pgn/lichess-100.pgn");
  GameChunkerOptions options;
  options.target_bytes = 5000;
  const std::vector<GameChunk> chunks = chunks_of(text, options, 333);
  REQUIRE(chunks.size() > 10);
  const std::vector<std::string> sequential = begin_lines(text);
  CHECK(sequential.size() == 100);
  CHECK(begin_lines_read_in_chunks(chunks) == sequential);
}

TEST_CASE("pgn/chunker: CRLF text and a blank line as \\n\\r\\n") {
  std::string game = "[Event \"x\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 e5 1-0\r\n\r\n";
  std::string text;
  for (int i = 0; i < 50; ++i) text += game;
  GameChunkerOptions options;
  options.target_bytes = 200;
  for (std::size_t piece : {0, 1, 3, 13}) {
    CAPTURE(piece);
    const std::vector<GameChunk> chunks = chunks_of(text, options, piece);
    REQUIRE(chunks.size() > 5);
    check_chunks(text, chunks);
    for (std::size_t k = 0; k + 1 < chunks.size(); ++k) {
      CHECK(chunks[k].ends_before_game_start);
      CHECK(chunks[k].bytes.size() % game.size() == 0);  // whole games
    }
    CHECK(begin_lines_read_in_chunks(chunks) == begin_lines(text));
  }
}

TEST_CASE("pgn/chunker: no game start for max_bytes is cut anyway, at a line break if it can") {
  GameChunkerOptions options;
  options.target_bytes = 100;
  options.max_bytes = 1000;
  std::string lines;
  while (lines.size() < 5000) lines += "junk junk junk junk\n";
  for (std::size_t piece : {0, 1, 64}) {
    CAPTURE(piece);
    const std::vector<GameChunk> chunks = chunks_of(lines, options, piece);
    REQUIRE(chunks.size() >= 5);
    check_chunks(lines, chunks);
    for (const GameChunk& chunk : chunks) {
      CHECK_FALSE(chunk.ends_before_game_start);
      CHECK(chunk.bytes.size() <= options.max_bytes);
      CHECK(chunk.bytes.back() == '\n');
    }
  }
  // One line without a break: cut at the bytes scanned, never more than a piece past the cap.
  const std::string line(5000, 'x');
  const std::vector<GameChunk> chunks = chunks_of(line, options, 100);
  REQUIRE(chunks.size() == 5);
  check_chunks(line, chunks);
  for (const GameChunk& chunk : chunks) CHECK(chunk.bytes.size() == 1000);
}

TEST_CASE("pgn/chunker: a cap no larger than the target still cuts before game starts") {
  // With max_bytes == target_bytes no game start can follow the target within the cap: every
  // chunk was cut at the cap instead, and so stood alone nowhere.
  const std::string text = read_fixture("pgn/lichess-100.pgn");
  for (std::size_t cap : {std::size_t{5000}, std::size_t{4000}}) {
    CAPTURE(cap);
    GameChunkerOptions options;
    options.target_bytes = 5000;
    options.max_bytes = cap;
    const std::vector<GameChunk> chunks = chunks_of(text, options, 777);
    REQUIRE(chunks.size() > 10);
    check_chunks(text, chunks);
    for (std::size_t k = 0; k + 1 < chunks.size(); ++k) {
      CAPTURE(k);
      CHECK(chunks[k].ends_before_game_start);
      CHECK(chunks[k].bytes.size() >= options.target_bytes);
    }
  }
}

TEST_CASE(
    "pgn/chunker: a huge target keeps the stream whole and reserves nothing it will not fill") {
  // The buffer after a cut is reserved for a chunk and a quarter: never past max_bytes, never at
  // the stream's end (a target of SIZE_MAX wrapped that sum and asked for an impossible buffer).
  const std::string text = read_fixture("pgn/lichess-100.pgn");
  for (std::size_t target : {SIZE_MAX, SIZE_MAX / 2, SIZE_MAX / 3}) {  // wasm32 too
    CAPTURE(target);
    GameChunkerOptions options;
    options.target_bytes = target;
    const std::vector<GameChunk> chunks = chunks_of(text, options, 4096);
    REQUIRE(chunks.size() == 1);
    check_chunks(text, chunks);
    CHECK(chunks[0].bytes.capacity() < 2 * text.size());
  }
  // A small target: each next buffer is reserved for a chunk and a quarter, so a chunk holds at
  // least that much room and not much more (a long last game may still grow it once).
  GameChunkerOptions options;
  options.target_bytes = 20000;
  const std::vector<GameChunk> chunks = chunks_of(text, options, 1000);
  REQUIRE(chunks.size() > 5);
  check_chunks(text, chunks);
  for (std::size_t k = 1; k + 1 < chunks.size(); ++k) {
    CAPTURE(k);
    CHECK(chunks[k].bytes.capacity() >= 25000);
    CHECK(chunks[k].bytes.capacity() <= 50100);
  }
}

TEST_CASE("pgn/chunker: a stream not starting with [Event, junk before games, an empty stream") {
  GameChunkerOptions options;
  options.target_bytes = 1;
  const std::string text =
      "1. e4 e5 *\n\n[Event \"a\"]\n\n1. d4 *\n\n[Event x]\n\n[Event \"b\"]\n\n1. c4 *\n";
  const std::vector<GameChunk> chunks = chunks_of(text, options, 0);
  check_chunks(text, chunks);
  REQUIRE(chunks.size() == 3);  // "[Event x]" is no game start
  CHECK(chunks[0].bytes == "1. e4 e5 *\n\n");
  CHECK(chunks[1].bytes == "[Event \"a\"]\n\n1. d4 *\n\n[Event x]\n\n");
  CHECK(chunks[2].bytes == "[Event \"b\"]\n\n1. c4 *\n");

  // "[Event" after one newline is no game start.
  const std::vector<GameChunk> one = chunks_of("[Event \"a\"]\n[Event \"b\"]\n", options, 1);
  CHECK(one.size() == 1);

  CHECK(chunks_of("", options, 0).empty());
  GameChunker chunker;
  chunker.finish();
  chunker.feed("late", 4);  // after finish: ignored
  CHECK_FALSE(chunker.next().has_value());
}

// Whether a game start begins at `at` of the whole text (the stream starts as if after blank
// lines).
bool game_start_at(const std::string& text, std::size_t at) {
  const auto byte = [&](std::size_t back) { return at >= back ? text[at - back] : '\n'; };
  return text.compare(at, kGameStart.size(), kGameStart) == 0 && byte(1) == '\n' &&
         (byte(2) == '\n' || (byte(2) == '\r' && byte(3) == '\n'));
}

// The chunk ends the header promises, computed the slow way from the whole text: the first game
// start at or after target_bytes and before max_bytes, else (past max_bytes) just after the last
// line break within max_bytes, else max_bytes; the rest is the last chunk.
std::vector<std::size_t> expected_chunk_ends(const std::string& text, std::size_t target,
                                             std::size_t cap) {
  std::vector<std::size_t> ends;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.size();
    bool cut = false;
    for (std::size_t i = target; i < cap && begin + i < text.size(); ++i) {
      if (game_start_at(text, begin + i)) {
        end = begin + i;
        cut = true;
        break;
      }
    }
    if (!cut && text.size() - begin > cap) {
      const std::size_t lf = text.rfind('\n', begin + cap - 1);
      end = lf != std::string::npos && lf >= begin ? lf + 1 : begin + cap;
    }
    ends.push_back(end);
    begin = end;
  }
  return ends;
}

TEST_CASE("pgn/chunker: random texts of game starts, CR, LF and near misses cut where promised") {
  // Pieces that make game starts, blank lines of every kind, and starts that are not quite.
  const std::vector<std::string> pieces = {
      "[Event \"", "[Event \"x\"]",      "\n",      "\n\n",  "\r\n", "\r",
      "\n\r\n",    "1. e4 e5 ",          "[Event ", "[Even", "t \"", "[",
      "x",         "{ [%clk 0:01:00] }", "\r\r\n"};
  Lcg random{1553};
  for (int round = 0; round < 300; ++round) {
    CAPTURE(round);
    std::string text;
    const std::size_t length = 1 + random.below(round % 10 == 0 ? 5000 : 400);
    while (text.size() < length) text += pieces[random.below(pieces.size())];
    GameChunkerOptions options;
    options.target_bytes = 1 + random.below(80);
    options.max_bytes = random.below(300);  // raised to at least 2 * target_bytes and 64
    const GameChunker probe(options);
    const std::size_t target = probe.options().target_bytes;
    const std::size_t cap = probe.options().max_bytes;
    const std::vector<std::size_t> ends = expected_chunk_ends(text, target, cap);
    for (std::size_t piece : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{7},
                              std::size_t{8}, std::size_t{9}, 1 + random.below(500)}) {
      CAPTURE(piece);
      const std::vector<GameChunk> chunks = chunks_of(text, options, piece);
      check_chunks(text, chunks);
      std::vector<std::size_t> got;
      for (const GameChunk& chunk : chunks) got.push_back(chunk.offset + chunk.bytes.size());
      CHECK(got == ends);
    }
  }
}

}  // namespace
}  // namespace materialist::pgn
