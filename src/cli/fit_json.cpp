// A fit's --json fields, its bootstrap's and an error's.
#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>

#include "cli/report_format.h"
#include "cli/text_report.h"
#include "learn/fit/compare.h"
#include "learn/fit/fit_json_keys.h"
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
namespace fit_key = learn::fit_key;

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
  const auto theta_column = [&](std::string_view key, auto get) {
    json.key(key).begin_array();
    for (std::size_t i = 0; i < fit.theta.size(); ++i) {
      const bool known = i < fit.coefficients.size() && fit.coefficients[i].identified;
      json.value(known ? get(fit.coefficients[i]) : kNull);
    }
    json.end_array();
  };
  theta_column(fit_key::kTheta, [](const Coefficient& c) { return c.theta.value; });
  theta_column(fit_key::kThetaSe, [](const Coefficient& c) { return c.theta.se; });
  theta_column(fit_key::kThetaSeModel,
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
  json.key(fit_key::kCoefficients).begin_array();
  for (const Coefficient& c : fit.coefficients) {
    const auto number = [&](double x) { return c.identified ? x : kNull; };
    json.begin_object()
        .field(fit_key::kName, coefficient_json_name(c.name, player_view))
        .field(fit_key::kIdentified, c.identified)
        .field(fit_key::kTheta, number(c.theta.value))
        .field(fit_key::kThetaSe, number(c.theta.se))
        .field(fit_key::kThetaSeModel, number(model_se(fit, c.theta.se, c.model_theta_se)))
        .field(fit_key::kElo, number(c.elo.value))
        .field(fit_key::kEloSe, number(c.elo.se))
        .field(fit_key::kValue, number(c.value.value))
        .field(fit_key::kValueSe, number(c.value.se))
        .field(fit_key::kValueSeModel, number(model_se(fit, c.value.se, c.model_value_se)))
        .end_object();
  }
  json.end_array();
}

// sides (split sides only): own against opponent's value per piece.
void write_sides_json(JsonWriter& json, const ModelFit& fit) {
  const std::vector<learn::SideComparison> sides = learn::compare_sides(fit);
  if (!sides.empty()) {
    json.key(fit_key::kSides).begin_array();
    for (const learn::SideComparison& side : sides) {
      const auto number = [&](double x) { return side.identified ? x : kNull; };
      const auto estimate = [&](auto key, auto se_key, const auto& value) {
        json.field(key, number(value.value)).field(se_key, number(value.se));
      };
      json.begin_object()
          .field(fit_key::kPiece, learn::kPieces[side.piece].column)
          .field(fit_key::kIdentified, side.identified);
      estimate(fit_key::kOwn, fit_key::kOwnSe, side.own);
      estimate(fit_key::kOpponent, fit_key::kOpponentSe, side.opponent);
      estimate(fit_key::kDifference, fit_key::kDifferenceSe, side.difference);
      estimate(fit_key::kOwnTheta, fit_key::kOwnThetaSe, side.own_theta);
      estimate(fit_key::kOpponentTheta, fit_key::kOpponentThetaSe, side.opponent_theta);
      estimate(fit_key::kDifferenceTheta, fit_key::kDifferenceThetaSe, side.difference_theta);
      json.field("pValue", number(side.p_value)).end_object();
    }
    json.end_array();
  }
}

// relations: Capablanca's, when the five values are identified.
void write_relations_json(JsonWriter& json, const ModelFit& fit) {
  json.key(fit_key::kRelations).begin_array();
  const std::array<double, 5> v = values_array(fit);
  if (!std::isnan(v[0]) && all_pieces_identified(fit)) {
    for (const learn::RelationCheck& check : learn::check_capablanca(v)) {
      json.begin_object()
          .field(fit_key::kRelation, check.relation)
          .field("holds", check.holds)
          .end_object();
    }
  }
  json.end_array();
}

}  // namespace

void write_fit_json(JsonWriter& json, const ModelFit& fit, bool player_view) {
  json.field(fit_key::kConverged, fit.converged);
  json.key(fit_key::kWarnings).begin_array();
  for (const learn::FitWarning& warning : fit.warnings) {
    json.begin_object()
        .field(fit_key::kCode, warning.code)
        .field(fit_key::kMessage, warning.message)
        .end_object();
  }
  json.end_array();
  json.field(fit_key::kErrors, learn::error_kind_name(fit.errors))
      .field("clusteredGames", fit.clusters);
  write_theta_json(json, fit);
  json.field(fit_key::kLoss, fit.loss).field(fit_key::kIterations, fit.iterations);
  json.field("weightedRows", fit.total_weight);
  if (fit.has_margin()) json.field("drawMargin", fit.draw_margin);
  write_values_json(json, fit, player_view);
  write_coefficients_json(json, fit, player_view);
  write_sides_json(json, fit);
  write_relations_json(json, fit);
}

}  // namespace materialist::cli
