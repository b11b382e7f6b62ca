// `materialist replay`: the per-game lines tests/differential/compare.mjs checks against chessops.
#include <doctest/doctest.h>

#include "cli/cli_test_util.h"

namespace materialist::cli::testing {

TEST_CASE("replay: plies, stop and final FEN per game") {
  const TempFile pgn(
      "replay.pgn",
      "[Event \"played\"]\n\n1. e4 e5 2. Nf3 -- 3. Bc4 Z0 *\n\n"
      "[Event \"illegal third ply\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n"
      "[Event \"ambiguous\"]\n[SetUp \"1\"]\n[FEN \"R7/8/7k/8/8/8/8/R3K3 w - - 0 1\"]\n\n"
      "1. Ra4 *\n\n"
      "[Event \"bad FEN\"]\n[SetUp \"1\"]\n\n1. e4 *\n\n"
      "[Event \"null move in check\"]\n\n1. e4 f6 2. Qh5+ -- *\n");
  const CliRun run = run_cli({"replay", pgn.path()});
  CHECK(run.status == 0);
  const std::vector<std::string> lines = lines_of(run.out);
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] == "1\t6\t-\trnbqkbnr/pppp1ppp/8/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4\tok");
  CHECK(lines[1] ==
        "2\t2\t3\trnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\tillegal-move");
  CHECK(lines[2] == "3\t0\t1\tR7/8/7k/8/8/8/8/R3K3 w - - 0 1\tambiguous-move");
  CHECK(contains(lines[3], "4\t0\tfen\t"));
  CHECK(contains(lines[4], "5\t3\t4\t"));
  CHECK(contains(lines[4], "null-move-in-check"));
}

TEST_CASE("replay: an unreadable file is an error, the others are still replayed") {
  const TempFile pgn("replay-one.pgn", "1. d4 *\n");
  const CliRun run = run_cli({"replay", "/nonexistent/file.pgn", pgn.path()});
  CHECK(run.status == 1);
  CHECK(contains(run.err, "cannot read /nonexistent/file.pgn"));
  CHECK(lines_of(run.out).size() == 1);
}

}  // namespace materialist::cli::testing
