// Real PGN files: exact game counts, and the same events whatever the chunk size.
#include <doctest/doctest.h>

#include <set>

#include "pgn/recorder.h"

namespace materialist::pgn {
namespace {

using testing::feed_in_chunks;
using testing::read_fixture;
using testing::Recorder;

Recorder parse_file(const std::string& text, std::size_t chunk_size) {
  Recorder recorder;
  recorder.keep_events = false;
  ParserOptions options;
  options.comments = true;
  Parser parser(recorder, options);
  feed_in_chunks(parser, text, chunk_size);
  return recorder;
}

void check_chunking_invariance(const std::string& text) {
  const Recorder whole = parse_file(text, 0);
  for (std::size_t chunk_size : {1, 2, 3, 7, 64, 4096}) {
    CAPTURE(chunk_size);
    const Recorder chunked = parse_file(text, chunk_size);
    CHECK(chunked.games() == whole.games());
    CHECK(chunked.moves == whole.moves);
    CHECK(chunked.digest == whole.digest);
  }
}

TEST_CASE("pgn/files: OpenRating.pgn has 2997 games and 53 bare '...' in 39 games") {
  const std::string text = read_fixture("pgn/OpenRating.pgn");
  REQUIRE(text.size() == 2818577);
  const Recorder recorder = parse_file(text, 0);
  CHECK(recorder.games() == 2997);
  CHECK(recorder.missing == 53);
  std::size_t games_with_gaps = 0;
  std::size_t errors = 0;
  std::size_t truncated = 0;
  std::set<std::string> results;
  for (const GameEnd& end : recorder.ends) {
    games_with_gaps += end.missing_moves > 0;
    errors += end.error_count;
    truncated += end.truncated;
    results.insert(std::string(end.result));
  }
  CHECK(games_with_gaps == 39);
  CHECK(errors == 0);
  CHECK(truncated == 0);
  CHECK(results == std::set<std::string>{"1-0", "0-1", "1/2-1/2", "*"});
  // The first game (METHOD.md's worked example) has 96 plies and ends on line 18.
  CHECK(recorder.end(0).plies == 96);
  CHECK(recorder.end(0).result == "0-1");
  CHECK(recorder.end(0).end.line == 18);
}

TEST_CASE("pgn/files: lichess sample has 999 games, all clean") {
  const std::string text = read_fixture("pgn/lichess-2021-10-first999.pgn");
  const Recorder recorder = parse_file(text, 0);
  CHECK(recorder.games() == 999);
  std::size_t errors = 0;
  std::size_t without_result = 0;
  for (const GameEnd& end : recorder.ends) {
    errors += end.error_count;
    without_result += end.result.empty();
  }
  CHECK(errors == 0);
  CHECK(without_result == 0);
}

TEST_CASE("pgn/files: every chunk size gives the same events (OpenRating.pgn)") {
  check_chunking_invariance(read_fixture("pgn/OpenRating.pgn"));
}

TEST_CASE("pgn/files: every chunk size gives the same events (lichess-100.pgn)") {
  const std::string text = read_fixture("pgn/lichess-100.pgn");
  CHECK(parse_file(text, 0).games() == 100);
  check_chunking_invariance(text);
}

}  // namespace
}  // namespace materialist::pgn
