// generate_tactical: exactly the legal captures and promotions, checked against the full
// generator over every position two plies into each perft position (standard and Chess960);
// Position::gives_check against each legal move played, over the same positions.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "test_util.h"

namespace materialist::chess {

namespace {

std::vector<std::uint16_t> sorted_raw(const MoveList& list) {
  std::vector<std::uint16_t> raw;
  for (const Move move : list) raw.push_back(move.raw());
  std::sort(raw.begin(), raw.end());
  return raw;
}

bool agrees(const Position& pos) {
  MoveList all;
  generate_legal(pos, all);
  MoveList expected;
  for (const Move move : all) {
    const bool capture =
        move.is_en_passant() || (!move.is_castling() && !pos.piece_on(move.to()).is_none());
    if (capture || move.is_promotion()) expected.push(move);
  }
  MoveList tactical;
  generate_tactical(pos, tactical);
  return sorted_raw(tactical) == sorted_raw(expected);
}

// Position::gives_check agrees with playing each legal move and looking.
bool checks_agree(const Position& pos) {
  MoveList all;
  generate_legal(pos, all);
  for (const Move move : all) {
    Position after = pos;
    if (after.play(move).gives_check() != pos.gives_check(move)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("generate_tactical and gives_check agree with the full generator and play") {
  int positions = 0;
  for (const char* file : {"perft/standard.epd", "perft/chess960.epd"}) {
    for (const std::string& line :
         materialist::testing::lines_of(materialist::testing::read_fixture(file))) {
      auto root = Position::from_fen(line.substr(0, line.find(';')));
      REQUIRE(root);
      MoveList first;
      generate_legal(*root, first);
      for (const Move a : first) {
        Position one = *root;
        one.play(a);
        MoveList second;
        generate_legal(one, second);
        for (const Move b : second) {
          Position two = one;
          two.play(b);
          ++positions;
          if (!agrees(two)) FAIL_CHECK("disagrees in ", two.fen());
          if (!checks_agree(two)) FAIL_CHECK("gives_check disagrees in ", two.fen());
        }
      }
    }
  }
  CHECK(positions > 10000);
}

}  // namespace materialist::chess
