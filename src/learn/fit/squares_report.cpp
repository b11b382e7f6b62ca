#include "learn/fit/squares_report.h"

#include <cmath>
#include <string_view>

#include "core/statistics.h"

namespace materialist::learn {

namespace {

constexpr std::array<std::string_view, 2> kPhases = {"mg", "eg"};

std::string square_name(int square) {
  return {static_cast<char>('a' + square % 8), static_cast<char>('1' + square / 8)};
}

std::string_view letter(int type) {
  return kBoardPieceLetters.substr(static_cast<std::size_t>(type), 1);
}

}  // namespace

double in_unit(const std::vector<double>& values, const SquaresUnit& unit, int phase, int type,
               int square) {
  return values[static_cast<std::size_t>(phase * kSquareCells + type * kBoardSquares + square)] *
         unit.per_log_odds;
}

bool sparse(const SquaresFit& fit, const SquaresOptions& options, int type, int square) {
  return fit.positions[static_cast<std::size_t>(type * kBoardSquares + square)] <
         options.min_positions;
}

namespace {

// {mg: {P: [64], ...}, eg: {...}} of θ or its errors.
void write_tables(JsonWriter& json, std::string_view name, const std::vector<double>& values,
                  const SquaresUnit& unit) {
  json.key(name).begin_object();
  for (int phase = 0; phase < 2; ++phase) {
    json.key(kPhases[static_cast<std::size_t>(phase)]).begin_object();
    for (int type = 0; type < kBoardPieceTypes; ++type) {
      json.key(letter(type)).begin_array();
      for (int square = 0; square < kBoardSquares; ++square) {
        json.value(in_unit(values, unit, phase, type, square));
      }
      json.end_array();
    }
    json.end_object();
  }
  json.end_object();
}

}  // namespace

const char* unit_title(const SquaresUnit& unit) {
  return unit.name == "elo" ? "Elo" : unit.name == "logodds" ? "natural log-odds" : "centipawns";
}

SquaresUnit squares_unit(const std::string& units, const SquaresFit& fit) {
  if (units == "elo") return {"elo", kEloPerLogOdds};
  if (units == "logodds") return {"logodds", 1.0};
  // A pawn the material-only model finds worth nothing cannot be the unit: log-odds, named so.
  const double pawn = fit.material[0];
  if (!(pawn > 0)) return {"logodds", 1.0};
  return {"pawn", 100.0 / pawn};
}

void write_squares_data_json(JsonWriter& json, const SquaresData& data,
                             const SquaresOptions& options) {
  json.key("squaresData").begin_object();
  json.field("positionsOffered", data.positions_offered())
      .field("positionsKept", static_cast<std::uint64_t>(data.rows().size()))
      .field("sampled", data.sampled())
      .field("maxPositions", options.max_positions)
      .field("drawsLeftOut", data.draws_left_out())
      .field("rowsWithoutBoard", data.without_board())
      .field("trainingGames", data.training_games())
      .field("heldOutGames", data.held_out_games());
  json.end_object();
}

void write_squares_json(JsonWriter& json, const SquaresFit& fit, const SquaresUnit& unit,
                        const SquaresOptions& options) {
  json.field("squaresUnit", unit.name);
  json.field("squaresLayout",
             "a1..h8 (a1 = 0, h1 = 7, h8 = 63), White's view: Black's pieces read the mirrored "
             "square (square ^ 56)");
  write_tables(json, "squares", fit.theta, unit);
  write_tables(json, "squaresSe", fit.se, unit);
  json.key("squaresPositions").begin_object();
  for (int type = 0; type < kBoardPieceTypes; ++type) {
    json.key(letter(type)).begin_array();
    for (int square = 0; square < kBoardSquares; ++square) {
      json.value(fit.positions[static_cast<std::size_t>(type * kBoardSquares + square)]);
    }
    json.end_array();
  }
  json.end_object();
  json.field("squaresMinPositions", options.min_positions);
  json.key("squaresMaterial").begin_object();
  for (int type = 0; type < kPieceKinds; ++type) {
    json.field(letter(type), fit.material[static_cast<std::size_t>(type)] * unit.per_log_odds);
  }
  json.end_object();
  json.key("validation").begin_object();
  json.field("logLoss", fit.validation_log_loss)
      .field("materialLogLoss", fit.material_log_loss)
      .field("games", fit.validation_games)
      .field("positions", fit.validation_positions)
      .field("trainingPositions", fit.training_positions)
      .field("lambda", fit.lambda)
      .field("newtonIterations", fit.newton_iterations);
  json.key("path").begin_array();
  for (const SquaresLambda& step : fit.path) {
    json.begin_object()
        .field("lambda", step.lambda)
        .field("logLoss", step.validation_log_loss)
        .end_object();
  }
  json.end_array();
  json.end_object();
}

void write_squares_result_json(JsonWriter& json, const SquaresData& data,
                               const Expected<SquaresFit>& fit, const std::string& units,
                               const SquaresOptions& options) {
  write_squares_data_json(json, data, options);
  if (fit) {
    write_squares_json(json, *fit, squares_unit(units, *fit), options);
    return;
  }
  json.key("squares").null();
  json.key("squaresError").begin_object();
  json.field("code", error_code_name(fit.error().code))
      .field("message", fit.error().message)
      .end_object();
}

std::string squares_positions_epd(const SquaresData& data, Target target, PositionSplit split) {
  std::string text;
  text.reserve(data.rows().size() * 64);
  for (const SquaresRow& row : data.rows()) {
    if (split != PositionSplit::kAll && (row.held_out != 0) != (split == PositionSplit::kHeldOut)) {
      continue;
    }
    append_labelled_epd(text, row.board(), row.score, target == Target::kEval);
  }
  return text;
}

std::string squares_export_text(const std::string& path, const SquaresFit& fit,
                                const SquaresUnit& unit, const SquaresOptions& options) {
  const auto ends_with = [&](std::string_view end) {
    return path.size() >= end.size() &&
           path.compare(path.size() - end.size(), end.size(), end) == 0;
  };
  std::string text;
  char line[160];
  if (ends_with(".csv")) {
    text = "piece,phase,square,value,se,positions,sparse\n";
    for (int type = 0; type < kBoardPieceTypes; ++type) {
      for (int phase = 0; phase < 2; ++phase) {
        for (int square = 0; square < kBoardSquares; ++square) {
          std::snprintf(line, sizeof line, "%s,%s,%s,%.6g,%.6g,%llu,%d\n",
                        std::string(letter(type)).c_str(),
                        std::string(kPhases[static_cast<std::size_t>(phase)]).c_str(),
                        square_name(square).c_str(), in_unit(fit.theta, unit, phase, type, square),
                        in_unit(fit.se, unit, phase, type, square),
                        static_cast<unsigned long long>(
                            fit.positions[static_cast<std::size_t>(type * kBoardSquares + square)]),
                        sparse(fit, options, type, square) ? 1 : 0);
          text += line;
        }
      }
    }
    return text;
  }
  if (ends_with(".h") || ends_with(".hpp")) {
    const bool integers = unit.name != "logodds";
    text =
        "// Piece-square tables learned by Materialist (materialist fit --model squares).\n"
        "// Unit: " +
        std::string(unit_title(unit)) +
        (unit.name == "pawn" ? " (the material-only model's pawn = 100)" : "") +
        ". Tapered: value = (mg * phase + eg * (24 - phase)) / 24,\n"
        "// phase = knights + bishops + 2 * rooks + 4 * queens of both sides, at most 24.\n"
        "// The tables hold each piece's whole value (material included), from White's side.\n"
        "// Layout: index 0 = a8, 7 = h8, 56 = a1, 63 = h1 (the board as printed, PeSTO's\n"
        "// order). With squares numbered a1 = 0 .. h8 = 63: a White piece on sq reads\n"
        "// table[sq ^ 56], a Black piece reads table[sq] and counts for Black.\n";
    std::snprintf(line, sizeof line,
                  "// %llu training positions; held-out log-loss %.5f (material only %.5f).\n",
                  static_cast<unsigned long long>(fit.training_positions), fit.validation_log_loss,
                  fit.material_log_loss);
    text += line;
    text += "#pragma once\n\nnamespace materialist_squares {\n";
    const char* type_name = integers ? "int" : "double";
    for (int phase = 0; phase < 2; ++phase) {
      for (int type = 0; type < kBoardPieceTypes; ++type) {
        std::string name = std::string(kBoardPieceNames[static_cast<std::size_t>(type)]);
        name[0] = static_cast<char>(name[0]);
        text += "\ninline constexpr " + std::string(type_name) + " k" + (phase == 0 ? "Mg" : "Eg") +
                name + "[64] = {\n";
        for (int row = 7; row >= 0; --row) {
          text += "   ";
          for (int file = 0; file < 8; ++file) {
            const double value = in_unit(fit.theta, unit, phase, type, row * 8 + file);
            if (integers) {
              std::snprintf(line, sizeof line, " %5ld,", std::lround(value));
            } else {
              std::snprintf(line, sizeof line, " %8.4f,", value);
            }
            text += line;
          }
          text += "\n";
        }
        text += "};\n";
      }
    }
    text += "\n}  // namespace materialist_squares\n";
    return text;
  }
  JsonWriter json;
  json.begin_object();
  write_squares_json(json, fit, unit, options);
  json.end_object();
  return json.str() + "\n";
}

}  // namespace materialist::learn
