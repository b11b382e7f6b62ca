// The fuzz targets' properties in the doctest suite: every past finding (a file in
// tests/fixtures/fuzz/<target>/, named after what it found) must now pass its target's check, and
// each check holds on the fixtures the seed corpora come from.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz_checks.h"
#include "learn/filter/game_filter.h"
#include "pgn/recorder.h"
#include "play/book.h"
#include "test_util.h"

namespace materialist::fuzz {

namespace {

using testing::read_fixture;

std::vector<std::string> finding_files(const std::string& target) {
  std::vector<std::string> files;
  std::error_code error;
  const std::filesystem::path dir = testing::fixture("fuzz/" + target);
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.is_regular_file())
      files.push_back("fuzz/" + target + "/" + entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void check_passes(Check check, const std::string& input, const std::string& what) {
  const Failure failure = check(input);
  INFO(what);
  CHECK_MESSAGE(!failure, failure.value_or(""));
}

}  // namespace

TEST_CASE("fuzz findings: every past finding passes its target's check") {
  std::size_t findings = 0;
  for (const NamedCheck& named : kChecks) {
    for (const std::string& file : finding_files(named.name)) {
      check_passes(named.check, read_fixture(file), file);
      ++findings;
    }
  }
  CHECK(findings > 0);  // the directory is there and read
}

TEST_CASE("fuzz checks hold on the fixtures") {
  const std::string games = read_fixture("pgn/lichess-100.pgn");
  REQUIRE(games.size() > 100000);
  check_passes(check_pgn_chunking, games.substr(0, 20000), "lichess-100.pgn, first 20 kB");
  check_passes(check_ingest, games, "lichess-100.pgn");
  const std::string annotated = read_fixture("pgn/lichess-2021-10-first999.pgn");
  check_passes(check_ingest_eval, annotated.substr(0, annotated.find("[Event", 400000)),
               "lichess-2021-10-first999.pgn, first 400 kB");
  for (const char* comment : {" [%eval 0.17] ", "[%eval -1.05,23]", "[%eval #3]", "[%eval #-2]",
                              "[%clk 0:00:10] [%eval 0.5]", "[%eval] [%eval 1.]", "[%eval #0"}) {
    check_passes(check_eval_comment, comment, comment);
  }
  check_passes(check_ingest, read_fixture("pgn/OpenRating.pgn").substr(0, 200000),
               "OpenRating.pgn, first 200 kB");
  check_passes(check_mat_import, read_fixture("learn/OpenRating.article.mat"), "article .mat");
  check_passes(check_play_text,
               "mine:100,289,346,480,1078\n" + std::string(play::default_book_text()),
               "a value set and the bundled book");
  check_passes(check_play_text, "classic\n" + games.substr(0, 20000), "a named set and games");
  check_passes(check_archive_zstd, read_fixture("archive/lichess-100.pgn.zst"), "zstd");
  check_passes(check_archive_zstd, read_fixture("archive/lichess-100-truncated.pgn.zst"),
               "truncated zstd");
  check_passes(check_archive_gzip, read_fixture("archive/lichess-100.pgn.gz"), "gzip");
  check_passes(check_archive_bzip2, read_fixture("archive/lichess-100.pgn.bz2"), "bzip2");
  check_passes(check_archive_zip, read_fixture("archive/lichess-100-streamed.zip"), "zip");
  check_passes(check_fen, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
               "a Chess960 FEN");
  check_passes(check_filter_text, "tc=blitz,rapid;elo=1500-\ntc=blitz", "two filters");
  check_passes(check_settings, R"({"preset":"article","units":"elo","filter":"tc=blitz"})",
               "settings");
  // Standard and Chess960 starts (odd first byte), 60 plies each, with offered SAN texts.
  std::string plies(60, '\x07');
  check_passes(check_san, "\x00\x00" + plies + "\xff\x02Nf3", "standard");
  for (int start = 1; start < 256; start += 2) {
    check_passes(check_san, std::string(1, static_cast<char>(start)) + "\x01" + plies,
                 "Chess960 start byte " + std::to_string(start));
  }
}

// The findings above, in brief.
TEST_CASE("fuzz finding: an overlong tag name split from its blanks by a chunk") {
  const std::string text = "[" + std::string(300, 'A') + "   ]\n1. e4 *\n";
  pgn::testing::Recorder whole, chunked;
  pgn::parse_all(text, whole);
  pgn::Parser parser(chunked);
  parser.feed(text.data(), 301);  // the name overflows, then the blanks start a new chunk
  parser.feed(text.data() + 301, text.size() - 301);
  parser.finish();
  CHECK(whole.events == chunked.events);
  REQUIRE(chunked.end(0).errors.size() == 1);
  CHECK(chunked.end(0).errors[0].message == "tag name too long");
  CHECK(chunked.end(0).errors[0].location.offset == 301);
}

TEST_CASE("fuzz finding: a layered filter key with blanks replaces the base's") {
  const std::string combined = learn::combine_game_filters("opponent=a;tc=blitz", "\nopponent =b");
  CHECK(combined == "tc=blitz;opponent =b");
  CHECK(learn::parse_game_filter(combined));
}

TEST_CASE("fuzz finding: a filter value with blanks at its ends formats back to itself") {
  const auto options = learn::parse_game_filter("player=%20Carlsen%20;event=Titled");
  REQUIRE(options);
  CHECK(options->player == " Carlsen ");
  const std::string text = learn::format_game_filter(*options);
  CHECK(text == "player=%20Carlsen%20;event=Titled");
  const auto again = learn::parse_game_filter(text);
  REQUIRE(again);
  CHECK(*again == *options);
}

}  // namespace materialist::fuzz
