// The page seam: decodes the worker's messages (plain JS objects, web/PROTOCOL.md) into AppState
// and encodes commands back. Only this file and main_web.cpp know they run in a browser.
#include "app/web_seam.h"

#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#include <emscripten/val.h>

#include <algorithm>

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
  return report;
}

FitSnapshot decode_snapshot(const val& m) {
  FitSnapshot s;
  s.iteration = static_cast<int>(number(m, "iteration"));
  s.loss = number(m, "loss");
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
  } else if (type == "snapshot") {
    state.trajectory.snapshots.push_back(decode_snapshot(m));
  } else if (type == "fit-done") {
    state.trajectory.done = true;
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
  out.set("step", val(static_cast<double>(s.step)));
  out.set("iterations", val(s.iterations));
  out.set("lambda", val(static_cast<double>(s.lambda)));
  out.set("draws", val(s.draws == DrawHandling::kHalfPoint ? "half" : "exclude"));
  out.set("unknown", val(s.unknown == UnknownResult::kAsDraw ? "draw" : "skip"));
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
  if (command.kind == Command::Kind::kFit)
    message.set("settings", encode_settings(command.settings));
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
