// Perft against the fixture tables in tests/fixtures/perft:
//   standard.epd  128 positions (the shared perft suite), node counts mostly for depths 1-6;
//   chess960.epd  Chess960 rows from chessprogramming.org "Chess960 Perft Results".
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "chess/perft.h"
#include "chess/position.h"

namespace materialist::chess {
namespace {

struct PerftCount {
  int depth;
  std::uint64_t nodes;
};
struct PerftRow {
  std::string fen;
  std::vector<PerftCount> counts;  // in file order, shallowest first
};

// Reads lines like "<fen> ;D1 20 ;D2 400 ...".
std::vector<PerftRow> read_perft_rows(const std::string& name) {
  std::vector<PerftRow> rows;
  std::ifstream file(std::string(MATERIALIST_FIXTURES_DIR "/perft/") + name);
  std::string line;
  while (std::getline(file, line)) {
    const size_t semicolon = line.find(';');
    if (semicolon == std::string::npos) continue;
    PerftRow row{line.substr(0, semicolon), {}};
    size_t at = semicolon;
    while ((at = line.find(";D", at)) != std::string::npos) {
      const size_t space = line.find(' ', at);
      row.counts.push_back({std::stoi(line.substr(at + 2)), std::stoull(line.substr(space + 1))});
      at = space;
    }
    rows.push_back(row);
  }
  return rows;
}

// Checks every listed depth up to max_depth; a row whose shallowest listed depth is deeper
// (standard.epd has two) is checked at that shallowest depth, so no position goes untested.
void check_rows_to_depth(const std::string& name, size_t expected_rows, int max_depth) {
  const std::vector<PerftRow> rows = read_perft_rows(name);
  CHECK(rows.size() == expected_rows);
  for (const PerftRow& row : rows) {
    const auto pos = Position::from_fen(row.fen);
    if (!pos.ok() || row.counts.empty()) {
      FAIL_CHECK("unusable row: ", row.fen);
      continue;
    }
    const int limit = std::max(max_depth, row.counts.front().depth);
    for (const PerftCount& count : row.counts) {
      if (count.depth > limit) break;
      INFO(row.fen, " depth ", count.depth);
      CHECK(perft(*pos, count.depth) == count.nodes);
    }
  }
}

TEST_CASE("perft: every standard.epd position to depth 4") {
  check_rows_to_depth("standard.epd", 128, 4);
}

TEST_CASE("perft: Chess960 positions to depth 4") {
  check_rows_to_depth("chess960.epd", 6, 4);
}

// Minutes of CPU: run with --no-skip -tc="*deep*".
TEST_CASE("perft: deep, every listed depth" * doctest::skip()) {
  check_rows_to_depth("standard.epd", 128, 6);
  check_rows_to_depth("chess960.epd", 6, 6);
}

TEST_CASE("perft: depth 0 counts the position itself") {
  CHECK(perft(Position::start(), 0) == 1);
}

}  // namespace
}  // namespace materialist::chess
