// Text from files (tag values, file and zip entry names) reaches reports and exports as text:
// no control byte that could end a code comment, rewrite a terminal or break a line, and no CSV
// cell a spreadsheet would run as a formula.
#include <doctest/doctest.h>

#include <string>

#include "worker/engine.h"
#include "worker/engine_test_util.h"

namespace materialist::worker {
namespace {

using namespace test;  // fixture, read_file, fit_to_end: engine_test_util.h

// Control bytes other than the line feeds that end lines.
bool has_control_bytes(const std::string& text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n') || byte == 0x7F) return true;
  }
  return false;
}

const char* const kHostileGames =
    "[Event \"<script>alert(1)</script>\x1b[31mred\x07\"]\n[White \"A\x01B\"]\n[SetUp \"1\"]\n"
    "[FEN \"<script>x</script>\x1b[2J\n// #include <evil>\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";

TEST_CASE("engine: tag text and file names with markup and control bytes reach exports as text") {
  const std::string games = fixture("OpenRating.pgn");
  const std::string half = games.substr(0, games.find("\n[Event ", games.size() / 2) + 1);
  Engine engine;
  ReadOptions options;
  options.datasets = DatasetMode::kPerFile;
  REQUIRE(!engine.begin_read(options));
  read_file(engine, "evil\n#include </etc/passwd>\x1b[2J.pgn", std::string(kHostileGames) + half);
  read_file(engine, "=HYPERLINK(\"http://x\").pgn", half);
  REQUIRE(engine.end_read());
  FitSettings newton;
  newton.solver = learn::SolverKind::kNewton;
  fit_to_end(engine, newton);
  REQUIRE(engine.fit_session().fit_count() == 2);

  // The bad FEN is reported with its text, control bytes replaced.
  const learn::DatasetReport* report = engine.report();
  REQUIRE(report != nullptr);
  REQUIRE(!report->games.issues.empty());
  const std::string& detail = report->games.issues.front().detail;
  CHECK_MESSAGE(detail.find("bad FEN '<script>x</script>?[2J'") != std::string::npos, detail);
  CHECK_FALSE(has_control_bytes(detail));
  CHECK(report->files.front().name == "evil?#include </etc/passwd>?[2J.pgn");

  // The code export: every line a comment, a declaration or blank; no byte breaks out of one.
  const std::string code = engine.exports().code_header();
  CHECK_FALSE(has_control_bytes(code));
  std::size_t start = 0;
  while (start < code.size()) {
    const std::size_t end = code.find('\n', start);
    const std::string line = code.substr(start, end - start);
    CHECK_MESSAGE((line.empty() || line.rfind("//", 0) == 0 || line.rfind("constexpr ", 0) == 0 ||
                   line == "#pragma once"),
                  line);
    start = end == std::string::npos ? code.size() : end + 1;
  }
  CHECK(code.find("#include </etc/passwd>") != std::string::npos);  // inside a comment line

  // The CSV: names quoted, a formula-looking name kept as text.
  const std::string csv = engine.exports().values_csv();
  CHECK(csv.find("\"'=HYPERLINK(\"\"http://x\"\").pgn\",knight,") != std::string::npos);
  CHECK_FALSE(has_control_bytes(csv));
}

}  // namespace
}  // namespace materialist::worker
