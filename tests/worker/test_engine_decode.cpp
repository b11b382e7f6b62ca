// Parallel reads beyond byte ranges (src/worker/engine_decode.cpp): live estimates from readers'
// live shares, and compressed files decoded by the coordinator into chunks cut at game starts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "worker/chunk_decoder.h"
#include "worker/engine.h"
#include "worker/engine_test_util.h"

namespace materialist::worker {
using namespace test;

namespace {

FitSettings newton_settings() {
  FitSettings settings;
  settings.solver = learn::SolverKind::kNewton;
  return settings;
}

void check_same_estimate(const protocol::Estimate& got, const protocol::Estimate& want) {
  CHECK(got.games == want.games);
  CHECK(got.rows == want.rows);
  REQUIRE(got.fits.size() == 1);
  REQUIRE(want.fits.size() == 1);
  CHECK(got.fits[0].clusters == want.fits[0].clusters);
  REQUIRE(got.fits[0].coefficients.size() == want.fits[0].coefficients.size());
  for (std::size_t j = 0; j < want.fits[0].coefficients.size(); ++j) {
    const protocol::Coefficient& a = got.fits[0].coefficients[j];
    const protocol::Coefficient& b = want.fits[0].coefficients[j];
    CHECK(a.name == b.name);
    CHECK(a.theta == doctest::Approx(b.theta).epsilon(1e-12));
    CHECK(a.theta_se == doctest::Approx(b.theta_se).epsilon(1e-12));
  }
}


// Reads a compressed file as the browser's parallel path does: decoded here in odd slices, each
// chunk parsed by a fresh reader engine, the shares imported in order. Returns the file's error.
std::optional<FileError> read_decoded(Engine& coordinator, const std::string& name,
                                      const std::string& bytes, std::size_t target_chunk_bytes,
                                      std::size_t* chunks) {
  ChunkDecoder decoder(name, target_chunk_bytes);
  coordinator.begin_import(name);
  std::size_t entries = 0;
  std::uint64_t games = 0;
  std::uint64_t lines = 0;
  bool cut_in_game = false;
  auto drain = [&]() {
    while (std::optional<DecodedPiece> piece = decoder.next()) {
      if (piece->kind == DecodedPiece::Kind::kChunk) {
        CHECK(!cut_in_game);  // only a file's last chunk does not end before a game start
        cut_in_game = !piece->ends_before_game_start;
        Engine reader;
        REQUIRE(!reader.begin_read({}));
        read_file(reader, piece->file, piece->bytes);
        const Part part = reader.export_part();
        coordinator.import_part(part, lines, games);
        games += part.games.games_read;
        lines += reader.line_breaks();
        ++*chunks;
      } else if (piece->kind == DecodedPiece::Kind::kEndFile) {
        coordinator.end_decoded_entry(piece->file, piece->file_bytes);
        cut_in_game = false;
        ++entries;
        games = 0;
        lines = 0;
      }
    }
  };
  for (std::size_t at = 0; at < bytes.size(); at += 7919) {
    if (!decoder.feed(bytes.data() + at, std::min<std::size_t>(7919, bytes.size() - at))) break;
    drain();
  }
  decoder.finish();
  drain();
  return coordinator.end_decoded(bytes.size(), entries, decoder.problem(), decoder.zip());
}

// `text` as a gzip file of stored (uncompressed) deflate blocks: a compressed file of any
// content without a compressor.
std::string gzip_stored(const std::string& text) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (const char c : text) {
    crc ^= static_cast<std::uint8_t>(c);
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  crc = ~crc;
  const auto le = [](std::string& out, std::uint32_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  };
  std::string out = {'\x1f', '\x8b', '\x08', '\0', '\0', '\0', '\0', '\0', '\0', '\xff'};
  std::size_t at = 0;
  do {
    const std::size_t size = std::min<std::size_t>(65535, text.size() - at);
    out.push_back(at + size == text.size() ? '\x01' : '\0');  // BFINAL, BTYPE 00 (stored)
    le(out, static_cast<std::uint32_t>(size), 2);
    le(out, static_cast<std::uint32_t>(~size & 0xFFFF), 2);
    out.append(text, at, size);
    at += size;
  } while (at < text.size());
  le(out, crc, 4);
  le(out, static_cast<std::uint32_t>(text.size()), 4);
  return out;
}

// `count` short games with LF, CRLF and CR line ends in turn, each followed by "\n\n"; one in
// seven (the 4th, 11th, ...) has an illegal king move: issues with their lines all over.
std::string games_with_mixed_line_ends(int count) {
  const std::string ends[] = {"\n", "\r\n", "\r"};
  std::string pgn;
  for (int i = 0; i < count; ++i) {
    const std::string& end = ends[i % 3];
    pgn += "[Event \"g" + std::to_string(i) + "\"]" + end + "[Result \"1-0\"]" + end + end +
           "1. e4 e5 2. Qh5 Nc6" + end + (i % 7 == 3 ? "3. Ke3 " : "3. Bc4 Nf6 4. Qxf7# ") + "1-0" +
           end + "\n\n";
  }
  return pgn;
}

void check_same_read(Engine& parallel, Engine& sequential) {
  REQUIRE(parallel.end_read());
  REQUIRE(sequential.end_read());
  const protocol::DataReport a = parallel.data_report();
  const protocol::DataReport b = sequential.data_report();
  CHECK(a.games == b.games);
  CHECK(a.used == b.used);
  CHECK(a.skipped == b.skipped);
  CHECK(a.rows == b.rows);
  CHECK(a.bytes == b.bytes);
  CHECK(a.files == b.files);
  CHECK(a.file_errors == b.file_errors);
  CHECK(a.issues == b.issues);
  CHECK(a.distinct_rows == b.distinct_rows);
  const FitSettings settings = newton_settings();
  fit_to_end(parallel, settings);
  fit_to_end(sequential, settings);
  REQUIRE(parallel.fit_session().fit(0) != nullptr);
  REQUIRE(sequential.fit_session().fit(0) != nullptr);
  for (std::size_t j = 0; j < sequential.fit_session().fit(0)->coefficients.size(); ++j) {
    CHECK(parallel.fit_session().fit(0)->coefficients[j].value.value ==
          doctest::Approx(sequential.fit_session().fit(0)->coefficients[j].value.value)
              .epsilon(1e-12));
  }
  CHECK(parallel.digests().size() == sequential.digests().size());
  CHECK(parallel.digests()[0].bytes == sequential.digests()[0].bytes);
}

// Reads the compressed `bytes` with `sequential` in order and with `parallel` as the browser's
// parallel path does (chunks of 16 KiB), checks the two reads agree; returns the chunks.
std::size_t check_decoded_read(const std::string& name, const std::string& bytes, Engine& parallel,
                               Engine& sequential) {
  REQUIRE(!sequential.begin_read({}));
  read_file(sequential, name, bytes);
  REQUIRE(!parallel.begin_read({}));
  std::size_t chunks = 0;
  CHECK_FALSE(read_decoded(parallel, name, bytes, 16 << 10, &chunks).has_value());
  check_same_read(parallel, sequential);
  return chunks;
}

}  // namespace

TEST_CASE("decode: a .pgn.zst cut into chunks and read by readers equals a sequential read") {
  Engine sequential;
  Engine parallel;
  CHECK(check_decoded_read("lichess-100.pgn.zst", archive_fixture("lichess-100.pgn.zst"), parallel,
                           sequential) > 5);
}

TEST_CASE(
    "engine: ranges read apart, each next line offset a reader's line_breaks(): the issues' "
    "lines of a sequential read, with LF, CRLF and CR line ends") {
  // The browser's parallel read of a plain file: ranges cut at game starts, a reader engine each,
  // imported in order. Illegal moves put issues, with their lines, all over the file.
  const std::string pgn = games_with_mixed_line_ends(120);
  Engine sequential;
  REQUIRE(!sequential.begin_read({}));
  read_file(sequential, "ends.pgn", pgn);
  Engine parallel;
  REQUIRE(!parallel.begin_read({}));
  parallel.begin_import("ends.pgn");
  std::uint64_t lines = 0;
  std::uint64_t games = 0;
  std::size_t begin = 0;
  for (int range = 0; range < 4; ++range) {
    const std::size_t cut =
        range == 3 ? pgn.size() : pgn.find("\n\n[Event ", (range + 1) * pgn.size() / 4) + 2;
    Engine reader;
    REQUIRE(!reader.begin_read({}));
    read_file(reader, "ends.pgn", pgn.substr(begin, cut - begin));
    const Part part = reader.export_part();
    parallel.import_part(part, lines, games);
    lines += reader.line_breaks();
    games += part.games.games_read;
    begin = cut;
  }
  parallel.end_import(pgn.size());
  // Seven line breaks a game with LF or CRLF ends (CRLF is one), six with CR ends: its last CR
  // and the blank line's LF make one CRLF.
  CHECK(lines == 40 * (7 + 7 + 6));
  REQUIRE(parallel.end_read());
  REQUIRE(sequential.end_read());
  const std::vector<protocol::GameIssue> issues = sequential.data_report().issues;
  CHECK(issues.size() == 17);
  CHECK(parallel.data_report().issues == issues);
}

TEST_CASE("decode: a compressed file's chunks get their line offsets from the readers' counts") {
  // The sample's games, then games with LF, CRLF and CR line ends, one in seven with an illegal
  // move: issues with their lines in many chunks. Each chunk's line offset is the line breaks
  // its earlier chunks' readers read.
  const std::string pgn = fixture("OpenRating.pgn") + games_with_mixed_line_ends(600);
  Engine sequential;
  Engine parallel;
  CHECK(check_decoded_read("ends.pgn.gz", gzip_stored(pgn), parallel, sequential) > 50);
  const std::vector<protocol::GameIssue> issues = sequential.data_report().issues;
  CHECK(issues.size() >= 86);  // the 86 illegal kings, after the sample's own
  CHECK(parallel.data_report().issues == issues);
}

TEST_CASE("decode: a zip's entries are files of their own, named <zip>:<entry>") {
  const std::string zip = archive_fixture("lichess-100-three.zip");
  Engine sequential;
  REQUIRE(!sequential.begin_read({}));
  read_file(sequential, "three.zip", zip);
  Engine parallel;
  REQUIRE(!parallel.begin_read({}));
  std::size_t chunks = 0;
  CHECK_FALSE(read_decoded(parallel, "three.zip", zip, 8 << 10, &chunks).has_value());
  check_same_read(parallel, sequential);
  CHECK(parallel.data_report().files.size() == 3);
}

TEST_CASE(
    "decode: a zip without .pgn entries says so, by the code and words a sequential read uses") {
  const std::string zip = archive_fixture("readme-only.zip");
  Engine sequential;
  REQUIRE(!sequential.begin_read({}));
  const std::optional<FileError> alone = [&]() {
    sequential.begin_file("docs.zip", static_cast<double>(zip.size()));
    sequential.feed(zip.data(), zip.size());
    return sequential.end_file();
  }();
  Engine parallel;
  REQUIRE(!parallel.begin_read({}));
  std::size_t chunks = 0;
  const std::optional<FileError> decoded =
      read_decoded(parallel, "docs.zip", zip, 16 << 10, &chunks);
  REQUIRE(alone.has_value());
  REQUIRE(decoded.has_value());
  CHECK(decoded->error.code == ErrorCode::kNoGames);
  CHECK(alone->error.code == ErrorCode::kNoGames);
  CHECK(decoded->error.message == alone->error.message);
  CHECK(decoded->error.message.rfind("the zip archive holds no .pgn file (it holds README.txt",
                                     0) == 0);
  CHECK_FALSE(decoded->read_in_part);
  CHECK(chunks == 0);
}

TEST_CASE("decode: a truncated .zst keeps the games before the cut and says why") {
  const std::string zst = archive_fixture("lichess-100.pgn.zst");
  const std::string cut = zst.substr(0, zst.size() * 2 / 3);
  Engine sequential;
  REQUIRE(!sequential.begin_read({}));
  read_file(sequential, "cut.pgn.zst", cut);
  Engine parallel;
  REQUIRE(!parallel.begin_read({}));
  std::size_t chunks = 0;
  const std::optional<FileError> error =
      read_decoded(parallel, "cut.pgn.zst", cut, 16 << 10, &chunks);
  REQUIRE(error.has_value());
  CHECK(error->error.code == ErrorCode::kTruncatedData);
  CHECK(error->error.message.find("truncated") != std::string::npos);
  CHECK(error->read_in_part);  // the games before the cut are in the data
  // The sequential read says the same, by the same code.
  CHECK(sequential.data_report().file_errors == parallel.data_report().file_errors);
  check_same_read(parallel, sequential);
}

TEST_CASE("decode: an estimate of readers' live shares equals the whole file's") {
  const std::string pgn = fixture("OpenRating.pgn");
  const std::size_t cut = pgn.find("\n[Event ", pgn.size() / 2) + 1;
  const FitSettings settings = newton_settings();
  // One engine that has read everything, the read not ended: the sequential estimate.
  Engine whole;
  REQUIRE(!whole.begin_read({}));
  read_file(whole, "OpenRating.pgn", pgn);
  const protocol::Estimate sequential = whole.estimate(settings);
  REQUIRE(sequential.games > 2900);

  // Two readers, one half each, their reads not ended: live shares without issues. (While a
  // reader is inside a file, its last game joins the pairs only once the next one begins.)
  Engine readers[2];
  std::vector<Part> live(2);
  for (int i = 0; i < 2; ++i) {
    REQUIRE(!readers[i].begin_read({}));
    read_file(readers[i], "OpenRating.pgn", i == 0 ? pgn.substr(0, cut) : pgn.substr(cut));
    live[static_cast<std::size_t>(i)] = readers[i].export_live_part();
    CHECK(live[static_cast<std::size_t>(i)].games.issues.empty());
  }
  Engine coordinator;
  REQUIRE(!coordinator.begin_read({}));
  coordinator.begin_import("OpenRating.pgn");  // the file being read, for the estimate's name
  check_same_estimate(coordinator.estimate_with(live, settings), sequential);
  CHECK(coordinator.estimate_with(live, settings).fits[0].name == "OpenRating.pgn");

  // The first half imported (a file partly imported), the second still live: the same.
  coordinator.import_part(readers[0].export_part(), 0, 0);
  check_same_estimate(coordinator.estimate_with({live[1]}, settings), sequential);
  // Nothing read: no fit, no error.
  Engine empty;
  REQUIRE(!empty.begin_read({}));
  CHECK(empty.estimate_with({}, settings).fits.empty());
}

}  // namespace materialist::worker
