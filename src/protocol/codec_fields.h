// Internal to src/protocol: the field helpers codec.cpp, codec_settings.cpp and
// codec_results.cpp share. Writing: put() writes one value at a value position, field() a key and
// its value. Reading: get() reads one value, naming `path` when it is of the wrong type, and
// Fields reads the present fields of an object.
//
// Every overload is declared here, before the templates that call it (field, the vector put and
// get, Fields, object, typed): a template sees the overloads declared before it, and argument-
// dependent lookup would not find them in this namespace. The definitions live beside their
// message: the scalars and enums in codec.cpp, the settings' parts in codec_settings.cpp, the
// results' parts in codec_results.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/json.h"
#include "core/json_value.h"
#include "protocol/codec.h"
#include "protocol/messages.h"

namespace materialist::protocol::detail {

// ---- writing ----

// Scalars and enums (codec.cpp). Non-finite doubles are written as null; an empty optional too.
void put(JsonWriter& json, bool value);
void put(JsonWriter& json, int value);
void put(JsonWriter& json, std::uint64_t value);
void put(JsonWriter& json, double value);
void put(JsonWriter& json, const std::optional<double>& value);
void put(JsonWriter& json, const std::string& value);
void put(JsonWriter& json, DatasetMode value);
void put(JsonWriter& json, Units value);
void put(JsonWriter& json, learn::SolverKind value);
void put(JsonWriter& json, learn::DrawHandling value);
void put(JsonWriter& json, learn::UnknownResultPolicy value);
void put(JsonWriter& json, learn::OutcomeModel value);
void put(JsonWriter& json, learn::Target value);
// Parts of the settings (codec_settings.cpp).
void put(JsonWriter& json, const learn::QuietFilterOptions& value);
void put(JsonWriter& json, const ModelChoice& value);
void put(JsonWriter& json, const learn::KeyFields& value);
// Parts of the results (codec_results.cpp).
void put(JsonWriter& json, const GameIssue& value);
void put(JsonWriter& json, const DatasetSummary& value);
void put(JsonWriter& json, const Coefficient& value);
void put(JsonWriter& json, const Relation& value);
void put(JsonWriter& json, const SideRow& value);
void put(JsonWriter& json, const CurvePoint& value);
void put(JsonWriter& json, const BalanceBin& value);
void put(JsonWriter& json, const Warning& value);
void put(JsonWriter& json, const Fit& value);
void put(JsonWriter& json, const Difference& value);
void put(JsonWriter& json, const Balance& value);
void put(JsonWriter& json, const Snapshot& value);
void put(JsonWriter& json, const TargetRow& value);

template <typename T>
void put(JsonWriter& json, const std::vector<T>& values) {
  json.begin_array();
  for (const T& value : values) put(json, value);
  json.end_array();
}

template <typename T>
void field(JsonWriter& json, std::string_view key, const T& value) {
  json.key(key);
  put(json, value);
}

// The fields of a value, into an open object (message() puts "type" before them): Settings in
// codec_settings.cpp, the others in codec_results.cpp.
void fields(JsonWriter& json, const Settings& value);
void fields(JsonWriter& json, const Snapshot& value);
void fields(JsonWriter& json, const Progress& value);
void fields(JsonWriter& json, const DataReport& value);
void fields(JsonWriter& json, const Balance& value);
void fields(JsonWriter& json, const FitBegin& value);
void fields(JsonWriter& json, const FitDone& value);
void fields(JsonWriter& json, const Estimate& value);
void fields(JsonWriter& json, const TargetCompare& value);

template <typename T>
void object(JsonWriter& json, const T& value) {
  json.begin_object();
  fields(json, value);
  json.end_object();
}

// {"type": type, <value's fields>}, or with `nest` {"type": type, type: {<value>}}.
template <typename T>
std::string typed(const char* type, const T& value, bool nest) {
  JsonWriter json;
  json.begin_object().field("type", type);
  if (nest) {
    json.key(type);
    object(json, value);
  } else {
    fields(json, value);
  }
  json.end_object();
  return json.take();
}

// ---- reading: nullopt, or what was wrong at `path` ----

using Result = std::optional<Error>;

// "<path>: <what>", a syntax error.
Error wrong(const std::string& path, std::string_view what);

// Scalars and enums (codec.cpp). null reads as NaN into a double, as empty into an optional.
Result get(const JsonValue& json, const std::string& path, bool& out);
Result get(const JsonValue& json, const std::string& path, double& out);
Result get(const JsonValue& json, const std::string& path, std::optional<double>& out);
Result get(const JsonValue& json, const std::string& path, int& out);
Result get(const JsonValue& json, const std::string& path, std::uint64_t& out);
Result get(const JsonValue& json, const std::string& path, std::string& out);
Result get(const JsonValue& json, const std::string& path, DatasetMode& out);
Result get(const JsonValue& json, const std::string& path, Units& out);
Result get(const JsonValue& json, const std::string& path, learn::SolverKind& out);
Result get(const JsonValue& json, const std::string& path, learn::DrawHandling& out);
Result get(const JsonValue& json, const std::string& path, learn::UnknownResultPolicy& out);
Result get(const JsonValue& json, const std::string& path, learn::OutcomeModel& out);
Result get(const JsonValue& json, const std::string& path, learn::Target& out);
// Parts of the settings (codec_settings.cpp).
Result get(const JsonValue& json, const std::string& path, learn::QuietFilterOptions& out);
Result get(const JsonValue& json, const std::string& path, ModelChoice& out);
Result get(const JsonValue& json, const std::string& path, learn::KeyFields& out);
// Parts of the results (codec_results.cpp).
Result get(const JsonValue& json, const std::string& path, GameIssue& out);
Result get(const JsonValue& json, const std::string& path, std::vector<FilteredCount>& out);
Result get(const JsonValue& json, const std::string& path, DatasetSummary& out);
Result get(const JsonValue& json, const std::string& path, Coefficient& out);
Result get(const JsonValue& json, const std::string& path, Relation& out);
Result get(const JsonValue& json, const std::string& path, SideRow& out);
Result get(const JsonValue& json, const std::string& path, CurvePoint& out);
Result get(const JsonValue& json, const std::string& path, BalanceBin& out);
Result get(const JsonValue& json, const std::string& path, Balance& out);
Result get(const JsonValue& json, const std::string& path, Warning& out);
Result get(const JsonValue& json, const std::string& path, Fit& out);
Result get(const JsonValue& json, const std::string& path, Difference& out);
Result get(const JsonValue& json, const std::string& path, Snapshot& out);
Result get(const JsonValue& json, const std::string& path, TargetRow& out);

template <typename T>
Result get(const JsonValue& json, const std::string& path, std::vector<T>& out) {
  if (!json.is_array()) return wrong(path, "not an array");
  std::vector<T> values(json.size());
  for (std::size_t i = 0; i < json.size(); ++i) {
    if (Result error = get(json[i], path + "[" + std::to_string(i) + "]", values[i])) {
      return error;
    }
  }
  out = std::move(values);
  return std::nullopt;
}

// Reads the present fields of one object, stopping at the first error.
class Fields {
 public:
  Fields(const JsonValue& json, const std::string& path) : json_(json), path_(path) {
    if (!json.is_object()) error_ = wrong(path, "not an object");
  }

  template <typename T>
  Fields& operator()(std::string_view key, T& out) {
    if (error_) return *this;
    if (const JsonValue* value = json_.find(key)) {
      std::string path = path_;
      path += '.';
      path += key;
      error_ = get(*value, path, out);
    }
    return *this;
  }

  const JsonValue* find(std::string_view key) const { return error_ ? nullptr : json_.find(key); }
  Result result() const { return error_; }

 private:
  const JsonValue& json_;
  const std::string& path_;
  Result error_;
};

}  // namespace materialist::protocol::detail
