// `materialist elo`: the match statistics on counts from the command line, its exit statuses and
// its JSON keys (the numbers themselves: tests/play/test_match_stats.cpp and
// scripts/match_stats_crosscheck.py).
#include <doctest/doctest.h>

#include "cli/cli_test_util.h"

namespace materialist::cli::testing {

TEST_CASE("elo --penta --json prints one object with every estimate key") {
  const CliRun run = run_cli({"elo", "--penta", "5,40,100,60,10", "--wdl", "110,240,80", "--json",
                              "--sprt", "0,5,0.05,0.1", "--logistic"});
  CHECK(run.status == kExitOk);
  CHECK(run.err.empty());
  CHECK(one_json_object(run.out));
  for (const char* key :
       {"\"pentanomial\":[5,40,100,60,10]", "\"wins\":110", "\"draws\":240", "\"losses\":80",
        "\"games\":430", "\"pairs\":215", "\"score\":", "\"elo\":", "\"eloError95\":", "\"nelo\":",
        "\"neloError95\":", "\"los\":", "\"drawRatio\":", "\"infinite\":{}", "\"sprt\":{",
        "\"beta\":0.1", "\"bounds\":\"logistic\"", "\"llr\":", "\"result\":\"continue\""}) {
    CHECK_MESSAGE(contains(run.out, key), key);
  }
}

TEST_CASE("elo prints fastchess-like lines without --json") {
  const CliRun run = run_cli({"elo", "--wdl", "300,412,288", "--sprt", "0,5"});
  CHECK(run.status == kExitOk);
  CHECK(contains(run.out, "Elo: 4.17 +/- 16.53, nElo: "));
  CHECK(contains(run.out, "DrawRatio: 41.20 %, Games: 1000"));
  CHECK(contains(run.out, "W/D/L: 300/412/288"));
  CHECK(contains(run.out, "LLR: "));
  CHECK(contains(run.out, "(-2.94, 2.94) [0.00, 5.00] normalized"));
  const CliRun all_wins = run_cli({"elo", "--wdl=10,0,0", "--json"});
  CHECK(all_wins.status == kExitOk);
  CHECK(contains(all_wins.out, "\"elo\":null"));
  CHECK(contains(all_wins.out, "\"infinite\":{\"elo\":\"+inf\",\"nelo\":\"+inf\"}"));
}

TEST_CASE("elo: bad counts and impossible SPRT settings exit 2 with a message") {
  const std::vector<std::vector<std::string>> bad{
      {"elo"},
      {"elo", "--penta", "1,2,3,4"},
      {"elo", "--penta", "1,2,3,4,5,6"},
      {"elo", "--penta", "1,2,x,4,5"},
      {"elo", "--penta", "1,2,-3,4,5"},
      {"elo", "--penta", "1,2,3.5,4,5"},
      {"elo", "--wdl", "1,2"},
      {"elo", "--wdl"},
      {"elo", "--wdl", "4503599627370497,0,0"},  // beyond 2^52
      {"elo", "--wdl", "1,2,3", "--sprt", "5,0"},
      {"elo", "--wdl", "1,2,3", "--sprt", "0,5,0,0.05"},
      {"elo", "--wdl", "1,2,3", "--sprt", "0,5,0.05"},
      {"elo", "--wdl", "1,2,3", "--sprt", "0,nan"},
      {"elo", "--wdl", "1,2,3", "--logistic"},
      {"elo", "--penta", "1,2,3,4,5", "--wdl", "1,2,3"},  // not the same games
      {"elo", "--wdl", "1,2,3", "--frobnicate"},
      {"elo", "--sets", "3", "--pair", "0,1,5,5,5"},  // set 2 has no games
      {"elo", "--sets", "2", "--pair", "0,0,5,5,5"},
      {"elo", "--sets", "2"},
      {"elo", "--pair", "0,1,5,5,5"},
  };
  for (const std::vector<std::string>& args : bad) {
    const CliRun run = run_cli(args);
    std::string line;
    for (const std::string& a : args) line += a + " ";
    CHECK_MESSAGE(run.status == kExitBadOptions, line);
    CHECK_MESSAGE(contains(run.err, "materialist elo: "), line);
    CHECK_MESSAGE(run.out.empty(), line);
  }
  CHECK(contains(run_cli({"elo", "--wdl", "1,2,3", "--sprt", "5,0"}).err,
                 "elo0 must be less than elo1"));
}

TEST_CASE("elo --sets rates a table of sets from pairwise results") {
  const CliRun run =
      run_cli({"elo", "--sets", "3", "--pair", "0,1,30,40,30", "--pair-penta", "1,2,5,20,50,20,5",
               "--pair", "0,2,40,30,30", "--anchor", "0", "--level", "1000", "--json"});
  CHECK(run.status == kExitOk);
  CHECK(one_json_object(run.out));
  CHECK(contains(run.out, "\"sets\":3,\"ratings\":[{\"set\":0,\"rating\":1000,\"error95\":0,"));
  CHECK(contains(run.out, "\"anchor\":0"));
  CHECK(contains(run.out, "\"regularized\":false"));
  const CliRun text = run_cli({"elo", "--sets", "2", "--pair", "0,1,10,0,0"});
  CHECK(text.status == kExitOk);
  CHECK(contains(text.out, "virtual draw"));
}

TEST_CASE("elo --help prints its usage") {
  const CliRun run = run_cli({"elo", "--help"});
  CHECK(run.status == kExitOk);
  CHECK(contains(run.out, "Usage:\n  materialist elo --penta"));
}

}  // namespace materialist::cli::testing
