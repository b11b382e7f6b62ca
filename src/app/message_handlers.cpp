// The worker's messages applied to the app's state: one handler per message type
// (web/PROTOCOL.md); apply_message dispatches on the type.
#include <algorithm>
#include <string>

#include "app/app_state.h"
#include "app/json_fields.h"
#include "app/share_link.h"
#include "core/enum_names.h"
#include "core/json_value.h"
#include "learn/filter/bands.h"
#include "learn/vocabulary/coefficient_names.h"
#include "protocol/codec.h"

namespace materialist::app {
namespace {

double number_of(const JsonValue& message, std::string_view key) {
  const JsonValue* field = message.find(key);
  return field != nullptr && field->is_number() ? field->as_number() : 0.0;
}

// The filter form filled from a filter text (a share link's, a statistics file's).
void show_filter(AppState& state, const std::string& filter) {
  Expected<learn::GameFilterOptions> parsed = learn::parse_game_filter(filter);
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

// A share link's settings: the controls show them and the filter form is filled from them.
void restore_settings(AppState& state, const protocol::Settings& settings) {
  state.settings = settings;
  state.applied_read = settings.read;
  state.settings_restored = true;
  show_filter(state, settings.read.filter);
}

// Statistics files' data settings: what the Read group shows and the worker has, as after an
// Apply (their datasets are one, merged; a read limit stays the page's).
void show_made_with(AppState& state, const protocol::ReadOptions& made_with) {
  for (protocol::ReadOptions* read : {&state.settings.read, &state.applied_read}) {
    read->unknown = made_with.unknown;
    read->filter = made_with.filter;
    read->quiet = made_with.quiet;
    read->bootstrap = made_with.bootstrap;
    read->seed = made_with.seed;
    read->datasets = protocol::DatasetMode::kMerge;
    read->each_filter.clear();
    read->target = made_with.target;
  }
  show_filter(state, made_with.filter);
}

template <typename T>
bool read_into(const JsonValue& json, T& out) {
  T value;
  if (protocol::read(json, value)) return false;
  out = std::move(value);
  return true;
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
  // A live preview of values by square belongs to the read under way: a new read, or one that
  // ended without its fit (cancelled, failed), drops it.
  const bool new_read =
      state.phase == protocol::Phase::kReading && before != protocol::Phase::kReading;
  const bool under_way =
      state.phase == protocol::Phase::kReading || state.phase == protocol::Phase::kFitting;
  if (state.squares && state.squares->live && (new_read || !under_way)) {
    state.squares.reset();
    state.squares_open = false;
  }
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
    // New data: its values by square come after its fit (its live preview stays till then).
    if (!state.squares || !state.squares->live) {
      state.squares.reset();
      state.squares_open = false;
    }
    // The data's settings show in the controls and the share link: statistics files (.mstats)
    // bring those they were made with, whatever the controls held.
    state.applied_read.target = state.report.target;
    state.settings.read.target = state.report.target;
    if (state.report.made_with) show_made_with(state, *state.report.made_with);
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

bool on_squares(AppState& state, const JsonValue& m) {
  std::optional<SquaresResult> result = read_squares_message(m);
  if (!result) return false;
  state.squares = std::move(result);
  // The tables join the play-test as the set under test (the user asked for them), beside the
  // material fit already offered; not while a match runs, and not a live preview.
  if (!state.squares->live && !state.trajectory.fits.empty()) {
    const protocol::Fit& fit = state.trajectory.fits.front();
    const std::string name = "squares:" + fit.name + "/" + learn::target_name(state.report.target);
    if (auto set = squares_value_set(*state.squares, name)) {
      offer_fit(state.play.form, *set, "fitted: values by square, " + fit.name,
                !state.play.running());
    }
  }
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
  // A refit's values by square follow its fit-done (a read's live preview stays till then).
  if (state.squares && !state.squares->live) state.squares.reset();
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
  const bool selfplay_fit = state.play.learning();
  if (selfplay_fit && !state.trajectory.fits.empty() && !state.play.selfplay.empty()) {
    const play::ValueSet& played = state.play.selfplay.back().played;
    selfplay_learned(state.play, fit_value_set(state.trajectory.fits.front(), "", &played));
  }
  // The user's first fit that identified a piece becomes the set under test (not while a
  // match runs, and not a self-play round's).
  bool current = !state.play.running() && !selfplay_fit;
  for (const protocol::Fit& fit : state.trajectory.fits) {
    if (fit.state == "failed") continue;
    const play::ValueSet set =
        fit_value_set(fit, fit_set_name(fit, state.report.target, state.trajectory.solver));
    if (offer_fit(state.play.form, set, "fitted: " + fit.name, current)) current = false;
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
    {"squares", on_squares},
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
  if (const auto play = value_named<PlayMessage>(kPlayMessageTypes, type)) {
    apply_play_message(state.play, *play, m);
    return true;
  }
  for (const MessageHandler& handler : kHandlers) {
    if (type == handler.type) return handler.apply(state, m);
  }
  return false;
}

}  // namespace materialist::app
