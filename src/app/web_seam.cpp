// The page seam: decodes the worker's messages (plain JS objects, web/PROTOCOL.md) into AppState
// and encodes commands back. Only this file and main_web.cpp know they run in a browser.
#include "app/web_seam.h"

#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace materialist::app::web {
namespace {

using emscripten::val;

double number(const val& object, const char* key, double fallback = 0) {
  const val field = object[key];
  return field.isNumber() ? field.as<double>() : fallback;
}

std::uint64_t count(const val& object, const char* key) {
  return static_cast<std::uint64_t>(std::max(0.0, number(object, key)));
}

std::string text(const val& object, const char* key) {
  const val field = object[key];
  return field.isString() ? field.as<std::string>() : std::string();
}

bool flag(const val& object, const char* key) {
  const val field = object[key];
  return field.isTrue();
}

std::vector<std::string> strings(const val& object, const char* key) {
  std::vector<std::string> out;
  const val array = object[key];
  if (!array.isArray()) return out;
  const int n = array["length"].as<int>();
  for (int i = 0; i < n; ++i) out.push_back(array[i].as<std::string>());
  return out;
}

bool is_object(const val& v) {
  return !v.isNull() && v.typeOf().as<std::string>() == "object";
}

std::vector<FilteredCount> decode_filtered_by(const val& object) {
  std::vector<FilteredCount> out;
  if (object.isUndefined() || object.isNull()) return out;
  const val keys = val::global("Object").call<val>("keys", object);
  const int n = keys["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const std::string key = keys[i].as<std::string>();
    const std::uint64_t games = count(object, key.c_str());
    if (games > 0) out.push_back({key, games});
  }
  return out;
}

std::vector<DatasetSummary> decode_dataset_summaries(const val& array) {
  std::vector<DatasetSummary> out;
  if (!array.isArray()) return out;
  const int n = array["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const val d = array[i];
    out.push_back({text(d, "name"), count(d, "games"), count(d, "used"), count(d, "filtered"),
                   count(d, "rows")});
  }
  return out;
}

Coefficient decode_coefficient(const val& c) {
  Coefficient out;
  out.name = text(c, "name");
  out.label = c["label"].isString() ? text(c, "label") : out.name;
  out.identified = !c["identified"].isFalse();
  out.value = number(c, "value");
  out.value_se_model = number(c, "valueSeModel", std::numeric_limits<double>::quiet_NaN());
  out.value_se = number(c, "valueSe", std::numeric_limits<double>::quiet_NaN());
  out.elo = number(c, "elo");
  out.elo_se = number(c, "eloSe", std::numeric_limits<double>::quiet_NaN());
  out.theta = number(c, "theta");
  out.theta_se = number(c, "thetaSe", std::numeric_limits<double>::quiet_NaN());
  out.has_interval = c["low"].isNumber() && c["high"].isNumber();
  out.low = number(c, "low");
  out.high = number(c, "high");
  return out;
}

DatasetFit decode_fit(const val& f) {
  DatasetFit fit;
  fit.name = text(f, "name");
  fit.games = count(f, "games");
  fit.used = count(f, "used");
  fit.rows = count(f, "rows");
  fit.decisive_rows = count(f, "decisiveRows");
  fit.loss = number(f, "loss");
  fit.iterations = static_cast<int>(number(f, "iterations"));
  fit.state = text(f, "state");
  fit.error = text(f, "error");
  fit.errors = text(f, "errors");
  fit.clusters = count(f, "clusters");
  fit.converged = !f["converged"].isFalse();
  const val warnings = f["warnings"];
  if (warnings.isArray()) {
    const int n = warnings["length"].as<int>();
    for (int i = 0; i < n; ++i) fit.warnings.push_back(text(warnings[i], "message"));
  }
  const val coefficients = f["coefficients"];
  if (coefficients.isArray()) {
    const int n = coefficients["length"].as<int>();
    for (int i = 0; i < n; ++i) fit.coefficients.push_back(decode_coefficient(coefficients[i]));
  }
  const val relations = f["relations"];
  if (relations.isArray()) {
    const int n = relations["length"].as<int>();
    for (int i = 0; i < n; ++i) {
      const val r = relations[i];
      fit.relations.push_back({text(r, "relation"), number(r, "margin"), number(r, "se"),
                               text(r, "verdict"), flag(r, "equality")});
    }
  }
  const val curve = f["curve"];
  if (curve.isArray()) {
    const int n = curve["length"].as<int>();
    for (int i = 0; i < n; ++i) {
      const val p = curve[i];
      fit.curve.push_back(
          {number(p, "pawns"), number(p, "win"), number(p, "draw"), number(p, "loss")});
    }
  }
  return fit;
}

void decode_fit_done(Trajectory& trajectory, const val& m) {
  trajectory.fits.clear();
  trajectory.differences.clear();
  const val fits = m["fits"];
  if (fits.isArray()) {
    const int n = fits["length"].as<int>();
    for (int i = 0; i < n; ++i) trajectory.fits.push_back(decode_fit(fits[i]));
  }
  const val differences = m["differences"];
  if (!differences.isArray()) return;
  const int n = differences["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const val d = differences[i];
    DatasetDifference diff;
    diff.a = static_cast<int>(number(d, "a"));
    diff.b = static_cast<int>(number(d, "b"));
    diff.contrast = text(d, "contrast");
    diff.diff = number(d, "diff");
    diff.se = number(d, "se");
    diff.p = number(d, "p", 1);
    diff.has_bootstrap_p = d["bootstrapP"].isNumber();
    diff.bootstrap_p = number(d, "bootstrapP");
    trajectory.differences.push_back(diff);
  }
}

// A share link's settings (the page pushes them on load): every field optional.
void decode_settings(AppState& state, const val& s) {
  if (s.isUndefined() || s.isNull()) return;
  FitSettings& fit = state.settings;
  const std::string preset = text(s, "preset");
  for (int i = 0; i < static_cast<int>(kPresets.size()); ++i) {
    if (preset == kPresets[i].id) fit = kPresets[i].settings;
  }
  if (s["solver"].isString()) {
    fit.solver = text(s, "solver") == "newton" ? Solver::kNewton : Solver::kGradientDescent;
  }
  fit.step = number(s, "step", fit.step);
  fit.iterations = static_cast<int>(number(s, "iterations", fit.iterations));
  fit.lambda = number(s, "lambda", fit.lambda);
  if (s["draws"].isString()) {
    fit.draws = text(s, "draws") == "half" ? DrawHandling::kHalfPoint : DrawHandling::kExclude;
  }
  if (s["unknown"].isString()) {
    fit.unknown = text(s, "unknown") == "draw" ? UnknownResult::kAsDraw : UnknownResult::kSkip;
  }
  AnalysisSettings& a = state.analysis;
  const val model = s["model"];
  if (is_object(model)) {
    const std::string outcomes = text(model, "outcomes");
    if (outcomes == "ordinal") a.model.outcomes = Outcomes::kOrdinal;
    if (outcomes == "fractional") a.model.outcomes = Outcomes::kFractional;
    if (outcomes == "draws-out") a.model.outcomes = Outcomes::kDrawsOut;
    a.model.intercept = flag(model, "intercept");
    a.model.bishop_pair = flag(model, "bishopPair");
    a.model.phase = flag(model, "phase");
    a.model.elo_offset = flag(model, "eloOffset");
  }
  const std::string units = text(s, "units");
  a.units = units == "elo" ? Units::kElo : units == "logodds" ? Units::kLogOdds : Units::kPawn;
  ReadOptions& r = a.read;
  r.bootstrap = static_cast<int>(number(s, "bootstrap", r.bootstrap));
  const val quiet = s["quiet"];
  if (is_object(quiet)) {
    r.quiet.plies = static_cast<int>(number(quiet, "plies", r.quiet.plies));
    if (quiet["checksBreak"].isTrue() || quiet["checksBreak"].isFalse())
      r.quiet.checks_break = flag(quiet, "checksBreak");
    if (quiet["distinct"].isTrue() || quiet["distinct"].isFalse())
      r.quiet.distinct = flag(quiet, "distinct");
    r.quiet.skip_first = static_cast<int>(number(quiet, "skipFirst", r.quiet.skip_first));
  }
  if (s["filter"].isString()) r.filter = text(s, "filter");
  const std::string datasets = text(s, "datasets");
  r.datasets = datasets == "per-file"     ? DatasetMode::kPerFile
               : datasets == "per-filter" ? DatasetMode::kPerFilter
                                          : DatasetMode::kMerge;
  if (s["eachFilter"].isArray()) r.each_filter = strings(s, "eachFilter");
  state.applied_read = r;
  state.settings_restored = true;
  Expected<learn::GameFilterOptions> parsed = learn::parse_game_filter(r.filter);
  if (parsed) {
    state.filter_form = *parsed;
    state.filter_error.clear();
  } else {
    state.filter_error = parsed.error().message;
  }
  state.terminations_text.clear();
  for (const std::string& t : state.filter_form.excluded_terminations) {
    state.terminations_text += (state.terminations_text.empty() ? "" : ", ") + t;
  }
}

Phase phase_from(const std::string& name) {
  if (name == "reading") return Phase::kReading;
  if (name == "fitting") return Phase::kFitting;
  if (name == "done") return Phase::kDone;
  if (name == "error") return Phase::kError;
  return Phase::kIdle;
}

ReadProgress decode_progress(const val& m) {
  ReadProgress p;
  p.bytes = number(m, "bytes");
  p.total_bytes = number(m, "totalBytes");
  p.games = count(m, "games");
  p.used = count(m, "used");
  p.skipped = count(m, "skipped");
  p.rows = count(m, "rows");
  p.mb_per_s = number(m, "mbps");
  p.eta_s = number(m, "eta", -1);
  p.file = text(m, "file");
  p.file_index = static_cast<int>(number(m, "fileIndex"));
  p.file_count = static_cast<int>(number(m, "fileCount"));
  return p;
}

DataReport decode_report(const val& r) {
  DataReport report;
  report.present = true;
  report.games = count(r, "games");
  report.used = count(r, "used");
  report.partial = count(r, "partial");
  report.skipped = count(r, "skipped");
  report.filtered = count(r, "filtered");
  report.rows = count(r, "rows");
  report.draw_rows = count(r, "drawRows");
  report.decisive_rows = count(r, "decisiveRows");
  report.unknown_rows = count(r, "unknownRows");
  report.distinct_rows = count(r, "distinctRows");
  report.bytes = number(r, "bytes");
  report.seconds = number(r, "seconds");
  report.mb_per_s = number(r, "mbps");
  report.files = strings(r, "files");
  report.file_errors = strings(r, "fileErrors");
  const val games = r["skippedGames"];
  if (games.isArray()) {
    const int n = games["length"].as<int>();
    report.skipped_games.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      const val g = games[i];
      report.skipped_games.push_back({text(g, "file"), count(g, "line"), text(g, "reason")});
    }
  }
  report.skipped_listed_total =
      std::max<std::uint64_t>(count(r, "skippedTotal"), report.skipped_games.size());
  report.filtered_by = decode_filtered_by(r["filteredBy"]);
  report.datasets = decode_dataset_summaries(r["datasets"]);
  return report;
}

FitSnapshot decode_snapshot(const val& m) {
  FitSnapshot s;
  s.iteration = static_cast<int>(number(m, "iteration"));
  s.loss = number(m, "loss");
  s.dataset = static_cast<int>(number(m, "dataset"));
  const val theta = m["theta"];
  const val values = m["values"];
  const val se = m["valueSe"];
  s.has_se = se.isArray();
  for (int i = 0; i < kPieceCount; ++i) {
    if (theta.isArray()) s.theta[i] = theta[i].as<double>();
    if (s.has_se) s.value_se[i] = se[i].as<double>();
    if (values.isArray()) {
      s.values[i] = values[i].as<double>();
    } else if (!values.isUndefined() && !values.isNull()) {
      s.values[i] = number(values, kPieceLetters[i]);
    }
  }
  return s;
}

BalanceChart decode_balance(const val& m) {
  BalanceChart chart;
  chart.alpha = number(m, "alpha");
  chart.fitted = flag(m, "fitted");
  const val bins = m["bins"];
  if (!bins.isArray()) return chart;
  const int n = bins["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const val b = bins[i];
    chart.bins.push_back({static_cast<int>(number(b, "dm")), number(b, "white"), number(b, "draws"),
                          number(b, "black")});
  }
  return chart;
}

void apply(AppState& state, const val& m) {
  const std::string type = text(m, "type");
  if (type == "state") {
    state.phase = phase_from(text(m, "state"));
    state.status = text(m, "status");
    if (state.phase == Phase::kReading) state.error.clear();
  } else if (type == "progress") {
    state.progress = decode_progress(m);
  } else if (type == "report") {
    state.report = decode_report(m["report"]);
  } else if (type == "balance") {
    state.balance = decode_balance(m);
  } else if (type == "fit-begin") {
    state.trajectory = Trajectory{};
    state.trajectory.solver =
        text(m, "solver") == "newton" ? Solver::kNewton : Solver::kGradientDescent;
    state.trajectory.preset = text(m, "preset");
    state.trajectory.planned_iterations = static_cast<int>(number(m, "planned"));
    state.trajectory.reason = text(m, "reason");
  } else if (type == "snapshot") {
    state.trajectory.snapshots.push_back(decode_snapshot(m));
  } else if (type == "fit-done") {
    state.trajectory.done = true;
    decode_fit_done(state.trajectory, m);
  } else if (type == "settings") {
    decode_settings(state, m["settings"]);
  } else if (type == "error") {
    state.error = text(m, "message");
  } else if (type == "wheel") {
    state.wheel_x += static_cast<float>(number(m, "x"));
    state.wheel_y += static_cast<float>(number(m, "y"));
  } else if (type == "drag") {
    state.drag_over = flag(m, "over");
    state.drag_file_count = static_cast<int>(number(m, "count"));
  } else if (type == "reset") {
    const FitSettings settings = state.settings;
    state = AppState{};
    state.settings = settings;
  }
}

const char* solver_id(Solver solver) {
  return solver == Solver::kNewton ? "newton" : "gd";
}

val encode_settings(const FitSettings& s) {
  val out = val::object();
  out.set("preset", val(kPresets[s.preset].id));
  out.set("solver", val(solver_id(s.solver)));
  out.set("step", val(s.step));
  out.set("iterations", val(s.iterations));
  out.set("lambda", val(s.lambda));
  out.set("draws", val(s.draws == DrawHandling::kHalfPoint ? "half" : "exclude"));
  out.set("unknown", val(s.unknown == UnknownResult::kAsDraw ? "draw" : "skip"));
  return out;
}

const char* outcomes_id(Outcomes outcomes) {
  switch (outcomes) {
    case Outcomes::kFractional:
      return "fractional";
    case Outcomes::kOrdinal:
      return "ordinal";
    case Outcomes::kDrawsOut:
      break;
  }
  return "draws-out";
}

const char* units_id(Units units) {
  return units == Units::kElo ? "elo" : units == Units::kLogOdds ? "logodds" : "pawn";
}

const char* datasets_id(DatasetMode mode) {
  return mode == DatasetMode::kPerFile     ? "per-file"
         : mode == DatasetMode::kPerFilter ? "per-filter"
                                           : "merge";
}

// The article's fields plus the analysis section of PROTOCOL.md.
val encode_all_settings(const FitSettings& fit, const AnalysisSettings& a) {
  val out = encode_settings(fit);
  val model = val::object();
  model.set("outcomes", val(outcomes_id(a.model.outcomes)));
  model.set("intercept", val(a.model.intercept));
  model.set("bishopPair", val(a.model.bishop_pair));
  model.set("phase", val(a.model.phase));
  model.set("eloOffset", val(a.model.elo_offset));
  out.set("model", model);
  out.set("units", val(units_id(a.units)));
  out.set("bootstrap", val(a.read.bootstrap));
  out.set("seed", val(1));
  out.set("filter", val(a.read.filter));
  val quiet = val::object();
  quiet.set("plies", val(a.read.quiet.plies));
  quiet.set("checksBreak", val(a.read.quiet.checks_break));
  quiet.set("distinct", val(a.read.quiet.distinct));
  quiet.set("skipFirst", val(a.read.quiet.skip_first));
  out.set("quiet", quiet);
  out.set("datasets", val(datasets_id(a.read.datasets)));
  val each = val::array();
  for (const std::string& filter : a.read.each_filter) each.call<void>("push", val(filter));
  out.set("eachFilter", each);
  return out;
}

const char* command_type(Command::Kind kind) {
  switch (kind) {
    case Command::Kind::kOpenFiles:
      return "open-files";
    case Command::Kind::kLoadSample:
      return "load-sample";
    case Command::Kind::kCancel:
      return "cancel";
    case Command::Kind::kFit:
      return "fit";
    case Command::Kind::kExport:
      return "export";
    case Command::Kind::kReset:
      return "reset";
    case Command::Kind::kDismissError:
      return "dismiss-error";
    case Command::Kind::kShare:
      return "share";
  }
  return "unknown";
}

bool same_layout(const std::vector<ButtonRect>& a, const std::vector<ButtonRect>& b) {
  return std::equal(
      a.begin(), a.end(), b.begin(), b.end(), [](const ButtonRect& x, const ButtonRect& y) {
        return x.label == y.label && x.x == y.x && x.y == y.y && x.w == y.w && x.h == y.h;
      });
}

}  // namespace

int drain_messages(AppState& state) {
  val inbox = val::module_property("materialistInbox");
  if (!inbox.isArray() || inbox["length"].as<int>() == 0) return 0;
  // splice(0) empties the page's queue and hands us its contents in one call.
  val messages = inbox.call<val>("splice", 0);
  const int n = messages["length"].as<int>();
  for (int i = 0; i < n; ++i) apply(state, messages[i]);
  return n;
}

void send(const Command& command) {
  val handler = val::module_property("onAppCommand");
  if (handler.typeOf().as<std::string>() != "function") return;
  val message = val::object();
  message.set("type", val(command_type(command.kind)));
  if (command.kind == Command::Kind::kFit || command.kind == Command::Kind::kShare)
    message.set("settings", encode_all_settings(command.settings, command.analysis));
  if (command.kind == Command::Kind::kExport) message.set("format", val(command.format));
  handler(message);
}

void publish_layout(const std::vector<ButtonRect>& buttons, std::vector<ButtonRect>& published) {
  if (same_layout(buttons, published)) return;
  published = buttons;
  val handler = val::module_property("onAppLayout");
  if (handler.typeOf().as<std::string>() != "function") return;
  val rects = val::object();
  for (const ButtonRect& b : buttons) {
    val rect = val::object();
    rect.set("x", val(b.x));
    rect.set("y", val(b.y));
    rect.set("width", val(b.w));
    rect.set("height", val(b.h));
    rects.set(b.label, rect);
  }
  handler(rects);
}

std::vector<unsigned char> take_font() {
  val font = val::module_property("materialistFont");
  if (font.isUndefined() || font.isNull()) return {};
  return emscripten::convertJSArrayToNumberVector<unsigned char>(font);
}

float device_pixel_ratio() {
  return static_cast<float>(emscripten_get_device_pixel_ratio());
}

void canvas_css_size(double& width, double& height) {
  emscripten_get_element_css_size("#canvas", &width, &height);
}

void canvas_pixel_size(int& width, int& height) {
  emscripten_get_canvas_element_size("#canvas", &width, &height);
}

void set_canvas_pixel_size(int width, int height) {
  emscripten_set_canvas_element_size("#canvas", width, height);
}

}  // namespace materialist::app::web
