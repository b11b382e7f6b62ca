// The two targets side by side on the wire (TargetCompare, message "target-compare").
#include <string>

#include "protocol/codec.h"
#include "protocol/codec_fields.h"

namespace materialist::protocol {

using namespace detail;  // put, field, get, Fields: codec_fields.h

void detail::put(JsonWriter& json, const TargetRow& value) {
  json.begin_object();
  field(json, "name", value.name);
  field(json, "label", value.label);
  field(json, "identified", value.identified);
  field(json, "result", value.result);
  field(json, "resultSe", value.result_se);
  field(json, "eval", value.eval);
  field(json, "evalSe", value.eval_se);
  field(json, "difference", value.difference);
  field(json, "differenceSe", value.difference_se);
  field(json, "resultTheta", value.result_theta);
  field(json, "resultThetaSe", value.result_theta_se);
  field(json, "evalTheta", value.eval_theta);
  field(json, "evalThetaSe", value.eval_theta_se);
  field(json, "thetaDifference", value.theta_difference);
  field(json, "thetaDifferenceSe", value.theta_difference_se);
  json.end_object();
}

Result detail::get(const JsonValue& json, const std::string& path, TargetRow& out) {
  return Fields(json, path)("name", out.name)("label", out.label)("identified", out.identified)(
             "result", out.result)("resultSe", out.result_se)("eval", out.eval)(
             "evalSe", out.eval_se)("difference", out.difference)(
             "differenceSe", out.difference_se)("resultTheta", out.result_theta)(
             "resultThetaSe", out.result_theta_se)("evalTheta", out.eval_theta)(
             "evalThetaSe", out.eval_theta_se)("thetaDifference", out.theta_difference)(
             "thetaDifferenceSe", out.theta_difference_se)
      .result();
}

void detail::fields(JsonWriter& json, const TargetCompare& value) {
  field(json, "positions", value.positions);
  field(json, "games", value.games);
  field(json, "outcomes", value.outcomes);
  field(json, "differenceErrors", value.difference_errors);
  if (!value.error.empty()) field(json, "error", value.error);
  field(json, "rows", value.rows);
}

void write(JsonWriter& json, const TargetCompare& value) {
  object(json, value);
}

std::string message(const TargetCompare& value) {
  return typed("target-compare", value, false);
}

Result read(const JsonValue& json, TargetCompare& out) {
  const std::string path = "target-compare";
  return Fields(json, path)("positions", out.positions)("games", out.games)(
             "outcomes", out.outcomes)("differenceErrors", out.difference_errors)(
             "error", out.error)("rows", out.rows)
      .result();
}

}  // namespace materialist::protocol
