#include <doctest/doctest.h>

#include <vector>

#include "learn/vocabulary/material.h"
#include "learn/vocabulary/quiet_filter.h"

using namespace materialist::learn;

namespace {

constexpr PlyFacts kQuiet{};
constexpr PlyFacts kCapture{true, false, false};
constexpr PlyFacts kCheck{false, false, true};
constexpr PlyFacts kPromotion{false, true, false};

struct Ply {
  PlyFacts facts;
  MaterialVector delta;
};

// Returns the indices (1-based plies) the filter records.
std::vector<int> recorded_plies(QuietFilter& filter, const std::vector<Ply>& plies) {
  filter.begin_game();
  std::vector<int> recorded;
  for (std::size_t i = 0; i < plies.size(); ++i) {
    if (filter.observe(plies[i].facts, plies[i].delta)) recorded.push_back(static_cast<int>(i + 1));
  }
  return recorded;
}

const MaterialVector kEven{0, 0, 0, 0, 0};
const MaterialVector kPawnUp{1, 0, 0, 0, 0};

}  // namespace

TEST_CASE("the filter records after two quiet plies, once per distinct vector") {
  QuietFilter filter;
  const std::vector<Ply> plies = {
      {kQuiet, kEven},      // 1: quiet 1
      {kQuiet, kEven},      // 2: quiet 2 -> first vector always recorded
      {kQuiet, kEven},      // 3: same vector, not recorded
      {kCapture, kPawnUp},  // 4: reset
      {kQuiet, kPawnUp},    // 5: quiet 1
      {kQuiet, kPawnUp},    // 6: quiet 2, new vector -> recorded
      {kCheck, kPawnUp},    // 7: a check resets
      {kQuiet, kPawnUp},    // 8
      {kCapture, kEven},    // 9
      {kQuiet, kEven},      // 10
      {kQuiet, kEven},      // 11: differs from the last recorded (pawn up) -> recorded
      {kPromotion, kEven},  // 12
      {kQuiet, kEven},      // 13
      {kQuiet, kEven},      // 14: equal to the last recorded -> not recorded
  };
  CHECK(recorded_plies(filter, plies) == std::vector<int>{2, 6, 11});

  SUBCASE("a new game forgets the last vector") {
    CHECK(recorded_plies(filter, plies) == std::vector<int>{2, 6, 11});
  }
  SUBCASE("every quiet position") {
    QuietFilter every({.distinct_per_game = false});
    CHECK(recorded_plies(every, plies) == std::vector<int>{2, 3, 6, 11, 14});
  }
  SUBCASE("checks do not break quietness") {
    QuietFilter lenient({.checks_break_quiet = false});
    // Ply 7 and 8 continue the run from ply 6 but the vector is unchanged.
    CHECK(recorded_plies(lenient, plies) == std::vector<int>{2, 6, 11});
    const std::vector<Ply> checks = {{kCheck, kEven}, {kCheck, kEven}, {kQuiet, kPawnUp}};
    CHECK(recorded_plies(lenient, checks) == std::vector<int>{2, 3});
    CHECK(recorded_plies(filter, checks).empty());
  }
  SUBCASE("three quiet plies") {
    QuietFilter strict({.quiet_plies = 3});
    CHECK(recorded_plies(strict, plies) == std::vector<int>{3});
  }
  SUBCASE("skip the first plies") {
    QuietFilter late({.skip_first_plies = 6});
    CHECK(recorded_plies(late, plies) == std::vector<int>{11});
  }
}

TEST_CASE("material counts give the deltas, the bishop pair and the phase") {
  MaterialCounts counts = MaterialCounts::start();
  CHECK(counts.delta() == kEven);
  CHECK(counts.phase() == 24);
  CHECK(counts.bishop_pair_delta() == 0);
  counts.black[kBishopIndex] = 1;
  counts.white[kPawnIndex] = 7;
  counts.white[kQueenIndex] = 2;  // a promotion: phase stays capped
  CHECK(counts.delta() == MaterialVector{-1, 0, 1, 0, 1});
  CHECK(counts.bishop_pair_delta() == 1);
  CHECK(counts.phase() == 24);
  counts.white = {3, 0, 1, 1, 0};
  counts.black = {2, 1, 0, 0, 0};
  CHECK(counts.phase() == 1 + 2 + 1);
  CHECK(counts.bishop_pair_delta() == 0);
}
