// -j N: parse threads give exactly the output of -j 1 (the sequential read), for plain and
// compressed files, bootstrap intervals, bad games' issues, compare's datasets and rows' order.
#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"
#include "cli/options.h"

using materialist::cli::parse_options;
using materialist::cli::testing::CliRun;
using materialist::cli::testing::contains;
using materialist::cli::testing::fixture;
using materialist::cli::testing::one_json_object;
using materialist::cli::testing::read_fixture_text;
using materialist::cli::testing::run_cli;
using materialist::cli::testing::TempFile;
using materialist::cli::testing::without_timings;

namespace {

// --json output without its timings, the one part that may differ.
// The command with -j 1, and with -j 3 cutting the text into small chunks: the same output.
void check_same_output(const std::vector<std::string>& command, const std::string& chunk_bytes) {
  std::vector<std::string> one = command;
  one.insert(one.begin() + 1, {"-j", "1"});
  std::vector<std::string> three = command;
  three.insert(three.begin() + 1, {"-j", "3", "--chunk-bytes", chunk_bytes});
  const CliRun sequential = run_cli(one);
  const CliRun parallel = run_cli(three);
  CHECK(parallel.status == sequential.status);
  CHECK(!(sequential.out.empty() && sequential.err.empty()));
  CHECK(without_timings(parallel.out) == without_timings(sequential.out));
  CHECK(parallel.err == sequential.err);
}

// Games that end in every way a cut could disturb (see tests/learn/read/test_dataset_part.cpp): no
// result before the next game, an illegal move, an open variation, an open comment, CRLF lines,
// a game without an Event tag, junk, and a '{' left open among a game's tags that swallows the
// next game's tags.
std::string awkward_pgn() {
  const std::string lichess = read_fixture_text("pgn/lichess-100.pgn");
  std::string text = lichess.substr(0, lichess.find("\n\n[Event \"", 20000) + 2);
  text += "[Event \"no result\"]\n[White \"a\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#\n\n";
  text += "[Event \"illegal\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n";
  text += "[Event \"open variation\"]\n[Result \"0-1\"]\n\n1. d4 (1. e4 e5 2. Nf3 d5 exd5\n\n";
  text += "[Event \"open comment\"]\n[Result \"1-0\"]\n\n1. e4 {left open 2. d4\n\n";
  text += "[Event \"crlf\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 d5 2. exd5 Qxd5 3. Nc3 1-0\r\n\r\n";
  text += "[Site \"no event\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n";
  text += "junk between games\n\n";
  text += "[Event \"x\"]\n[White \"a\"] {open\n\n";
  text += lichess.substr(lichess.find("[Event \"", 30000));
  return text;
}

}  // namespace

TEST_CASE("cli -j: fit --json on OpenRating.pgn is the same as -j 1, with --bootstrap too") {
  const std::string file = fixture("pgn/OpenRating.pgn");
  check_same_output({"fit", "--json", "--no-progress", file}, "20000");
  check_same_output({"fit", "--json", "--no-progress", "--bootstrap", "20", file}, "50000");
  check_same_output(
      {"fit", "--json", "--no-progress", "--preset", "article", "--log-every", "5000", file},
      "100000");
  // The text output too (its timings are not printed).
  check_same_output({"fit", "--no-progress", "--bishop-pair", "--phase", file}, "30000");
  const CliRun run = run_cli({"fit", "--json", "--no-progress", "-j", "2", "--bootstrap", "20",
                              "--chunk-bytes", "50000", file});
  CHECK(one_json_object(run.out));
  CHECK(contains(run.out, "\"games\":2997"));
  CHECK(contains(run.out, "\"valueIntervals\""));
}

TEST_CASE("cli -j: zstd, gzip, bzip2 and zip archives give -j 1's output, entries and all") {
  for (const char* name :
       {"archive/lichess-100.pgn.zst", "archive/lichess-100.pgn.gz", "archive/lichess-100.pgn.bz2",
        "archive/lichess-100-three.zip", "archive/lichess-100-streamed.zip"}) {
    CAPTURE(name);
    check_same_output({"fit", "--json", "--no-progress", "--bootstrap", "5", fixture(name)},
                      "3000");
  }
  const CliRun zip = run_cli({"fit", "--json", "--no-progress", "-j", "3", "--chunk-bytes", "3000",
                              fixture("archive/lichess-100-three.zip")});
  CHECK(contains(zip.out, fixture("archive/lichess-100-three.zip") + ":games2.pgn"));
}

TEST_CASE("cli -j: corrupt data mid-way keeps the games before it, with -j 1's message") {
  const std::string truncated = fixture("archive/lichess-100-truncated.pgn.zst");
  check_same_output({"fit", "--json", "--no-progress", truncated}, "2000");
  check_same_output({"fit", "--no-progress", truncated}, "2000");
  const CliRun run =
      run_cli({"fit", "--json", "--no-progress", "-j", "3", "--chunk-bytes", "2000", truncated});
  CHECK(run.status == 1);
  CHECK(contains(run.out, "truncated zstd data: the input ends inside a frame at byte 29521"));
  CHECK_FALSE(contains(run.out, "\"games\":0,"));  // the games before the damage are kept
  // A missing file after a good one: the reading stops there, as with -j 1.
  check_same_output({"fit", "--json", "--no-progress", fixture("pgn/lichess-100.pgn"),
                     fixture("pgn/no-such-file.pgn"), fixture("pgn/OpenRating.pgn")},
                    "5000");
}

TEST_CASE("cli -j: bad games are reported with -j 1's line and game numbers") {
  const TempFile awkward("parallel-awkward.pgn", awkward_pgn());
  for (const char* chunk : {"1", "700", "9000"}) {
    CAPTURE(chunk);
    check_same_output({"fit", "--json", "--no-progress", "--bootstrap", "7", awkward.path()},
                      chunk);
  }
  const CliRun run =
      run_cli({"fit", "--json", "--no-progress", "-j", "3", "--chunk-bytes", "1", awkward.path()});
  CHECK(contains(run.out, "\"reason\":\"illegal-move\""));
  CHECK(contains(run.out, "\"reason\":\"unknown-result\""));
  CHECK(contains(run.out, "\"reason\":\"pgn-syntax\""));
}

TEST_CASE("cli -j: a chunk that does not stand alone gives back the game pairs its thread kept") {
  // The first cut falls at the game start the open '{' swallows: the first chunk, every game
  // before that one included, is read again by the merger, and its kept pairs must come out.
  const std::string text = awkward_pgn();
  const TempFile awkward("parallel-taken-back.pgn", text);
  const std::size_t swallowing = text.find("[Event \"x\"]");
  REQUIRE(swallowing > 10000);
  const std::string chunk = std::to_string(swallowing + 1);
  check_same_output({"fit", "--json", "--no-progress", awkward.path()}, chunk);
  check_same_output({"compare", "--json", "--no-progress", "--each", "elo=1500-", "--each",
                     "elo=-1499", awkward.path()},
                    chunk);
}

TEST_CASE("cli -j: compare's per-file and per-filter datasets are -j 1's") {
  const TempFile awkward("parallel-compare.pgn", awkward_pgn());
  const std::string lichess = fixture("pgn/lichess-2021-10-first999.pgn");
  check_same_output({"compare", "--json", "--no-progress", "--bootstrap", "4", awkward.path(),
                     lichess, fixture("archive/lichess-100-three.zip")},
                    "4000");
  check_same_output({"compare", "--json", "--no-progress", "--each", "elo=1500-", "--each",
                     "elo=-1499", awkward.path(), lichess},
                    "4000");
  check_same_output(
      {"compare", "--no-progress", "--each", "tc=blitz", "--each", "tc=rapid", lichess}, "10000");
}

TEST_CASE("cli -j: rows come out in file order, game ids and .mat input included") {
  const TempFile awkward("parallel-rows.pgn", awkward_pgn());
  const TempFile mat("parallel-rows.mat", "1 0 0 0 0 2\n-1 0 0 0 0 0\n0 1 0 0 0 2\n");
  check_same_output({"rows", "--no-progress", "--game-ids", awkward.path(), mat.path(),
                     fixture("archive/lichess-100.pgn.zst")},
                    "500");
  const CliRun rows = run_cli({"rows", "--no-progress", "--preset", "article", "-j", "3",
                               "--chunk-bytes", "500", fixture("pgn/OpenRating.pgn")});
  CHECK(rows.status == 0);
  CHECK(std::count(rows.out.begin(), rows.out.end(), '\n') == 20215);  // README's figure
}

TEST_CASE("cli: -j N and --jobs N set the parse threads; 0 and junk are bad options") {
  CHECK(parse_options({"fit", "a.pgn"})->jobs == 0);  // one per core
  CHECK(parse_options({"fit", "-j", "3", "a.pgn"})->jobs == 3);
  CHECK(parse_options({"fit", "--jobs", "2", "a.pgn"})->jobs == 2);
  CHECK(parse_options({"fit", "-j4", "a.pgn"})->jobs == 4);
  CHECK(parse_options({"fit", "--chunk-bytes", "1000", "a.pgn"})->chunk_bytes == 1000);
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"fit", "-j", "0", "a.pgn"},
                                              {"fit", "-j", "x", "a.pgn"},
                                              {"fit", "-j0", "a.pgn"},
                                              {"fit", "--jobs", "-2", "a.pgn"},
                                              {"fit", "a.pgn", "-j"},
                                              {"fit", "--chunk-bytes", "0", "a.pgn"}}) {
    CAPTURE(bad[2]);
    CHECK_FALSE(parse_options(bad).ok());
  }
  const CliRun run = run_cli({"fit", "--json", "-j", "0", fixture("pgn/lichess-100.pgn")});
  CHECK(run.status == 2);
  CHECK(contains(run.out, "\"code\":\"bad-options\""));
  CHECK(contains(run.err, "--jobs expects a whole number from 1"));
}
