// The engine's exports: every dataset, every coefficient of the fitted model, named, with the
// errors that were shown (web/PROTOCOL.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/json.h"
#include "learn/coefficient_names.h"
#include "learn/compare.h"
#include "learn/game_filter.h"
#include "learn/mat_io.h"
#include "learn/relations.h"
#include "learn/report_json.h"
#include "learn/uncertainty.h"
#include "worker/engine.h"

namespace materialist::worker {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kCurveFrom = -10, kCurveTo = 10;
constexpr int kCurveSteps = 80;

void field_or_null(JsonWriter& json, const char* key, double value) {
  json.key(key);
  if (std::isfinite(value)) {
    json.value(value);
  } else {
    json.null();
  }
}

// A coefficient as shown: the draw margin gets its value in pawn units too (c / θ_pawn · 100,
// the material that moves a game from the draw band), which describe_coefficients leaves NaN.
learn::Coefficient shown(const learn::ModelFit& fit, std::size_t index) {
  learn::Coefficient c = fit.coefficients[index];
  const int pawn = fit.spec.pawn_column();
  if (c.name == "draw-margin" && pawn >= 0 && std::isnan(c.value.value)) {
    const std::vector<double> parameters = fit.parameters();
    c.value = learn::ratio_estimate(parameters, fit.covariance, static_cast<int>(index), pawn);
    c.model_value_se =
        learn::ratio_estimate(parameters, fit.model_covariance, static_cast<int>(index), pawn).se;
    c.reference = pawn;
  }
  return c;
}

bool player_view_of(const ReadOptions& read) {
  const auto filter = learn::parse_game_filter(read.filter);
  return filter && filter->player_perspective && !filter->player.empty();
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

// "P 100, N 305, B 333, R 479, Q 1077" (pawn = 100), "N not identified" where it is not.
std::string short_values(const learn::ModelFit& fit) {
  static constexpr const char* kLetters[5] = {"P", "N", "B", "R", "Q"};
  static constexpr const char* kNames[5] = {"pawn", "knight", "bishop", "rook", "queen"};
  std::string out;
  bool any = false;
  for (const learn::Coefficient& c : fit.coefficients) any = any || c.identified;
  if (!any) return "no value identified";
  for (int piece = 0; piece < 5; ++piece) {
    const int column = fit.column(kNames[piece]);
    if (column < 0) return "values per phase in the table";
    const learn::Coefficient& c = fit.coefficients[static_cast<std::size_t>(column)];
    out += std::string(piece > 0 ? ", " : "") + kLetters[piece] + " ";
    out += c.identified && std::isfinite(c.value.value) ? format("%.0f", c.value.value)
                                                        : std::string("not identified");
  }
  return out;
}

}  // namespace

std::string Engine::mat_chunk(std::size_t from_row, std::size_t max_rows) const {
  std::string out;
  if (!current_) return out;
  const std::vector<std::int8_t>& rows = current_->rows;
  const std::size_t end = std::min(rows.size() / 6, from_row + max_rows);
  out.reserve((end > from_row ? end - from_row : 0) * 18);
  for (std::size_t r = from_row; r < end; ++r) {
    const std::int8_t* row = rows.data() + 6 * r;
    learn::MaterialVector delta{};
    std::copy(row, row + 5, delta.begin());
    const learn::Outcome outcome =
        row[5] < 0 ? learn::Outcome::kUnknown : static_cast<learn::Outcome>(row[5]);
    learn::append_mat_row(out, delta, outcome);
  }
  return out;
}

std::string Engine::values_csv() const {
  std::string out =
      "dataset,coefficient,label,identified,value,value_se,value_se_model,low,high,elo,elo_se,"
      "theta,theta_se,errors,warnings\n";
  const bool player = player_view_of(read_options());
  auto number = [](double v) { return std::isfinite(v) ? format("%.6g", v) : std::string(); };
  auto quoted = [](const std::string& text) {
    std::string q = "\"";
    for (const char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  for (std::size_t d = 0; d < fit_count(); ++d) {
    const learn::ModelFit* fit = this->fit(d);
    if (fit == nullptr) continue;
    std::string warnings;
    for (const learn::FitWarning& w : fit->warnings) warnings += (warnings.empty() ? "" : "; ") + w.code;
    const learn::BootstrapFit* boot = fit_.bootstraps[d] ? &*fit_.bootstraps[d] : nullptr;
    for (std::size_t i = 0; i < fit->coefficients.size(); ++i) {
      const learn::Coefficient c = shown(*fit, i);
      const bool ok = c.identified;
      const bool interval = ok && boot && i < boot->coefficients.size();
      out += quoted(fit_.targets[d].name) + "," + c.name + "," +
             quoted(learn::coefficient_label(c.name, player)) + "," + (ok ? "true" : "false");
      for (const double v : {c.value.value, c.value.se, c.model_value_se,
                             interval ? boot->coefficients[i].value_interval.low : kNaN,
                             interval ? boot->coefficients[i].value_interval.high : kNaN,
                             c.elo.value, c.elo.se, c.theta.value, c.theta.se}) {
        out += "," + (ok ? number(v) : std::string());
      }
      out += std::string(",") + learn::error_kind_name(fit->errors) + "," + quoted(warnings) + "\n";
    }
  }
  return out;
}

void Engine::write_settings(JsonWriter& json) const {
  const ReadOptions& read = read_options();
  const learn::ModelOptions& model = fit_.analysis.model;
  json.key("settings").begin_object();
  json.field("filter", read.filter);
  json.field("unknown", read.unknown == learn::UnknownResultPolicy::kSkip ? "skip" : "draw");
  json.key("quiet").begin_object();
  json.field("plies", read.quiet.quiet_plies).field("checksBreak", read.quiet.checks_break_quiet);
  json.field("distinct", read.quiet.distinct_per_game)
      .field("skipFirst", read.quiet.skip_first_plies);
  json.end_object();
  json.field("datasets", dataset_mode_name(read.datasets));
  json.key("eachFilter").begin_array();
  for (const std::string& each : read.each_filter) json.value(each);
  json.end_array();
  json.field("bootstrap", read.bootstrap).field("seed", read.seed);
  json.field("preset", fit_.settings.preset)
      .field("solver", learn::solver_name(fit_.analysis.solver));
  if (!fit_.reason.empty()) json.field("reason", fit_.reason);
  json.field("step", fit_.analysis.gd.learning_rate).field("iterations", fit_.analysis.gd.iterations);
  json.field("lambda", model.lambda);
  json.key("model").begin_object();
  json.field("outcomes", learn::outcome_model_name(model.outcomes));
  json.field("intercept", model.intercept).field("bishopPair", model.bishop_pair);
  json.field("phase", model.phase_tapered).field("eloOffset", model.rating_offset);
  json.field("sideToMove", model.side_to_move).end_object();
  json.field("playerView", player_view_of(read));
  json.end_object();
}

void Engine::write_fit(JsonWriter& json, std::size_t index) const {
  const FitTarget& target = fit_.targets[index];
  const learn::DatasetReport& report = *target.report;
  const learn::OutcomeCounts& totals = target.histogram->totals();
  const bool player = player_view_of(read_options());
  json.begin_object().field("name", target.name);
  json.field("games", report.games.games_read).field("used", report.games.games_used);
  json.field("rows", totals.total());
  json.field("decisiveRows", totals[learn::Outcome::kWhiteWin] + totals[learn::Outcome::kBlackWin]);
  const std::vector<learn::BalanceBin> bins = learn::balance_bins(*target.histogram);
  const Expected<learn::BalanceFit> alpha = learn::fit_balance_alpha(bins);
  const learn::ModelFit* fit = this->fit(index);
  if (fit == nullptr) {
    json.field("state", "failed");
    json.field("error", index < fit_.errors.size() && !fit_.errors[index].empty()
                            ? fit_.errors[index]
                            : std::string("no fit"));
  } else {
    const learn::BootstrapFit* boot = fit_.bootstraps[index] ? &*fit_.bootstraps[index] : nullptr;
    json.field("state", fit->warnings.empty() ? "fitted" : "warnings");
    json.key("warnings").begin_array();
    for (const learn::FitWarning& w : fit->warnings) {
      json.begin_object().field("code", w.code).field("message", w.message).end_object();
    }
    json.end_array();
    json.field("errors", learn::error_kind_name(fit->errors)).field("clusters", fit->games);
    json.field("loss", fit->loss).field("iterations", fit->iterations);
    json.field("converged", fit->converged);
    if (boot) json.field("replicates", boot->replicates).field("failedReplicates", boot->failed);
    if (!fit_.bootstrap_errors[index].empty())
      json.field("bootstrapError", fit_.bootstrap_errors[index]);
    json.key("coefficients").begin_array();
    for (std::size_t i = 0; i < fit->coefficients.size(); ++i) {
      const learn::Coefficient c = shown(*fit, i);
      const bool ok = c.identified;
      json.begin_object().field("name", c.name).field("label",
                                                      learn::coefficient_label(c.name, player));
      json.field("identified", ok);
      field_or_null(json, "value", ok ? c.value.value : kNaN);
      field_or_null(json, "valueSe", ok ? c.value.se : kNaN);
      field_or_null(json, "valueSeModel", ok ? c.model_value_se : kNaN);
      field_or_null(json, "elo", ok ? c.elo.value : kNaN);
      field_or_null(json, "eloSe", ok ? c.elo.se : kNaN);
      field_or_null(json, "theta", ok ? c.theta.value : kNaN);
      field_or_null(json, "thetaSe", ok ? c.theta.se : kNaN);
      field_or_null(json, "thetaSeModel", ok ? c.model_theta_se : kNaN);
      const bool interval = ok && boot && i < boot->coefficients.size();
      field_or_null(json, "low", interval ? boot->coefficients[i].value_interval.low : kNaN);
      field_or_null(json, "high", interval ? boot->coefficients[i].value_interval.high : kNaN);
      json.end_object();
    }
    json.end_array();
    json.key("relations").begin_array();
    for (const learn::RelationEstimate& r : learn::capablanca_relations(*fit)) {
      json.begin_object().field("relation", r.relation);
      field_or_null(json, "margin", r.margin.value);
      field_or_null(json, "se", r.margin.se);
      json.field("verdict", learn::verdict_name(r.verdict)).field("equality", r.equality);
      json.end_object();
    }
    json.end_array();
    json.key("curve").begin_array();
    for (const learn::BalancePoint& p :
         learn::pawn_balance_curve(*fit, kCurveFrom, kCurveTo, kCurveSteps)) {
      json.begin_object().field("pawns", p.pawns);
      field_or_null(json, "win", p.probabilities.white_win);
      field_or_null(json, "draw", p.probabilities.draw);
      field_or_null(json, "loss", p.probabilities.black_win);
      json.end_object();
    }
    json.end_array();
  }
  json.key("balance").begin_object().key("bins").begin_array();
  for (const learn::BalanceBin& bin : bins) {
    json.begin_object().field("dm", bin.balance);
    json.field("white", bin.counts[learn::Outcome::kWhiteWin]);
    json.field("draws", bin.counts[learn::Outcome::kDraw]);
    json.field("black", bin.counts[learn::Outcome::kBlackWin]).end_object();
  }
  json.end_array();
  field_or_null(json, "alpha", alpha.ok() ? alpha->alpha : kNaN);
  json.end_object().end_object();
}

void Engine::write_fits(JsonWriter& json) const {
  json.key("fits").begin_array();
  for (std::size_t i = 0; i < fit_count(); ++i) write_fit(json, i);
  json.end_array();
}

void Engine::write_differences(JsonWriter& json) const {
  json.key("differences").begin_array();
  const learn::ModelFit* first_fit = fit(0);
  if (first_fit != nullptr) {
    const learn::Contrast bishop_minus_knight = {{"bishop", 1}, {"knight", -1}};
    const learn::DatasetFit first{fit_.targets[0].name, *first_fit, fit_.bootstraps[0]};
    for (std::size_t i = 1; i < fit_count(); ++i) {
      const learn::ModelFit* other_fit = fit(i);
      if (other_fit == nullptr) continue;
      const learn::DatasetFit other{fit_.targets[i].name, *other_fit, fit_.bootstraps[i]};
      // compare_contrast(b, a): the difference is B−N in dataset i minus B−N in the first.
      const learn::DatasetDifference d = learn::compare_contrast(other, first, bishop_minus_knight);
      json.begin_object().field("a", 0).field("b", static_cast<int>(i));
      json.field("contrast", "B-N");
      field_or_null(json, "diff", d.z_test.difference);
      field_or_null(json, "se", d.z_test.se);
      field_or_null(json, "p", d.z_test.p_value);
      field_or_null(json, "bootstrapP", d.has_bootstrap ? d.bootstrap_p : kNaN);
      json.end_object();
    }
  }
  json.end_array();
}

std::string Engine::fits_json() const {
  JsonWriter json;
  json.begin_object();
  if (!fit_.reason.empty()) json.field("reason", fit_.reason);
  write_fits(json);
  write_differences(json);
  json.end_object();
  return json.take();
}

std::string Engine::result_json() const {
  JsonWriter json;
  json.begin_object().field("tool", "materialist");
  write_settings(json);
  if (const learn::DatasetReport* r = report()) {
    json.key("data").begin_object();
    json.field("bytes", r->bytes).field("rows", r->rows);
    json.field("games", r->games.games_read).field("used", r->games.games_used);
    json.field("partial", r->games.games_partial).field("skipped", r->games.games_skipped);
    json.key("files").begin_array();
    for (const learn::FileReport& f : r->files) json.value(f.name);
    json.end_array();
    json.end_object();
  }
  write_fits(json);
  write_differences(json);
  json.end_object();
  return json.take();
}

std::string Engine::provenance_json() const {
  JsonWriter json;
  json.begin_object().field("tool", "materialist");
  json.key("files").begin_array();
  for (const FileDigest& digest : digests()) {
    json.begin_object().field("name", digest.name).field("bytes", digest.bytes);
    json.key("sha256");
    if (digest.sha256.empty()) {
      json.null();
    } else {
      json.value(digest.sha256);
    }
    json.end_object();
  }
  json.end_array();
  write_settings(json);
  if (const learn::DatasetReport* r = report()) {
    json.key("data").begin_object();
    learn::write_dataset_fields(json, *r, 0);
    json.end_object();
  }
  write_fits(json);
  write_differences(json);
  json.end_object();
  return json.take();
}

std::string Engine::code_header() const {
  std::string out =
      "// Piece values learned by Materialist (logistic regression on quiet positions)\n";
  const learn::DatasetReport* r = report();
  if (r != nullptr) {
    out += "// data:";
    for (const learn::FileReport& file : r->files) out += " " + file.name;
    out += "; " + std::to_string(r->games.games_used + r->games.games_partial) + " games, " +
           std::to_string(r->rows) + " rows\n";
  }
  const ReadOptions& read = read_options();
  const learn::ModelOptions& model = fit_.analysis.model;
  out += "// model: outcomes " + std::string(learn::outcome_model_name(model.outcomes));
  if (model.intercept) out += ", intercept";
  if (model.bishop_pair) out += ", bishop pair";
  if (model.phase_tapered) out += ", middlegame/endgame values";
  if (model.rating_offset) out += ", rating offset";
  if (model.side_to_move) out += ", side to move";
  out += "; solver " + std::string(learn::solver_name(fit_.analysis.solver)) + ", preset " +
         fit_.settings.preset + ", lambda " + format("%.17g", model.lambda);
  if (!read.filter.empty()) out += "; filter \"" + read.filter + "\"";
  out += "\n// Every term is in centipawns (pawn = 100); \"not identified\" terms are left out.\n";
  out += "#pragma once\n";
  if (fit_count() == 0) return out + "\n// (no fit yet)\n";
  const bool player = player_view_of(read);
  for (std::size_t d = 0; d < fit_count(); ++d) {
    const learn::ModelFit* fit = this->fit(d);
    std::string prefix = fit_count() > 1 ? learn::code_identifier(fit_.targets[d].name) : "";
    if (fit_count() > 1 && prefix.empty()) prefix = "Dataset" + std::to_string(d + 1);
    out += "\n// ---- " + (fit_count() > 1 ? "dataset " + fit_.targets[d].name : std::string("values")) +
           " ----\n";
    if (fit == nullptr) {
      out += "// no fit: " + fit_.errors[d] + "\n";
      continue;
    }
    out += std::string("// errors: ") + learn::error_kind_name(fit->errors) + "\n";
    for (const learn::FitWarning& w : fit->warnings) out += "// WARNING " + w.code + ": " + w.message + "\n";
    // Pieces as one array when all five are single identified values.
    static constexpr const char* kPieces[5] = {"pawn", "knight", "bishop", "rook", "queen"};
    bool array = true;
    for (const char* piece : kPieces) {
      const int column = fit->column(piece);
      array = array && column >= 0 && fit->coefficients[static_cast<std::size_t>(column)].identified;
    }
    if (array) {
      out += "// Pawn, knight, bishop, rook, queen.\nconstexpr int k" + prefix +
             "PieceValues[5] = {";
      for (int p = 0; p < 5; ++p) {
        const double v = fit->coefficients[static_cast<std::size_t>(fit->column(kPieces[p]))].value.value;
        out += (p ? ", " : "") + std::to_string(static_cast<long>(std::lround(v)));
      }
      out += "};\n";
    }
    for (std::size_t i = 0; i < fit->coefficients.size(); ++i) {
      const learn::Coefficient c = shown(*fit, i);
      const bool piece = std::find_if(std::begin(kPieces), std::end(kPieces), [&](const char* p) {
                           return c.name == p;
                         }) != std::end(kPieces);
      if (piece && array) continue;
      const std::string label = learn::coefficient_label(c.name, player);
      if (!c.identified || !std::isfinite(c.value.value)) {
        out += "// " + label + ": not identified by these games\n";
        continue;
      }
      out += "constexpr int k" + prefix + learn::code_identifier(c.name) + " = " +
             std::to_string(static_cast<long>(std::lround(c.value.value))) + ";  // " + label;
      if (c.name == "draw-margin") out += ": |material| below this leans to a draw";
      if (c.name == "bishop-pair") out += ": bonus for the side with both bishops";
      out += format(" (± %.0f)\n", c.value.se);
    }
  }
  return out;
}

std::string Engine::status_line() const {
  if (fit_count() == 0) return "";
  const bool newton = !fit_.first.has_value();
  std::string solver = newton ? "Newton" : "gradient descent";
  const learn::ModelFit* first = fit(0);
  const std::size_t n = fit_count();
  bool warned = false;
  for (std::size_t d = 0; d < n; ++d) warned = warned || fit(d) == nullptr || !fit(d)->warnings.empty();
  std::string out = warned ? "Fit with warnings" : "Fitted";
  if (n > 1) out += " (" + std::to_string(n) + " datasets)";
  out += " (" + solver;
  if (first != nullptr) {
    out += ", " + std::to_string(first->iterations) + " iterations; ± " +
           learn::error_kind_name(first->errors) + " errors";
  }
  out += "):";
  for (std::size_t d = 0; d < n; ++d) {
    const learn::ModelFit* fit = this->fit(d);
    out += d > 0 ? " · " : " ";
    if (n > 1) out += fit_.targets[d].name + ": ";
    if (fit == nullptr) {
      out += "no fit (" + fit_.errors[d] + ")";
      continue;
    }
    out += short_values(*fit);
    if (!fit->warnings.empty()) out += " [" + fit->warnings.front().message + "]";
  }
  return out;
}

}  // namespace materialist::worker
