// The app's state transitions: worker messages in, commands out, all through the protocol's one
// codec (no browser here: the native tests run these).
#include "app/app_state.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "app/share_link.h"
#include "core/enum_names.h"
#include "core/json_value.h"
#include "core/text.h"
#include "learn/filter/bands.h"
#include "learn/vocabulary/coefficient_names.h"
#include "protocol/codec.h"

namespace materialist::app {
namespace {

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

std::string fit_set_name(const protocol::Fit& fit, learn::Target target, learn::SolverKind solver) {
  return "fit:" + fit.name + "/" + learn::target_name(target) + "/" +
         name_of(learn::kSolverNames, solver);
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
  out += "all " + grouped(games) + " games used are " + filled.front();
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
