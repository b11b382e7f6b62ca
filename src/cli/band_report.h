// compare --by's table: per band (rating band or speed) its games, positions and each piece's
// value ± the half-width of its 95% interval (1.96 × the reported standard error), in the chosen
// units; a band's warnings under the table, "not identified" where the fit has no number.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "cli/text_report.h"
#include "core/json.h"
#include "learn/filter/bands.h"

namespace materialist::cli {

struct BandTable {
  std::string by;                    // the spec as given: "elo:200", "speed"
  std::string axis;                  // learn::band_axis_title: "average rating, bands of 200 Elo"
  std::vector<learn::Band> shown;    // the bands with games, as the compared datasets
  std::vector<std::string> omitted;  // the labels of the bands no game fell in
};

void print_band_table(std::FILE* out, const BandTable& table,
                      const std::vector<ComparedDataset>& bands, const std::string& units);

// Writes "by", "bandAxis", "omittedBands" and "bands": [{band, filter, games, positions,
// units, values {P..Q: {value, halfWidth95} or null when not identified or absent}, warnings
// [{code, message}], error (when not fitted)}].
void write_band_table_json(JsonWriter& json, const BandTable& table,
                           const std::vector<ComparedDataset>& bands, const std::string& units);

}  // namespace materialist::cli
