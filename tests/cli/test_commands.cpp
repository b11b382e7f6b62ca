#include <doctest/doctest.h>

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
