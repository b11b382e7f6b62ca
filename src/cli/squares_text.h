// The squares model's tables as text (materialist fit --model squares).
#pragma once

#include <cstdio>

#include "learn/fit/squares.h"
#include "learn/fit/squares_report.h"

namespace materialist::cli {

void print_squares_text(std::FILE* out, const learn::SquaresFit& fit,
                        const learn::SquaresData& data, const learn::SquaresUnit& unit,
                        const learn::SquaresOptions& options);

}  // namespace materialist::cli
