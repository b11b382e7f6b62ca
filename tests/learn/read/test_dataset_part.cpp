// A file read in parts (chunks parsed on their own, merged in order) gives exactly what a
// sequential read gives: histogram, game pairs, bootstrap replicates, report, issues and rows.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "learn/learn_test_util.h"
#include "learn/read/dataset_split.h"
#include "learn/read/part_merger.h"
#include "learn/read/report_json.h"
#include "pgn/game_chunker.h"

using namespace materialist::learn;
namespace pgn = materialist::pgn;
using materialist::JsonWriter;
using materialist::learn::testing::read_fixture;

namespace {

struct PartFile {
  std::string name, bytes;
};

struct PartRead {
  DatasetSplit split;
  std::vector<std::string> rows;  // the merged dataset's rows, with their game numbers
};

PartRead make_read(const SplitOptions& options) {
  PartRead read{std::move(DatasetSplit::create(options)).value(), {}};
  return read;
}

void keep_rows(PartRead& read) {
  std::vector<std::string>* rows = &read.rows;
  read.split.merged().set_row_sink([rows](const Row& row) {
    rows->push_back(std::to_string(row.key.pack()) + " " +
                    std::to_string(static_cast<int>(row.outcome)) + " " + std::to_string(row.game));
  });
}

void read_sequentially(DatasetSplit& split, const std::vector<PartFile>& files) {
  for (const PartFile& file : files) {
    split.begin_file(file.name);
    split.feed(file.bytes.data(), file.bytes.size());
    split.end_file();
  }
}

// The CLI's -j path without threads: each chunk parsed on its own, the parts merged in order.
// With `keep_pairs`, the readers keep their game pairs in two scratches taken in turn (as two
// parse threads do), added to the split after the read, those of unused parts taken out again.
// Returns how many files had to be read on by one continuing reader.
int read_in_parts(DatasetSplit& split, const std::vector<PartFile>& files, std::size_t target,
                  std::size_t max = 64u << 20, bool keep_pairs = false) {
  int continued = 0;
  std::vector<PartScratch> scratches(2);
  PartScratch taken_back;
  std::size_t chunks = 0;
  for (std::size_t index = 0; index < files.size(); ++index) {
    const PartFile& file = files[index];
    split.begin_file(file.name);
    FilePartsMerger merger(split, index);
    pgn::GameChunker chunker({target, max});
    std::uint64_t games_before = 0;  // as the parse threads chain them
    const auto parse = [&](const pgn::GameChunk& chunk) {
      PartScratch* scratch = keep_pairs ? &scratches[chunks++ % 2] : nullptr;
      PartReader reader(split.part_targets(index), chunk.offset, scratch);
      const bool alone = read_chunk(reader, chunk);
      reader.set_game_offset(games_before);
      games_before += reader.games();
      std::vector<DatasetPart> parts = reader.take_parts();
      if (scratch) CHECK(parts.front().pairs.empty());  // kept in the scratch
      merger.add(chunk, alone ? std::optional(std::move(parts)) : std::nullopt,
                 scratch ? &taken_back : nullptr);
    };
    for (std::size_t at = 0; at < file.bytes.size(); at += 1000) {
      chunker.feed(file.bytes.data() + at, std::min<std::size_t>(1000, file.bytes.size() - at));
      while (auto chunk = chunker.next()) parse(*chunk);
    }
    chunker.finish();
    while (auto chunk = chunker.next()) parse(*chunk);
    continued += merger.continuing();
    merger.finish();
    split.end_file();
  }
  for (const PartScratch& scratch : scratches) split.add_kept_pairs(scratch);
  split.subtract_kept_pairs(taken_back);
  return continued;
}

std::string report_json(const DatasetBuilder& builder) {
  JsonWriter json;
  json.begin_object();
  write_dataset_fields(json, builder.report(), 1000);
  json.end_object();
  return json.str();
}

void check_same(const DatasetBuilder& parts, const DatasetBuilder& sequential) {
  CHECK(parts.histogram() == sequential.histogram());
  CHECK(*parts.pairs() == *sequential.pairs());
  CHECK(report_json(parts) == report_json(sequential));
  CHECK(parts.report().games.plies_replayed == sequential.report().games.plies_replayed);
  CHECK((parts.bootstrap() == nullptr) == (sequential.bootstrap() == nullptr));
  if (parts.bootstrap() && sequential.bootstrap()) {
    CHECK(parts.bootstrap()->replicates() == sequential.bootstrap()->replicates());
  }
}

// Games that end in every way a cut could disturb: no result before the next game, an illegal
// move, a variation left open, a '{' comment left open in movetext, CRLF lines, a game without
// an Event tag, junk between games.
std::string awkward_pgn() {
  const std::string lichess = read_fixture("pgn/lichess-100.pgn");
  std::string text = lichess.substr(0, 20000);
  text = text.substr(0, text.rfind("\n\n[Event \"") + 2);
  text += "[Event \"no result\"]\n[White \"a\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#\n\n";
  text += "[Event \"illegal\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n";
  text += "[Event \"open variation\"]\n[Result \"0-1\"]\n\n1. d4 (1. e4 e5 2. Nf3 d5 exd5\n\n";
  text += "[Event \"open comment\"]\n[Result \"1-0\"]\n\n1. e4 {left open 2. d4\n\n";
  text += "[Event \"crlf\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 d5 2. exd5 Qxd5 3. Nc3 1-0\r\n\r\n";
  text += "[Site \"no event\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n";
  text += "junk between games\n\n";
  text += lichess.substr(lichess.find("[Event \"", 30000));
  return text;
}

}  // namespace

TEST_CASE("dataset parts: any chunk size gives the sequential read, bootstrap and rows too") {
  const std::vector<PartFile> files = {{"awkward.pgn", awkward_pgn()},
                                   {"OpenRating.pgn", read_fixture("pgn/OpenRating.pgn")}};
  SplitOptions options;
  options.bootstrap = 5;
  options.seed = 7;
  options.key_fields.phase = false;  // the histogram keeps only these fields too
  PartRead sequential = make_read(options);
  keep_rows(sequential);
  read_sequentially(sequential.split, files);
  REQUIRE(sequential.split.merged().report().games.issue_count > 20);
  for (std::size_t target : {1u, 3000u, 100000u, 1u << 22}) {
    for (bool keep_pairs : {false, true}) {
      CAPTURE(target);
      CAPTURE(keep_pairs);
      PartRead parts = make_read(options);
      keep_rows(parts);
      CHECK(read_in_parts(parts.split, files, target, 64u << 20, keep_pairs) == 0);
      check_same(parts.split.merged(), sequential.split.merged());
      CHECK(parts.rows == sequential.rows);
    }
  }
}

TEST_CASE("dataset parts: per-file and per-filter datasets come out as read sequentially") {
  const std::vector<PartFile> files = {{"awkward.pgn", awkward_pgn()},
                                   {"lichess.pgn", read_fixture("pgn/lichess-100.pgn")}};
  for (SplitMode mode : {SplitMode::kPerFile, SplitMode::kPerFilter}) {
    // Kept pairs go to their own dataset, the merged one there or not.
    for (const bool keep_merged : {true, false}) {
      for (const bool keep_pairs : {false, true}) {
        CAPTURE(split_mode_name(mode));
        CAPTURE(keep_merged);
        CAPTURE(keep_pairs);
        SplitOptions options;
        options.mode = mode;
        options.each_filter = {"elo=1500-", "elo=-1499"};
        options.bootstrap = 3;
        options.subset_max_issues = 5;
        options.keep_merged = keep_merged;
        PartRead sequential = make_read(options);
        read_sequentially(sequential.split, files);
        PartRead parts = make_read(options);
        read_in_parts(parts.split, files, 2000, 64u << 20, keep_pairs);
        check_same(parts.split.merged(), sequential.split.merged());
        REQUIRE(parts.split.subsets().size() == sequential.split.subsets().size());
        for (std::size_t i = 0; i < parts.split.subsets().size(); ++i) {
          CAPTURE(i);
          CHECK(parts.split.subsets()[i].name == sequential.split.subsets()[i].name);
          check_same(*parts.split.subsets()[i].builder, *sequential.split.subsets()[i].builder);
        }
      }
    }
  }
}

TEST_CASE("dataset parts: a cut no parser would make, and a cut at max_bytes, read on") {
  // A '{' left open among the tags swallows the next game's tags: the parser does not begin a
  // game at that [Event line, so the chunk ending there does not stand alone.
  const std::string lichess = read_fixture("pgn/lichess-100.pgn");
  const std::string head = lichess.substr(0, lichess.find("\n\n[Event \"", 5000) + 2);
  const std::string swallowing = head + "[Event \"x\"]\n[White \"a\"] {open\n\n" +
                                 lichess.substr(lichess.find("[Event \"", 9000));
  SplitOptions options;
  options.bootstrap = 4;
  PartRead sequential = make_read(options);
  keep_rows(sequential);
  read_sequentially(sequential.split, {{"swallowing.pgn", swallowing}});
  for (std::size_t target : {1u, 500u, 7000u}) {
    for (bool keep_pairs : {false, true}) {  // kept: the unused parts' pairs are taken out
      CAPTURE(target);
      CAPTURE(keep_pairs);
      PartRead parts = make_read(options);
      keep_rows(parts);
      const int continued = read_in_parts(parts.split, {{"swallowing.pgn", swallowing}}, target,
                                          64u << 20, keep_pairs);
      if (target == 1) CHECK(continued == 1);  // every game start is a cut, that one too
      check_same(parts.split.merged(), sequential.split.merged());
      CHECK(parts.rows == sequential.rows);
    }
  }
  // No game start for max_bytes: cut anyway, and the rest read on by one reader.
  PartRead junk_sequential = make_read(options);
  const std::string junk = std::string(300, 'x') + "\n" + lichess;
  read_sequentially(junk_sequential.split, {{"junk.pgn", junk}});
  for (bool keep_pairs : {false, true}) {
    CAPTURE(keep_pairs);
    PartRead junk_parts = make_read(options);
    CHECK(read_in_parts(junk_parts.split, {{"junk.pgn", junk}}, 100, 200, keep_pairs) == 1);
    check_same(junk_parts.split.merged(), junk_sequential.split.merged());
  }
}

TEST_CASE("dataset parts: binary data and an empty file are judged as when read whole") {
  std::string binary(5000, '\x01');
  for (std::size_t i = 0; i < binary.size(); i += 50) binary.replace(i, 12, "\n\n[Event \"x\"");
  const std::vector<PartFile> files = {{"binary.pgn", binary}, {"empty.pgn", ""}};
  PartRead sequential = make_read({});
  read_sequentially(sequential.split, files);
  REQUIRE(sequential.split.merged().report().files.size() == 2);
  CHECK(sequential.split.merged().report().files[0].error ==
        "not a PGN file: it holds binary data");
  PartRead parts = make_read({});
  read_in_parts(parts.split, files, 100);
  check_same(parts.split.merged(), sequential.split.merged());
}
