// "Stop after N games / the first N MB": a read ends at a game's end, as if the input ended there.
#include <doctest/doctest.h>

#include <string>

#include "learn/learn_test_util.h"
#include "learn/read/archive_reader.h"
#include "learn/read/dataset_split.h"

using namespace materialist::learn;
using materialist::learn::testing::first_games;
using materialist::learn::testing::read_fixture;

namespace {

DatasetSplit make_split(std::uint64_t max_games, SplitMode mode = SplitMode::kMerge) {
  SplitOptions options;
  options.max_games = max_games;
  options.mode = mode;
  auto split = DatasetSplit::create(options);
  REQUIRE(split.ok());
  return std::move(*split);
}

// Feeds `text` in 4093-byte pieces while the split wants more; the bytes fed.
std::size_t feed_while_wanted(DatasetSplit& split, const std::string& name,
                              const std::string& text) {
  split.begin_file(name);
  std::size_t at = 0;
  for (; at < text.size() && !split.limit_reached(); at += 4093) {
    split.feed(text.data() + at, std::min<std::size_t>(4093, text.size() - at));
  }
  split.end_file();
  return std::min(at, text.size());
}

}  // namespace

TEST_CASE("read limit: max_games reads exactly the first N games, over files too") {
  const std::string pgn = read_fixture("pgn/lichess-100.pgn");
  DatasetSplit limited = make_split(40);
  const std::size_t fed = feed_while_wanted(limited, "a.pgn", pgn);
  CHECK(limited.limit_reached());
  CHECK(fed < pgn.size());  // the reader stopped feeding
  DatasetSplit exact = make_split(0);
  feed_while_wanted(exact, "a.pgn", first_games(pgn, 40));
  CHECK_FALSE(exact.limit_reached());
  CHECK(limited.merged().report().games.games_read == 40);
  CHECK(limited.merged().report().stopped_at_limit);
  CHECK_FALSE(exact.merged().report().stopped_at_limit);
  CHECK(limited.merged().histogram() == exact.merged().histogram());
  CHECK(limited.merged().report().files.at(0).error.empty());

  // Two files: the second gives what the first left of the limit.
  DatasetSplit two = make_split(130, SplitMode::kPerFile);
  feed_while_wanted(two, "first.pgn", pgn);
  CHECK_FALSE(two.limit_reached());  // 100 games: 30 to go
  feed_while_wanted(two, "second.pgn", pgn);
  CHECK(two.limit_reached());
  REQUIRE(two.subsets().size() == 2);
  CHECK(two.subsets()[0].builder->report().games.games_read == 100);
  CHECK(two.subsets()[1].builder->report().games.games_read == 30);
  CHECK(two.merged().report().games.games_read == 130);
}

TEST_CASE("read limit: stop_after_game ends the read at the end of the game being read") {
  const std::string pgn = read_fixture("pgn/lichess-100.pgn");
  const std::string ten = first_games(pgn, 10);
  DatasetSplit split = make_split(0);
  split.begin_file("a.pgn");
  const std::size_t cut = ten.size() - 40;  // inside the tenth game's movetext
  split.feed(pgn.data(), cut);
  split.stop_after_game();
  CHECK_FALSE(split.limit_reached());  // the tenth game is not over yet
  split.feed(pgn.data() + cut, pgn.size() - cut);
  CHECK(split.limit_reached());
  split.end_file();
  DatasetSplit exact = make_split(0);
  feed_while_wanted(exact, "a.pgn", ten);
  CHECK(split.merged().report().games.games_read == 10);
  CHECK(split.merged().histogram() == exact.merged().histogram());
  CHECK(split.merged().report().files.at(0).error.empty());
}

TEST_CASE("read limit: a compressed file stopped at a limit is no truncated archive") {
  const std::string zst = read_fixture("archive/lichess-100.pgn.zst");
  DatasetSplit split = make_split(25);
  ArchiveReader reader(split, "lichess-100.pgn.zst");
  bool more = true;
  for (std::size_t at = 0; at < zst.size() && more; at += 1000) {
    more = reader.feed(zst.data() + at, std::min<std::size_t>(1000, zst.size() - at));
  }
  CHECK_FALSE(more);
  CHECK(reader.stopped_at_limit());
  reader.finish();
  CHECK_FALSE(reader.problem().has_value());
  CHECK_FALSE(reader.error().has_value());
  CHECK(split.merged().report().games.games_read == 25);
  DatasetSplit exact = make_split(0);
  feed_while_wanted(exact, "lichess-100.pgn", first_games(read_fixture("pgn/lichess-100.pgn"), 25));
  CHECK(split.merged().histogram() == exact.merged().histogram());
}
