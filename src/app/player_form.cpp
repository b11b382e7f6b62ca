#include "app/player_form.h"

#include <algorithm>
#include <cctype>

#include "app/app_state.h"
#include "core/json.h"
#include "learn/filter/game_filter.h"
#include "learn/vocabulary/time_control.h"
#include "protocol/codec.h"

namespace materialist::app {
namespace {

bool is_date(const std::string& text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i != 4 && i != 7 && std::isdigit(static_cast<unsigned char>(text[i])) == 0) return false;
  }
  return true;
}

// "2024-01-31" as PGN writes it, "2024.01.31" ("" stays "").
std::string pgn_date(std::string text) {
  std::replace(text.begin(), text.end(), '-', '.');
  return text;
}

}  // namespace

std::string player_form_problem(const PlayerForm& form) {
  if (form.user.empty()) return "type a username";
  for (const char c : form.user) {
    // Both services' usernames: letters, digits, '_' and '-'.
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_' && c != '-') {
      return "a username has only letters, digits, _ and -";
    }
  }
  if (!form.since.empty() && !is_date(form.since)) return "the first day is YYYY-MM-DD";
  if (!form.until.empty() && !is_date(form.until)) return "the last day is YYYY-MM-DD";
  return "";
}

Command load_player(AppState& state, const PlayerForm& form) {
  learn::GameFilterOptions filter;
  if (form.mine) {
    filter.player = form.user;
    filter.player_perspective = true;
    state.settings.fit.model.intercept = true;    // the player's edge
    state.settings.fit.model.split_sides = true;  // the player's pieces against the opponents'
  }
  // lichess filters the speed itself; chess.com's archives hold every speed: the filter does.
  if (form.chesscom && form.speed > 0) {
    const auto speed = static_cast<learn::SpeedClass>(static_cast<int>(learn::SpeedClass::kBullet) +
                                                      form.speed - 1);
    filter.speeds = static_cast<std::uint8_t>(1u << static_cast<unsigned>(speed));
  }
  // chess.com's archives are whole months: the days within them are a date filter.
  if (form.chesscom) {
    if (auto from = learn::parse_pgn_date(pgn_date(form.since))) filter.date_from = *from;
    if (auto to = learn::parse_pgn_date(pgn_date(form.until))) filter.date_to = *to;
  }
  state.filter_form = filter;
  state.filter_error.clear();
  state.settings.read.filter = learn::format_game_filter(filter);
  state.settings.read.max_games = form.max_games;
  state.applied_read = state.settings.read;
  Command command{Command::Kind::kLoadPlayer};
  command.settings = applied_settings(state);
  command.player = form;
  return command;
}

std::string values_title(const AppState& state) {
  // No data yet (a link's settings, a load that has not started): no one's values to name.
  if (!state.player_view() || (!state.has_data() && state.phase != protocol::Phase::kReading)) {
    return state.applied_read.target == learn::Target::kEval
               ? "Piece values: the engine's evaluation as the target"
               : "Piece values";
  }
  const Expected<learn::GameFilterOptions> filter =
      learn::parse_game_filter(state.applied_read.filter);
  const std::string name = filter ? filter->player : std::string();
  const std::string who = name.empty() ? std::string("the player") : name;
  // "My values" is one model: the player's side, their edge, their pieces against the opponents'.
  const protocol::ModelChoice& model = state.settings.fit.model;
  if (model.split_sides && model.intercept)
    return "My values: " + who + "'s games, from " + who + "'s side";
  return "Values from " + who + "'s side (not \"My values\": own and opponent's pieces pooled" +
         std::string(model.intercept ? ")" : ", no edge)");
}

std::string encode_load_player(const Command& command) {
  const PlayerForm& form = command.player;
  JsonWriter json;
  json.begin_object().field("type", "load-player");
  json.key("player").begin_object();
  json.field("service", std::string_view(form.chesscom ? "chesscom" : "lichess"))
      .field("user", form.user);
  const char* speed = kPlayerSpeeds[form.speed];
  if (*speed != '\0') json.field("speed", std::string_view(speed));
  if (form.rated) json.field("rated", true);
  if (!form.since.empty()) json.field("since", form.since);
  if (!form.until.empty()) json.field("until", form.until);
  json.end_object();
  json.field("mine", form.mine);
  json.key("settings");
  protocol::write(json, command.settings);
  json.end_object();
  return json.take();
}

}  // namespace materialist::app
