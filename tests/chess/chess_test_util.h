// Test helpers shared by the chess suites.
#pragma once

#include <doctest/doctest.h>

#include <string_view>

#include "chess/position.h"

namespace materialist::chess::testing {

// The position of a FEN the test knows to be valid; a bad FEN fails the test case.
inline Position position(std::string_view fen) {
  auto pos = Position::from_fen(fen);
  if (!pos.ok()) {
    FAIL_CHECK(pos.error().message);
    return Position::start();
  }
  return *pos;
}

}  // namespace materialist::chess::testing
