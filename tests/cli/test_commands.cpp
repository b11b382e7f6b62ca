#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"

using materialist::cli::testing::CliRun;
using materialist::cli::testing::fixture;
using materialist::cli::testing::lines_of;
using materialist::cli::testing::run_cli;
using materialist::cli::testing::TempFile;

namespace {

// The whitespace-separated fields of a line.
std::vector<std::string> fields_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> fields;
  for (std::string field; in >> field;) fields.push_back(field);
  return fields;
}

}  // namespace

TEST_CASE("cli rows: --game-ids adds the game's id, file index above bit 40") {
  const std::string pgn = fixture("pgn/lichess-100.pgn");
  const CliRun plain = run_cli({"rows", "--no-progress", pgn});
  const CliRun ids = run_cli({"rows", "--no-progress", "--game-ids", pgn, pgn});
  REQUIRE(plain.status == 0);
  REQUIRE(ids.status == 0);
  const std::vector<std::string> plain_lines = lines_of(plain.out);
  const std::vector<std::string> id_lines = lines_of(ids.out);
  REQUIRE(!plain_lines.empty());
  REQUIRE(id_lines.size() == 2 * plain_lines.size());
  std::uint64_t previous = 0;
  for (std::size_t i = 0; i < id_lines.size(); ++i) {
    const std::vector<std::string> fields = fields_of(id_lines[i]);
    REQUIRE(fields.size() == 7);
    // The first six columns are the plain rows, unchanged.
    CHECK(id_lines[i].substr(0, plain_lines[i % plain_lines.size()].size()) ==
          plain_lines[i % plain_lines.size()]);
    const std::uint64_t id = std::stoull(fields[6]);
    const std::uint64_t file = id >> 40, game = id & ((std::uint64_t{1} << 40) - 1);
    CHECK(file == (i < plain_lines.size() ? 0u : 1u));
    CHECK(game >= 1);
    CHECK(game <= 100);
    CHECK(id >= previous);  // rows come game by game, in file order
    previous = id;
  }
  // The same game number in the second file is another id.
  CHECK(fields_of(id_lines.front())[6] != fields_of(id_lines[plain_lines.size()])[6]);
}

TEST_CASE("cli rows: --game-ids numbers .mat rows one by one (each its own game)") {
  const TempFile mat("ids.mat", " 1  0  0  0  0  2\n 0  0  0  0  0  1\n-1  0  0  0  0  0\n");
  const CliRun run = run_cli({"rows", "--no-progress", "--game-ids", mat.path()});
  REQUIRE(run.status == 0);
  CHECK(run.out == " 1  0  0  0  0  2 1\n 0  0  0  0  0  1 2\n-1  0  0  0  0  0 3\n");
}

// ---- fit --json and compare --json: always one object, with the data and the fit or an error ----

namespace {

using materialist::cli::testing::contains;
using materialist::cli::testing::one_json_object;
using materialist::cli::testing::read_fixture_text;
using materialist::cli::testing::replace_all;

// lichess-100.pgn with every decisive result turned into a draw.
std::string draws_only_pgn() {
  const std::string pgn = read_fixture_text("pgn/lichess-100.pgn");
  return replace_all(replace_all(pgn, "1-0", "1/2-1/2"), "0-1", "1/2-1/2");
}

// 400 .mat rows in which no queen is ever up or down: the queen is not identified.
std::string rows_without_queens() {
  std::string text;
  std::uint64_t state = 12345;
  const auto next = [&state](int n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(n));
  };
  for (int i = 0; i < 400; ++i) {
    const int p = next(5) - 2, n = next(3) - 1, b = next(3) - 1, r = next(3) - 1;
    const int balance = p + 3 * n + 3 * b + 5 * r;
    const int result = balance > 0   ? (next(10) < 8 ? 2 : 0)
                       : balance < 0 ? (next(10) < 8 ? 0 : 2)
                                     : 2 * next(2);
    text += std::to_string(p) + " " + std::to_string(n) + " " + std::to_string(b) + " " +
            std::to_string(r) + " 0 " + std::to_string(result) + "\n";
  }
  return text;
}

}  // namespace

TEST_CASE("cli fit --json: a fitted file is one object with the data, the fit and its error kind") {
  const CliRun run =
      run_cli({"fit", "--json", "--no-progress", fixture("pgn/lichess-2021-10-first999.pgn")});
  CHECK(run.status == 0);
  CHECK(one_json_object(run.out));
  for (const char* field :
       {"\"games\":999", "\"used\":", "\"partial\":", "\"skipped\":", "\"rows\":",
        "\"decisiveRows\":", "\"files\":[", "\"errors\":\"game-clustered\"", "\"clusteredGames\":",
        "\"warnings\":[", "\"values\":{\"P\":100", "\"valuesSe\":{", "\"valuesSeModel\":{",
        "\"thetaSe\":[", "\"thetaSeModel\":[", "\"identified\":true", "\"converged\":true"}) {
    CAPTURE(field);
    CHECK(contains(run.out, field));
  }
  CHECK_FALSE(contains(run.out, "\"error\":"));
}

TEST_CASE("cli fit --json: a file with no decisive row prints the data report and the error") {
  const TempFile draws("draws.pgn", draws_only_pgn());
  const CliRun run = run_cli({"fit", "--json", "--no-progress", draws.path()});
  CHECK(run.status == 1);
  REQUIRE(one_json_object(run.out));
  CHECK(contains(run.out, "\"games\":100"));
  CHECK(contains(run.out, "\"decisiveRows\":0"));
  CHECK(contains(run.out, "\"error\":{\"code\":\"no-decisive-rows\""));
  CHECK(contains(run.out, "every row is a draw"));
  CHECK_FALSE(contains(run.out, "\"values\""));
  CHECK(contains(run.err, "every row is a draw"));

  // The text output says so too, with the same status.
  const CliRun text = run_cli({"fit", "--no-progress", draws.path()});
  CHECK(text.status == 1);
  CHECK(contains(text.out, "Games: 100"));
  CHECK(contains(text.err, "every row is a draw"));
}

TEST_CASE("cli fit --json: a filter that removes every game is an error naming the reason") {
  const CliRun run = run_cli({"fit", "--json", "--no-progress", "--filter", "player=Nobody",
                              fixture("pgn/lichess-100.pgn")});
  CHECK(run.status == 1);
  REQUIRE(one_json_object(run.out));
  CHECK(contains(run.out, "\"filtered\":100"));
  CHECK(contains(run.out, "\"error\":{\"code\":\"filtered-out\""));
  CHECK(contains(run.out, "removed by player 100"));
}

TEST_CASE("cli fit --json: unreadable files, files without games and bad options") {
  const CliRun missing =
      run_cli({"fit", "--json", "--no-progress", "/nonexistent/materialist/games.pgn"});
  CHECK(missing.status == 1);
  REQUIRE(one_json_object(missing.out));
  CHECK(contains(missing.out, "\"error\":{\"code\":\"unreadable-file\""));
  CHECK(contains(missing.out, "\"games\":0"));

  const TempFile prose("prose.pgn", "These are not the games you are looking for.\n");
  const CliRun empty = run_cli({"fit", "--json", "--no-progress", prose.path()});
  CHECK(empty.status == 1);
  REQUIRE(one_json_object(empty.out));
  CHECK(contains(empty.out, "\"error\":{\"code\":\"no-rows\""));

  const CliRun bad = run_cli({"fit", "--json", "--solver", "sgd", "a.pgn"});
  CHECK(bad.status == 2);
  REQUIRE(one_json_object(bad.out));
  CHECK(contains(bad.out, "\"error\":{\"code\":\"bad-options\""));
  CHECK(contains(bad.out, "--solver"));

  const CliRun bad_filter = run_cli({"fit", "--json", "--filter", "elo=abc", "a.pgn"});
  CHECK(bad_filter.status == 2);
  CHECK(contains(bad_filter.out, "\"code\":\"bad-options\""));

  const CliRun bad_text = run_cli({"fit", "--wat", "a.pgn"});
  CHECK(bad_text.status == 2);
  CHECK(bad_text.out.empty());
}

TEST_CASE("cli fit --json: zstd, gzip, bzip2 and zip give exactly the plain file's values") {
  const CliRun plain = run_cli(
      {"fit", "--json", "--no-progress", "--solver", "newton", fixture("pgn/lichess-100.pgn")});
  REQUIRE(plain.status == 0);
  REQUIRE(one_json_object(plain.out));
  // The values and the counts: the fit (everything from "converged" on) and the data report's
  // numbers (the file names differ: a zip lists its entries).
  const auto after = [](const std::string& out, const std::string& key) {  // timings aside
    const std::size_t at = out.find("\"" + key + "\"");
    return at == std::string::npos ? std::string()
                                   : out.substr(at, out.find("\"parseSeconds\"") - at);
  };
  const auto field = [](const std::string& out, const std::string& key) {
    const std::size_t at = out.find("\"" + key + "\":");
    return at == std::string::npos ? std::string()
                                   : out.substr(at, out.find_first_of(",}", at) - at);
  };
  REQUIRE(!after(plain.out, "converged").empty());
  for (const char* name :
       {"archive/lichess-100.pgn.zst", "archive/lichess-100.pgn.gz", "archive/lichess-100.pgn.bz2",
        "archive/lichess-100-three.zip", "archive/lichess-100-streamed.zip"}) {
    CAPTURE(name);
    const CliRun run =
        run_cli({"fit", "--json", "--no-progress", "--solver", "newton", fixture(name)});
    CHECK(run.status == 0);
    REQUIRE(one_json_object(run.out));
    CHECK(after(run.out, "converged") == after(plain.out, "converged"));
    for (const char* key : {"games", "used", "partial", "skipped", "rows", "decisiveRows", "draws",
                            "distinctRows", "bytes"}) {
      CAPTURE(key);
      CHECK(!field(plain.out, key).empty());
      CHECK(field(run.out, key) == field(plain.out, key));
    }
  }
  // A zip's PGN entries are files named archive:entry, in order; README.txt is not read.
  const CliRun zip = run_cli({"fit", "--json", "--no-progress", "--solver", "newton",
                              fixture("archive/lichess-100-three.zip")});
  const std::string zip_name = fixture("archive/lichess-100-three.zip");
  CHECK(contains(zip.out, zip_name + ":games1.pgn"));
  CHECK(contains(zip.out, zip_name + ":games3.pgn"));
  CHECK_FALSE(contains(zip.out, "README.txt"));
}

TEST_CASE("cli fit: xz, 7z and rar are refused by their magic bytes, whatever their name") {
  const CliRun xz =
      run_cli({"fit", "--json", "--no-progress", fixture("archive/lichess-100.pgn.xz")});
  CHECK(xz.status == 1);
  REQUIRE(one_json_object(xz.out));
  CHECK(contains(xz.out, "\"error\":{\"code\":\"unsupported-format\""));
  CHECK(contains(xz.out, "xz-compressed data is not supported"));
  CHECK(contains(xz.out, "decompress it first (xz -d)"));

  const CliRun seven = run_cli({"fit", "--no-progress", fixture("archive/renamed-7z.pgn")});
  CHECK(seven.status == 1);
  CHECK(contains(seven.err, fixture("archive/renamed-7z.pgn") + ": 7z archive is not supported"));

  const TempFile rar("games.pgn", std::string("Rar!\x1A\x07\x01\x00", 8) + "junk");
  const CliRun rows = run_cli({"rows", "--no-progress", rar.path()});
  CHECK(rows.status == 1);
  CHECK(rows.out.empty());
  CHECK(contains(rows.err, "rar archive is not supported"));
}

TEST_CASE("cli fit: truncated or corrupt compressed input fails, saying at which byte") {
  const std::string truncated = fixture("archive/lichess-100-truncated.pgn.zst");
  const CliRun json = run_cli({"fit", "--json", "--no-progress", truncated});
  CHECK(json.status == 1);
  REQUIRE(one_json_object(json.out));
  CHECK(contains(json.out, "\"error\":{\"code\":\"corrupt-archive\""));
  CHECK(contains(json.out, "truncated zstd data: the input ends inside a frame at byte 29521"));

  const TempFile junk("junk.gz", std::string("\x1F\x8B\x08\x00\x00\x00\x00\x00", 8) + "junk");
  const CliRun text = run_cli({"fit", "--no-progress", junk.path()});
  CHECK(text.status == 1);
  CHECK(contains(text.err, junk.path() + ": corrupt gzip data"));
}

TEST_CASE("cli compare --json: a dataset that cannot be fitted has its own error") {
  const TempFile draws("compare-draws.pgn", draws_only_pgn());
  const CliRun run =
      run_cli({"compare", "--json", "--no-progress", draws.path(), fixture("pgn/lichess-100.pgn")});
  CHECK(run.status == 1);
  REQUIRE(one_json_object(run.out));
  CHECK(contains(run.out, "\"code\":\"no-decisive-rows\""));
  CHECK(contains(run.out, "\"error\":{\"code\":\"dataset-not-fitted\""));
  CHECK(contains(run.out, "\"values\":{\"P\":100"));  // the other dataset is fitted

  const CliRun text =
      run_cli({"compare", "--no-progress", draws.path(), fixture("pgn/lichess-100.pgn")});
  CHECK(text.status == 1);
  CHECK(contains(text.out, "not fitted: "));
  CHECK(contains(text.out, "Knight"));
}

// ---- honest states: warnings, identification, the kind of the errors ----

TEST_CASE("cli fit: warnings are printed and a coefficient without information is not a number") {
  const TempFile mat("no-queens.mat", rows_without_queens());
  const CliRun text = run_cli({"fit", "--no-progress", mat.path()});
  CHECK(text.status == 0);  // fitted, with warnings
  CHECK(contains(text.out, "Warning: "));
  CHECK(contains(text.out, "Queen:"));
  CHECK(contains(text.out, "not identified"));
  CHECK(contains(text.out, "NOT A PLAIN FIT"));
  CHECK_FALSE(contains(text.out, "converged"));
  CHECK(contains(text.out, "relations: not checked"));

  const CliRun json = run_cli({"fit", "--json", "--no-progress", mat.path()});
  CHECK(json.status == 0);
  REQUIRE(one_json_object(json.out));
  CHECK(contains(json.out, "\"code\":\"not-identified\""));
  CHECK(contains(json.out, "\"Q\":null"));
  CHECK(contains(json.out, "{\"name\":\"queen\",\"identified\":false,\"theta\":null"));
  CHECK(contains(json.out, "\"value\":null"));
  CHECK(contains(json.out, "\"relations\":[]"));
}

TEST_CASE("cli fit: the text names the kind of standard errors") {
  const CliRun run = run_cli({"fit", "--no-progress", fixture("pgn/lichess-2021-10-first999.pgn")});
  CHECK(run.status == 0);
  CHECK(contains(run.out, "± game-clustered standard errors ("));
  CHECK(contains(run.out, " games)"));
  CHECK_FALSE(contains(run.out, "Warning:"));
  CHECK_FALSE(contains(run.out, "NOT A PLAIN FIT"));
}

TEST_CASE("cli fit: Capablanca's relations are given in the units of the table") {
  const std::string pgn = fixture("pgn/OpenRating.pgn");
  const CliRun pawns = run_cli({"fit", "--no-progress", pgn});
  CHECK(contains(pawns.out, "Capablanca's relations (pawn = 100):"));
  CHECK(contains(pawns.out, "B 346 > N 289"));
  const CliRun elo = run_cli({"fit", "--no-progress", "--units", "elo", pgn});
  CHECK(contains(elo.out, "Capablanca's relations (Elo):"));
  CHECK(contains(elo.out, "B 449 > N 376"));  // the Elo values of the table above, rounded
  CHECK(contains(elo.out, "Bishop:        448.843"));
  const CliRun log_odds = run_cli({"fit", "--no-progress", "--units", "logodds", pgn});
  CHECK(contains(log_odds.out, "Capablanca's relations (log-odds):"));
  CHECK(contains(log_odds.out, "B 2.58 > N 2.16"));
}

// ---- a player's point of view ----

TEST_CASE("cli fit: from a player's point of view the intercept is on and reads as the edge") {
  const std::string pgn = fixture("pgn/OpenRating.pgn");
  const std::string pov = "player=Booot*;pov=1";
  const CliRun text = run_cli({"fit", "--no-progress", "--filter", pov, pgn});
  CHECK(text.status == 0);
  CHECK(contains(text.out, "Player's edge:"));
  CHECK(contains(text.out, "the player wins"));
  CHECK(contains(text.out, "the opponent wins"));
  CHECK_FALSE(contains(text.out, "white wins"));
  CHECK_FALSE(contains(text.out, "White's first move"));

  const CliRun json = run_cli({"fit", "--json", "--no-progress", "--filter", pov, pgn});
  CHECK(json.status == 0);
  CHECK(contains(json.out, "\"pointOfView\":\"player\""));
  CHECK(contains(json.out, "{\"name\":\"player-edge\""));
  CHECK(contains(json.out, "\"player-edge\":"));
  CHECK_FALSE(contains(json.out, "\"intercept\""));

  const CliRun off = run_cli({"fit", "--no-progress", "--no-intercept", "--filter", pov, pgn});
  CHECK(off.status == 0);
  CHECK_FALSE(contains(off.out, "Player's edge"));

  // Without a point of view the intercept stays off unless asked, and is White's first move.
  const CliRun white = run_cli({"fit", "--no-progress", pgn});
  CHECK_FALSE(contains(white.out, "Intercept"));
  const CliRun asked = run_cli({"fit", "--json", "--no-progress", "--intercept", pgn});
  CHECK(contains(asked.out, "{\"name\":\"intercept\""));
  CHECK(contains(run_cli({"fit", "--no-progress", "--intercept", pgn}).out,
                 "Intercept (White's first move):"));
}

TEST_CASE("cli rows: a player's point of view is White's rows and Black's rows negated") {
  const std::string pgn = fixture("pgn/OpenRating.pgn");
  const auto rows = [&](const std::string& filter) {
    const CliRun run = run_cli({"rows", "--no-progress", "--filter", filter, pgn});
    REQUIRE(run.status == 0);
    std::vector<std::vector<int>> out;
    for (const std::string& line : lines_of(run.out)) {
      std::vector<int> row;
      for (const std::string& field : fields_of(line)) row.push_back(std::stoi(field));
      out.push_back(row);
    }
    return out;
  };
  std::vector<std::vector<int>> expected = rows("player=Booot*;side=white");
  for (std::vector<int> row : rows("player=Booot*;side=black")) {
    for (int i = 0; i < 5; ++i) row[i] = -row[i];
    row[5] = 2 - row[5];  // the player's win is Black's win
    expected.push_back(row);
  }
  std::vector<std::vector<int>> pov = rows("player=Booot*;pov=1");
  REQUIRE(!pov.empty());
  std::sort(expected.begin(), expected.end());
  std::sort(pov.begin(), pov.end());
  CHECK(pov == expected);
}

TEST_CASE("cli --help documents the exit statuses; fit's and rows' help their options") {
  const CliRun run = run_cli({"--help"});
  CHECK(run.status == 0);
  for (const std::string text : {"Exit status", "zstd", "unsupported-format"}) {
    CAPTURE(text);
    CHECK(contains(run.out, text));
  }
  CHECK(contains(run_cli({"fit", "--help"}).out, "--no-intercept"));
  CHECK(contains(run_cli({"rows", "--help"}).out, "--game-ids"));
}

TEST_CASE("cli fit --side-to-move adds the side-to-move column") {
  const std::string pgn = fixture("pgn/lichess-2021-10-first999.pgn");
  const CliRun json = run_cli({"fit", "--json", "--no-progress", "--side-to-move", pgn});
  CHECK(json.status == 0);
  REQUIRE(one_json_object(json.out));
  CHECK(contains(json.out, "{\"name\":\"side-to-move\""));
  CHECK_FALSE(contains(run_cli({"fit", "--json", "--no-progress", pgn}).out, "side-to-move"));
  const CliRun text = run_cli({"fit", "--no-progress", "--side-to-move", pgn});
  CHECK(text.status == 0);
  CHECK(contains(text.out, "Side to move:"));
  CHECK(contains(run_cli({"fit", "--help"}).out, "--side-to-move"));
}
