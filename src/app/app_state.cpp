// The app's state transitions: worker messages in, commands out, all through the protocol's one
// codec (no browser here: the native tests run these).
#include "app/app_state.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "app/share_link.h"
#include "core/json_value.h"
#include "learn/filter/bands.h"
#include "learn/vocabulary/coefficient_names.h"
#include "protocol/codec.h"

namespace materialist::app {
namespace {

std::string text_of(const JsonValue& message, std::string_view key) {
  const JsonValue* field = message.find(key);
  return field != nullptr && field->is_string() ? field->as_string() : std::string();
}

double number_of(const JsonValue& message, std::string_view key) {
  const JsonValue* field = message.find(key);
  return field != nullptr && field->is_number() ? field->as_number() : 0.0;
}

// A share link's settings: the controls show them and the filter form is filled from them.
void restore_settings(AppState& state, const protocol::Settings& settings) {
  state.settings = settings;
  state.applied_read = settings.read;
  state.settings_restored = true;
  Expected<learn::GameFilterOptions> parsed = learn::parse_game_filter(settings.read.filter);
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

template <typename T>
bool read_into(const JsonValue& json, T& out) {
  T value;
  if (protocol::read(json, value)) return false;
  out = std::move(value);
  return true;
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
    case Command::Kind::kLoadPlayer:
      return "load-player";
    case Command::Kind::kUnits:
      return "units";
    case Command::Kind::kCompareTargets:
      return "compare-targets";
  }
  return "unknown";
}

// A comparison of bands (compare by rating band or speed, learn/filter/bands.h) names each dataset
// by its band, not by its filter text.
void name_bands(Trajectory& trajectory) {
  std::vector<protocol::Fit>& fits = trajectory.fits;
  trajectory.bands = fits.size() >= 2 && std::all_of(fits.begin(), fits.end(), [](const auto& fit) {
                       return learn::band_label(fit.name).has_value();
                     });
  if (!trajectory.bands) return;
  for (protocol::Fit& fit : fits) fit.name = *learn::band_label(fit.name);
}

}  // namespace

std::string piece_name(int piece) {
  return learn::coefficient_label(learn::kPieceColumns[static_cast<std::size_t>(piece)], false);
}

const char* piece_letter(int piece) {
  return learn::kPieceLetters[static_cast<std::size_t>(piece)].data();
}

bool AppState::player_view() const {
  return learn::player_view(applied_read.filter);
}

int AppState::preset_index() const {
  const std::vector<protocol::Preset>& presets = protocol::presets();
  for (std::size_t i = 0; i < presets.size(); ++i) {
    if (settings.fit.preset == presets[i].id) return static_cast<int>(i);
  }
  return static_cast<int>(presets.size()) - 1;
}

protocol::Settings applied_settings(const AppState& state) {
  protocol::Settings out = state.settings;
  out.read = state.applied_read;
  out.read.unknown = state.settings.read.unknown;
  return out;
}

play::ValueSet fit_value_set(const protocol::Fit& fit, const std::string& name,
                             const play::ValueSet* fallback) {
  play::ValueSet set;
  if (fallback != nullptr) set.middlegame = fallback->middlegame;
  set.name = name;
  for (int i = 1; i < kPieceCount; ++i) {
    const protocol::Coefficient* c = fit.find(learn::kPieceColumns[static_cast<std::size_t>(i)]);
    if (c != nullptr && c->identified && std::isfinite(c->value) && c->value > 0 &&
        c->value < 100000) {
      set.middlegame[static_cast<std::size_t>(i)] = static_cast<int>(std::lround(c->value));
    } else {
      set.fallback_pieces |= 1u << i;
    }
  }
  if (const protocol::Coefficient* pair = fit.find("bishop-pair");
      pair != nullptr && pair->identified && std::isfinite(pair->value) &&
      std::fabs(pair->value) < 10000) {
    set.bishop_pair_middlegame = set.bishop_pair_endgame =
        static_cast<int>(std::lround(pair->value));
  }
  set.endgame = set.middlegame;
  return set;
}

namespace {

// ---- one handler per message type (web/PROTOCOL.md) ----

bool on_play_link(AppState& state, const JsonValue& m) {
  if (auto error = read_play_link(state.play.form, text_of(m, "link"))) {
    state.play.error = error->message;
  } else {
    start_play(state.play);
  }
  state.play.open = true;
  return true;
}

bool on_state(AppState& state, const JsonValue& m) {
  const protocol::Phase before = state.phase;
  state.phase = protocol::parse_phase(text_of(m, "state")).value_or(protocol::Phase::kIdle);
  if (state.phase == protocol::Phase::kReading && before != protocol::Phase::kReading) {
    state.estimate = {};  // a new read: its own live view
    state.estimates.clear();
    state.progress = {};  // and its own progress (the last read's file is not this one's)
  }
  state.status = text_of(m, "status");
  if (state.phase == protocol::Phase::kReading) state.error.clear();
  return true;
}

bool on_progress(AppState& state, const JsonValue& m) {
  return read_into(m, state.progress);
}

bool on_report(AppState& state, const JsonValue& m) {
  const JsonValue* report = m.find("report");
  if (report == nullptr || !read_into(*report, state.report)) return false;
  state.has_report = true;
  if (state.has_data()) state.link_files.clear();  // the link's files, or others, are here
  if (const JsonValue* committed = m.find("committed");
      committed != nullptr && committed->is_bool() && committed->as_bool()) {
    state.target_compare.reset();  // new data: its own comparison, when asked
    state.target_compare_open = false;
  }
  return true;
}

bool on_target_compare(AppState& state, const JsonValue& m) {
  protocol::TargetCompare both;
  if (!read_into(m, both)) return false;
  state.target_compare = std::move(both);
  state.target_compare_waiting = false;
  return true;
}

bool on_balance(AppState& state, const JsonValue& m) {
  return read_into(m, state.balance);
}

// A live estimate while reading: the values of the games so far, a point of the chart.
bool on_estimate(AppState& state, const JsonValue& m) {
  protocol::Estimate estimate;
  if (!read_into(m, estimate)) return false;
  if (!estimate.fits.empty()) {
    EstimatePoint point;
    point.games = estimate.games;
    for (int i = 0; i < kPieceCount; ++i) {
      const protocol::Coefficient* c =
          estimate.fits.front().find(learn::kPieceColumns[static_cast<std::size_t>(i)]);
      point.values[i] = c != nullptr && c->identified ? c->value : entry({}, 0);
      point.se[i] = c != nullptr && c->identified ? c->value_se : entry({}, 0);
    }
    state.estimates.push_back(point);
  }
  state.estimate = std::move(estimate);
  return true;
}

bool on_fit_begin(AppState& state, const JsonValue& m) {
  protocol::FitBegin begin;
  if (!read_into(m, begin)) return false;
  state.trajectory = Trajectory{};
  state.trajectory.solver = begin.solver;
  state.trajectory.preset = begin.preset;
  state.trajectory.planned_iterations = begin.planned;
  state.trajectory.reason = begin.reason;
  return true;
}

bool on_snapshot(AppState& state, const JsonValue& m) {
  protocol::Snapshot snapshot;
  if (!read_into(m, snapshot)) return false;
  state.trajectory.snapshots.push_back(std::move(snapshot));
  return true;
}

// Each fitted dataset's values are offered to the play-test (not chosen); a self-play round's
// games, once fitted, end the round (play_state.h).
void offer_fits_to_play(AppState& state) {
  if (state.play.selfplay_waiting_fit && !state.trajectory.fits.empty() &&
      !state.play.selfplay.empty()) {
    const play::ValueSet& played = state.play.selfplay.back().played;
    selfplay_learned(state.play, fit_value_set(state.trajectory.fits.front(), "", &played));
  }
  for (const protocol::Fit& fit : state.trajectory.fits) {
    if (fit.state == "failed") continue;
    const play::ValueSet set = fit_value_set(fit, "fit:" + fit.name);
    const auto& candidates = state.play.form.candidates;
    if (std::none_of(candidates.begin(), candidates.end(),
                     [&](const PlayCandidate& c) { return c.set == set; })) {
      state.play.form.candidates.push_back({set, "fitted: " + fit.name, false});
    }
  }
}

bool on_fit_done(AppState& state, const JsonValue& m) {
  protocol::FitDone done;
  if (!read_into(m, done)) return false;
  state.trajectory.done = true;
  state.trajectory.fits = std::move(done.fits);
  name_bands(state.trajectory);
  state.trajectory.differences = std::move(done.differences);
  offer_fits_to_play(state);
  // The final state with its standard errors: the same θ as the first dataset's last step,
  // which it replaces (a point of its own only if that step was never sent).
  if (!done.snapshot.values.empty()) {
    std::vector<protocol::Snapshot>& snapshots = state.trajectory.snapshots;
    auto last = std::find_if(snapshots.rbegin(), snapshots.rend(),
                             [](const protocol::Snapshot& s) { return s.dataset == 0; });
    if (last != snapshots.rend() && last->iteration == done.snapshot.iteration) {
      *last = done.snapshot;
    } else {
      snapshots.push_back(done.snapshot);
    }
  }
  return true;
}

bool on_settings(AppState& state, const JsonValue& m) {
  const JsonValue* settings = m.find("settings");
  protocol::Settings restored;
  if (settings == nullptr || !read_into(*settings, restored)) return false;
  // A link's comparison by band, in one word: its filters (share_link.h).
  if (const std::string compare = text_of(*settings, "compare"); !compare.empty())
    expand_compare(restored, compare);
  restore_settings(state, restored);
  return true;
}

bool on_error(AppState& state, const JsonValue& m) {
  state.error = text_of(m, "message");
  return true;
}

bool on_wheel(AppState& state, const JsonValue& m) {
  state.wheel_x += static_cast<float>(number_of(m, "x"));
  state.wheel_y += static_cast<float>(number_of(m, "y"));
  return true;
}

bool on_device(AppState& state, const JsonValue& m) {
  const JsonValue* touch = m.find("touch");
  state.touch = touch != nullptr && touch->is_bool() && touch->as_bool();
  return true;
}

bool on_toast(AppState& state, const JsonValue& m) {
  state.toast = text_of(m, "text");
  state.toast_since = -1;  // the next frame starts its clock
  return true;
}

bool on_link_files(AppState& state, const JsonValue& m) {
  const JsonValue* files = m.find("files");
  if (files == nullptr || !files->is_array()) return false;
  state.link_files.clear();
  for (const JsonValue& name : files->items()) {
    if (name.is_string()) state.link_files.push_back(name.as_string());
  }
  return true;
}

bool on_drag(AppState& state, const JsonValue& m) {
  const JsonValue* over = m.find("over");
  state.drag_over = over != nullptr && over->is_bool() && over->as_bool();
  state.drag_file_count = static_cast<int>(number_of(m, "count"));
  return true;
}

// A fresh state that keeps the settings, the play-test and the page's own preferences.
bool on_reset(AppState& state, const JsonValue&) {
  const protocol::Settings settings = state.settings;
  const protocol::ReadOptions applied = state.applied_read;
  const bool touch = state.touch, settings_open = state.settings_open;
  const float zoom = state.zoom;
  const PlayerForm player_form = state.player_form;
  PlayTest play = std::move(state.play);
  state = AppState{};
  state.play = std::move(play);
  state.player_form = player_form;
  state.touch = touch;
  state.settings_open = settings_open;
  state.zoom = zoom;
  state.settings = settings;
  state.applied_read = applied;
  return true;
}

struct MessageHandler {
  const char* type;
  bool (*apply)(AppState&, const JsonValue&);
};
constexpr MessageHandler kHandlers[] = {
    {"play-link", on_play_link},
    {"state", on_state},
    {"progress", on_progress},
    {"report", on_report},
    {"target-compare", on_target_compare},
    {"balance", on_balance},
    {"estimate", on_estimate},
    {"fit-begin", on_fit_begin},
    {"snapshot", on_snapshot},
    {"fit-done", on_fit_done},
    {"settings", on_settings},
    {"error", on_error},
    {"wheel", on_wheel},
    {"device", on_device},
    {"toast", on_toast},
    {"link-files", on_link_files},
    {"drag", on_drag},
    {"reset", on_reset},
};

}  // namespace

bool apply_message(AppState& state, std::string_view json) {
  const Expected<JsonValue> parsed = parse_json(json);
  if (!parsed || !parsed->is_object()) return false;
  const JsonValue& m = *parsed;
  const std::string type = text_of(m, "type");
  if (type.rfind("play-", 0) == 0 && type != "play-link") {
    return apply_play_message(state.play, type, m);
  }
  for (const MessageHandler& handler : kHandlers) {
    if (type == handler.type) return handler.apply(state, m);
  }
  return false;
}

std::string encode_command(const Command& command) {
  if (command.kind == Command::Kind::kLoadPlayer) return encode_load_player(command);
  JsonWriter json;
  json.begin_object().field("type", command_type(command.kind));
  if (command.kind == Command::Kind::kFit || command.kind == Command::Kind::kShare ||
      command.kind == Command::Kind::kReset || command.kind == Command::Kind::kCompareTargets ||
      command.with_settings) {
    json.key("settings");
    protocol::write(json, command.settings);
  }
  if (command.kind == Command::Kind::kShare) json.field("link", share_link_query(command.settings));
  if (command.kind == Command::Kind::kExport) json.field("format", command.format);
  if (command.kind == Command::Kind::kUnits)
    json.field("units", protocol::wire_name(command.settings.units));
  json.end_object();
  return json.take();
}

void apply_read_settings(AppState& state) {
  const bool was_player_view = learn::player_view(state.applied_read.filter);
  state.applied_read = state.settings.read;
  if (!was_player_view && learn::player_view(state.applied_read.filter)) {
    state.settings.fit.model.intercept = true;
    state.settings.fit.model.split_sides = true;
  }
}

std::string export_hint(const AppState& state) {
  if (state.phase == protocol::Phase::kReading)
    return "Wait for the read to end: the exports are of a finished fit.";
  if (state.phase == protocol::Phase::kFitting) return "Wait for the fit to end.";
  if (!state.has_data())
    return "Nothing to export yet: Load sample, or open PGN files, and the fit's exports are here.";
  if (state.trajectory.fits.empty())
    return "No finished fit of these data: Refit (Settings), and the exports are here.";
  return "";
}

std::string comparison_note(const AppState& state) {
  const protocol::ReadOptions& read = state.applied_read;
  const Trajectory& t = state.trajectory;
  if (read.datasets != protocol::DatasetMode::kPerFilter || read.each_filter.size() < 2 ||
      !t.done || t.bands)
    return "";
  std::vector<std::string> labels;
  for (const std::string& filter : read.each_filter) {
    const std::optional<std::string> label = learn::band_label(filter);
    if (!label) return "";  // not a comparison of bands: the datasets say what they are
    labels.push_back(*label);
  }
  const bool speeds = !labels.empty() && std::isalpha(static_cast<unsigned char>(labels[0][0]));
  const std::string what = speeds ? "speed" : "rating band";
  std::vector<std::string> filled;
  std::uint64_t games = 0;
  // The fits are of the bands with positions (the worker fits no empty band).
  for (const protocol::Fit& fit : t.fits) {
    if (fit.used == 0) continue;
    filled.push_back(learn::band_label(fit.name).value_or(fit.name));
    games += fit.used;
  }
  std::string out = "Compared by " + what + ": ";
  if (filled.empty()) {
    out +=
        speeds ? "no game has a speed (a TimeControl tag)" : "no game has the ratings a band needs";
    return out + ", so there is nothing to compare.";
  }
  out += "all " + std::to_string(games) + " games used are " + filled.front();
  out += speeds ? " (the other speeds have none, or no TimeControl tag)"
                : " (the other bands have none)";
  return out + ": one fit, not a comparison.";
}

protocol::Settings preset_settings(std::string_view preset_id) {
  const protocol::Preset* preset = protocol::find_preset(preset_id);
  if (preset == nullptr || preset == &protocol::presets().back()) preset = &protocol::presets()[0];
  protocol::Settings out;
  out.fit = preset->fit;
  out.read.unknown = preset->unknown;
  return out;
}

Command reset_to_preset(AppState& state) {
  state.settings = preset_settings(state.settings.fit.preset);
  state.applied_read = state.settings.read;
  state.filter_form = {};
  state.filter_error.clear();
  state.terminations_text.clear();
  state.error.clear();
  return Command{Command::Kind::kReset, state.settings};
}

Command load_sample(AppState& state) {
  Command command{Command::Kind::kLoadSample};
  if (state.link_files.empty() || state.applied_read.filter.empty()) return command;
  const std::string left_out = state.applied_read.filter;
  if (learn::player_view(left_out)) {
    state.settings.fit.model = preset_settings(state.settings.fit.preset).fit.model;
  }
  state.settings.read.filter.clear();
  state.applied_read.filter.clear();
  state.filter_form = {};
  state.filter_error.clear();
  std::string files;
  for (const std::string& name : state.link_files) files += (files.empty() ? "" : ", ") + name;
  state.toast =
      "The link's filter " + left_out + " is for " + files + ": the sample is read without it";
  state.toast_since = -1;
  command.settings = applied_settings(state);
  command.with_settings = true;
  return command;
}

double in_unit(const protocol::Coefficient& c, protocol::Units units) {
  return units == protocol::Units::kElo       ? c.elo
         : units == protocol::Units::kLogOdds ? c.theta
                                              : c.value;
}

double se_in_unit(const protocol::Coefficient& c, protocol::Units units) {
  return units == protocol::Units::kElo       ? c.elo_se
         : units == protocol::Units::kLogOdds ? c.theta_se
                                              : c.value_se;
}

std::optional<double> unit_scale(const AppState& state) {
  const protocol::Units units = state.settings.units;
  if (units == protocol::Units::kPawn) return 1.0;
  if (!state.trajectory.done || state.trajectory.fits.empty()) return std::nullopt;
  // Split sides have no single pawn: their pawn = 100 is the player's own pawn; tapered values'
  // is the middlegame pawn.
  const protocol::Fit& fit = state.trajectory.fits.front();
  const protocol::Coefficient* pawn = fit.find("pawn");
  if (pawn == nullptr) pawn = fit.find("own-pawn");
  if (pawn == nullptr) pawn = fit.find("pawn-mg");
  if (pawn == nullptr || !pawn->identified || pawn->value == 0) return std::nullopt;
  // A pawn worth less than nothing would turn every comparison around: no scale then.
  const double ratio = in_unit(*pawn, units) / pawn->value;
  if (!std::isfinite(ratio) || ratio <= 0) return std::nullopt;
  return ratio;
}

double unit_per_pawn_value(const AppState& state) {
  return unit_scale(state).value_or(1.0);
}

}  // namespace materialist::app
