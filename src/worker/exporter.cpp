// The engine's exports: every dataset, every coefficient of the fitted model, named, with the
// errors that were shown (web/PROTOCOL.md).
#include "worker/exporter.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "core/json.h"
#include "core/text.h"
#include "learn/filter/bands.h"
#include "learn/filter/game_filter.h"
#include "learn/fit/compare.h"
#include "learn/fit/relations.h"
#include "learn/fit/split_sides.h"
#include "learn/fit/uncertainty.h"
#include "learn/read/report_json.h"
#include "learn/stats/mat_io.h"
#include "learn/vocabulary/coefficient_names.h"
#include "protocol/codec.h"
#include "worker/export_values.h"

namespace materialist::worker {
namespace {

using namespace detail;  // the exports' shared numbers

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kCurveFrom = -10, kCurveTo = 10;
constexpr int kCurveSteps = 80;

// "P 100, N 305, B 333, R 479, Q 1077" (pawn = 100), "Elo: P 87, N 265, …", "N not identified"
// where it is not.
std::string short_values(const learn::ModelFit& fit, protocol::Units units) {
  static constexpr const char* kLetters[5] = {"P", "N", "B", "R", "Q"};
  static constexpr const char* kNames[5] = {"pawn", "knight", "bishop", "rook", "queen"};
  std::string out;
  bool any = false;
  for (const learn::Coefficient& c : fit.coefficients) any = any || c.identified;
  if (!any) return "no value identified";
  for (int piece = 0; piece < 5; ++piece) {
    const int column = fit.column(kNames[piece]);
    if (column < 0) {
      return fit.options.split_sides ? "own and opponents' values in the table"
                                     : "values per phase in the table";
    }
    const learn::Coefficient& c = fit.coefficients[static_cast<std::size_t>(column)];
    const double value = value_in(c, units);
    out += std::string(piece > 0 ? ", " : "") + kLetters[piece] + " ";
    out += c.identified && std::isfinite(value) ? unit_number(value, units)
                                                : std::string("not identified");
  }
  if (units == protocol::Units::kElo) return "Elo: " + out;
  if (units == protocol::Units::kLogOdds) return "log-odds: " + out;
  return out;
}

}  // namespace

std::string Exporter::values_csv() const {
  std::string out =
      "dataset,coefficient,label,identified,value,value_se,value_se_model,low,high,elo,elo_se,"
      "theta,theta_se,errors,warnings,target\n";
  const bool player = learn::player_view(read_options().filter);
  auto number = [](double v) { return std::isfinite(v) ? format("%.6g", v) : std::string(); };
  auto quoted = [](const std::string& text) {
    std::string q = "\"";
    // A cell starting with = + - @ is a formula to a spreadsheet: a quote mark keeps it text.
    if (!text.empty() && std::string_view("=+-@").find(text.front()) != std::string_view::npos)
      q += '\'';
    for (const char c : printable(text, 1024))
      q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  for (std::size_t d = 0; d < fit_count(); ++d) {
    const learn::ModelFit* fit = this->fit(d);
    if (fit == nullptr) continue;
    std::string warnings;
    for (const learn::FitWarning& w : fit->warnings)
      warnings += (warnings.empty() ? "" : "; ") + w.code;
    const learn::BootstrapFit* boot = fit_.bootstraps[d] ? &*fit_.bootstraps[d] : nullptr;
    for (std::size_t i = 0; i < fit->coefficients.size(); ++i) {
      const learn::Coefficient c = shown(*fit, i);
      const bool ok = c.identified;
      const bool interval = ok && boot && i < boot->coefficients.size();
      out += quoted(fit_.targets[d].name) + "," + c.name + "," +
             quoted(learn::coefficient_label_with_unit(c.name, player)) + "," +
             (ok ? "true" : "false");
      for (const double v : {c.value.value, c.value.se, c.model_value_se,
                             interval ? boot->coefficients[i].value_interval.low : kNaN,
                             interval ? boot->coefficients[i].value_interval.high : kNaN,
                             c.elo.value, c.elo.se, c.theta.value, c.theta.se}) {
        out += "," + (ok ? number(v) : std::string());
      }
      out += std::string(",") + learn::error_kind_name(fit->errors) + "," + quoted(warnings) + "," +
             learn::target_name(fit->options.target) + "\n";
    }
  }
  return out;
}

const std::vector<FileDigest>& Exporter::digests() const {
  static const std::vector<FileDigest> kNone;
  return current_ ? current_->digests : kNone;
}

protocol::Settings Exporter::settings() const {
  protocol::Settings out;
  out.fit = fit_.settings;
  out.read = read_options();
  out.units = units_;
  return out;
}

protocol::Fit Exporter::fit_result(std::size_t index) const {
  const std::string& error = index < fit_.errors.size() ? fit_.errors[index] : std::string();
  const learn::BootstrapFit* boot =
      index < fit_.bootstraps.size() && fit_.bootstraps[index] ? &*fit_.bootstraps[index] : nullptr;
  const std::string& bootstrap_error =
      index < fit_.bootstrap_errors.size() ? fit_.bootstrap_errors[index] : std::string();
  return describe(fit_.targets[index], fit(index), boot, bootstrap_error, error,
                  learn::player_view(read_options().filter));
}

protocol::Fit Exporter::describe(const FitTarget& target, const learn::ModelFit* fit,
                                 const learn::BootstrapFit* boot,
                                 const std::string& bootstrap_error, const std::string& error,
                                 bool player) {
  const learn::OutcomeCounts& totals = target.histogram->totals();
  protocol::Fit out;
  out.name = target.name;
  out.games = target.report->games.games_read;
  out.used = target.report->games.games_used;
  out.rows = totals.total();
  out.decisive_rows = totals[learn::Outcome::kWhiteWin] + totals[learn::Outcome::kBlackWin];
  out.balance = balance_of(*target.histogram);
  if (fit == nullptr) {
    out.state = "failed";
    out.error = error.empty() ? std::string("no fit") : error;
    return out;
  }
  out.state = fit->warnings.empty() ? "fitted" : "warnings";
  for (const learn::FitWarning& w : fit->warnings) out.warnings.push_back({w.code, w.message});
  out.errors = learn::error_kind_name(fit->errors);
  out.clusters = fit->clusters;  // the games that enter this model (draws out: decisive ones)
  out.loss = fit->loss;
  out.iterations = fit->iterations;
  out.converged = fit->converged;
  if (boot) {
    out.replicates = boot->replicates;
    out.failed_replicates = boot->failed;
  }
  out.bootstrap_error = bootstrap_error;
  for (std::size_t i = 0; i < fit->coefficients.size(); ++i) {
    const learn::Coefficient c = shown(*fit, i);
    const bool ok = c.identified;
    protocol::Coefficient o;
    o.name = c.name;
    o.label = learn::coefficient_label_with_unit(c.name, player);
    o.identified = ok;
    o.value = ok ? c.value.value : kNaN;
    o.value_se = ok ? c.value.se : kNaN;
    o.value_se_model = ok ? c.model_value_se : kNaN;
    o.elo = ok ? c.elo.value : kNaN;
    o.elo_se = ok ? c.elo.se : kNaN;
    o.theta = ok ? c.theta.value : kNaN;
    o.theta_se = ok ? c.theta.se : kNaN;
    o.theta_se_model = ok ? c.model_theta_se : kNaN;
    if (ok && boot && i < boot->coefficients.size()) {
      const learn::Interval interval = boot->coefficients[i].value_interval;
      if (std::isfinite(interval.low) && std::isfinite(interval.high)) {
        o.low = interval.low;
        o.high = interval.high;
      }
    }
    out.coefficients.push_back(std::move(o));
  }
  for (const learn::RelationEstimate& r : learn::capablanca_relations(*fit)) {
    out.relations.push_back(
        {r.relation, r.margin.value, r.margin.se, learn::verdict_name(r.verdict), r.equality});
  }
  // The curve runs along the pawn column: without an identified pawn it would draw flat lines
  // at the intercept's odds, a picture of nothing the games determine.
  const bool pawn_identified = std::none_of(
      out.coefficients.begin(), out.coefficients.end(),
      [](const protocol::Coefficient& c) { return !c.identified && c.name.rfind("pawn", 0) == 0; });
  for (const learn::BalancePoint& p :
       pawn_identified ? learn::pawn_balance_curve(*fit, kCurveFrom, kCurveTo, kCurveSteps)
                       : std::vector<learn::BalancePoint>{}) {
    out.curve.push_back(
        {p.pawns, p.probabilities.white_win, p.probabilities.draw, p.probabilities.black_win});
  }
  for (const learn::SideComparison& side : learn::compare_sides(*fit)) {
    out.sides.push_back({std::string(learn::kPieces[side.piece].column), side.identified,
                         side.own.value, side.own.se, side.opponent.value, side.opponent.se,
                         side.difference.value, side.difference.se, side.own_theta.value,
                         side.own_theta.se, side.opponent_theta.value, side.opponent_theta.se,
                         side.difference_theta.value, side.difference_theta.se, side.p_value});
  }
  return out;
}

std::vector<protocol::Difference> Exporter::differences() const {
  std::vector<protocol::Difference> out;
  const learn::Contrast bishop_minus_knight = {{"bishop", 1}, {"knight", -1}};
  std::vector<const learn::ModelFit*> fits;
  for (std::size_t i = 0; i < fit_count(); ++i) fits.push_back(fit(i));
  // Against the first dataset that determines B−N: a degenerate first band has no B−N.
  const std::optional<std::size_t> reference = learn::reference_dataset(fits, bishop_minus_knight);
  if (!reference) return out;
  const learn::DatasetFit base{fit_.targets[*reference].name, *fits[*reference],
                               fit_.bootstraps[*reference]};
  for (std::size_t i = 0; i < fits.size(); ++i) {
    if (i == *reference || fits[i] == nullptr ||
        !learn::contrast_determined(*fits[i], bishop_minus_knight))
      continue;  // an undetermined B−N has no difference to show (the table shows "–")
    const learn::DatasetFit other{fit_.targets[i].name, *fits[i], fit_.bootstraps[i]};
    // compare_contrast(b, a): the difference is B−N in dataset i minus B−N in the reference.
    const learn::DatasetDifference d = learn::compare_contrast(other, base, bishop_minus_knight);
    protocol::Difference diff;
    diff.a = static_cast<int>(*reference);
    diff.b = static_cast<int>(i);
    diff.contrast = "B-N";
    diff.diff = d.z_test.difference;
    diff.se = d.z_test.se;
    diff.p = d.z_test.p_value;
    if (d.has_bootstrap) diff.bootstrap_p = d.bootstrap_p;
    out.push_back(diff);
  }
  return out;
}

protocol::FitBegin Exporter::fit_begin() const {
  protocol::FitBegin out;
  out.solver = fit_.analysis.solver;
  out.preset = fit_.settings.preset;
  out.planned =
      fit_.first ? fit_.settings.iterations : static_cast<int>(fit_.newton_states.size()) - 1;
  out.reason = fit_.reason;
  return out;
}

protocol::FitDone Exporter::fit_done() const {
  protocol::FitDone out;
  out.reason = fit_.reason;
  for (std::size_t i = 0; i < fit_count(); ++i) out.fits.push_back(fit_result(i));
  out.differences = differences();
  if (fit_.last) out.snapshot = *fit_.last;
  return out;
}

std::string Exporter::fits_json() const {
  return protocol::encode(fit_done());
}

void Exporter::write_results(JsonWriter& json) const {
  json.key("settings");
  protocol::write(json, settings());
  json.field("target", learn::target_name(fit_.analysis.model.target));
  json.field("solverUsed", learn::solver_name(fit_.analysis.solver));
  if (!fit_.reason.empty()) json.field("reason", fit_.reason);
  json.field("playerView", learn::player_view(read_options().filter));
  json.key("fits").begin_array();
  for (std::size_t i = 0; i < fit_count(); ++i) protocol::write(json, fit_result(i));
  json.end_array();
  json.key("differences").begin_array();
  for (const protocol::Difference& d : differences()) protocol::write(json, d);
  json.end_array();
}

std::string Exporter::result_json() const {
  JsonWriter json;
  json.begin_object().field("tool", "materialist");
  write_results(json);
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
  json.end_object();
  return json.take();
}

std::string Exporter::provenance_json() const {
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
  write_results(json);
  if (const learn::DatasetReport* r = report()) {
    json.key("data").begin_object();
    learn::write_dataset_fields(json, *r, 0);
    json.end_object();
  }
  json.end_object();
  return json.take();
}

std::string Exporter::error_kinds_text() const {
  // The kind most datasets have; the others named by their band ("± game-clustered errors;
  // model errors for <800"): a degenerate first band must not speak for the rest.
  std::vector<std::pair<learn::ErrorKind, std::vector<std::string>>> kinds;
  for (std::size_t d = 0; d < fit_count(); ++d) {
    const learn::ModelFit* f = fit(d);
    if (f == nullptr) continue;
    auto kind = std::find_if(kinds.begin(), kinds.end(),
                             [&](const auto& k) { return k.first == f->errors; });
    if (kind == kinds.end()) kind = kinds.insert(kinds.end(), {f->errors, {}});
    kind->second.push_back(learn::band_label(fit_.targets[d].name).value_or(fit_.targets[d].name));
  }
  if (kinds.empty()) return "";
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  std::string out = std::string(learn::error_kind_name(kinds.front().first)) + " errors";
  for (std::size_t k = 1; k < kinds.size(); ++k) {
    out += std::string("; ") + learn::error_kind_name(kinds[k].first) + " errors for ";
    for (std::size_t i = 0; i < kinds[k].second.size(); ++i)
      out += (i > 0 ? ", " : "") + kinds[k].second[i];
  }
  return out;
}

std::string Exporter::status_line() const {
  if (fit_count() == 0) return "";
  const bool newton = !fit_.first.has_value();
  std::string solver = newton ? "Newton" : "gradient descent";
  const std::size_t n = fit_count();
  bool warned = false;
  for (std::size_t d = 0; d < n; ++d)
    warned = warned || fit(d) == nullptr || !fit(d)->warnings.empty();
  // Values of the engine's evaluations, not of the games' results: the line says so.
  const bool eval = current_ && current_->options.target == learn::Target::kEval;
  std::string out = !eval    ? (warned ? "Fit with warnings" : "Fitted")
                    : warned ? "Fitted to engine evaluations, with warnings"
                             : "Fitted to engine evaluations";
  if (n > 1) out += " (" + std::to_string(n) + " datasets)";
  out += " (" + solver;
  if (const std::string errors = error_kinds_text(); !errors.empty()) {
    const learn::ModelFit* first = nullptr;
    for (std::size_t d = 0; d < n && first == nullptr; ++d) first = fit(d);
    out +=
        ", " + grouped(static_cast<std::uint64_t>(first->iterations)) + " iterations; ± " + errors;
  }
  out += "):";
  for (std::size_t d = 0; d < n; ++d) {
    const learn::ModelFit* fit = this->fit(d);
    out += d > 0 ? " · " : " ";
    // A band of a comparison by rating or speed is named by its band ("1400-1599").
    if (n > 1) out += learn::band_label(fit_.targets[d].name).value_or(fit_.targets[d].name) + ": ";
    if (fit == nullptr) {
      out += "no fit (" + fit_.errors[d] + ")";
      continue;
    }
    out += short_values(*fit, units_);
    // Many datasets: their warnings are in the app's table, the line keeps to the values.
    if (!fit->warnings.empty() && n <= 3) out += " [" + fit->warnings.front().message + "]";
  }
  if (current_ && !current_->stats_source.empty()) {
    out += " · from " + current_->stats_source + " (statistics of " +
           grouped(current_->report.games.games_read) + " games)";
  }
  return out;
}

}  // namespace materialist::worker
