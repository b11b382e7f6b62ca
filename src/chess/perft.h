// Perft: the number of leaf nodes of the legal move tree, the standard move generator check.
#pragma once

#include <cstdint>

#include "chess/position.h"

namespace materialist::chess {

// Counts the legal move sequences of exactly `depth` plies from `pos` (1 for depth 0).
std::uint64_t perft(const Position& pos, int depth);

}  // namespace materialist::chess
