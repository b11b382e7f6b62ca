// Values by square as the app keeps them (a worker's "squares" message, web/PROTOCOL.md): the
// tables in log-odds with their errors and counts, the material-only model beside, and the
// held-out check; app/squares_panel.h draws them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/json_value.h"
#include "play/value_set.h"
#include "protocol/messages.h"

namespace materialist::app {

inline constexpr int kSquareTypes = 6;  // P N B R Q K
inline constexpr int kSquareCount = 64;
using SquareTable = std::array<std::array<double, kSquareCount>, kSquareTypes>;

struct SquaresResult {
  std::string error;  // why there is no fit ("" when there is one)
  // A preview while the games stream in (a sample, one penalty): the fit after
  // the read replaces it.
  bool live = false;
  // squaresData
  std::uint64_t positions_offered = 0, positions_kept = 0, max_positions = 0;
  std::uint64_t training_games = 0, held_out_games = 0;
  bool sampled = false;
  // The fit (log-odds), a1 = 0 ... h8 = 63, White's view; [0] middlegame, [1] endgame.
  std::array<SquareTable, 2> value{}, se{};
  std::array<std::array<std::uint64_t, kSquareCount>, kSquareTypes> positions{};
  std::uint64_t min_positions = 100;
  std::array<double, 5> material{};  // the material-only model's P..Q
  double log_loss = 0, material_log_loss = 0, lambda = 0, seconds = 0;
  std::uint64_t validation_games = 0, validation_positions = 0, training_positions = 0;

  bool fitted() const { return error.empty(); }
  bool sparse(int type, int square) const { return positions[type][square] < min_positions; }
};

// The message's fields; nullopt when it is not a squares message the app can read.
std::optional<SquaresResult> read_squares_message(const JsonValue& message);

// How many of the unit one log-odds is: pawn (the material-only model's pawn = 100), Elo, or
// log-odds itself (also when the pawn is worth nothing: it cannot be the unit).
struct SquaresScale {
  double per_log_odds = 1;
  const char* suffix = "";  // " cp", " Elo", ""
  bool decimals = true;     // log-odds: two decimals; the others are whole numbers
};
SquaresScale squares_scale(const SquaresResult& result, protocol::Units units);

// The tables as a set to play with (centipawns: the material-only model's pawn = 100), named
// `name`; nullopt when there are none or that pawn is not positive.
std::optional<play::ValueSet> squares_value_set(const SquaresResult& result, std::string name);

}  // namespace materialist::app
