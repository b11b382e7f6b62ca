// fit --model squares and positions, end to end in-process: the JSON contract, the exports, the
// refusals, the labelled EPD lines.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli_test_util.h"
#include "core/json_value.h"

namespace materialist::cli {

using namespace testing;

TEST_CASE("fit --model squares --json: squares, their errors and the held-out comparison") {
  const CliRun run = run_cli({"fit", "--model", "squares", "--every-position", "--max-games",
                              "1200", "--json", "--no-progress", fixture("pgn/OpenRating.pgn")});
  REQUIRE(run.status == kExitOk);
  REQUIRE(one_json_object(run.out));
  const auto json = parse_json(run.out);
  REQUIRE(json);
  for (const char* key : {"squares", "squaresSe"}) {
    const JsonValue* tables = json->find(key);
    REQUIRE(tables != nullptr);
    for (const char* phase : {"mg", "eg"}) {
      const JsonValue* one = tables->find(phase);
      REQUIRE(one != nullptr);
      for (const char* piece : {"P", "N", "B", "R", "Q", "K"}) {
        const JsonValue* squares = one->find(piece);
        REQUIRE(squares != nullptr);
        REQUIRE(squares->size() == 64);
        for (const JsonValue& value : squares->items()) CHECK(value.is_number());
      }
    }
  }
  const JsonValue* validation = json->find("validation");
  REQUIRE(validation != nullptr);
  const double loss = validation->find("logLoss")->as_number();
  const double material = validation->find("materialLogLoss")->as_number();
  CHECK(loss > 0);
  CHECK(loss < material);  // the squares help on the held-out engine games
  CHECK(validation->find("games")->as_number() > 50);
  CHECK(json->find("values") != nullptr);  // the material fit, as ever
  CHECK(json->find("squaresUnit")->as_string() == "pawn");
  // In centipawns a knight in the centre is worth something, and less than a rook or two.
  const JsonValue& knights = (*json->find("squares")->find("mg")->find("N"));
  double centre = 0;
  for (const int square : {27, 28, 35, 36})
    centre += knights[static_cast<std::size_t>(square)].as_number();
  CHECK(centre / 4 > 0);
  CHECK(centre / 4 < 800);
}

TEST_CASE("fit --model squares: too few games keep the material fit and say why") {
  const CliRun run = run_cli({"fit", "--model", "squares", "--max-games", "10", "--json",
                              "--no-progress", fixture("pgn/OpenRating.pgn")});
  CHECK(run.status == kExitNoResult);
  REQUIRE(one_json_object(run.out));
  const auto json = parse_json(run.out);
  REQUIRE(json);
  CHECK(json->find("values") != nullptr);
  REQUIRE(json->find("squaresError") != nullptr);
  CHECK(contains(json->find("squaresError")->find("message")->as_string(), "too few positions"));
  CHECK(contains(run.err, "values by square"));

  const CliRun text = run_cli({"fit", "--model", "squares", "--max-games", "10", "--no-progress",
                               fixture("pgn/OpenRating.pgn")});
  CHECK(text.status == kExitNoResult);
  CHECK(contains(text.out, "Values by square: not fitted: too few positions"));
}

TEST_CASE("fit --model squares: the exports and the options that need it") {
  const std::string csv =
      (std::filesystem::temp_directory_path() / "materialist-squares-test.csv").string();
  const std::string header =
      (std::filesystem::temp_directory_path() / "materialist-squares-test.h").string();
  for (const std::string& path : {csv, header}) {
    const CliRun run =
        run_cli({"fit", "--model", "squares", "--every-position", "--max-games", "600",
                 "--no-progress", "--export-squares", path, fixture("pgn/OpenRating.pgn")});
    REQUIRE(run.status == kExitOk);
    CHECK(contains(run.out, "Values by square"));
    CHECK(contains(run.out, "held-out log-loss"));
  }
  std::ifstream csv_in(csv);
  std::stringstream csv_text;
  csv_text << csv_in.rdbuf();
  const auto lines = lines_of(csv_text.str());
  REQUIRE(lines.size() == 1 + 6 * 2 * 64);
  CHECK(lines[0] == "piece,phase,square,value,se,positions,sparse");
  CHECK(lines[1].rfind("P,mg,a1,", 0) == 0);
  std::ifstream header_in(header);
  std::stringstream header_text;
  header_text << header_in.rdbuf();
  CHECK(contains(header_text.str(), "inline constexpr int kMgKnight[64] = {"));
  CHECK(contains(header_text.str(), "index 0 = a8"));
  std::remove(csv.c_str());
  std::remove(header.c_str());

  const CliRun refused = run_cli({"fit", "--max-positions", "5000", fixture("pgn/OpenRating.pgn")});
  CHECK(refused.status == kExitBadOptions);
  CHECK(contains(refused.err, "--max-positions needs --model squares"));
  const CliRun ordinal = run_cli({"fit", "--model", "squares", "--outcomes", "ordinal",
                                  "--no-progress", fixture("pgn/OpenRating.pgn")});
  CHECK(ordinal.status == kExitBadOptions);
}

TEST_CASE("positions --format epd: one labelled line per recorded position") {
  const TempFile pgn("positions.pgn",
                     "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n"
                     "[Result \"1/2-1/2\"]\n\n1. d4 d5 2. c4 e6 1/2-1/2\n");
  const CliRun run = run_cli({"positions", "--every-position", "--no-progress", pgn.path()});
  REQUIRE(run.status == kExitOk);
  const auto lines = lines_of(run.out);
  REQUIRE(lines.size() == 8);  // every ply from the second on (two quiet plies)
  CHECK(lines[0] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 [1.0]");
  CHECK(lines[4] == "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - [1.0]");
  CHECK(lines[5] == "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 [0.5]");
  CHECK(lines[7] == "rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - [0.5]");

  const CliRun none = run_cli(
      {"positions", "--no-progress", "--max-games", "1", "--quiet-plies", "100", pgn.path()});
  CHECK(none.status == kExitNoResult);
  CHECK(contains(none.err, "no position to write"));
}

}  // namespace materialist::cli
