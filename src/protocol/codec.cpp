#include "protocol/codec.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

#include "core/enum_names.h"

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

// ---- writing ----

namespace {

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
void put(JsonWriter& json, const learn::QuietFilterOptions& value);
void put(JsonWriter& json, const ModelChoice& value);
void put(JsonWriter& json, const GameIssue& value);
void put(JsonWriter& json, const DatasetSummary& value);
void put(JsonWriter& json, const Coefficient& value);
void put(JsonWriter& json, const Relation& value);
void put(JsonWriter& json, const CurvePoint& value);
void put(JsonWriter& json, const BalanceBin& value);
void put(JsonWriter& json, const Warning& value);
void put(JsonWriter& json, const Fit& value) {
  write(json, value);
}
void put(JsonWriter& json, const Difference& value) {
  write(json, value);
}
void put(JsonWriter& json, const Balance& value) {
  write(json, value);
}
void put(JsonWriter& json, const Snapshot& value) {
  write(json, value);
}

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
  json.end_object();
}

void put(JsonWriter& json, const GameIssue& value) {
  json.begin_object();
  field(json, "file", value.file);
  field(json, "line", value.line);
  field(json, "game", value.game);
  field(json, "reason", value.reason);
  json.end_object();
}

void put(JsonWriter& json, const DatasetSummary& value) {
  json.begin_object();
  field(json, "name", value.name);
  field(json, "games", value.games);
  field(json, "used", value.used);
  field(json, "filtered", value.filtered);
  field(json, "rows", value.rows);
  json.end_object();
}

void put(JsonWriter& json, const Coefficient& value) {
  json.begin_object();
  field(json, "name", value.name);
  field(json, "label", value.label);
  field(json, "identified", value.identified);
  field(json, "value", value.value);
  field(json, "valueSe", value.value_se);
  field(json, "valueSeModel", value.value_se_model);
  field(json, "elo", value.elo);
  field(json, "eloSe", value.elo_se);
  field(json, "theta", value.theta);
  field(json, "thetaSe", value.theta_se);
  field(json, "thetaSeModel", value.theta_se_model);
  field(json, "low", value.low);
  field(json, "high", value.high);
  json.end_object();
}

void put(JsonWriter& json, const Relation& value) {
  json.begin_object();
  field(json, "relation", value.relation);
  field(json, "margin", value.margin);
  field(json, "se", value.se);
  field(json, "verdict", value.verdict);
  field(json, "equality", value.equality);
  json.end_object();
}

void put(JsonWriter& json, const CurvePoint& value) {
  json.begin_object();
  field(json, "pawns", value.pawns);
  field(json, "win", value.win);
  field(json, "draw", value.draw);
  field(json, "loss", value.loss);
  json.end_object();
}

void put(JsonWriter& json, const BalanceBin& value) {
  json.begin_object();
  field(json, "dm", value.dm);
  field(json, "white", value.white);
  field(json, "draws", value.draws);
  field(json, "black", value.black);
  json.end_object();
}

void put(JsonWriter& json, const Warning& value) {
  json.begin_object();
  field(json, "code", value.code);
  field(json, "message", value.message);
  json.end_object();
}

// The fields of a value, into an open object (message() puts "type" before them).

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
}

void fields(JsonWriter& json, const Settings& value) {
  fit_fields(json, value.fit);
  field(json, "unknown", value.read.unknown);
  field(json, "model", value.fit.model);
  field(json, "units", value.units);
  shared_read_fields(json, value.read);
}

void fields(JsonWriter& json, const Snapshot& value) {
  field(json, "iteration", value.iteration);
  field(json, "dataset", value.dataset);
  field(json, "columns", value.columns);
  field(json, "theta", value.theta);
  field(json, "values", value.values);
  if (!value.value_se.empty()) field(json, "valueSe", value.value_se);
  field(json, "loss", value.loss);
  field(json, "gradientNorm", value.gradient_norm);
}

void fields(JsonWriter& json, const Progress& value) {
  field(json, "bytes", value.bytes);
  field(json, "totalBytes", value.total_bytes);
  field(json, "games", value.games);
  field(json, "used", value.used);
  field(json, "partial", value.partial);
  field(json, "skipped", value.skipped);
  field(json, "rows", value.rows);
  field(json, "mbps", value.mb_per_s);
  field(json, "eta", value.eta_s);
  field(json, "file", value.file);
  field(json, "fileIndex", value.file_index);
  field(json, "fileCount", value.file_count);
}

void fields(JsonWriter& json, const DataReport& value) {
  field(json, "games", value.games);
  field(json, "used", value.used);
  field(json, "partial", value.partial);
  field(json, "skipped", value.skipped);
  field(json, "filtered", value.filtered);
  field(json, "rows", value.rows);
  field(json, "drawRows", value.draw_rows);
  field(json, "decisiveRows", value.decisive_rows);
  field(json, "whiteWinRows", value.white_win_rows);
  field(json, "blackWinRows", value.black_win_rows);
  field(json, "distinctRows", value.distinct_rows);
  field(json, "plies", value.plies);
  field(json, "keptRows", value.kept_rows);
  field(json, "rowsTruncated", value.rows_truncated);
  field(json, "bytes", value.bytes);
  field(json, "seconds", value.seconds);
  field(json, "mbps", value.mb_per_s);
  field(json, "files", value.files);
  field(json, "fileErrors", value.file_errors);
  field(json, "skippedGames", value.issues);
  field(json, "skippedTotal", value.issue_total);
  json.key("filteredBy").begin_object();
  for (const FilteredCount& count : value.filtered_by) field(json, count.reason, count.games);
  json.end_object();
  if (!value.datasets.empty()) field(json, "datasets", value.datasets);
}

void fields(JsonWriter& json, const Balance& value) {
  field(json, "bins", value.bins);
  field(json, "alpha", value.alpha);
}

void fields(JsonWriter& json, const FitBegin& value) {
  field(json, "solver", value.solver);
  field(json, "preset", value.preset);
  field(json, "planned", value.planned);
  if (!value.reason.empty()) field(json, "reason", value.reason);
}

void fields(JsonWriter& json, const FitDone& value) {
  if (!value.reason.empty()) field(json, "reason", value.reason);
  field(json, "fits", value.fits);
  field(json, "differences", value.differences);
  field(json, "snapshot", value.snapshot);
}

void fields(JsonWriter& json, const Estimate& value) {
  field(json, "games", value.games);
  field(json, "rows", value.rows);
  field(json, "bytes", value.bytes);
  field(json, "fits", value.fits);
}

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

}  // namespace

void write(JsonWriter& json, const ReadOptions& value) {
  json.begin_object();
  field(json, "unknown", value.unknown);
  field(json, "filter", value.filter);
  field(json, "quiet", value.quiet);
  field(json, "bootstrap", value.bootstrap);
  field(json, "seed", value.seed);
  field(json, "datasets", value.datasets);
  field(json, "eachFilter", value.each_filter);
  field(json, "keepRating", value.keep_rating);
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
void write(JsonWriter& json, const Snapshot& value) {
  object(json, value);
}
void write(JsonWriter& json, const Progress& value) {
  object(json, value);
}
void write(JsonWriter& json, const DataReport& value) {
  object(json, value);
}

void write(JsonWriter& json, const Fit& value) {
  json.begin_object();
  field(json, "name", value.name);
  field(json, "games", value.games);
  field(json, "used", value.used);
  field(json, "rows", value.rows);
  field(json, "decisiveRows", value.decisive_rows);
  field(json, "state", value.state);
  if (!value.error.empty()) field(json, "error", value.error);
  field(json, "warnings", value.warnings);
  field(json, "errors", value.errors);
  field(json, "clusters", value.clusters);
  field(json, "loss", value.loss);
  field(json, "iterations", value.iterations);
  field(json, "converged", value.converged);
  field(json, "replicates", value.replicates);
  field(json, "failedReplicates", value.failed_replicates);
  if (!value.bootstrap_error.empty()) field(json, "bootstrapError", value.bootstrap_error);
  field(json, "coefficients", value.coefficients);
  field(json, "relations", value.relations);
  field(json, "curve", value.curve);
  field(json, "balance", value.balance);
  json.end_object();
}

void write(JsonWriter& json, const Difference& value) {
  json.begin_object();
  field(json, "a", value.a);
  field(json, "b", value.b);
  field(json, "contrast", value.contrast);
  field(json, "diff", value.diff);
  field(json, "se", value.se);
  field(json, "p", value.p);
  field(json, "bootstrapP", value.bootstrap_p);
  json.end_object();
}

void write(JsonWriter& json, const Balance& value) {
  object(json, value);
}
void write(JsonWriter& json, const FitBegin& value) {
  object(json, value);
}
void write(JsonWriter& json, const FitDone& value) {
  object(json, value);
}
void write(JsonWriter& json, const Estimate& value) {
  object(json, value);
}

std::string message(const Settings& value) {
  return typed("settings", value, true);
}
std::string message(const Snapshot& value) {
  return typed("snapshot", value, false);
}
std::string message(const Progress& value) {
  return typed("progress", value, false);
}
std::string message(const DataReport& value) {
  return typed("report", value, true);
}
std::string message(const Balance& value) {
  return typed("balance", value, false);
}
std::string message(const FitBegin& value) {
  return typed("fit-begin", value, false);
}
std::string message(const FitDone& value) {
  return typed("fit-done", value, false);
}
std::string message(const Estimate& value) {
  return typed("estimate", value, false);
}

std::string message_type(const JsonValue& message) {
  const JsonValue* type = message.find("type");
  return type && type->is_string() ? type->as_string() : std::string();
}

// ---- reading ----

namespace {

using Result = std::optional<Error>;

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

template <typename Enum>
Result get_enum(const JsonValue& json, const std::string& path, Enum& out,
                std::optional<Enum> (*parse)(std::string_view)) {
  if (!json.is_string()) return wrong(path, "not a string");
  const std::optional<Enum> value = parse(json.as_string());
  if (!value) return wrong(path, "unknown name \"" + json.as_string() + "\"");
  out = *value;
  return std::nullopt;
}

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

Result get(const JsonValue& json, const std::string& path, learn::QuietFilterOptions& out);
Result get(const JsonValue& json, const std::string& path, ModelChoice& out);
Result get(const JsonValue& json, const std::string& path, GameIssue& out);
Result get(const JsonValue& json, const std::string& path, std::vector<FilteredCount>& out);
Result get(const JsonValue& json, const std::string& path, DatasetSummary& out);
Result get(const JsonValue& json, const std::string& path, Coefficient& out);
Result get(const JsonValue& json, const std::string& path, Relation& out);
Result get(const JsonValue& json, const std::string& path, CurvePoint& out);
Result get(const JsonValue& json, const std::string& path, BalanceBin& out);
Result get(const JsonValue& json, const std::string& path, Balance& out);
Result get(const JsonValue& json, const std::string& path, Warning& out);
Result get(const JsonValue& json, const std::string& path, Fit& out);
Result get(const JsonValue& json, const std::string& path, Difference& out);
Result get(const JsonValue& json, const std::string& path, Snapshot& out);

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

Result get(const JsonValue& json, const std::string& path, learn::QuietFilterOptions& out) {
  return Fields(json, path)("plies", out.quiet_plies)("checksBreak", out.checks_break_quiet)(
             "distinct", out.distinct_per_game)("skipFirst", out.skip_first_plies)
      .result();
}

Result get(const JsonValue& json, const std::string& path, ModelChoice& out) {
  return Fields(json, path)("outcomes", out.outcomes)("intercept", out.intercept)(
             "bishopPair", out.bishop_pair)("phase", out.phase)("eloOffset", out.elo_offset)(
             "sideToMove", out.side_to_move)
      .result();
}

Result get(const JsonValue& json, const std::string& path, GameIssue& out) {
  return Fields(json, path)("file", out.file)("line", out.line)("game", out.game)("reason",
                                                                                  out.reason)
      .result();
}

// {reason: games, ...} in the object's order.
Result get(const JsonValue& json, const std::string& path, std::vector<FilteredCount>& out) {
  if (!json.is_object()) return wrong(path, "not an object");
  std::vector<FilteredCount> counts;
  for (const auto& [reason, games] : json.entries()) {
    FilteredCount count{reason, 0};
    if (Result error = get(games, path + "." + reason, count.games)) return error;
    counts.push_back(std::move(count));
  }
  out = std::move(counts);
  return std::nullopt;
}

Result get(const JsonValue& json, const std::string& path, DatasetSummary& out) {
  return Fields(json, path)("name", out.name)("games", out.games)("used", out.used)(
             "filtered", out.filtered)("rows", out.rows)
      .result();
}

Result get(const JsonValue& json, const std::string& path, Coefficient& out) {
  return Fields(json, path)("name", out.name)("label", out.label)("identified", out.identified)(
             "value", out.value)("valueSe", out.value_se)("valueSeModel", out.value_se_model)(
             "elo", out.elo)("eloSe", out.elo_se)("theta", out.theta)("thetaSe", out.theta_se)(
             "thetaSeModel", out.theta_se_model)("low", out.low)("high", out.high)
      .result();
}

Result get(const JsonValue& json, const std::string& path, Relation& out) {
  return Fields(json, path)("relation", out.relation)("margin", out.margin)("se", out.se)(
             "verdict", out.verdict)("equality", out.equality)
      .result();
}

Result get(const JsonValue& json, const std::string& path, CurvePoint& out) {
  return Fields(json, path)("pawns", out.pawns)("win", out.win)("draw", out.draw)("loss", out.loss)
      .result();
}

Result get(const JsonValue& json, const std::string& path, BalanceBin& out) {
  return Fields(json, path)("dm", out.dm)("white", out.white)("draws", out.draws)("black",
                                                                                  out.black)
      .result();
}

Result get(const JsonValue& json, const std::string& path, Balance& out) {
  return Fields(json, path)("bins", out.bins)("alpha", out.alpha).result();
}

Result get(const JsonValue& json, const std::string& path, Warning& out) {
  return Fields(json, path)("code", out.code)("message", out.message).result();
}

Result get(const JsonValue& json, const std::string& path, Fit& out) {
  return Fields(json, path)("name", out.name)("games", out.games)("used", out.used)(
             "rows", out.rows)("decisiveRows", out.decisive_rows)("state", out.state)(
             "error", out.error)("warnings", out.warnings)("errors", out.errors)(
             "clusters", out.clusters)("loss", out.loss)("iterations", out.iterations)(
             "converged", out.converged)("replicates", out.replicates)(
             "failedReplicates", out.failed_replicates)("bootstrapError", out.bootstrap_error)(
             "coefficients", out.coefficients)("relations", out.relations)("curve", out.curve)(
             "balance", out.balance)
      .result();
}

Result get(const JsonValue& json, const std::string& path, Difference& out) {
  return Fields(json, path)("a", out.a)("b", out.b)("contrast", out.contrast)("diff", out.diff)(
             "se", out.se)("p", out.p)("bootstrapP", out.bootstrap_p)
      .result();
}

Result get(const JsonValue& json, const std::string& path, Snapshot& out) {
  return Fields(json, path)("iteration", out.iteration)("dataset", out.dataset)(
             "columns", out.columns)("theta", out.theta)("values", out.values)(
             "valueSe", out.value_se)("loss", out.loss)("gradientNorm", out.gradient_norm)
      .result();
}

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
      "bootstrap", out.bootstrap)("seed", out.seed)("datasets", out.datasets)("eachFilter",
                                                                              out.each_filter);
}

}  // namespace

Result read(const JsonValue& json, ReadOptions& out) {
  const std::string path = "options";
  Fields fields(json, path);
  return shared_read_fields(fields, out)("keepRating", out.keep_rating)("keepRows", out.keep_rows)(
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

Result read(const JsonValue& json, Snapshot& out) {
  return get(json, "snapshot", out);
}

Result read(const JsonValue& json, Progress& out) {
  const std::string path = "progress";
  return Fields(json, path)("bytes", out.bytes)("totalBytes", out.total_bytes)("games", out.games)(
             "used", out.used)("partial", out.partial)("skipped", out.skipped)("rows", out.rows)(
             "mbps", out.mb_per_s)("eta", out.eta_s)("file", out.file)("fileIndex", out.file_index)(
             "fileCount", out.file_count)
      .result();
}

Result read(const JsonValue& json, DataReport& out) {
  const std::string path = "report";
  return Fields(json, path)("games", out.games)("used", out.used)("partial", out.partial)(
             "skipped", out.skipped)("filtered", out.filtered)("rows", out.rows)(
             "drawRows", out.draw_rows)("decisiveRows", out.decisive_rows)(
             "whiteWinRows", out.white_win_rows)("blackWinRows", out.black_win_rows)(
             "distinctRows", out.distinct_rows)("plies", out.plies)("keptRows", out.kept_rows)(
             "rowsTruncated", out.rows_truncated)("bytes", out.bytes)("seconds", out.seconds)(
             "mbps", out.mb_per_s)("files", out.files)("fileErrors", out.file_errors)(
             "skippedGames", out.issues)("skippedTotal", out.issue_total)(
             "filteredBy", out.filtered_by)("datasets", out.datasets)
      .result();
}

Result read(const JsonValue& json, Fit& out) {
  return get(json, "fit", out);
}
Result read(const JsonValue& json, Difference& out) {
  return get(json, "difference", out);
}
Result read(const JsonValue& json, Balance& out) {
  return get(json, "balance", out);
}

Result read(const JsonValue& json, FitBegin& out) {
  const std::string path = "fit-begin";
  return Fields(json, path)("solver", out.solver)("preset", out.preset)("planned", out.planned)(
             "reason", out.reason)
      .result();
}

Result read(const JsonValue& json, FitDone& out) {
  const std::string path = "fit-done";
  return Fields(json, path)("reason", out.reason)("fits", out.fits)("differences", out.differences)(
             "snapshot", out.snapshot)
      .result();
}

Result read(const JsonValue& json, Estimate& out) {
  const std::string path = "estimate";
  return Fields(json, path)("games", out.games)("rows", out.rows)("bytes", out.bytes)("fits",
                                                                                      out.fits)
      .result();
}

}  // namespace materialist::protocol
