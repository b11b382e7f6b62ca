// A fit's --json fields, its bootstrap's and an error's.
#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <limits>
#include <optional>

#include "cli/report_format.h"
#include "cli/text_report.h"
#include "learn/fit/compare.h"
#include "learn/fit/relations.h"
#include "learn/fit/split_sides.h"
#include "learn/fit/uncertainty.h"
#include "learn/read/report_json.h"
#include "learn/vocabulary/coefficient_names.h"
#include "learn/vocabulary/imbalance.h"
#include "learn/vocabulary/pieces.h"

namespace materialist::cli {

using namespace detail;  // the reports' shared formatting
using learn::Coefficient;
using learn::Estimate;
using learn::ModelFit;

void write_bootstrap_json(JsonWriter& json, const learn::BootstrapFit& bootstrap) {
  json.key("bootstrap").begin_object();
  json.field("replicates", bootstrap.replicates).field("failed", bootstrap.failed);
  if (!bootstrap.error.empty()) json.field("error", bootstrap.error);
  json.key("valueIntervals").begin_object();
  for (const learn::BootstrapCoefficient& c : bootstrap.coefficients) {
    if (std::isnan(c.value_interval.low)) continue;
    json.key(learn::piece_key(c.name)).begin_array();
    json.value(c.value_interval.low).value(c.value_interval.high).end_array();
  }
  json.end_object();
  json.key("thetaIntervals").begin_object();
  for (const learn::BootstrapCoefficient& c : bootstrap.coefficients) {
    json.key(learn::piece_key(c.name)).begin_array();
    json.value(c.theta_interval.low).value(c.theta_interval.high).end_array();
  }
  json.end_object().end_object();
}

void write_error_json(JsonWriter& json, const std::string& code, const std::string& message) {
  json.key("error").begin_object().field("code", code).field("message", message).end_object();
}

namespace {

constexpr double kNull = std::numeric_limits<double>::quiet_NaN();  // written as null

// theta, thetaSe, thetaSeModel: θ per column (the draw margin is separate), null where not
// identified.
void write_theta_json(JsonWriter& json, const ModelFit& fit) {
  // θ per column (the draw margin is separate), null where not identified.
  const auto theta_column = [&](const char* key, auto get) {
    json.key(key).begin_array();
    for (std::size_t i = 0; i < fit.theta.size(); ++i) {
      const bool known = i < fit.coefficients.size() && fit.coefficients[i].identified;
      json.value(known ? get(fit.coefficients[i]) : kNull);
    }
    json.end_array();
  };
  theta_column("theta", [](const Coefficient& c) { return c.theta.value; });
  theta_column("thetaSe", [](const Coefficient& c) { return c.theta.se; });
  theta_column("thetaSeModel",
               [&](const Coefficient& c) { return model_se(fit, c.theta.se, c.model_theta_se); });
}

// values, valuesSe, valuesSeModel: the coefficients that have a value (pawn = 100), by name.
void write_values_json(JsonWriter& json, const ModelFit& fit, bool player_view) {
  std::vector<std::string> names;
  std::vector<double> values, errors, model_errors;
  for (const Coefficient& c : fit.coefficients) {
    if (std::isnan(c.value.value)) continue;
    names.push_back(coefficient_json_name(c.name, player_view));
    values.push_back(c.identified ? c.value.value : kNull);
    errors.push_back(c.identified ? c.value.se : kNull);
    model_errors.push_back(c.identified ? model_se(fit, c.value.se, c.model_value_se) : kNull);
  }
  learn::write_named_values(json, "values", names, values);
  learn::write_named_values(json, "valuesSe", names, errors);
  learn::write_named_values(json, "valuesSeModel", names, model_errors);
}

// coefficients: every coefficient in every unit.
void write_coefficients_json(JsonWriter& json, const ModelFit& fit, bool player_view) {
  json.key("coefficients").begin_array();
  for (const Coefficient& c : fit.coefficients) {
    const auto number = [&](double x) { return c.identified ? x : kNull; };
    json.begin_object()
        .field("name", coefficient_json_name(c.name, player_view))
        .field("identified", c.identified)
        .field("theta", number(c.theta.value))
        .field("thetaSe", number(c.theta.se))
        .field("thetaSeModel", number(model_se(fit, c.theta.se, c.model_theta_se)))
        .field("elo", number(c.elo.value))
        .field("eloSe", number(c.elo.se))
        .field("value", number(c.value.value))
        .field("valueSe", number(c.value.se))
        .field("valueSeModel", number(model_se(fit, c.value.se, c.model_value_se)))
        .end_object();
  }
  json.end_array();
}

// sides (split sides only): own against opponent's value per piece.
void write_sides_json(JsonWriter& json, const ModelFit& fit) {
  const std::vector<learn::SideComparison> sides = learn::compare_sides(fit);
  if (!sides.empty()) {
    json.key("sides").begin_array();
    for (const learn::SideComparison& side : sides) {
      const auto number = [&](double x) { return side.identified ? x : kNull; };
      json.begin_object()
          .field("piece", learn::kPieces[side.piece].column)
          .field("identified", side.identified)
          .field("own", number(side.own.value))
          .field("ownSe", number(side.own.se))
          .field("opponent", number(side.opponent.value))
          .field("opponentSe", number(side.opponent.se))
          .field("difference", number(side.difference.value))
          .field("differenceSe", number(side.difference.se))
          .field("ownTheta", number(side.own_theta.value))
          .field("ownThetaSe", number(side.own_theta.se))
          .field("opponentTheta", number(side.opponent_theta.value))
          .field("opponentThetaSe", number(side.opponent_theta.se))
          .field("differenceTheta", number(side.difference_theta.value))
          .field("differenceThetaSe", number(side.difference_theta.se))
          .field("pValue", number(side.p_value))
          .end_object();
    }
    json.end_array();
  }
}

// relations: Capablanca's, when the five values are identified.
void write_relations_json(JsonWriter& json, const ModelFit& fit) {
  json.key("relations").begin_array();
  const std::array<double, 5> v = values_array(fit);
  if (!std::isnan(v[0]) && all_pieces_identified(fit)) {
    for (const learn::RelationCheck& check : learn::check_capablanca(v)) {
      json.begin_object()
          .field("relation", check.relation)
          .field("holds", check.holds)
          .end_object();
    }
  }
  json.end_array();
}

}  // namespace

void write_fit_json(JsonWriter& json, const ModelFit& fit, bool player_view) {
  json.field("converged", fit.converged);
  json.key("warnings").begin_array();
  for (const learn::FitWarning& warning : fit.warnings) {
    json.begin_object().field("code", warning.code).field("message", warning.message).end_object();
  }
  json.end_array();
  json.field("errors", learn::error_kind_name(fit.errors)).field("clusteredGames", fit.clusters);
  write_theta_json(json, fit);
  json.field("loss", fit.loss).field("iterations", fit.iterations);
  json.field("weightedRows", fit.total_weight);
  if (fit.has_margin()) json.field("drawMargin", fit.draw_margin);
  write_values_json(json, fit, player_view);
  write_coefficients_json(json, fit, player_view);
  write_sides_json(json, fit);
  write_relations_json(json, fit);
}

}  // namespace materialist::cli
