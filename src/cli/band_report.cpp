#include "cli/band_report.h"

#include <cmath>
#include <optional>

#include "core/statistics.h"
#include "learn/vocabulary/pieces.h"

namespace materialist::cli {
namespace {

unsigned long long u(std::uint64_t n) {
  return static_cast<unsigned long long>(n);
}

std::uint64_t games_in(const ComparedDataset& band) {
  return band.report.games.games_used + band.report.games.games_partial;
}

struct PieceValue {
  double value = 0;
  double half_width = 0;  // NaN without standard errors
};

// The piece's value in the chosen units (as print_fit reads them), or nullopt when the band was
// not fitted, its model has no such column (tapered values) or the data do not identify it.
std::optional<PieceValue> piece_value(const ComparedDataset& band, int piece,
                                      const std::string& units) {
  if (!band.error.empty()) return std::nullopt;
  const int column = band.fit.column(std::string(learn::kPieces[piece].column));
  if (column < 0) return std::nullopt;
  const learn::Coefficient& c = band.fit.coefficients[column];
  if (!c.identified) return std::nullopt;
  const learn::Estimate& e = units == "elo" ? c.elo : units == "logodds" ? c.theta : c.value;
  // The reference column (pawn = 100) has no spread of its own, only rounding noise.
  const double se = e.se <= 1e-9 * std::fabs(e.value) ? 0.0 : e.se;
  return PieceValue{e.value, kZ95 * se};
}

std::string cell_text(const ComparedDataset& band, int piece, const std::string& units) {
  if (!band.error.empty()) return "-";
  const std::optional<PieceValue> v = piece_value(band, piece, units);
  if (!v) {
    return band.fit.column(std::string(learn::kPieces[piece].column)) < 0 ? "-" : "not identified";
  }
  const char* format = units == "logodds" ? "%.3f" : "%.0f";
  char value[32], half[32];
  std::snprintf(value, sizeof value, format, v->value);
  if (v->half_width == 0) return value;
  if (std::isnan(v->half_width)) return std::string(value) + " ± ?";
  std::snprintf(half, sizeof half, format, v->half_width);
  return std::string(value) + " ± " + half;
}

const char* units_text(const std::string& units) {
  if (units == "elo") return "Elo";
  if (units == "logodds") return "log-odds";
  return "pawn = 100";
}

}  // namespace

void print_band_table(std::FILE* out, const BandTable& table,
                      const std::vector<ComparedDataset>& bands, const std::string& units) {
  std::fprintf(out, "Values by %s (%s; ± half-width of the 95%% interval)\n", table.axis.c_str(),
               units_text(units));
  constexpr int kCell = 16;
  std::fprintf(out, "%-12s %8s %10s", "band", "games", "positions");
  for (const learn::PieceNames& piece : learn::kPieces) {
    std::fprintf(out, " %*s", kCell, std::string(piece.label).c_str());
  }
  std::fputc('\n', out);
  for (const ComparedDataset& band : bands) {
    std::fprintf(out, "%-12s %8llu %10llu", band.name.c_str(), u(games_in(band)),
                 u(band.report.rows));
    for (int piece = 0; piece < learn::kPieceKinds; ++piece) {
      const std::string text = cell_text(band, piece, units);
      const bool plus_minus = text.find("±") != std::string::npos;  // two bytes, one column
      std::fprintf(out, " %*s", plus_minus ? kCell + 1 : kCell, text.c_str());
    }
    std::fputc('\n', out);
  }
  for (const ComparedDataset& band : bands) {
    if (!band.error.empty()) {
      std::fprintf(out, "  %s: not fitted: %s\n", band.name.c_str(), band.error.c_str());
      continue;
    }
    for (const learn::FitWarning& warning : band.fit.warnings) {
      std::fprintf(out, "  %s: Warning: %s\n", band.name.c_str(), warning.message.c_str());
    }
  }
  if (!table.omitted.empty()) {
    std::string list;
    for (const std::string& label : table.omitted) list += (list.empty() ? "" : ", ") + label;
    std::fprintf(out, "  no games in: %s\n", list.c_str());
  }
}

void write_band_table_json(JsonWriter& json, const BandTable& table,
                           const std::vector<ComparedDataset>& bands, const std::string& units) {
  json.field("by", table.by).field("bandAxis", table.axis);
  json.key("omittedBands").begin_array();
  for (const std::string& label : table.omitted) json.value(label);
  json.end_array();
  json.key("bands").begin_array();
  for (std::size_t i = 0; i < bands.size(); ++i) {
    const ComparedDataset& band = bands[i];
    json.begin_object().field("band", band.name);
    json.field("filter", i < table.shown.size() ? table.shown[i].filter : std::string());
    json.field("games", games_in(band)).field("positions", band.report.rows);
    json.field("units", units);
    json.key("values").begin_object();
    for (int piece = 0; piece < learn::kPieceKinds; ++piece) {
      json.key(learn::kPieces[piece].letter);
      const std::optional<PieceValue> v = piece_value(band, piece, units);
      if (!v) {
        json.null();
        continue;
      }
      json.begin_object().field("value", v->value);
      json.key("halfWidth95");
      if (std::isnan(v->half_width)) {
        json.null();
      } else {
        json.value(v->half_width);
      }
      json.end_object();
    }
    json.end_object();
    json.key("warnings").begin_array();
    for (const learn::FitWarning& warning : band.fit.warnings) {
      if (!band.error.empty()) break;
      json.begin_object().field("code", warning.code).field("message", warning.message);
      json.end_object();
    }
    json.end_array();
    if (!band.error.empty()) write_error_json(json, band.error_code, band.error);
    json.end_object();
  }
  json.end_array();
}

}  // namespace materialist::cli
