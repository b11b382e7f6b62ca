// between() and line_through() against squares walked one step at a time, for every pair.
#include <doctest/doctest.h>

#include <cstdint>

#include "chess/attacks.h"

namespace materialist::chess {
namespace {

struct Walked {
  std::uint64_t between = 0;
  std::uint64_t line = 0;
};

// Walks from `a` in each of the eight directions; on reaching `b`, the squares passed and the
// whole line through both (edge to edge). Unaligned or equal squares give nothing.
Walked walk(int a, int b) {
  constexpr int kDirections[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                     {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  auto on_board = [](int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; };
  for (const auto& d : kDirections) {
    std::uint64_t passed = 0;
    for (int file = a % 8 + d[0], rank = a / 8 + d[1]; on_board(file, rank);
         file += d[0], rank += d[1]) {
      if (rank * 8 + file != b) {
        passed |= std::uint64_t{1} << (rank * 8 + file);
        continue;
      }
      std::uint64_t line = std::uint64_t{1} << a;
      for (const int sign : {1, -1}) {
        for (int f = a % 8 + sign * d[0], r = a / 8 + sign * d[1]; on_board(f, r);
             f += sign * d[0], r += sign * d[1]) {
          line |= std::uint64_t{1} << (r * 8 + f);
        }
      }
      return {passed, line};
    }
  }
  return {};
}

TEST_CASE("between and line_through match a step-by-step walk for every pair of squares") {
  int aligned = 0;
  for (int a = 0; a < 64; ++a) {
    for (int b = 0; b < 64; ++b) {
      const Walked expected = walk(a, b);
      CAPTURE(a);
      CAPTURE(b);
      CHECK(between(Square(a), Square(b)).bits() == expected.between);
      CHECK(line_through(Square(a), Square(b)).bits() == expected.line);
      aligned += expected.line != 0;
    }
  }
  // Each square sees 14 on its rank and file, and 7 to 13 on its diagonals.
  CHECK(aligned == 64 * 14 + 560);
}

}  // namespace
}  // namespace materialist::chess
