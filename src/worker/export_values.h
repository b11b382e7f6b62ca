// The numbers the engine's exports share (exporter.cpp, exporter_code_header.cpp): a
// coefficient as shown, in the chosen unit, formatted.
#pragma once

#include <cstddef>
#include <string>

#include "learn/fit/models.h"
#include "protocol/messages.h"

namespace materialist::worker::detail {

// A coefficient as shown: the draw margin gets its value in pawn units too (c / θ_pawn · 100,
// the material that moves a game from the draw band), which describe_coefficients leaves NaN.
learn::Coefficient shown(const learn::ModelFit& fit, std::size_t index);
// printf of one number.
std::string format(const char* pattern, double value);
// A coefficient's value in the chosen unit (pawn = 100, Elo or log-odds).
double value_in(const learn::Coefficient& c, protocol::Units units);
double se_in(const learn::Coefficient& c, protocol::Units units);
// A value as the status line and the C++ header write it: whole centipawns or Elo, log-odds to
// three decimals.
std::string unit_number(double value, protocol::Units units);

}  // namespace materialist::worker::detail
