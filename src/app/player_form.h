// "Player": a player's games loaded from lichess or chess.com by username (web/player-source.js
// fetches them), and "My values": the fit from that player's side, the intercept their edge.
#pragma once

#include <cstdint>
#include <string>

namespace materialist::app {

struct AppState;
struct Command;

// The services' speeds, as lichess names them (its perfType); index 0: every speed.
inline constexpr const char* kPlayerSpeeds[] = {"", "bullet", "blitz", "rapid", "classical"};

// The Player window's fields.
struct PlayerForm {
  bool chesscom = false;  // the service: lichess (false) or chess.com
  std::string user;
  int speed = 0;  // index into kPlayerSpeeds
  bool rated = false;
  std::string since, until;     // "YYYY-MM-DD" or empty
  std::uint64_t max_games = 0;  // 0: every game
  bool mine = true;             // My values: from the player's side, with their edge
};

// Why the form cannot be loaded as it is ("" when it can): no username, a bad date.
std::string player_form_problem(const PlayerForm& form);

// Loads the form's player: the read settings become the player's (with `mine`: the filter
// player=NAME;pov=1 and the intercept on, which is then the player's edge; the read limit
// max_games), applied at once, and the command carries them to the page.
Command load_player(AppState& state, const PlayerForm& form);

// The values' title: "Piece values", or from one player's side (the applied filter names a
// player, pov on) "My values: NAME's games, from NAME's side".
std::string values_title(const AppState& state);

// The JSON of a load-player command (web/page.d.ts: AppCommand "load-player").
std::string encode_load_player(const Command& command);

}  // namespace materialist::app
