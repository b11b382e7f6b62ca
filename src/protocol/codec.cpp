// The wire format's vocabulary: the enum names and the scalar field helpers of codec_fields.h.
// The settings are read and written in codec_settings.cpp, the results in codec_results.cpp.
#include "protocol/codec.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

#include "core/enum_names.h"
#include "protocol/codec_fields.h"

namespace materialist::protocol {

// ---- enum ⇄ wire names (core/enum_names.h; learn's own tables where learn names the enum) ----

namespace {

constexpr std::array kDatasetModeNames = {"merge", "per-file", "per-filter"};
static_assert(kDatasetModeNames.size() == static_cast<std::size_t>(DatasetMode::kPerFilter) + 1);

constexpr std::array kUnitsNames = {"pawn", "elo", "logodds"};
static_assert(kUnitsNames.size() == static_cast<std::size_t>(Units::kLogOdds) + 1);

constexpr std::array kPhaseNames = {"idle", "reading", "fitting", "done", "error"};
static_assert(kPhaseNames.size() == static_cast<std::size_t>(Phase::kError) + 1);

constexpr std::array kDrawsNames = {"exclude", "half"};
static_assert(kDrawsNames.size() == static_cast<std::size_t>(learn::DrawHandling::kHalfPoint) + 1);

constexpr std::array kUnknownNames = {"skip", "draw"};
static_assert(kUnknownNames.size() ==
              static_cast<std::size_t>(learn::UnknownResultPolicy::kTreatAsDraw) + 1);

// learn::kSolverNames ("gd", "newton") and learn::kOutcomeModelNames ("draws-out",
// "fractional", "ordinal") carry their own static_asserts.

}  // namespace

const char* wire_name(DatasetMode mode) {
  return name_of(kDatasetModeNames, mode);
}
const char* wire_name(Units units) {
  return name_of(kUnitsNames, units);
}
const char* wire_name(Phase phase) {
  return name_of(kPhaseNames, phase);
}
const char* wire_name(learn::SolverKind solver) {
  return name_of(learn::kSolverNames, solver);
}
const char* wire_name(learn::DrawHandling draws) {
  return name_of(kDrawsNames, draws);
}
const char* wire_name(learn::UnknownResultPolicy policy) {
  return name_of(kUnknownNames, policy);
}
const char* wire_name(learn::OutcomeModel outcomes) {
  return name_of(learn::kOutcomeModelNames, outcomes);
}

std::optional<DatasetMode> parse_dataset_mode(std::string_view name) {
  return value_named<DatasetMode>(kDatasetModeNames, name);
}
std::optional<Units> parse_units(std::string_view name) {
  return value_named<Units>(kUnitsNames, name);
}
std::optional<Phase> parse_phase(std::string_view name) {
  return value_named<Phase>(kPhaseNames, name);
}
std::optional<learn::SolverKind> parse_solver(std::string_view name) {
  return value_named<learn::SolverKind>(learn::kSolverNames, name);
}
std::optional<learn::DrawHandling> parse_draws(std::string_view name) {
  return value_named<learn::DrawHandling>(kDrawsNames, name);
}
std::optional<learn::UnknownResultPolicy> parse_unknown(std::string_view name) {
  return value_named<learn::UnknownResultPolicy>(kUnknownNames, name);
}
std::optional<learn::OutcomeModel> parse_outcomes(std::string_view name) {
  return value_named<learn::OutcomeModel>(learn::kOutcomeModelNames, name);
}

std::string message_type(const JsonValue& message) {
  const JsonValue* type = message.find("type");
  return type && type->is_string() ? type->as_string() : std::string();
}

namespace detail {

// ---- writing scalars and enums ----

void put(JsonWriter& json, bool value) {
  json.value(value);
}
void put(JsonWriter& json, int value) {
  json.value(value);
}
void put(JsonWriter& json, std::uint64_t value) {
  json.value(value);
}
void put(JsonWriter& json, double value) {
  json.value(value);
}  // non-finite: null
void put(JsonWriter& json, const std::optional<double>& value) {
  if (value) {
    json.value(*value);
  } else {
    json.null();
  }
}
void put(JsonWriter& json, const std::string& value) {
  json.value(std::string_view(value));
}
void put(JsonWriter& json, DatasetMode value) {
  json.value(wire_name(value));
}
void put(JsonWriter& json, Units value) {
  json.value(wire_name(value));
}
void put(JsonWriter& json, learn::SolverKind value) {
  json.value(wire_name(value));
}
void put(JsonWriter& json, learn::DrawHandling value) {
  json.value(wire_name(value));
}
void put(JsonWriter& json, learn::UnknownResultPolicy value) {
  json.value(wire_name(value));
}
void put(JsonWriter& json, learn::OutcomeModel value) {
  json.value(wire_name(value));
}
void put(JsonWriter& json, learn::Target value) {
  json.value(learn::target_name(value));
}

// ---- reading scalars and enums ----

Error wrong(const std::string& path, std::string_view what) {
  std::string message = path;
  message += ": ";
  message += what;
  return make_error(ErrorCode::kSyntax, std::move(message));
}

Result get(const JsonValue& json, const std::string& path, bool& out) {
  if (!json.is_bool()) return wrong(path, "not a boolean");
  out = json.as_bool();
  return std::nullopt;
}

// Non-finite numbers travel as null.
Result get(const JsonValue& json, const std::string& path, double& out) {
  if (json.is_null()) {
    out = std::numeric_limits<double>::quiet_NaN();
    return std::nullopt;
  }
  if (!json.is_number()) return wrong(path, "not a number");
  out = json.as_number();
  return std::nullopt;
}

Result get(const JsonValue& json, const std::string& path, std::optional<double>& out) {
  if (json.is_null()) {
    out.reset();
    return std::nullopt;
  }
  if (!json.is_number()) return wrong(path, "not a number");
  out = json.as_number();
  return std::nullopt;
}

Result get(const JsonValue& json, const std::string& path, int& out) {
  if (!json.is_number()) return wrong(path, "not a number");
  const double number = json.as_number();
  if (number != std::trunc(number) || number < std::numeric_limits<int>::min() ||
      number > std::numeric_limits<int>::max()) {
    return wrong(path, "not an integer of 32 bits");
  }
  out = static_cast<int>(number);
  return std::nullopt;
}

Result get(const JsonValue& json, const std::string& path, std::uint64_t& out) {
  if (!json.is_number()) return wrong(path, "not a number");
  const double number = json.as_number();
  constexpr double kTwoTo64 = 18446744073709551616.0;
  if (number != std::trunc(number) || number < 0 || number >= kTwoTo64) {
    return wrong(path, "not a non-negative integer");
  }
  out = static_cast<std::uint64_t>(number);
  return std::nullopt;
}

Result get(const JsonValue& json, const std::string& path, std::string& out) {
  if (!json.is_string()) return wrong(path, "not a string");
  out = json.as_string();
  return std::nullopt;
}

namespace {

template <typename Enum>
Result get_enum(const JsonValue& json, const std::string& path, Enum& out,
                std::optional<Enum> (*parse)(std::string_view)) {
  if (!json.is_string()) return wrong(path, "not a string");
  const std::optional<Enum> value = parse(json.as_string());
  if (!value) return wrong(path, "unknown name \"" + json.as_string() + "\"");
  out = *value;
  return std::nullopt;
}

}  // namespace

Result get(const JsonValue& json, const std::string& path, DatasetMode& out) {
  return get_enum(json, path, out, parse_dataset_mode);
}
Result get(const JsonValue& json, const std::string& path, Units& out) {
  return get_enum(json, path, out, parse_units);
}
Result get(const JsonValue& json, const std::string& path, learn::SolverKind& out) {
  return get_enum(json, path, out, parse_solver);
}
Result get(const JsonValue& json, const std::string& path, learn::DrawHandling& out) {
  return get_enum(json, path, out, parse_draws);
}
Result get(const JsonValue& json, const std::string& path, learn::UnknownResultPolicy& out) {
  return get_enum(json, path, out, parse_unknown);
}
Result get(const JsonValue& json, const std::string& path, learn::OutcomeModel& out) {
  return get_enum(json, path, out, parse_outcomes);
}
Result get(const JsonValue& json, const std::string& path, learn::Target& out) {
  return get_enum(json, path, out, learn::parse_target);
}

}  // namespace detail
}  // namespace materialist::protocol
