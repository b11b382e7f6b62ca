// Statistics files: a round trip keeps every statistic; files merged in any order give one read's
// histogram (bit for bit), pairs, bootstrap and report; corrupt, truncated, foreign and
// incompatible files are refused, saying why.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/sha256.h"
#include "learn/fit/analysis.h"
#include "learn/learn_test_util.h"
#include "learn/read/dataset_split.h"
#include "learn/read/mstats.h"
#include "learn/read/report_json.h"

using namespace materialist::learn;
using materialist::JsonWriter;
using materialist::learn::testing::read_fixture;

namespace {

struct Input {
  std::string name, bytes;
};

SplitOptions options_with(int bootstrap, KeyFields fields) {
  SplitOptions options;
  options.key_fields = fields;
  options.bootstrap = bootstrap;
  options.seed = 7;
  return options;
}

// One input read whole, as `materialist stats --file-index index` does.
StatsEntry entry_of(const Input& input, SplitOptions options, std::uint64_t index) {
  options.first_file_index = index;
  DatasetSplit split = std::move(DatasetSplit::create(options)).value();
  split.begin_file(input.name);
  split.feed(input.bytes.data(), input.bytes.size());
  split.end_file();
  StatsEntry entry;
  entry.name = input.name;
  entry.file_index = index;
  entry.size = input.bytes.size();
  entry.end = entry.size;
  entry.sha256 = "00";
  entry.stats = statistics_of(split.merged());
  return entry;
}

std::string report_json(const DatasetReport& report) {
  JsonWriter json;
  json.begin_object();
  write_dataset_fields(json, report, 1000);
  json.end_object();
  return json.str();
}

void check_same_replicates(const BootstrapHistograms* a, const BootstrapHistograms* b) {
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  REQUIRE(a->replicate_count() == b->replicate_count());
  for (int r = 0; r < a->replicate_count(); ++r) CHECK(a->replicate(r) == b->replicate(r));
}

std::vector<Input> inputs() {
  const std::string lichess = read_fixture("pgn/lichess-100.pgn");
  return {{"OpenRating.pgn", read_fixture("pgn/OpenRating.pgn")},
          {"lichess-100.pgn", lichess},
          {"lichess-first999.pgn", read_fixture("pgn/lichess-2021-10-first999.pgn")}};
}

}  // namespace

TEST_CASE("mstats: a round trip keeps every statistic and gives the same bytes") {
  const SplitOptions options = options_with(5, KeyFields{true, false, false, true});
  StatsFile file;
  file.settings = stats_settings(options);
  file.entries.push_back(entry_of(inputs()[1], options, 3));
  const std::string bytes = encode_stats(file);
  REQUIRE(bytes.substr(0, kStatsMagic.size()) == kStatsMagic);

  auto back = decode_stats(bytes);
  REQUIRE(back);
  CHECK(back->settings == file.settings);
  REQUIRE(back->entries.size() == 1);
  const StatsEntry& a = file.entries[0];
  const StatsEntry& b = back->entries[0];
  CHECK(b.name == a.name);
  CHECK(b.file_index == 3);
  CHECK(b.size == a.size);
  CHECK(b.stats.histogram == a.stats.histogram);
  CHECK(b.stats.histogram.distinct() > 100);
  CHECK(b.stats.pairs == a.stats.pairs);
  CHECK(b.stats.pairs.rated_games_by_outcome() == a.stats.pairs.rated_games_by_outcome());
  check_same_replicates(a.stats.bootstrap.get(), b.stats.bootstrap.get());
  CHECK(report_json(b.stats.report) == report_json(a.stats.report));
  CHECK(encode_stats(*back) == bytes);
}

TEST_CASE("mstats: files merged in any order equal one read of every file") {
  const SplitOptions options = options_with(4, KeyFields::none());
  const std::vector<Input> all = inputs();
  DatasetSplit one = std::move(DatasetSplit::create(options)).value();
  for (const Input& input : all) {
    one.begin_file(input.name);
    one.feed(input.bytes.data(), input.bytes.size());
    one.end_file();
  }
  std::vector<StatsFile> files(all.size());
  std::vector<std::string> names;
  for (std::size_t i = 0; i < all.size(); ++i) {
    files[i].settings = stats_settings(options);
    files[i].entries.push_back(entry_of(all[i], options, i));
    names.push_back("part" + std::to_string(i) + ".mstats");
  }
  const AnalysisSettings analysis = AnalysisSettings::defaults();
  const auto single = run_analysis(one.merged().histogram(), analysis, {}, 1, one.merged().pairs());
  REQUIRE(single);

  std::vector<std::size_t> order = {0, 1, 2};
  int orders = 0;
  do {
    std::vector<StatsFile> shuffled;
    std::vector<std::string> shuffled_names;
    for (std::size_t i : order) {
      shuffled.push_back(decode_stats(encode_stats(files[i])).value());
      shuffled_names.push_back(names[i]);
    }
    auto merged = merge_stats(shuffled, shuffled_names);
    REQUIRE(merged);
    CHECK(merged->histogram == one.merged().histogram());
    CHECK(merged->pairs == *one.merged().pairs());
    check_same_replicates(merged->bootstrap.get(), one.merged().bootstrap());
    CHECK(report_json(merged->report) == report_json(one.merged().report()));
    const auto fit = run_analysis(merged->histogram, analysis, {}, 1, &merged->pairs);
    REQUIRE(fit);
    for (std::size_t k = 0; k < fit->theta.size(); ++k) {
      CHECK(std::abs(fit->theta[k] - single->theta[k]) <= 1e-12);
    }
    CHECK(fit->covariance == single->covariance);
    ++orders;
  } while (std::next_permutation(order.begin(), order.end()));
  CHECK(orders == 6);
}

TEST_CASE("mstats: corrupt, truncated, foreign and future files are refused") {
  const SplitOptions options = options_with(0, KeyFields::none());
  StatsFile file;
  file.settings = stats_settings(options);
  file.entries.push_back(entry_of(inputs()[1], options, 0));
  const std::string bytes = encode_stats(file);

  for (std::size_t size = 0; size < bytes.size(); size += 1 + size / 7) {
    const auto cut = decode_stats(bytes.substr(0, size));
    REQUIRE_FALSE(cut);
    CHECK((materialist::testing::contains(cut.error().message, "truncated") ||
           materialist::testing::contains(cut.error().message, "not a statistics file")));
  }
  CHECK(materialist::testing::contains(
      decode_stats(bytes.substr(0, bytes.size() - 1)).error().message, "truncated"));
  for (std::size_t at = 20; at < bytes.size(); at += 97) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x10);
    const auto corrupt = decode_stats(flipped);
    REQUIRE_FALSE(corrupt);
    CHECK(materialist::testing::contains(corrupt.error().message, "checksum"));
  }
  CHECK(materialist::testing::contains(decode_stats(bytes + "x").error().message,
                                       "after the checksum"));
  CHECK(materialist::testing::contains(decode_stats("[Event \"x\"]\n").error().message,
                                       "not a statistics file"));
  std::string future = bytes;
  future[8] = 3;  // version 2 is the evaluation target's (tests/cli/test_eval_target_cli.cpp)
  CHECK(materialist::testing::contains(decode_stats(future).error().message, "version 3"));
}

TEST_CASE("mstats: merging refuses other settings (named), a file twice, shared bootstrap ids") {
  const std::vector<Input> all = inputs();
  SplitOptions two_plies = options_with(0, KeyFields::none());
  SplitOptions three_plies = two_plies;
  three_plies.ingest.quiet.quiet_plies = 3;
  std::vector<StatsFile> files(2);
  files[0].settings = stats_settings(two_plies);
  files[0].entries.push_back(entry_of(all[0], two_plies, 0));
  files[1].settings = stats_settings(three_plies);
  files[1].entries.push_back(entry_of(all[1], three_plies, 1));
  auto refused = merge_stats(files, {"a.mstats", "b.mstats"});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message ==
        "a.mstats and b.mstats were made with different settings: quiet-plies is '2' in a.mstats "
        "and '3' in b.mstats");

  files[1].settings = stats_settings(two_plies);
  files[1].entries[0] = entry_of(all[0], two_plies, 0);
  refused = merge_stats(files, {"a.mstats", "b.mstats"});
  REQUIRE_FALSE(refused);
  CHECK(materialist::testing::contains(refused.error().message, "would count twice"));

  const SplitOptions boot = options_with(3, KeyFields::none());
  files[0].settings = files[1].settings = stats_settings(boot);
  files[0].entries[0] = entry_of(all[0], boot, 0);
  files[1].entries[0] = entry_of(all[1], boot, 0);
  refused = merge_stats(files, {"a.mstats", "b.mstats"});
  REQUIRE_FALSE(refused);
  CHECK(materialist::testing::contains(refused.error().message, "same file index 0"));
  files[1].entries[0] = entry_of(all[1], boot, 1);
  CHECK(merge_stats(files, {"a.mstats", "b.mstats"}));
}

TEST_CASE(
    "mstats: tests/fixtures/mstats/OpenRating.article.mstats is what version 1 writes today") {
  // Made by `materialist stats --preset article OpenRating.pgn` in tests/fixtures/pgn (the
  // browser tests drop it): the same statistics, settings, digest and bytes as a read now gives.
  const std::string bytes = read_fixture("mstats/OpenRating.article.mstats");
  auto file = decode_stats(bytes);
  REQUIRE(file);
  SplitOptions options;
  options.ingest = IngestOptions::article();
  options.key_fields = KeyFields::none();
  CHECK(file->settings == stats_settings(options));
  REQUIRE(file->entries.size() == 1);
  const std::string pgn = read_fixture("pgn/OpenRating.pgn");
  StatsEntry fresh = entry_of({"OpenRating.pgn", pgn}, options, 0);
  materialist::Sha256 hash;
  hash.update(pgn.data(), pgn.size());
  fresh.sha256 = hash.hex();
  const StatsEntry& kept = file->entries[0];
  CHECK(kept.sha256 == fresh.sha256);
  CHECK(kept.stats.histogram == fresh.stats.histogram);
  CHECK(kept.stats.pairs == fresh.stats.pairs);
  CHECK(report_json(kept.stats.report) == report_json(fresh.stats.report));
  StatsFile again;
  again.settings = file->settings;
  again.entries.push_back(std::move(fresh));
  CHECK(encode_stats(again) == bytes);
}

TEST_CASE("mstats: keys with each side's counts round-trip, bytes and all") {
  KeyFields fields = KeyFields::none();
  fields.counts = true;
  fields.bishop_pair = true;
  const SplitOptions options = options_with(3, fields);
  StatsFile file;
  file.settings = stats_settings(options);
  CHECK(setting_of(file.settings, "key-fields") == "bishop-pair,counts");
  file.entries.push_back(entry_of(inputs()[1], options, 0));
  const std::string bytes = encode_stats(file);
  auto back = decode_stats(bytes);
  REQUIRE(back);
  const StatsEntry& a = file.entries[0];
  const StatsEntry& b = back->entries[0];
  CHECK(b.stats.histogram == a.stats.histogram);
  CHECK(b.stats.pairs == a.stats.pairs);
  CHECK(b.stats.pairs.fields() == fields);
  CHECK(key_fields_of(back->settings) == fields);
  check_same_replicates(a.stats.bootstrap.get(), b.stats.bootstrap.get());
  CHECK(encode_stats(*back) == bytes);
  bool every_key_has_counts = true;
  b.stats.histogram.for_each([&](const RowKey& key, const OutcomeCounts&) {
    if (!key.counts_known) every_key_has_counts = false;
  });
  CHECK(every_key_has_counts);
}

TEST_CASE("mstats: the settings read back as the read they were written for") {
  ReadRequest request;
  request.unknown = UnknownResultPolicy::kTreatAsDraw;
  request.quiet.quiet_plies = 3;
  request.quiet.checks_break_quiet = false;
  request.quiet.skip_first_plies = 8;
  request.filter = "elo=2000-2400";
  request.keep = KeyFields{true, false, true, false};
  request.bootstrap = 7;
  request.seed = 42;
  request.target = Target::kEval;
  auto split = split_options_for(request);
  REQUIRE(split);
  const StatsSettings settings = stats_settings(*split);
  const ReadRequest back = read_request_of(settings);
  CHECK(back.unknown == request.unknown);
  CHECK(back.quiet.quiet_plies == 3);
  CHECK_FALSE(back.quiet.checks_break_quiet);
  CHECK(back.quiet.distinct_per_game);
  CHECK(back.quiet.skip_first_plies == 8);
  CHECK(back.filter == request.filter);
  CHECK(back.keep == request.keep);
  CHECK(back.bootstrap == 7);
  CHECK(back.seed == 42);
  CHECK(back.target == Target::kEval);
  auto again = split_options_for(back);
  REQUIRE(again);
  CHECK(stats_settings(*again) == settings);
}
