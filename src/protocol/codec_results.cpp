// The results on the wire: a fit's snapshot, reading progress, the data report, fits and their
// differences, the balance curve, fit-begin, fit-done and the estimate, with the parts they hold
// (issues, dataset summaries, coefficients, relations, curve points, warnings).
#include <string>

#include "learn/fit/fit_json_keys.h"
#include "protocol/codec.h"
#include "protocol/codec_fields.h"

namespace materialist::protocol {

using namespace detail;  // put, field, fields, object, typed, get, Fields: codec_fields.h
namespace fit_key = learn::fit_key;

// ---- the results' parts and fields (codec_fields.h) ----

namespace detail {

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
  field(json, fit_key::kName, value.name);
  field(json, "label", value.label);
  field(json, fit_key::kIdentified, value.identified);
  field(json, fit_key::kValue, value.value);
  field(json, fit_key::kValueSe, value.value_se);
  field(json, fit_key::kValueSeModel, value.value_se_model);
  field(json, fit_key::kElo, value.elo);
  field(json, fit_key::kEloSe, value.elo_se);
  field(json, fit_key::kTheta, value.theta);
  field(json, fit_key::kThetaSe, value.theta_se);
  field(json, fit_key::kThetaSeModel, value.theta_se_model);
  field(json, "low", value.low);
  field(json, "high", value.high);
  json.end_object();
}

void put(JsonWriter& json, const SideRow& value) {
  json.begin_object();
  field(json, fit_key::kPiece, value.piece);
  field(json, fit_key::kIdentified, value.identified);
  field(json, fit_key::kOwn, value.own);
  field(json, fit_key::kOwnSe, value.own_se);
  field(json, fit_key::kOpponent, value.opponent);
  field(json, fit_key::kOpponentSe, value.opponent_se);
  field(json, fit_key::kDifference, value.difference);
  field(json, fit_key::kDifferenceSe, value.difference_se);
  field(json, fit_key::kOwnTheta, value.own_theta);
  field(json, fit_key::kOwnThetaSe, value.own_theta_se);
  field(json, fit_key::kOpponentTheta, value.opponent_theta);
  field(json, fit_key::kOpponentThetaSe, value.opponent_theta_se);
  field(json, fit_key::kDifferenceTheta, value.difference_theta);
  field(json, fit_key::kDifferenceThetaSe, value.difference_theta_se);
  field(json, "p", value.p);
  json.end_object();
}

void put(JsonWriter& json, const Relation& value) {
  json.begin_object();
  field(json, fit_key::kRelation, value.relation);
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
  field(json, fit_key::kCode, value.code);
  field(json, fit_key::kMessage, value.message);
  json.end_object();
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
  field(json, "stoppedAtLimit", value.stopped_at_limit);
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
  if (value.target == learn::Target::kEval) {  // only then: result reads' reports unchanged
    field(json, "target", value.target);
    field(json, "unannotatedRows", value.unannotated_rows);
    field(json, "gamesWithEvals", value.games_with_evals);
    field(json, "gamesWithoutEvals", value.games_without_evals);
    field(json, "malformedEvals", value.malformed_evals);
  }
  if (!value.empty_read.empty()) {  // only then: reports with rows unchanged
    field(json, "emptyRead", value.empty_read);
    field(json, "emptyReadMessage", value.empty_read_message);
  }
  if (value.made_with) {  // only then: reports of games read unchanged
    json.key("madeWith");
    write(json, *value.made_with);
  }
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
  return Fields(json, path)(fit_key::kName, out.name)("label", out.label)(
             fit_key::kIdentified, out.identified)(fit_key::kValue, out.value)(
             fit_key::kValueSe, out.value_se)(fit_key::kValueSeModel, out.value_se_model)(
             fit_key::kElo, out.elo)(fit_key::kEloSe, out.elo_se)(fit_key::kTheta, out.theta)(
             fit_key::kThetaSe, out.theta_se)(fit_key::kThetaSeModel, out.theta_se_model)(
             "low", out.low)("high", out.high)
      .result();
}

Result get(const JsonValue& json, const std::string& path, SideRow& out) {
  return Fields(json, path)(fit_key::kPiece, out.piece)(fit_key::kIdentified, out.identified)(
             fit_key::kOwn, out.own)(fit_key::kOwnSe, out.own_se)(fit_key::kOpponent, out.opponent)(
             fit_key::kOpponentSe, out.opponent_se)(fit_key::kDifference, out.difference)(
             fit_key::kDifferenceSe, out.difference_se)(fit_key::kOwnTheta, out.own_theta)(
             fit_key::kOwnThetaSe, out.own_theta_se)(fit_key::kOpponentTheta, out.opponent_theta)(
             fit_key::kOpponentThetaSe, out.opponent_theta_se)(
             fit_key::kDifferenceTheta, out.difference_theta)(fit_key::kDifferenceThetaSe,
                                                              out.difference_theta_se)("p", out.p)
      .result();
}

Result get(const JsonValue& json, const std::string& path, Relation& out) {
  return Fields(json, path)(fit_key::kRelation, out.relation)("margin", out.margin)("se", out.se)(
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
  return Fields(json, path)(fit_key::kCode, out.code)(fit_key::kMessage, out.message).result();
}

Result get(const JsonValue& json, const std::string& path, Fit& out) {
  return Fields(json, path)(fit_key::kName, out.name)("games", out.games)("used", out.used)(
             "rows", out.rows)("decisiveRows", out.decisive_rows)("state", out.state)(
             "error", out.error)(fit_key::kWarnings, out.warnings)(fit_key::kErrors, out.errors)(
             "clusters", out.clusters)(fit_key::kLoss, out.loss)(
             fit_key::kIterations, out.iterations)(fit_key::kConverged, out.converged)(
             "replicates", out.replicates)("failedReplicates", out.failed_replicates)(
             "bootstrapError", out.bootstrap_error)(fit_key::kCoefficients, out.coefficients)(
             fit_key::kRelations, out.relations)("curve", out.curve)("balance", out.balance)(
             fit_key::kSides, out.sides)
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

}  // namespace detail

// ---- writing ----

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
  field(json, fit_key::kName, value.name);
  field(json, "games", value.games);
  field(json, "used", value.used);
  field(json, "rows", value.rows);
  field(json, "decisiveRows", value.decisive_rows);
  field(json, "state", value.state);
  if (!value.error.empty()) field(json, "error", value.error);
  field(json, fit_key::kWarnings, value.warnings);
  field(json, fit_key::kErrors, value.errors);
  field(json, "clusters", value.clusters);
  field(json, fit_key::kLoss, value.loss);
  field(json, fit_key::kIterations, value.iterations);
  field(json, fit_key::kConverged, value.converged);
  field(json, "replicates", value.replicates);
  field(json, "failedReplicates", value.failed_replicates);
  if (!value.bootstrap_error.empty()) field(json, "bootstrapError", value.bootstrap_error);
  field(json, fit_key::kCoefficients, value.coefficients);
  field(json, fit_key::kRelations, value.relations);
  field(json, "curve", value.curve);
  field(json, "balance", value.balance);
  if (!value.sides.empty()) field(json, fit_key::kSides, value.sides);
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

// ---- reading ----

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
  const Result error =
      Fields(json, path)("games", out.games)("used", out.used)("partial", out.partial)(
          "skipped", out.skipped)("filtered", out.filtered)("rows", out.rows)(
          "drawRows", out.draw_rows)("decisiveRows", out.decisive_rows)(
          "whiteWinRows", out.white_win_rows)("blackWinRows", out.black_win_rows)(
          "distinctRows", out.distinct_rows)("plies", out.plies)(
          "stoppedAtLimit", out.stopped_at_limit)("bytes", out.bytes)("seconds", out.seconds)(
          "mbps", out.mb_per_s)("files", out.files)("fileErrors", out.file_errors)(
          "skippedGames", out.issues)("skippedTotal", out.issue_total)(
          "filteredBy", out.filtered_by)("datasets", out.datasets)("target", out.target)(
          "unannotatedRows", out.unannotated_rows)("gamesWithEvals", out.games_with_evals)(
          "gamesWithoutEvals", out.games_without_evals)("malformedEvals", out.malformed_evals)(
          "emptyRead", out.empty_read)("emptyReadMessage", out.empty_read_message)
          .result();
  if (error) return error;
  if (const JsonValue* made_with = json.find("madeWith")) {
    ReadOptions options;
    if (Result wrong_options = read(*made_with, options)) return wrong_options;
    out.made_with = std::move(options);
  }
  return std::nullopt;
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
