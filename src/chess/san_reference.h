// The SAN reader that resolves every token through the legal move generator: parse_san's fast
// path hands it whatever it does not resolve itself (castling in coordinates, odd spellings, and
// every error, so messages are worded in one place), and the differential test checks the two
// against each other.
#pragma once

#include <string_view>

#include "chess/position.h"
#include "chess/types.h"
#include "core/error.h"

namespace materialist::chess {

// Same contract as parse_san (chess/san.h).
Expected<Move> parse_san_reference(const Position& pos, std::string_view san);

}  // namespace materialist::chess
