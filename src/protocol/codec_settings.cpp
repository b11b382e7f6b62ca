// The settings on the wire: ReadOptions, FitSettings and Settings (the share link's one flat
// object), with the quiet-position and model parts they hold. A known preset is applied before
// the present fields when reading.
#include <string>

#include "protocol/codec.h"
#include "protocol/codec_fields.h"

namespace materialist::protocol {

using namespace detail;  // put, field, get, Fields: codec_fields.h

// ---- the settings' parts (codec_fields.h) ----

namespace detail {

void put(JsonWriter& json, const learn::QuietFilterOptions& value) {
  json.begin_object();
  field(json, "plies", value.quiet_plies);
  field(json, "checksBreak", value.checks_break_quiet);
  field(json, "distinct", value.distinct_per_game);
  field(json, "skipFirst", value.skip_first_plies);
  json.end_object();
}

void put(JsonWriter& json, const ModelChoice& value) {
  json.begin_object();
  field(json, "outcomes", value.outcomes);
  field(json, "intercept", value.intercept);
  field(json, "bishopPair", value.bishop_pair);
  field(json, "phase", value.phase);
  field(json, "eloOffset", value.elo_offset);
  // Only when on: the app has no control for it, and its share links list the other four.
  if (value.side_to_move) field(json, "sideToMove", value.side_to_move);
  // Only when on, like sideToMove: other models' messages and links stay as they were.
  if (value.imbalances != 0) {
    field(json, "imbalance", learn::imbalance_list_text(value.imbalances));
  }
  if (value.split_sides) field(json, "splitSides", value.split_sides);
  if (value.squares) field(json, "squares", value.squares);
  json.end_object();
}

void put(JsonWriter& json, const learn::KeyFields& value) {
  json.begin_object();
  field(json, "bishopPair", value.bishop_pair);
  field(json, "phase", value.phase);
  field(json, "sideToMove", value.side_to_move);
  field(json, "rating", value.rating);
  if (value.counts) field(json, "counts", value.counts);  // only when kept (imbalance models)
  if (value.boards) field(json, "boards", value.boards);  // only when kept (the squares model)
  json.end_object();
}

Result get(const JsonValue& json, const std::string& path, learn::KeyFields& out) {
  return Fields(json, path)("bishopPair", out.bishop_pair)("phase", out.phase)(
             "sideToMove", out.side_to_move)("rating", out.rating)("counts", out.counts)(
             "boards", out.boards)
      .result();
}

Result get(const JsonValue& json, const std::string& path, learn::QuietFilterOptions& out) {
  return Fields(json, path)("plies", out.quiet_plies)("checksBreak", out.checks_break_quiet)(
             "distinct", out.distinct_per_game)("skipFirst", out.skip_first_plies)
      .result();
}

Result get(const JsonValue& json, const std::string& path, ModelChoice& out) {
  const Result result =
      Fields(json, path)("outcomes", out.outcomes)("intercept", out.intercept)(
          "bishopPair", out.bishop_pair)("phase", out.phase)("eloOffset", out.elo_offset)(
          "sideToMove", out.side_to_move)("splitSides", out.split_sides)(
          "squares", out.squares)
          .result();
  if (result) return result;
  std::string imbalance = learn::imbalance_list_text(out.imbalances);
  if (Result text = Fields(json, path)("imbalance", imbalance).result()) return text;
  Expected<learn::ImbalanceSet> set = learn::parse_imbalance_list(imbalance);
  if (!set) return wrong(path + ".imbalance", set.error().message);
  out.imbalances = *set;
  return std::nullopt;
}

}  // namespace detail

namespace {

// ---- writing ----

void fit_fields(JsonWriter& json, const FitSettings& value) {
  field(json, "preset", value.preset);
  field(json, "solver", value.solver);
  field(json, "step", value.step);
  field(json, "iterations", value.iterations);
  field(json, "lambda", value.lambda);
  field(json, "draws", value.draws);
}

// The read options a share link holds (Settings), in the share link's order.
void shared_read_fields(JsonWriter& json, const ReadOptions& value) {
  field(json, "bootstrap", value.bootstrap);
  field(json, "seed", value.seed);
  field(json, "filter", value.filter);
  field(json, "quiet", value.quiet);
  field(json, "datasets", value.datasets);
  field(json, "eachFilter", value.each_filter);
  // Always, 0 included: the worker keeps what a message leaves out, so a cleared limit is sent.
  field(json, "maxGames", value.max_games);
  field(json, "maxMegabytes", value.max_megabytes);
  field(json, "target", value.target);
}

// ---- reading ----

// A known preset fills every fit setting (and `unknown`) before the present fields override
// them, as the app's preset combo does: {"preset": "exact"} alone is the exact preset.
void apply_preset(const Fields& fields, FitSettings& fit, learn::UnknownResultPolicy* unknown) {
  const JsonValue* preset = fields.find("preset");
  if (!preset || !preset->is_string()) return;
  const Preset* known = find_preset(preset->as_string());
  if (!known) return;
  const ModelChoice model = fit.model;  // a preset names no model
  fit = known->fit;
  fit.model = model;
  if (unknown) *unknown = known->unknown;
}

Fields& fit_fields(Fields& fields, FitSettings& out) {
  return fields("preset", out.preset)("solver", out.solver)("step", out.step)(
      "iterations", out.iterations)("lambda", out.lambda)("draws", out.draws)("model", out.model);
}

Fields& shared_read_fields(Fields& fields, ReadOptions& out) {
  return fields("unknown", out.unknown)("filter", out.filter)("quiet", out.quiet)(
      "bootstrap", out.bootstrap)("seed", out.seed)("datasets", out.datasets)(
      "eachFilter", out.each_filter)("maxGames", out.max_games)("maxMegabytes", out.max_megabytes)(
      "target", out.target);
}

}  // namespace

void detail::fields(JsonWriter& json, const Settings& value) {
  fit_fields(json, value.fit);
  field(json, "unknown", value.read.unknown);
  field(json, "model", value.fit.model);
  field(json, "units", value.units);
  shared_read_fields(json, value.read);
}

void write(JsonWriter& json, const ReadOptions& value) {
  json.begin_object();
  field(json, "unknown", value.unknown);
  field(json, "filter", value.filter);
  field(json, "quiet", value.quiet);
  field(json, "bootstrap", value.bootstrap);
  field(json, "seed", value.seed);
  field(json, "datasets", value.datasets);
  field(json, "eachFilter", value.each_filter);
  field(json, "maxGames", value.max_games);
  field(json, "maxMegabytes", value.max_megabytes);
  field(json, "target", value.target);
  field(json, "keep", value.keep);
  field(json, "keepRows", value.keep_rows);
  field(json, "hashFiles", value.hash_files);
  json.end_object();
}

void write(JsonWriter& json, const FitSettings& value) {
  json.begin_object();
  fit_fields(json, value);
  field(json, "model", value.model);
  json.end_object();
}

void write(JsonWriter& json, const Settings& value) {
  object(json, value);
}

std::string message(const Settings& value) {
  return typed("settings", value, true);
}

Result read(const JsonValue& json, ReadOptions& out) {
  const std::string path = "options";
  Fields fields(json, path);
  return shared_read_fields(fields, out)("keep", out.keep)("keepRows", out.keep_rows)(
             "hashFiles", out.hash_files)
      .result();
}

Result read(const JsonValue& json, FitSettings& out) {
  const std::string path = "settings";
  Fields fields(json, path);
  apply_preset(fields, out, nullptr);
  return fit_fields(fields, out).result();
}

Result read(const JsonValue& json, Settings& out) {
  const std::string path = "settings";
  Fields fields(json, path);
  apply_preset(fields, out.fit, &out.read.unknown);
  fit_fields(fields, out.fit)("units", out.units);
  return shared_read_fields(fields, out.read).result();
}

}  // namespace materialist::protocol
