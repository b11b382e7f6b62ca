#include <doctest/doctest.h>

#include <string>

#include "cli_test_util.h"
#include "core/json_value.h"

using namespace materialist::cli::testing;
using materialist::JsonValue;
using materialist::parse_json;

namespace {

const std::string kLichess = "pgn/lichess-2021-10-first999.pgn";

// The table's line of a band: "1400-1599  games  positions  values...".
std::string row_of(const std::string& out, const std::string& band) {
  for (const std::string& line : lines_of(out)) {
    if (line.rfind(band + " ", 0) == 0) return line;
  }
  return "";
}

}  // namespace

TEST_CASE("cli compare --by elo: one row per band with games, each value ± its 95% half-width") {
  const CliRun run = run_cli({"compare", "--by", "elo:200", "--no-progress", fixture(kLichess)});
  CHECK(run.status == 0);
  CHECK(contains(run.out,
                 "Values by average rating, bands of 200 Elo (pawn = 100; ± half-width "
                 "of the 95% interval)"));
  CHECK(contains(run.out, "band            games  positions"));
  const std::string row = row_of(run.out, "1400-1599");
  REQUIRE_FALSE(row.empty());
  CHECK(contains(row, " 100 "));  // the pawn: the reference, no interval
  CHECK(contains(row, " ± "));
  // Bands without a game are not rows; they are named under the table.
  CHECK(row_of(run.out, "2800+").empty());
  CHECK(contains(run.out, "no games in: 2800+"));
  CHECK_FALSE(contains(run.out, "Capablanca"));  // the band table, not the comparison's
}

TEST_CASE("cli compare --by: a band the fit cannot identify says so, never a number") {
  // Few games in the top band: its pieces are not identified, or it is not fitted at all.
  const CliRun run = run_cli({"compare", "--by", "elo:100", "--no-progress", fixture(kLichess)});
  CHECK((run.status == 0 || run.status == 1));
  CHECK((contains(run.out, "not identified") || contains(run.out, ": not fitted: ")));
  CHECK(contains(run.out, ": Warning: "));
}

TEST_CASE("cli compare --by speed and --json: the same table, with the full fits") {
  const CliRun text = run_cli({"compare", "--by", "speed", "--no-progress", fixture(kLichess)});
  CHECK(text.status == 0);
  CHECK(contains(text.out, "Values by speed"));
  CHECK_FALSE(row_of(text.out, "blitz").empty());
  CHECK_FALSE(row_of(text.out, "bullet").empty());

  const CliRun run = run_cli({"compare", "--by", "elo:200", "--json", "--units", "elo",
                              "--no-progress", fixture(kLichess)});
  CHECK(run.status == 0);
  const auto json = parse_json(run.out);
  REQUIRE(json.ok());
  CHECK(json->find("by")->as_string() == "elo:200");
  CHECK(json->find("bandAxis")->as_string() == "average rating, bands of 200 Elo");
  const JsonValue& bands = *json->find("bands");
  const JsonValue& datasets = *json->find("datasets");
  REQUIRE(bands.size() >= 5);
  REQUIRE(bands.size() == datasets.size());
  double games = 0;
  for (std::size_t i = 0; i < bands.size(); ++i) {
    const JsonValue& band = bands[i];
    CHECK(band.find("band")->as_string() == datasets[i].find("name")->as_string());
    CHECK(band.find("units")->as_string() == "elo");
    CHECK(band.find("games")->as_number() > 0);
    games += band.find("games")->as_number();
    CHECK(band.find("filter")->as_string().find("elo_mode=average") != std::string::npos);
  }
  const JsonValue* middle = nullptr;
  for (const JsonValue& band : bands.items()) {
    if (band.find("band")->as_string() == "1400-1599") middle = &band;
  }
  REQUIRE(middle != nullptr);
  const JsonValue& knight = *middle->find("values")->find("N");
  REQUIRE(knight.is_object());
  CHECK(knight.find("value")->as_number() > 0);
  CHECK(knight.find("halfWidth95")->as_number() > 0);
  // Every game of the sample is rated: the bands hold all the games a plain fit uses.
  const CliRun fit = run_cli({"fit", "--json", "--no-progress", fixture(kLichess)});
  const auto all = parse_json(fit.out);
  REQUIRE(all.ok());
  CHECK(games == all->find("used")->as_number() + all->find("partial")->as_number());
}

TEST_CASE("cli compare --by: bad specs and combinations are bad options") {
  CHECK(run_cli({"compare", "--by", "elo:7", fixture(kLichess)}).status == 2);
  CHECK(run_cli({"compare", "--by", "colour", fixture(kLichess)}).status == 2);
  CHECK(run_cli({"fit", "--by", "speed", fixture(kLichess)}).status == 2);
  CHECK(run_cli({"compare", "--by", "speed", "--each", "tc=blitz", fixture(kLichess)}).status == 2);
  const CliRun elo =
      run_cli({"compare", "--by", "elo:200", "--filter", "elo=1500-", fixture(kLichess)});
  CHECK(elo.status == 2);
  CHECK(contains(elo.err, "elo filter"));
  const CliRun player = run_cli({"compare", "--by", "elo:200:player", fixture(kLichess)});
  CHECK(player.status == 2);
  CHECK(contains(player.err, "need a player"));
  // Games without ratings are in no band.
  const CliRun unrated =
      run_cli({"compare", "--by", "elo:200", "--no-progress", fixture("pgn/OpenRating.pgn")});
  CHECK(unrated.status == 1);
  CHECK(contains(unrated.err, "no game fell in any band"));
}

TEST_CASE("cli compare --by elo with a player: bands of the player's own rating") {
  // The sample's first game: xtzdavi182 (1703) against Al_Fatih (1698).
  const CliRun run = run_cli({"compare", "--by", "elo:200", "--json", "--no-progress", "--filter",
                              "player=xtzdavi182", fixture(kLichess)});
  const auto json = parse_json(run.out);
  REQUIRE(json.ok());
  CHECK(json->find("bandAxis")->as_string() == "the player's rating, bands of 200 Elo");
  const JsonValue& bands = *json->find("bands");
  REQUIRE(bands.size() >= 1);
  CHECK(bands[0].find("filter")->as_string().find("elo_mode=player") != std::string::npos);
}
