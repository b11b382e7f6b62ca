// The C++ header export: every dataset's piece values and the model's other terms as constexpr
// constants in the chosen unit, with the model and data they came from.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <optional>

#include "core/text.h"
#include "learn/filter/bands.h"
#include "learn/filter/game_filter.h"
#include "learn/vocabulary/coefficient_names.h"
#include "worker/export_values.h"
#include "worker/exporter.h"

namespace materialist::worker {
namespace {

using namespace detail;  // the exports' shared numbers

// A band's C++ name: "1400-1599" → Elo1400To1599, "2800+" → Elo2800Plus, "<800" → EloBelow800,
// "blitz" → Blitz.
std::string band_identifier(const std::string& label) {
  if (label.empty() || std::isalpha(static_cast<unsigned char>(label[0])) != 0)
    return learn::code_identifier(label);
  std::string out = "Elo";
  for (const char c : label) {
    if (c == '-')
      out += "To";
    else if (c == '+')
      out += "Plus";
    else if (c == '<')
      out += "Below";
    else if (std::isdigit(static_cast<unsigned char>(c)) != 0)
      out += c;
  }
  return out;
}

// The header's comment lines: the data, the target, the model and the unit.
std::string preamble(const learn::DatasetReport* r, const protocol::ReadOptions& read,
                     const learn::AnalysisSettings& analysis, const std::string& preset,
                     protocol::Units units) {
  std::string out =
      "// Piece values learned by Materialist (logistic regression on quiet positions)\n";
  if (r != nullptr) {
    out += "// data:";
    for (const learn::FileReport& file : r->files) out += " " + printable(file.name, 1024);
    out += "; " + std::to_string(r->games.games_used + r->games.games_partial) + " games, " +
           std::to_string(r->rows) + " rows\n";
  }
  const learn::ModelOptions& model = analysis.model;
  out += "// target: " +
         std::string(model.target == learn::Target::kEval
                         ? "the engine's evaluation ([%eval]) as an expected score"
                         : "the game's result") +
         "\n";
  out += "// model: outcomes " + std::string(learn::outcome_model_name(model.outcomes));
  if (model.intercept) out += ", intercept";
  if (model.bishop_pair) out += ", bishop pair";
  if (model.phase_tapered) out += ", middlegame/endgame values";
  if (model.rating_offset) out += ", rating offset";
  if (model.side_to_move) out += ", side to move";
  if (model.imbalances != 0)
    out += ", imbalance terms " + learn::imbalance_list_text(model.imbalances);
  if (model.split_sides) out += ", own and opponent's pieces apart";
  out += "; solver " + std::string(learn::solver_name(analysis.solver)) + ", preset " + preset +
         ", lambda " + format("%.3g", model.lambda);
  if (!read.filter.empty()) out += "; filter \"" + printable(read.filter, 1024) + "\"";
  const char* unit_words = units == protocol::Units::kElo       ? "Elo"
                           : units == protocol::Units::kLogOdds ? "log-odds"
                                                                : "centipawns (pawn = 100)";
  out += std::string("\n// Every term is in ") + unit_words +
         "; \"not identified\" terms are left out.\n";
  return out + "#pragma once\n";
}

// One fitted dataset's constants: the five pieces as one array when all are identified single
// values, then every other term, each named with `prefix`.
std::string dataset_constants(const learn::ModelFit& fit, const std::string& prefix,
                              protocol::Units units, bool player) {
  // Whole numbers in centipawns and Elo; log-odds keep their decimals.
  const bool whole = units != protocol::Units::kLogOdds;
  const std::string type = whole ? "int" : "double";
  auto number = [&](double v) {
    return whole ? std::to_string(static_cast<long>(std::lround(v))) : format("%.6g", v);
  };
  std::string out = std::string("// errors: ") + learn::error_kind_name(fit.errors) + "\n";
  for (const learn::FitWarning& w : fit.warnings)
    out += "// WARNING " + w.code + ": " + printable(w.message, 1024) + "\n";
  static constexpr const char* kPieces[5] = {"pawn", "knight", "bishop", "rook", "queen"};
  bool array = true;
  for (const char* piece : kPieces) {
    const int column = fit.column(piece);
    array = array && column >= 0 && fit.coefficients[static_cast<std::size_t>(column)].identified;
  }
  if (array) {
    out += "// Pawn, knight, bishop, rook, queen.\nconstexpr " + type + " k" + prefix +
           "PieceValues[5] = {";
    for (int p = 0; p < 5; ++p) {
      const double v =
          value_in(fit.coefficients[static_cast<std::size_t>(fit.column(kPieces[p]))], units);
      out += (p ? ", " : "") + number(v);
    }
    out += "};\n";
  }
  for (std::size_t i = 0; i < fit.coefficients.size(); ++i) {
    const learn::Coefficient c = shown(fit, i);
    const bool piece = std::find_if(std::begin(kPieces), std::end(kPieces), [&](const char* p) {
                         return c.name == p;
                       }) != std::end(kPieces);
    if (piece && array) continue;
    const std::string label = learn::coefficient_label_with_unit(c.name, player);
    const double value = value_in(c, units);
    if (!c.identified || !std::isfinite(value)) {
      out += "// " + label + ": not identified by these games\n";
      continue;
    }
    out += "constexpr " + type + " k" + prefix + learn::code_identifier(c.name) + " = " +
           number(value) + ";  // " + label;
    if (c.name == "draw-margin") out += ": |material| below this leans to a draw";
    if (c.name == "bishop-pair") out += ": bonus for the side with both bishops";
    out += " (± " + (whole ? format("%.0f", se_in(c, units)) : format("%.3g", se_in(c, units))) +
           ")\n";
  }
  return out;
}

}  // namespace

std::string Exporter::code_header() const {
  const protocol::ReadOptions& read = read_options();
  std::string out = preamble(report(), read, fit_.analysis, fit_.settings.preset, units_);
  if (fit_count() == 0) return out + "\n// (no fit yet)\n";
  const bool player = learn::player_view(read.filter);
  for (std::size_t d = 0; d < fit_count(); ++d) {
    // A band is named by its band (kElo1400To1599, kBlitz), another dataset by its name.
    const std::optional<std::string> band = learn::band_label(fit_.targets[d].name);
    std::string prefix;
    if (fit_count() > 1)
      prefix = band ? band_identifier(*band) : learn::code_identifier(fit_.targets[d].name);
    if (fit_count() > 1 && (prefix.empty() || std::isdigit(static_cast<unsigned char>(prefix[0]))))
      prefix = "Dataset" + std::to_string(d + 1) + prefix;
    out += "\n// ---- " +
           (fit_count() > 1 ? "dataset " + printable(band.value_or(fit_.targets[d].name), 1024)
                            : std::string("values")) +
           " ----\n";
    const learn::ModelFit* fit = this->fit(d);
    if (fit == nullptr) {
      out += "// no fit: " + printable(fit_.errors[d], 1024) + "\n";
      continue;
    }
    out += dataset_constants(*fit, prefix, units_, player);
  }
  return out;
}

}  // namespace materialist::worker
