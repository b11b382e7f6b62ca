// The wire format of protocol/messages.h: one encoder and one decoder for every message, used by
// the engine's WebAssembly module (worker), the app's (canvas) and the native tests alike.
//
//   std::string text = protocol::message(fit_done);          // {"type":"fit-done",...}
//   Expected<JsonValue> json = parse_json(text);
//   protocol::FitDone back;
//   if (auto error = protocol::read(*json, back)) ...        // error: what was wrong, where
//
// Decoding is lenient about absent fields (they keep their defaults, so old share links still
// open) and strict about present ones of the wrong type or an unknown enum name (an error naming
// the field). Non-finite numbers are written as null and read back as NaN; an optional number is
// null when empty. A known "preset" in settings first sets every fit field (and "unknown") to the
// preset's, then the present fields override them, as the app's preset combo does.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/json.h"
#include "core/json_value.h"
#include "protocol/messages.h"

namespace materialist::protocol {

// ---- enum ⇄ wire names (one table each, its size checked against the enum) ----
const char* wire_name(DatasetMode mode);           // "merge", "per-file", "per-filter"
const char* wire_name(Units units);                // "pawn", "elo", "logodds"
const char* wire_name(Phase phase);                // "idle", "reading", "fitting", "done", "error"
const char* wire_name(learn::SolverKind solver);   // "gd", "newton"
const char* wire_name(learn::DrawHandling draws);  // "exclude", "half"
const char* wire_name(learn::UnknownResultPolicy policy);  // "skip", "draw"
const char* wire_name(learn::OutcomeModel outcomes);       // "draws-out", "fractional", "ordinal"
std::optional<DatasetMode> parse_dataset_mode(std::string_view name);
std::optional<Units> parse_units(std::string_view name);
std::optional<Phase> parse_phase(std::string_view name);
std::optional<learn::SolverKind> parse_solver(std::string_view name);
std::optional<learn::DrawHandling> parse_draws(std::string_view name);
std::optional<learn::UnknownResultPolicy> parse_unknown(std::string_view name);
std::optional<learn::OutcomeModel> parse_outcomes(std::string_view name);

// ---- writing: the value as a JSON object, into a writer (at a value position) ----
void write(JsonWriter& json, const ReadOptions& value);
void write(JsonWriter& json, const FitSettings& value);
// Settings are one flat object, the share link's format: {preset, solver, step, iterations,
// lambda, draws, unknown, model: {...}, units, bootstrap, seed, filter, quiet: {...}, datasets,
// eachFilter}.
void write(JsonWriter& json, const Settings& value);
void write(JsonWriter& json, const Snapshot& value);
void write(JsonWriter& json, const Progress& value);
void write(JsonWriter& json, const DataReport& value);
void write(JsonWriter& json, const Fit& value);
void write(JsonWriter& json, const Difference& value);
void write(JsonWriter& json, const Balance& value);
void write(JsonWriter& json, const FitBegin& value);
void write(JsonWriter& json, const FitDone& value);
void write(JsonWriter& json, const Estimate& value);
void write(JsonWriter& json, const TargetCompare& value);

// The value alone, as JSON text.
template <typename T>
std::string encode(const T& value) {
  JsonWriter json;
  write(json, value);
  return json.take();
}

// A message: the value's fields plus "type" (settings: "settings" with the value under
// "settings"; snapshot: "snapshot"; progress: "progress"; report: "report" with the value under
// "report"; balance: "balance"; fit-begin, fit-done, estimate).
std::string message(const Settings& value);
std::string message(const Snapshot& value);
std::string message(const Progress& value);
std::string message(const DataReport& value);
std::string message(const Balance& value);
std::string message(const FitBegin& value);
std::string message(const FitDone& value);
std::string message(const Estimate& value);
std::string message(const TargetCompare& value);  // "target-compare"
// A message's "type" ("" when it has none): what to read it as.
std::string message_type(const JsonValue& message);

// ---- reading: nullopt, or what was wrong ("settings.quiet.plies: not a number") ----
std::optional<Error> read(const JsonValue& json, ReadOptions& out);
std::optional<Error> read(const JsonValue& json, FitSettings& out);
std::optional<Error> read(const JsonValue& json, Settings& out);
std::optional<Error> read(const JsonValue& json, Snapshot& out);
std::optional<Error> read(const JsonValue& json, Progress& out);
std::optional<Error> read(const JsonValue& json, DataReport& out);
std::optional<Error> read(const JsonValue& json, Fit& out);
std::optional<Error> read(const JsonValue& json, Difference& out);
std::optional<Error> read(const JsonValue& json, Balance& out);
std::optional<Error> read(const JsonValue& json, FitBegin& out);
std::optional<Error> read(const JsonValue& json, FitDone& out);
std::optional<Error> read(const JsonValue& json, Estimate& out);
std::optional<Error> read(const JsonValue& json, TargetCompare& out);

// Parses text and reads it.
template <typename T>
Expected<T> decode(std::string_view text) {
  Expected<JsonValue> json = parse_json(text);
  if (!json) return json.error();
  T out;
  if (std::optional<Error> error = read(*json, out)) return *error;
  return out;
}

}  // namespace materialist::protocol
