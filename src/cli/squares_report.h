// The squares model's reports (learn/fit/squares.h): its --json fields, its text tables, and its
// exports (CSV, a C++ header, JSON), all in the chosen unit.
#pragma once

#include <cstdio>
#include <string>

#include "core/error.h"
#include "core/json.h"
#include "learn/fit/squares.h"

namespace materialist::cli {

// What a unit makes of log-odds: pawn (the material-only model's pawn = 100), Elo or log-odds.
struct SquaresUnit {
  std::string name;  // "pawn", "elo", "logodds"
  double per_log_odds = 1;
};
SquaresUnit squares_unit(const std::string& units, const learn::SquaresFit& fit);

// The data's side: how many positions were offered, kept, sampled, left out.
void write_squares_data_json(JsonWriter& json, const learn::SquaresData& data,
                             const learn::SquaresOptions& options);
// `squares`, `squaresSe`, `squaresPositions`, `squaresMaterial`, `validation`.
void write_squares_json(JsonWriter& json, const learn::SquaresFit& fit, const SquaresUnit& unit,
                        const learn::SquaresOptions& options);
void print_squares_text(std::FILE* out, const learn::SquaresFit& fit,
                        const learn::SquaresData& data, const SquaresUnit& unit,
                        const learn::SquaresOptions& options);

// The tables as the file's name asks: .csv, .h/.hpp (C++), else JSON.
std::string squares_export_text(const std::string& path, const learn::SquaresFit& fit,
                                const SquaresUnit& unit, const learn::SquaresOptions& options);

}  // namespace materialist::cli
