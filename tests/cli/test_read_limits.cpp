// --max-games and --max-mb: the first games of the files, read in order, with the report saying
// the limit ended the read.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli/cli_test_util.h"
#include "cli/options.h"

using materialist::cli::parse_options;
using materialist::cli::testing::CliRun;
using materialist::cli::testing::contains;
using materialist::cli::testing::fixture;
using materialist::cli::testing::run_cli;

TEST_CASE("cli limits: --max-games reads the first N games over all files, -j or not") {
  const std::string lichess = fixture("pgn/lichess-100.pgn");
  const std::string zst = fixture("archive/lichess-100.pgn.zst");
  const CliRun limited =
      run_cli({"fit", "--json", "--no-progress", "--max-games", "130", lichess, zst});
  REQUIRE(limited.status == 0);
  CHECK(contains(limited.out, "\"games\":130,"));
  CHECK(contains(limited.out, "\"stoppedAtLimit\":true"));
  // -j is set aside: the same output.
  const CliRun threads =
      run_cli({"fit", "--json", "--no-progress", "-j", "3", "--max-games", "130", lichess, zst});
  CHECK(threads.status == 0);
  CHECK(contains(threads.out, "\"games\":130,"));
  const CliRun whole = run_cli({"fit", "--json", "--no-progress", lichess, zst});
  CHECK(contains(whole.out, "\"games\":200,"));
  CHECK(contains(whole.out, "\"stoppedAtLimit\":false"));
}

TEST_CASE("cli limits: --max-mb stops after the game being read, a .zst without a truncation") {
  const std::string zst = fixture("archive/lichess-100.pgn.zst");
  const CliRun limited = run_cli({"fit", "--json", "--no-progress", "--max-mb", "0.01", zst});
  REQUIRE(limited.status == 0);  // no corrupt-archive: the limit is no truncation
  CHECK(contains(limited.out, "\"stoppedAtLimit\":true"));
  CHECK_FALSE(contains(limited.out, "\"games\":100,"));
  CHECK_FALSE(contains(limited.out, "corrupt"));
}

TEST_CASE("cli limits: the options parse, and bad values are refused") {
  auto options = parse_options({"fit", "--max-games", "1000", "--max-mb", "250.5", "a.pgn"});
  REQUIRE(options.ok());
  CHECK(options->max_games == 1000);
  CHECK(options->max_megabytes == 250.5);
  CHECK_FALSE(parse_options({"fit", "--max-games", "0", "a.pgn"}).ok());
  CHECK_FALSE(parse_options({"fit", "--max-games", "many", "a.pgn"}).ok());
  CHECK_FALSE(parse_options({"fit", "--max-mb", "-1", "a.pgn"}).ok());
}
