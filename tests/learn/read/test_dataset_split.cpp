#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "learn/filter/game_filter.h"
#include "learn/learn_test_util.h"
#include "learn/read/dataset_split.h"

using namespace materialist::learn;
using materialist::ErrorCode;
using materialist::learn::testing::read_fixture;

namespace {

struct SplitFile {
  std::string name, bytes;
};

std::vector<SplitFile> two_files() {
  return {{"lichess-100.pgn", read_fixture("pgn/lichess-100.pgn")},
          {"rows.mat", " 1  0  0  0  0  2\n-1  0  0  0  0  0\n 0  1  0  0  0  2\n"}};
}

// Reads the files in odd-sized chunks, as the worker's slices would.
template <typename Reader>
void read_into(Reader& reader, const std::vector<SplitFile>& files) {
  for (const SplitFile& file : files) {
    reader.begin_file(file.name);
    for (std::size_t at = 0; at < file.bytes.size(); at += 4093) {
      const std::size_t size = std::min<std::size_t>(4093, file.bytes.size() - at);
      reader.feed(file.bytes.data() + at, size);
    }
    reader.end_file();
  }
}

// One builder over `files`, as the split's datasets should come out.
Histogram alone(const IngestOptions& ingest, const std::vector<SplitFile>& files) {
  DatasetBuilder builder(ingest);
  read_into(builder, files);
  return builder.histogram();
}

}  // namespace

TEST_CASE("dataset split: merge mode is one dataset, with the bootstrap on it") {
  SplitOptions options;
  options.bootstrap = 3;
  auto split = DatasetSplit::create(options);
  REQUIRE(split.ok());
  read_into(*split, two_files());
  CHECK(split->subsets().empty());
  CHECK(split->has_merged());
  CHECK(split->merged().histogram() == alone({}, two_files()));
  CHECK(split->merged().report().files.size() == 2);
  REQUIRE(split->merged().bootstrap() != nullptr);
  CHECK(split->merged().bootstrap()->replicate_count() == 3);
}

TEST_CASE("dataset split: per file, a subset named by each file beside the merged dataset") {
  SplitOptions options;
  options.mode = SplitMode::kPerFile;
  options.bootstrap = 2;
  options.key_fields = KeyFields::all();
  IngestOptions every_field;  // what the split's datasets keep
  every_field.fields = KeyFields::all();
  auto split = DatasetSplit::create(options);
  REQUIRE(split.ok());
  const std::vector<SplitFile> files = two_files();
  read_into(*split, files);
  REQUIRE(split->subsets().size() == 2);
  for (std::size_t i = 0; i < files.size(); ++i) {
    const NamedSubset& subset = split->subsets()[i];
    CHECK(subset.name == files[i].name);
    CHECK(subset.builder->histogram() == alone(every_field, {files[i]}));
    CHECK(subset.builder->report().files.size() == 1);
    CHECK(subset.builder->key_fields() == KeyFields::all());
    CHECK(subset.builder->bootstrap() != nullptr);
    CHECK(subset.builder->options().max_reported_issues == 0);  // the merged one lists them
  }
  CHECK(split->merged().histogram() == alone(every_field, files));
  CHECK(split->merged().bootstrap() == nullptr);  // only the subsets are compared
  CHECK(split->live_report().files.size() == 2);
}

TEST_CASE("dataset split: per filter, each text layered on the base filter, in one pass") {
  SplitOptions options;
  options.filter = "tc=blitz,bullet;elo=1500-";
  options.ingest.games = *parse_game_filter(options.filter);
  options.mode = SplitMode::kPerFilter;
  options.each_filter = {"tc=blitz", "tc=bullet"};
  options.keep_merged = false;
  auto split = DatasetSplit::create(options);
  REQUIRE(split.ok());
  const std::vector<SplitFile> pgn = {two_files()[0]};
  read_into(*split, pgn);
  REQUIRE(split->subsets().size() == 2);
  for (const NamedSubset& subset : split->subsets()) {
    CAPTURE(subset.name);
    IngestOptions expected;
    expected.games =
        *parse_game_filter(combine_game_filters(options.filter, subset.name));  // "tc=...;elo="
    CHECK(subset.builder->options().games == expected.games);
    CHECK(subset.builder->histogram() == alone(expected, pgn));
  }
  CHECK(split->subsets()[0].builder->histogram().totals().total() > 0);
  // Without the merged dataset nothing is read twice.
  CHECK_FALSE(split->has_merged());
  CHECK(split->merged().report().files.empty());
  CHECK(split->live_report().files.size() == 1);
}

TEST_CASE("dataset split: a filter text that does not parse is named in the error") {
  SplitOptions options;
  options.mode = SplitMode::kPerFilter;
  options.each_filter = {"tc=blitz", "tc=bulet"};
  auto split = DatasetSplit::create(options);
  REQUIRE_FALSE(split.ok());
  CHECK(split.error().code == ErrorCode::kSyntax);
  CHECK(split.error().message.rfind("tc=bulet: ", 0) == 0);
}

TEST_CASE("dataset split: mode names read back") {
  for (const char* name : kSplitModeNames) {
    REQUIRE(parse_split_mode(name).has_value());
    CHECK(std::string(split_mode_name(*parse_split_mode(name))) == name);
  }
  CHECK_FALSE(parse_split_mode("per-game").has_value());
}
