// `materialist stats`: statistics of whole files and of byte ranges, made apart and merged by
// fit and compare in any order, give the output of one read of the files; ranges are cut at game
// starts; what cannot be merged is refused, saying why.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "cli/range_read.h"
#include "cli_test_util.h"
#include "learn/fit/analysis.h"
#include "learn/read/mstats.h"

using namespace materialist::cli;
using namespace materialist::cli::testing;
namespace learn = materialist::learn;

namespace {

// A .mstats path under the temporary directory, removed when the object goes.
class StatsPath {
 public:
  explicit StatsPath(const std::string& name)
      : path_((std::filesystem::temp_directory_path() / ("materialist-stats-test-" + name))
                  .string()) {}
  ~StatsPath() { std::remove(path_.c_str()); }
  StatsPath(const StatsPath&) = delete;
  StatsPath& operator=(const StatsPath&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

learn::StatsFile read_stats(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  REQUIRE(file != nullptr);
  const std::string bytes = read_all(file);
  auto stats = learn::decode_stats(bytes);
  REQUIRE(stats);
  return std::move(*stats);
}

void make_stats(const std::vector<std::string>& args) {
  const CliRun run = run_cli(args);
  INFO(run.err);
  REQUIRE(run.status == 0);
}

}  // namespace

TEST_CASE("cli stats: ranges and files made apart, merged in any order, fit as one read") {
  const std::string open = fixture("pgn/OpenRating.pgn");
  const std::string lichess = fixture("pgn/lichess-2021-10-first999.pgn");
  const std::uint64_t size = std::filesystem::file_size(open);
  // Cuts anywhere (inside games, inside tags): each moves to the next game start.
  const std::vector<std::uint64_t> cuts = {0, 1, 700001, 700002, 1500000, size / 2 + 12345, size};
  std::vector<std::unique_ptr<StatsPath>> parts;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    parts.push_back(std::make_unique<StatsPath>("range" + std::to_string(i) + ".mstats"));
    std::vector<std::uint64_t> sorted = cuts;
    std::sort(sorted.begin(), sorted.end());
    make_stats({"stats", "--no-progress", "--range",
                std::to_string(sorted[i]) + ":" + std::to_string(sorted[i + 1]), open, "-o",
                parts.back()->path()});
  }
  StatsPath other("lichess.mstats");
  make_stats({"stats", "--no-progress", "--file-index", "1", lichess, "-o", other.path()});

  // The ranges tile the file at game starts; one of them is empty (1 and 700001 meet the same).
  std::uint64_t at = 0, empty = 0;
  for (const auto& part : parts) {
    const learn::StatsFile stats = read_stats(part->path());
    REQUIRE(stats.entries.size() == 1);
    const learn::StatsEntry& e = stats.entries[0];
    CHECK(e.is_range);
    CHECK(e.start == at);
    CHECK(e.sha256.size() == 64);
    at = e.end;
    if (e.start == e.end) ++empty;
  }
  CHECK(at == size);
  CHECK(empty >= 1);

  const CliRun one = run_cli({"fit", "--json", "--no-progress", open, lichess});
  REQUIRE(one.status == 0);
  const CliRun one_text = run_cli({"fit", "--no-progress", open, lichess});
  for (int shift = 0; shift < 3; ++shift) {
    std::vector<std::string> args = {"fit", "--json"};
    std::vector<std::string> files = {other.path()};
    for (const auto& part : parts) files.push_back(part->path());
    std::rotate(files.begin(), files.begin() + shift * 2, files.end());
    if (shift == 2) std::reverse(files.begin(), files.end());
    args.insert(args.end(), files.begin(), files.end());
    const CliRun merged = run_cli(args);
    INFO(merged.err);
    REQUIRE(merged.status == 0);
    CHECK(without_timings(merged.out) == without_timings(one.out));
    args.erase(args.begin() + 1);
    CHECK(run_cli(args).out == one_text.out);
  }

  // Bit for bit: the merged histogram is one read's; θ to 1e-12.
  std::vector<learn::StatsFile> files;
  std::vector<std::string> names;
  for (const auto& part : parts) {
    files.push_back(read_stats(part->path()));
    names.push_back(part->path());
  }
  auto merged = learn::merge_stats(files, names);
  REQUIRE(merged);
  auto split = learn::DatasetSplit::create(learn::SplitOptions{});
  learn::SplitOptions options;
  options.key_fields = learn::KeyFields::none();
  auto sequential = std::move(learn::DatasetSplit::create(options)).value();
  const std::string bytes = read_fixture_text("pgn/OpenRating.pgn");
  sequential.begin_file(open);
  sequential.feed(bytes.data(), bytes.size());
  sequential.end_file();
  CHECK(merged->histogram == sequential.merged().histogram());
  CHECK(merged->histogram.entries().size() == sequential.merged().histogram().distinct());
  CHECK(merged->pairs == *sequential.merged().pairs());
  const auto a = learn::run_analysis(merged->histogram, learn::AnalysisSettings::defaults(), {}, 1,
                                     &merged->pairs);
  const auto b =
      learn::run_analysis(sequential.merged().histogram(), learn::AnalysisSettings::defaults(), {},
                          1, sequential.merged().pairs());
  REQUIRE(a);
  REQUIRE(b);
  for (std::size_t k = 0; k < a->theta.size(); ++k)
    CHECK(std::abs(a->theta[k] - b->theta[k]) <= 1e-12);

  // A missing range, or the same range twice, is refused naming the bytes.
  std::vector<std::string> gap = {
      "fit",           parts[0]->path(), parts[2]->path(), parts[3]->path(), parts[4]->path(),
      parts[5]->path()};
  CliRun refused = run_cli(gap);
  CHECK(refused.status == 1);
  CHECK(contains(refused.err, "are in no range"));
  gap.push_back(parts[1]->path());
  gap.push_back(parts[5]->path());
  refused = run_cli(gap);
  CHECK(refused.status == 1);
  CHECK(contains(refused.err, "overlaps the range before it"));

  // stats of statistics: ranges with gaps are kept for later, a file twice is refused.
  StatsPath some("some-ranges.mstats");
  make_stats({"stats", "--no-progress", parts[0]->path(), parts[5]->path(), "-o", some.path()});
  const CliRun twice = run_cli({"stats", parts[5]->path(), parts[5]->path(), "-o", some.path()});
  CHECK(twice.status == 1);
  CHECK(contains(twice.err, "overlaps the range before it"));
  const CliRun plies = run_cli({"stats", "--quiet-plies", "3", some.path(), "-o", some.path()});
  CHECK(plies.status == 1);
  CHECK(contains(plies.err, "was made with quiet-plies '2', these options give '3'"));
}

TEST_CASE("cli stats: compare of .mstats files is compare of the files; bootstrap with ids") {
  const std::string open = fixture("pgn/OpenRating.pgn");
  const std::string lichess = fixture("pgn/lichess-100.pgn");
  // compare numbers each file's games as a dataset of its own (index 0); fit as the collection's.
  StatsPath a("compare-a.mstats"), b("compare-b.mstats"), b1("compare-b1.mstats");
  const std::vector<std::string> model = {"--no-progress", "--bootstrap", "10", "--bishop-pair"};
  const auto stats = [&model](std::vector<std::string> args) {
    args.insert(args.begin() + 1, model.begin(), model.end());
    make_stats(args);
  };
  stats({"stats", open, "-o", a.path()});
  stats({"stats", lichess, "-o", b.path()});
  stats({"stats", "--file-index", "1", lichess, "-o", b1.path()});
  const CliRun files = run_cli(
      {"compare", "--json", "--no-progress", "--bootstrap", "10", "--bishop-pair", open, lichess});
  const CliRun compared =
      run_cli({"compare", "--json", "--bootstrap", "10", "--bishop-pair", a.path(), b.path()});
  REQUIRE(compared.status == 0);
  // The same datasets, named by the statistics files.
  CHECK(without_timings(replace_all(replace_all(compared.out, a.path(), open), b.path(),
                                    lichess)) == without_timings(files.out));

  const CliRun fit_files = run_cli(
      {"fit", "--json", "--no-progress", "--bootstrap", "10", "--bishop-pair", open, lichess});
  const CliRun fit_stats =
      run_cli({"fit", "--json", "--bootstrap", "10", "--bishop-pair", b1.path(), a.path()});
  CHECK(contains(fit_stats.out, "\"valueIntervals\""));
  CHECK(without_timings(fit_stats.out) == without_timings(fit_files.out));
  const CliRun shared = run_cli({"fit", "--bootstrap", "10", "--bishop-pair", b.path(), a.path()});
  CHECK(shared.status == 1);
  CHECK(contains(shared.err, "same file index 0"));
  // Without --bootstrap the replicates are not read; a model reading an unkept field is refused.
  CHECK(run_cli({"fit", "--json", "--bishop-pair", b.path(), a.path()}).status == 0);
  CHECK(contains(run_cli({"fit", "--phase", a.path()}).err, "do not keep the game phase"));
  CHECK(contains(run_cli({"fit", "--bootstrap", "20", "--bishop-pair", a.path()}).err,
                 "same replicates and seed"));
}

TEST_CASE("cli stats: refusals say why") {
  const std::string open = fixture("pgn/OpenRating.pgn");
  CHECK(run_cli({"stats", open}).status == 2);
  CHECK(contains(run_cli({"stats", open}).err, "stats needs -o"));
  StatsPath out("refused.mstats");
  const CliRun zst = run_cli(
      {"stats", "--range", "0:100", fixture("archive/lichess-100.pgn.zst"), "-o", out.path()});
  CHECK(zst.status == 2);
  CHECK(contains(zst.err, "is zstd data"));
  CHECK(contains(run_cli({"stats", "--range", "10:5", open, "-o", out.path()}).err,
                 "expects START:END"));
  CHECK(contains(
      run_cli({"stats", "--bootstrap", "5", "--range", "10:500", open, "-o", out.path()}).err,
      "needs the range to start at 0"));

  make_stats({"stats", "--no-progress", "--preset", "article", open, "-o", out.path()});
  const CliRun other = run_cli({"fit", "--json", out.path()});
  CHECK(other.status == 1);
  CHECK(one_json_object(other.out));
  CHECK(contains(other.out, "\"code\":\"incompatible-stats\""));
  CHECK(contains(other.err, "unknown-results 'draw', these options give 'skip'"));
  CHECK(run_cli({"fit", "--preset", "article", out.path()}).status == 0);
  CHECK(contains(run_cli({"fit", out.path(), open}).err, "merged alone"));
  CHECK(run_cli({"fit", "--preset", "article", "--max-games", "5", out.path()}).status == 2);

  TempFile corrupt("corrupt.mstats", "MSTATS\r\n\1\0\0\0");
  const CliRun bad = run_cli({"fit", "--json", corrupt.path()});
  CHECK(bad.status == 1);
  CHECK(contains(bad.out, "\"code\":\"corrupt-stats\""));
  CHECK(contains(bad.err, "truncated"));
}

TEST_CASE("cli stats: a range's ends move to the next game start, CRLF files too") {
  const std::string text =
      "[Event \"a\"]\r\n\r\n1. e4 1-0\r\n\r\n[Event \"b\"]\r\n\r\n1. d4 0-1\r\n";
  TempFile file("crlf.pgn", text);
  std::FILE* f = std::fopen(file.path().c_str(), "rb");
  REQUIRE(f != nullptr);
  const std::uint64_t second = text.find("[Event \"b\"");
  for (std::uint64_t from = 1; from <= second; ++from) {
    CHECK(*next_game_start(f, from, text.size()) == second);
  }
  CHECK(*next_game_start(f, 0, text.size()) == 0);
  CHECK(*next_game_start(f, second + 1, text.size()) == text.size());
  std::fclose(f);
}
