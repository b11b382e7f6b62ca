// The CLI's imbalance terms and split sides: flags, names in text and JSON, refusals with their
// messages, and statistics files that keep each side's counts.
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "cli_test_util.h"

using namespace materialist::cli;
using namespace materialist::cli::testing;

TEST_CASE("cli fit --imbalance: the terms are named columns in text and JSON") {
  const std::string pgn = fixture("pgn/lichess-2021-10-first999.pgn");
  const CliRun text =
      run_cli({"fit", "--no-progress", "--imbalance", "knight-pawns,rook-pawns", pgn});
  CHECK(text.status == 0);
  CHECK(contains(text.out, "Knight per own pawn:"));
  CHECK(contains(text.out, "per knight per pawn beyond 5"));
  CHECK(contains(text.out, "Rook per own pawn:"));
  CHECK_FALSE(contains(text.out, "Rook pair"));

  const CliRun json = run_cli({"fit", "--json", "--no-progress", "--imbalance", "all", pgn});
  CHECK(json.status == 0);
  REQUIRE(one_json_object(json.out));
  for (const char* name : {"knight-pawns", "rook-pawns", "rook-pair", "queen-rook", "minor-pair",
                           "exchange-minors", "exchange-no-minors"}) {
    CAPTURE(name);
    CHECK(contains(json.out, std::string("{\"name\":\"") + name + "\""));
  }
  CHECK(contains(json.out, "\"imbalances\":[\"knight-pawns\",\"rook-pawns\",\"rook-pair\""));
  // Without the flag the JSON is as before: no imbalance key.
  CHECK_FALSE(contains(run_cli({"fit", "--json", "--no-progress", pgn}).out, "imbalance"));
  CHECK(contains(run_cli({"fit", "--help"}).out, "--imbalance TERM"));
}

TEST_CASE("cli fit --imbalance and --split-sides: refusals say why") {
  const std::string pgn = fixture("pgn/lichess-2021-10-first999.pgn");
  const CliRun unknown = run_cli({"fit", "--no-progress", "--imbalance", "bishop-pawns", pgn});
  CHECK(unknown.status == 2);
  CHECK(contains(unknown.err, "--imbalance: unknown imbalance term 'bishop-pawns'"));

  const CliRun no_player = run_cli({"fit", "--json", "--no-progress", "--split-sides", pgn});
  CHECK(no_player.status == 2);
  CHECK(one_json_object(no_player.out));
  CHECK(contains(no_player.out, "\"code\":\"bad-options\""));
  CHECK(contains(no_player.out, "--split-sides needs a player's point of view"));

  const CliRun tapered = run_cli({"fit", "--no-progress", "--split-sides", "--phase", "--filter",
                                  "player=Booot*;pov=1", fixture("pgn/OpenRating.pgn")});
  CHECK(tapered.status == 2);
  CHECK(contains(tapered.err, "split sides and tapered values cannot be combined"));

  // .mat rows carry no counts.
  const CliRun mat = run_cli({"fit", "--json", "--no-progress", "--imbalance", "rook-pair",
                              fixture("learn/OpenRating.article.mat")});
  CHECK(mat.status == 1);
  CHECK(contains(mat.out, "\"code\":\"fit-failed\""));
  CHECK(contains(mat.out, ".mat rows"));
}

TEST_CASE("cli fit --split-sides: own and opponent's pieces side by side with the difference") {
  const std::string pgn = fixture("pgn/OpenRating.pgn");
  const std::string pov = "player=Booot*;pov=1";
  const CliRun text = run_cli({"fit", "--no-progress", "--split-sides", "--filter", pov, pgn});
  CHECK(text.status == 0);
  CHECK(contains(text.out, "Player's knight:"));
  CHECK(contains(text.out, "Opponent's knight:"));
  CHECK(contains(text.out, "Own against opponent's pieces"));
  CHECK(contains(text.out, "Player's edge:"));
  // The table follows the units asked for.
  const CliRun elo =
      run_cli({"fit", "--no-progress", "--split-sides", "--units", "elo", "--filter", pov, pgn});
  CHECK(elo.status == 0);
  CHECK(contains(elo.out, "Own against opponent's pieces (Elo; p: own = opponent's)"));
  CHECK_FALSE(contains(elo.out, "pawn = 100, own pawns"));

  const CliRun json =
      run_cli({"fit", "--json", "--no-progress", "--split-sides", "--filter", pov, pgn});
  CHECK(json.status == 0);
  REQUIRE(one_json_object(json.out));
  CHECK(contains(json.out, "\"splitSides\":true"));
  CHECK(contains(json.out, "{\"name\":\"own-knight\""));
  CHECK(contains(json.out, "{\"name\":\"opponent-queen\""));
  CHECK(contains(json.out, "\"sides\":[{\"piece\":\"pawn\""));
  CHECK(contains(json.out, "\"pValue\":"));
  CHECK(contains(json.out, "\"differenceThetaSe\":"));
}

TEST_CASE("cli stats --imbalance: the counts are kept, and a fit of them is the fit of the games") {
  const std::string pgn = fixture("pgn/lichess-2021-10-first999.pgn");
  const std::string path =
      (std::filesystem::temp_directory_path() / "materialist-imbalance-test.mstats").string();
  const CliRun made =
      run_cli({"stats", "--no-progress", "--imbalance", "all", "--bishop-pair", pgn, "-o", path});
  REQUIRE(made.status == 0);
  const CliRun from_stats =
      run_cli({"fit", "--json", "--no-progress", "--imbalance", "all", "--bishop-pair", path});
  const CliRun from_games =
      run_cli({"fit", "--json", "--no-progress", "--imbalance", "all", "--bishop-pair", pgn});
  CHECK(from_stats.status == 0);
  CHECK(without_timings(from_stats.out) == without_timings(from_games.out));

  // Statistics made without the terms have no counts: refused, naming the field.
  const CliRun plain = run_cli({"stats", "--no-progress", "--bishop-pair", pgn, "-o", path});
  REQUIRE(plain.status == 0);
  const CliRun refused = run_cli({"fit", "--no-progress", "--imbalance", "rook-pair", path});
  CHECK(refused.status == 1);
  CHECK(contains(refused.err, "each side's piece counts"));
  std::remove(path.c_str());
}
