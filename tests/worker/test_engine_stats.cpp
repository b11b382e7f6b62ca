// Statistics files in the engine: a .mstats of a file fits as the file's read does (the fits,
// the bootstrap, the data report), with the settings it was made with; bad ones say why.
#include <doctest/doctest.h>

#include <string>

#include "learn/read/dataset_split.h"
#include "learn/read/mstats.h"
#include "protocol/codec.h"
#include "worker/engine.h"
#include "worker/engine_test_util.h"

namespace materialist::worker {
namespace {

using namespace test;  // fixture, read_file, fit_to_end: engine_test_util.h

// The statistics `materialist stats` writes for the engine's read of `pgn` with these options.
std::string stats_of(const std::string& name, const std::string& pgn, const ReadOptions& read) {
  learn::SplitOptions split;
  split.ingest = read.unknown == learn::UnknownResultPolicy::kTreatAsDraw
                     ? learn::IngestOptions::article()
                     : learn::IngestOptions::defaults();
  split.ingest.quiet = read.quiet;
  split.key_fields = read.keep;
  split.bootstrap = read.bootstrap;
  split.seed = read.seed;
  learn::DatasetSplit reader = std::move(learn::DatasetSplit::create(split)).value();
  reader.begin_file(name);
  reader.feed(pgn.data(), pgn.size());
  reader.end_file();
  learn::StatsFile file;
  file.settings = learn::stats_settings(split);
  learn::StatsEntry& entry = file.entries.emplace_back();
  entry.name = name;
  entry.size = entry.end = pgn.size();
  entry.sha256 = std::string(64, 'a');
  entry.stats = learn::statistics_of(reader.merged());
  return learn::encode_stats(file);
}

TEST_CASE("engine: a dropped .mstats fits as a read of its file, bootstrap included") {
  const std::string pgn = fixture("OpenRating.pgn");
  ReadOptions read;
  read.bootstrap = 8;
  read.seed = 5;
  read.keep.bishop_pair = true;
  Engine games;
  REQUIRE(!games.begin_read(read));
  read_file(games, "OpenRating.pgn", pgn);
  REQUIRE(games.end_read());

  Engine stats;
  const std::string bytes = stats_of("OpenRating.pgn", pgn, read);
  CHECK_FALSE(stats.add_stats("open.mstats", bytes.data(), bytes.size()));
  CHECK_FALSE(stats.end_stats());
  REQUIRE(stats.end_read());
  CHECK(stats.stats_options().bootstrap == 8);
  CHECK(stats.stats_options().keep.bishop_pair);
  CHECK(stats.stats_options().unknown == learn::UnknownResultPolicy::kTreatAsDraw);
  // The same report, with the settings the statistics were made with (the page shows them).
  protocol::DataReport from_stats = stats.data_report();
  REQUIRE(from_stats.made_with.has_value());
  CHECK(*from_stats.made_with == stats.stats_options());
  CHECK(from_stats.made_with->bootstrap == 8);
  CHECK_FALSE(games.data_report().made_with.has_value());
  from_stats.made_with.reset();
  CHECK(protocol::encode(from_stats) == protocol::encode(games.data_report()));
  CHECK(stats.digests().size() == 1);
  CHECK(stats.digests()[0].sha256 == std::string(64, 'a'));

  FitSettings article;  // gradient descent, animated: every snapshot the same
  fit_to_end(games, article);
  fit_to_end(stats, article);
  CHECK(stats.exports().fits_json() == games.exports().fits_json());
  FitSettings newton;
  newton.preset = "exact";
  newton.solver = learn::SolverKind::kNewton;
  newton.model.bishop_pair = true;
  fit_to_end(games, newton);
  fit_to_end(stats, newton);
  CHECK(stats.exports().fits_json() == games.exports().fits_json());
  CHECK(count_of(stats.exports().fits_json(), "\"low\":null") ==
        0);  // the file's bootstrap intervals
  CHECK(stats.exports().status_line() ==
        games.exports().status_line() + " · from open.mstats (statistics of 2,997 games)");
}

TEST_CASE("engine: a corrupt .mstats, or two that do not merge, say why and change nothing") {
  const std::string pgn = fixture("lichess-100.pgn");
  ReadOptions read;
  std::string bytes = stats_of("lichess-100.pgn", pgn, read);
  Engine engine;
  std::string corrupt = bytes;
  corrupt[corrupt.size() / 2] ^= 1;
  CHECK(engine.add_stats("bad.mstats", corrupt.data(), corrupt.size())->message ==
        "bad.mstats: corrupt: the checksum does not match the contents");
  CHECK(engine.add_stats("cut.mstats", bytes.data(), 100)->message.find("cut.mstats: truncated") ==
        0);
  CHECK_FALSE(engine.has_data());

  ReadOptions other = read;
  other.quiet.quiet_plies = 3;
  const std::string three = stats_of("lichess-100-again.pgn", pgn, other);
  CHECK_FALSE(engine.add_stats("a.mstats", bytes.data(), bytes.size()));
  CHECK_FALSE(engine.add_stats("b.mstats", three.data(), three.size()));
  CHECK(engine.end_stats()->message.find("quiet-plies is '2' in a.mstats and '3' in b.mstats") !=
        std::string::npos);
  CHECK_FALSE(engine.has_data());
}

}  // namespace
}  // namespace materialist::worker
