// The play commands end to end in-process: match's text, JSON and PGN, its errors (exit 2), the
// same PGN with any -j; analyse's JSON; selfplay's rounds; the played PGN read back by fit.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli_test_util.h"
#include "cli/match_command.h"
#include "core/json_value.h"

namespace materialist::cli {

using namespace testing;

namespace {

const std::vector<std::string> kQuickMatch = {
    "match",   "--values", "learned-sample", "--vs", "classic",      "--pairs", "3",
    "--nodes", "600",      "--seed",         "3",    "--no-progress"};

std::string read_all_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace

TEST_CASE("match --json: one object with the statistics engine testers read") {
  const CliRun run = run_cli(with(kQuickMatch, {"--json", "--sprt", "0,10"}));
  REQUIRE(run.status == kExitOk);
  REQUIRE(one_json_object(run.out));
  auto json = parse_json(run.out);
  REQUIRE(json);
  for (const char* key : {"pentanomial", "wins", "draws", "losses", "score", "elo", "eloError95",
                          "nelo", "neloError95", "los", "sprt", "terminations", "gamesPlayed"}) {
    INFO(key);
    CHECK(json->find(key) != nullptr);
  }
  CHECK(json->find("pentanomial")->size() == 5);
  const JsonValue& sprt = *json->find("sprt");
  for (const char* key : {"elo0", "elo1", "alpha", "beta", "llr", "lower", "upper", "result"}) {
    INFO(key);
    CHECK(sprt.find(key) != nullptr);
  }
  CHECK(json->find("wins")->as_number() + json->find("draws")->as_number() +
            json->find("losses")->as_number() ==
        6);
  // Three pairs under an SPRT that has not decided: stopped at the limit.
  const JsonValue* verdict = json->find("verdict");
  REQUIRE(verdict != nullptr);
  REQUIRE(sprt.find("result")->as_string() == "continue");
  CHECK(verdict->find("kind")->as_string() == "inconclusive");
  CHECK(verdict->find("text")->as_string().rfind("stopped at the limit, inconclusive: LLR ", 0) ==
        0);
}

TEST_CASE("match: the text ends its statistics with the verdict in words") {
  const CliRun run = run_cli(kQuickMatch);
  REQUIRE(run.status == kExitOk);
  // Six games: too few to tell, and the figures say nothing infinite.
  CHECK(contains(run.out, "\nVerdict: too few games to tell (6 played)\n"));
  CHECK_FALSE(contains(run.out, "inf"));
  const CliRun json = run_cli(with(kQuickMatch, {"--json"}));
  auto parsed = parse_json(json.out);
  REQUIRE(parsed);
  REQUIRE(parsed->find("verdict") != nullptr);
  CHECK(parsed->find("verdict")->find("kind")->as_string() == "too-few-games");
}

TEST_CASE("match: several opponents add each match and a rating table") {
  const CliRun run =
      run_cli({"match", "--values", "learned-sample", "--vs", "classic", "--vs", "article-12.5",
               "--round-robin", "--pairs", "1", "--nodes", "400", "--json", "--no-progress"});
  REQUIRE(run.status == kExitOk);
  auto json = parse_json(run.out);
  REQUIRE(json);
  REQUIRE(json->find("matches") != nullptr);
  CHECK(json->find("matches")->size() == 3);
  REQUIRE(json->find("ratings") != nullptr);
  CHECK(json->find("ratings")->size() == 3);
  CHECK(json->find("schedule")->as_string() == "round-robin");
  for (const JsonValue& pairing : json->find("matches")->items()) {
    REQUIRE(pairing.find("verdict") != nullptr);
    CHECK(pairing.find("verdict")->find("kind")->as_string() == "too-few-games");
  }
  const CliRun text = run_cli({"match", "--values", "learned-sample", "--vs", "classic", "--vs",
                               "article-12.5", "--pairs", "1", "--nodes", "400", "--no-progress"});
  CHECK(contains(text.out, "Ratings"));
  CHECK(contains(text.out, "learned-sample"));
  CHECK(contains(text.out, "  verdict: too few games to tell (2 played)\n"));
}

TEST_CASE("match: the same seed gives the same PGN with any -j, and fit reads it back") {
  TempFile one("match-j1.pgn", "");
  TempFile two("match-j3.pgn", "");
  REQUIRE(run_cli(with(kQuickMatch, {"-j", "1", "--pgn", one.path()})).status == kExitOk);
  REQUIRE(run_cli(with(kQuickMatch, {"-j", "3", "--pgn", two.path()})).status == kExitOk);
  const std::string pgn = read_all_file(one.path());
  CHECK(pgn == read_all_file(two.path()));
  CHECK(contains(pgn, "[Round \"3\"]"));
  const CliRun fit = run_cli({"fit", "--json", "--no-progress", one.path()});
  REQUIRE(fit.status == kExitOk);
  auto json = parse_json(fit.out);
  REQUIRE(json);
  CHECK(json->find("games")->as_number() == 6);
  CHECK(json->find("skipped")->as_number() == 0);
}

TEST_CASE("match: bad values, books and SPRT bounds are clear errors with exit status 2") {
  auto error_of = [](const std::vector<std::string>& args) {
    const CliRun run = run_cli(args);
    CHECK(run.status == kExitBadOptions);
    return run.err;
  };
  CHECK(contains(error_of({"match", "--values", "100,300,x,500,900", "--vs", "classic"}),
                 "'x' is not a number"));
  CHECK(contains(error_of({"match", "--values", "0,300,300,500,900", "--vs", "classic"}),
                 "pawn of 0"));
  CHECK(contains(error_of({"match", "--values", "100,-3,300,500,900", "--vs", "classic"}),
                 "less than nothing"));
  CHECK(contains(error_of({"match", "--values", "classic"}), "needs an opponent"));
  CHECK(contains(error_of({"match", "--vs", "classic"}), "needs --values"));
  CHECK(contains(error_of(with(kQuickMatch, {"--book", "/no/such/book.pgn"})), "cannot read"));
  TempFile empty("empty-book.pgn", "");
  CHECK(contains(error_of(with(kQuickMatch, {"--book", empty.path()})), "the book is empty"));
  CHECK(contains(error_of(with(kQuickMatch, {"--sprt", "10,0"})), "--sprt"));
  CHECK(contains(error_of(with(kQuickMatch, {"--sprt", "0,5,0.9,0.05"})), "--sprt"));
  CHECK(contains(error_of(with(kQuickMatch, {"--depth", "3"})), "one limit"));
  CHECK(contains(error_of(with(kQuickMatch, {"--nodes", "100"})), "--nodes is given twice"));
  CHECK(contains(error_of({"match", "--values", "classic", "--vs", "kaufman", "--vs", "article-c",
                           "--sprt", "0,5"}),
                 "two sets"));
}

TEST_CASE("match: an EPD book") {
  TempFile book("book.epd",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n"
                "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n");
  const CliRun run = run_cli(with(kQuickMatch, {"--book", book.path(), "--json"}));
  REQUIRE(run.status == kExitOk);
  auto json = parse_json(run.out);
  REQUIRE(json);
  CHECK(json->find("book")->find("openings")->as_number() == 2);
}

TEST_CASE("analyse --json: best move, score as cp or mate, principal variation") {
  const CliRun mate = run_cli(
      {"analyse", "--fen", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "--depth", "3", "--json"});
  REQUIRE(mate.status == kExitOk);
  auto json = parse_json(mate.out);
  REQUIRE(json);
  CHECK(json->find("bestMove")->find("san")->as_string() == "Ra8#");
  CHECK(json->find("bestMove")->find("uci")->as_string() == "a1a8");
  CHECK(json->find("score")->find("mate")->as_number() == 1);
  const CliRun castle = run_cli({"analyse", "--fen", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                                 "--depth", "2", "--values", "100,300,300,500,900", "--json"});
  REQUIRE(castle.status == kExitOk);
  auto quiet = parse_json(castle.out);
  REQUIRE(quiet);
  CHECK(quiet->find("score")->find("cp") != nullptr);
  CHECK(quiet->find("pv")->size() >= 1);
  CHECK(quiet->find("depth")->as_number() == 2);
  // --vs: the same position seen with another set, side by side.
  const CliRun both = run_cli({"analyse", "--fen", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                               "--depth", "2", "--vs", "article-12.5", "--json"});
  REQUIRE(both.status == kExitOk);
  auto pair = parse_json(both.out);
  REQUIRE(pair);
  REQUIRE(pair->find("vs") != nullptr);
  CHECK((*pair->find("vs"))[0].find("set")->as_string() == "article-12.5");
  CHECK(pair->find("set")->as_string() == "classic");
  CHECK(run_cli({"analyse", "--fen", "not a fen"}).status == kExitBadOptions);
  CHECK(run_cli({"analyse"}).status == kExitBadOptions);
}

TEST_CASE("uci: the play engine speaks UCI to match runners and GUIs") {
  std::FILE* in = std::tmpfile();
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  REQUIRE(in != nullptr);
  const std::string commands =
      "uci\nisready\nucinewgame\n"
      "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6\ngo nodes 20000\n"
      "position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ngo depth 3\n"
      "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1\ngo depth 1\nquit\n";
  std::fputs(commands.c_str(), in);
  std::rewind(in);
  CHECK(run_uci({"uci", "--values", "learned-sample"}, in, out, err) == kExitOk);
  const std::string text = read_all(out);
  CHECK(contains(text, "id name Materialist learned-sample"));
  CHECK(contains(text, "uciok"));
  CHECK(contains(text, "readyok"));
  CHECK(contains(text, "score mate 1"));
  CHECK(contains(text, "bestmove a1a8"));
  // Three searches, three best moves; castling read in the standard form (e1g1).
  CHECK(lines_of(text).size() >= 9);
  std::size_t bestmoves = 0;
  for (const std::string& line : lines_of(text)) bestmoves += line.rfind("bestmove ", 0) == 0;
  CHECK(bestmoves == 3);
  CHECK(read_all(err).empty());  // read_all closes out and err
  std::fclose(in);
}

TEST_CASE("selfplay: learn, play, learn again, each round's values and games") {
  const std::string folder =
      (std::filesystem::temp_directory_path() / "materialist-selfplay-test").string();
  std::filesystem::remove_all(folder);
  const CliRun run = run_cli({"selfplay", "--rounds", "2", "--pairs", "6", "--nodes", "400",
                              "--out", folder, "--json", "--no-progress"});
  REQUIRE(run.status == kExitOk);
  auto json = parse_json(run.out);
  REQUIRE(json);
  REQUIRE(json->find("rounds")->size() == 2);
  CHECK(std::filesystem::exists(folder + "/round-2.pgn"));
  CHECK((*json->find("rounds"))[1].find("learned")->as_string().rfind("100,", 0) == 0);
  std::filesystem::remove_all(folder);
}

}  // namespace materialist::cli
