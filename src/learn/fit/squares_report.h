// The squares model's reports (learn/fit/squares.h): its JSON fields and its exports (CSV, a C++
// header, JSON), all in the chosen unit; the CLI's --json and the page's downloads (cli/squares_text.h
// prints the tables as text).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/json.h"
#include "learn/fit/squares.h"

namespace materialist::learn {

// What a unit makes of log-odds: pawn (the material-only model's pawn = 100), Elo or log-odds.
struct SquaresUnit {
  std::string name;  // "pawn", "elo", "logodds"
  double per_log_odds = 1;
};
SquaresUnit squares_unit(const std::string& units, const SquaresFit& fit);
const char* unit_title(const SquaresUnit& unit);  // "centipawns", "Elo", "natural log-odds"
// θ or its error (`values`: SquaresFit::theta or se) for a phase (0 mg, 1 eg), a type and a
// square, in the unit.
double in_unit(const std::vector<double>& values, const SquaresUnit& unit, int phase, int type,
               int square);
// Fewer training positions than options.min_positions: not a finding.
bool sparse(const SquaresFit& fit, const SquaresOptions& options, int type, int square);

// The data's side: how many positions were offered, kept, sampled, left out.
void write_squares_data_json(JsonWriter& json, const SquaresData& data,
                             const SquaresOptions& options);
// `squares`, `squaresSe`, `squaresPositions`, `squaresMaterial`, `validation`.
void write_squares_json(JsonWriter& json, const SquaresFit& fit, const SquaresUnit& unit,
                        const SquaresOptions& options);

// squaresData, then the fit's fields in the unit `units` ("pawn", "elo", "logodds"), or
// `squares`: null and `squaresError` {code, message} saying why there is no fit.
void write_squares_result_json(JsonWriter& json, const SquaresData& data,
                               const Expected<SquaresFit>& fit, const std::string& units,
                               const SquaresOptions& options);

// The kept positions (a sample when SquaresData::sampled()) as labelled EPD lines
// (append_labelled_epd): every one, or only the training games' or the held-out games'.
enum class PositionSplit : std::uint8_t { kAll, kTraining, kHeldOut };
std::string squares_positions_epd(const SquaresData& data, Target target, PositionSplit split);

// The tables as the file's name asks: .csv, .h/.hpp (C++), else JSON.
std::string squares_export_text(const std::string& path, const SquaresFit& fit,
                                const SquaresUnit& unit, const SquaresOptions& options);

}  // namespace materialist::learn
