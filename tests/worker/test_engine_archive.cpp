// The engine reads compressed files and archives by content, as the CLI does: the same games,
// rows and histogram as the plain file, a zip's .pgn entries as files, damage reported with the
// games before it kept.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "worker/engine.h"
#include "worker/engine_test_util.h"

namespace materialist::worker {
namespace {

using test::archive_fixture;
using test::fixture;

// Reads one file in `chunk`-byte slices (stopping when the engine rejects it); its error.
std::optional<FileError> read_in_chunks(Engine& engine, const std::string& name,
                                        const std::string& bytes, std::size_t chunk) {
  engine.begin_file(name, static_cast<double>(bytes.size()));
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    if (!engine.feed(bytes.data() + at, std::min(chunk, bytes.size() - at))) break;
  }
  return engine.end_file();
}

protocol::DataReport read_one(const std::string& name, const std::string& bytes, std::size_t chunk,
                              std::string* error = nullptr, ErrorCode* code = nullptr) {
  Engine engine;
  REQUIRE(!engine.begin_read({}));
  const std::optional<FileError> problem = read_in_chunks(engine, name, bytes, chunk);
  if (error != nullptr) *error = problem ? problem->error.message : std::string();
  if (code != nullptr) *code = problem ? problem->error.code : ErrorCode::kOk;
  if (problem)
    CHECK(problem->read_in_part ==
          (problem->error.message.find(kReadInPartMarker) != std::string::npos));
  engine.end_read();
  return engine.data_report();
}

}  // namespace

TEST_CASE("engine: .pgn.zst, .gz, .bz2 and .zip give the plain file's games, rows and histogram") {
  const protocol::DataReport plain = read_one("lichess-100.pgn", fixture("lichess-100.pgn"), 65521);
  REQUIRE(plain.games == 100);
  for (const char* name : {"lichess-100.pgn.zst", "lichess-100.pgn.gz", "lichess-100.pgn.bz2",
                           "lichess-100-three.zip", "lichess-100-streamed.zip"}) {
    const std::string bytes = archive_fixture(name);
    REQUIRE(!bytes.empty());
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{4093}, bytes.size()}) {
      CAPTURE(name);
      CAPTURE(chunk);
      std::string error;
      protocol::DataReport got = read_one(name, bytes, chunk, &error);
      CHECK(error.empty());
      CHECK(got.file_errors.empty());
      CHECK(got.games == plain.games);
      CHECK(got.rows == plain.rows);
      CHECK(got.distinct_rows == plain.distinct_rows);
      CHECK(got.decisive_rows == plain.decisive_rows);
      CHECK(got.plies == plain.plies);
      CHECK(got.bytes == plain.bytes);  // decompressed bytes
      if (std::string(name).find(".zip") != std::string::npos) {
        CHECK(got.files == std::vector<std::string>{std::string(name) + ":games1.pgn",
                                                    std::string(name) + ":games2.pgn",
                                                    std::string(name) + ":games3.pgn"});
      } else {
        CHECK(got.files == std::vector<std::string>{name});
      }
    }
  }
}

TEST_CASE("engine: a zip's entries are datasets of their own when reading per file") {
  ReadOptions options;
  options.datasets = DatasetMode::kPerFile;
  Engine engine;
  REQUIRE(!engine.begin_read(options));
  CHECK(!read_in_chunks(engine, "three.zip", archive_fixture("lichess-100-three.zip"), 65536));
  REQUIRE(engine.end_read());
  const std::vector<DatasetSummary> datasets = engine.dataset_summaries();
  REQUIRE(datasets.size() == 3);
  CHECK(datasets[0].name == "three.zip:games1.pgn");
  CHECK(datasets[0].games == 33);
  CHECK(datasets[2].games == 34);
}

TEST_CASE("engine: truncated, corrupt and unsupported files say why; the games before stay") {
  std::string error;
  const protocol::DataReport cut =
      read_one("cut.pgn.zst", archive_fixture("lichess-100-truncated.pgn.zst"), 65536, &error);
  // Where it stopped, and what was kept: the games before that point are in the fit.
  CHECK(error ==
        "truncated zstd data: the input ends inside a frame at byte 29521; read up to "
        "there: its first " +
            std::to_string(cut.games) + " games (" + std::to_string(cut.rows) +
            " positions) are in the fit");
  CHECK(error.find(kReadInPartMarker) != std::string::npos);
  CHECK(cut.games > 50);
  CHECK(cut.games < 100);
  REQUIRE(cut.file_errors.size() == 1);
  CHECK(cut.file_errors[0] == "cut.pgn.zst: " + error);

  const protocol::DataReport xz =
      read_one("games.pgn", archive_fixture("lichess-100.pgn.xz"), 65536, &error);
  CHECK(error.find("xz-compressed data is not supported") == 0);
  CHECK(error.find(kReadInPartMarker) == std::string::npos);  // nothing read, nothing kept
  CHECK(xz.games == 0);

  std::string gzip = archive_fixture("lichess-100.pgn.gz");
  for (std::size_t i = 30000; i < 30100; ++i) gzip[i] = static_cast<char>(gzip[i] ^ 0x33);
  const protocol::DataReport bad = read_one("bad.pgn.gz", gzip, 8192, &error);
  CHECK(error.find("corrupt gzip data") == 0);
  CHECK(bad.games > 0);
  CHECK(bad.games < 100);

  // Plain binary data is still refused up front.
  read_one("photo.pgn", std::string("\xFF\xD8\xFF\xE0", 4) + std::string(100, 'x'), 65536, &error);
  CHECK(error == "not PGN text: it looks like a JPEG image");
}

TEST_CASE("engine: stop after N games or the first N MB, compressed or not, without an error") {
  const std::string zst = archive_fixture("lichess-100.pgn.zst");
  const std::string pgn = fixture("lichess-100.pgn");
  for (const std::string* bytes : {&pgn, &zst}) {
    CAPTURE(bytes->size());
    ReadOptions games;
    games.max_games = 30;
    Engine engine;
    REQUIRE(!engine.begin_read(games));
    CHECK(!read_in_chunks(engine, "a", *bytes, 997));  // no truncation, no error
    CHECK(engine.limit_reached());
    REQUIRE(engine.end_read());
    const protocol::DataReport report = engine.data_report();
    CHECK(report.games == 30);
    CHECK(report.stopped_at_limit);
  }

  // The first 0.02 MB of the plain file: the games that begin in them, the last one read whole.
  ReadOptions megabytes;
  megabytes.max_megabytes = 0.02;
  megabytes.hash_files = true;
  Engine engine;
  REQUIRE(!engine.begin_read(megabytes));
  CHECK(!read_in_chunks(engine, "a.pgn", pgn, 1000));
  CHECK(engine.limit_reached());
  REQUIRE(engine.end_read());
  const protocol::DataReport report = engine.data_report();
  CHECK(report.games > 0);
  CHECK(report.games < 100);
  CHECK(report.stopped_at_limit);
  CHECK(engine.digests().at(0).sha256.empty());  // read in part: no digest claims the whole file
  // Exactly the games that began in the first 20 000 bytes (the limit is checked per chunk).
  std::size_t begun = 0;
  for (std::size_t at = pgn.find("[Event "); at != std::string::npos && at < 20000;
       at = pgn.find("[Event ", at + 1)) {
    ++begun;
  }
  CHECK(report.games == begun);
}

}  // namespace materialist::worker

namespace materialist::worker {

TEST_CASE("engine: a file's error names its cause by code, whichever reader found it") {
  struct Case {
    const char* name;
    std::string bytes;
    ErrorCode code;
  };
  std::string gzip = archive_fixture("lichess-100.pgn.gz");
  for (std::size_t i = 30000; i < 30100; ++i) gzip[i] = static_cast<char>(gzip[i] ^ 0x33);
  const std::string illegal = "[Event \"x\"]\n\n1. e5 e4 1-0\n\n[Event \"y\"]\n\n1. Ke2 Kxe1 0-1\n";
  const Case cases[] = {
      {"empty.pgn", "", ErrorCode::kEmptyFile},
      {"photo.pgn", std::string("\xFF\xD8\xFF\xE0", 4) + std::string(100, 'x'),
       ErrorCode::kNotText},
      {"notes.pgn", "{ just a comment, no games here }\n", ErrorCode::kNoGames},
      {"words.pgn", "just some words\n", ErrorCode::kNoUsableGames},
      {"illegal.pgn", illegal, ErrorCode::kNoUsableGames},
      {"games.pgn", archive_fixture("lichess-100.pgn.xz"), ErrorCode::kUnsupportedFormat},
      {"bad.pgn.gz", gzip, ErrorCode::kCorruptData},
      {"cut.pgn.zst", archive_fixture("lichess-100-truncated.pgn.zst"), ErrorCode::kTruncatedData},
      {"docs.zip", archive_fixture("readme-only.zip"), ErrorCode::kNoGames},
      {"fine.pgn", fixture("OpenRating.pgn").substr(0, 4000), ErrorCode::kOk},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    std::string error;
    ErrorCode code = ErrorCode::kInvalidArgument;
    read_one(c.name, c.bytes, 65536, &error, &code);
    CHECK(code == c.code);
    CHECK(error.empty() == (c.code == ErrorCode::kOk));
  }
  std::string error;
  read_one("docs.zip", archive_fixture("readme-only.zip"), 65536, &error);
  CHECK(error ==
        "the zip archive holds no .pgn file (it holds README.txt (not a .pgn file), notes.txt (not "
        "a .pgn file))");
}

TEST_CASE("engine: an imported file without games ends with kNoGames, listed under its name") {
  Engine reader;
  REQUIRE(!reader.begin_read({}));
  test::read_file(reader, "notes.pgn", "{ just a comment }\n");
  const Part part = reader.export_part();
  Engine coordinator;
  REQUIRE(!coordinator.begin_read({}));
  coordinator.begin_import("notes.pgn");
  coordinator.import_part(part, 0, 0);
  const std::optional<FileError> error = coordinator.end_import(18);
  REQUIRE(error.has_value());
  CHECK(error->error.code == ErrorCode::kNoGames);
  CHECK(error->error.message == learn::kNoGamesFound);
  CHECK_FALSE(error->read_in_part);
  CHECK_FALSE(coordinator.end_read());
  CHECK(coordinator.data_report().file_errors ==
        std::vector<std::string>{std::string("notes.pgn: ") + learn::kNoGamesFound});
}

}  // namespace materialist::worker

namespace materialist::worker {
namespace {

// Reads `pgn` as the browser's parallel readers do: two byte ranges cut at `cut` (a game start),
// each by its own engine (Engine::begin_range), imported in order; the file's end.
std::optional<FileError> read_in_ranges(Engine& coordinator, const std::string& name,
                                        const std::string& pgn, std::size_t cut) {
  REQUIRE(!coordinator.begin_read({}));
  coordinator.begin_import(name);
  std::uint64_t lines = 0, games = 0;
  for (int i = 0; i < 2; ++i) {
    Engine reader;
    REQUIRE(!reader.begin_read({}));
    reader.begin_range(name, i == 0);
    const std::string range = i == 0 ? pgn.substr(0, cut) : pgn.substr(cut);
    reader.feed(range.data(), range.size());
    CHECK_FALSE(reader.end_file().has_value());  // a range says nothing of the whole file
    const Part part = reader.export_part();
    coordinator.import_part(part, lines, games);
    lines += reader.line_breaks();
    games += part.games.games_read;
  }
  return coordinator.end_import(pgn.size());
}

}  // namespace

TEST_CASE("engine: a file read in ranges has the errors of a sequential read, not its ranges'") {
  const std::string good = fixture("OpenRating.pgn").substr(0, 20000);
  const std::string good_games = good.substr(0, good.rfind("\n[Event ") + 1);
  std::string illegal;
  for (int i = 0; i < 40; ++i) illegal += "[Event \"bad\"]\n\n1. e5 e4 1-0\n\n";
  std::string junk = "[Event \"junk\"]\n\n";
  junk += std::string(64, '\0') + "\n\n";
  struct Case {
    const char* name;
    std::string first, second;
    ErrorCode code;
  };
  const Case cases[] = {
      // The second range's games all skipped: the file as a whole has usable games.
      {"half-bad.pgn", good_games, illegal, ErrorCode::kOk},
      // Every game skipped: the whole file's rule, said once by the coordinator.
      {"bad.pgn", illegal, illegal, ErrorCode::kNoUsableGames},
      // Binary bytes at the second range's start: only a file's start is sniffed.
      {"junk.pgn", good_games, junk + good_games, ErrorCode::kOk},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::string pgn = c.first + c.second;
    Engine sequential;
    REQUIRE(!sequential.begin_read({}));
    sequential.begin_file(c.name, static_cast<double>(pgn.size()));
    sequential.feed(pgn.data(), pgn.size());
    const std::optional<FileError> alone = sequential.end_file();
    Engine parallel;
    const std::optional<FileError> ranges = read_in_ranges(parallel, c.name, pgn, c.first.size());
    CHECK(alone.has_value() == (c.code != ErrorCode::kOk));
    CHECK(ranges.has_value() == alone.has_value());
    if (alone && ranges) {
      CHECK(alone->error.code == c.code);
      CHECK(ranges->error.code == c.code);
      CHECK(ranges->error.message == alone->error.message);
    }
    sequential.end_read();
    parallel.end_read();
    CHECK(parallel.data_report().games == sequential.data_report().games);
    CHECK(parallel.data_report().rows == sequential.data_report().rows);
    CHECK(parallel.data_report().file_errors == sequential.data_report().file_errors);
  }
  // A binary file's start is still refused by the range that begins it.
  Engine reader;
  REQUIRE(!reader.begin_read({}));
  reader.begin_range("photo.pgn", true);
  const std::string jpeg = std::string("\xFF\xD8\xFF\xE0", 4) + std::string(100, 'x');
  CHECK_FALSE(reader.feed(jpeg.data(), jpeg.size()));
  const std::optional<FileError> refused = reader.end_file();
  REQUIRE(refused.has_value());
  CHECK(refused->error.code == ErrorCode::kNotText);
}

}  // namespace materialist::worker
