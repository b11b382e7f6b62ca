#include "app/squares_result.h"

#include <cmath>

#include "core/statistics.h"

namespace materialist::app {
namespace {

constexpr std::string_view kLetters = "PNBRQK";

double number_at(const JsonValue& object, std::string_view key, double fallback = 0) {
  const JsonValue* field = object.find(key);
  return field != nullptr && field->is_number() ? field->as_number() : fallback;
}

// {P: [64], ..., K: [64]} into a table; false when a piece or square is missing.
template <typename Table>
bool read_table(const JsonValue* object, Table& table) {
  if (object == nullptr || !object->is_object()) return false;
  for (int type = 0; type < kSquareTypes; ++type) {
    const JsonValue* squares = object->find(kLetters.substr(static_cast<std::size_t>(type), 1));
    if (squares == nullptr || !squares->is_array() || squares->size() != kSquareCount) return false;
    for (int s = 0; s < kSquareCount; ++s) {
      const JsonValue& v = (*squares)[static_cast<std::size_t>(s)];
      if (!v.is_number()) return false;
      table[type][s] = static_cast<typename Table::value_type::value_type>(v.as_number());
    }
  }
  return true;
}

bool read_phases(const JsonValue* object, std::array<SquareTable, 2>& tables) {
  return object != nullptr && object->is_object() && read_table(object->find("mg"), tables[0]) &&
         read_table(object->find("eg"), tables[1]);
}

}  // namespace

std::optional<SquaresResult> read_squares_message(const JsonValue& m) {
  SquaresResult result;
  if (const JsonValue* data = m.find("squaresData"); data != nullptr && data->is_object()) {
    result.positions_offered = static_cast<std::uint64_t>(number_at(*data, "positionsOffered"));
    result.positions_kept = static_cast<std::uint64_t>(number_at(*data, "positionsKept"));
    result.max_positions = static_cast<std::uint64_t>(number_at(*data, "maxPositions"));
    result.training_games = static_cast<std::uint64_t>(number_at(*data, "trainingGames"));
    result.held_out_games = static_cast<std::uint64_t>(number_at(*data, "heldOutGames"));
    const JsonValue* sampled = data->find("sampled");
    result.sampled = sampled != nullptr && sampled->is_bool() && sampled->as_bool();
  }
  result.seconds = number_at(m, "seconds");
  if (const JsonValue* live = m.find("live"); live != nullptr && live->is_bool()) {
    result.live = live->as_bool();
  }
  if (const JsonValue* error = m.find("squaresError"); error != nullptr && error->is_object()) {
    const JsonValue* message = error->find("message");
    result.error =
        message != nullptr && message->is_string() ? message->as_string() : "no values by square";
    return result;
  }
  if (!read_phases(m.find("squares"), result.value) ||
      !read_phases(m.find("squaresSe"), result.se) ||
      !read_table(m.find("squaresPositions"), result.positions)) {
    return std::nullopt;
  }
  result.min_positions = static_cast<std::uint64_t>(number_at(m, "squaresMinPositions", 100));
  const JsonValue* material = m.find("squaresMaterial");
  if (material == nullptr || !material->is_object()) return std::nullopt;
  for (int type = 0; type < 5; ++type) {
    result.material[static_cast<std::size_t>(type)] =
        number_at(*material, kLetters.substr(static_cast<std::size_t>(type), 1));
  }
  if (const JsonValue* v = m.find("validation"); v != nullptr && v->is_object()) {
    result.log_loss = number_at(*v, "logLoss");
    result.material_log_loss = number_at(*v, "materialLogLoss");
    result.lambda = number_at(*v, "lambda");
    result.validation_games = static_cast<std::uint64_t>(number_at(*v, "games"));
    result.validation_positions = static_cast<std::uint64_t>(number_at(*v, "positions"));
    result.training_positions = static_cast<std::uint64_t>(number_at(*v, "trainingPositions"));
  }
  return result;
}

SquaresScale squares_scale(const SquaresResult& result, protocol::Units units) {
  if (units == protocol::Units::kElo) return {kEloPerLogOdds, " Elo", false};
  if (units == protocol::Units::kLogOdds || !(result.material[0] > 0)) return {1.0, "", true};
  return {100.0 / result.material[0], " cp", false};
}

std::optional<play::ValueSet> squares_value_set(const SquaresResult& result, std::string name) {
  if (!result.fitted() || !(result.material[0] > 0)) return std::nullopt;
  const double per_log_odds = 100 / result.material[0];
  play::SquareValues values;
  for (int type = 0; type < kSquareTypes; ++type) {
    for (int square = 0; square < kSquareCount; ++square) {
      values.middlegame[type][square] =
          static_cast<int>(std::lround(result.value[0][type][square] * per_log_odds));
      values.endgame[type][square] =
          static_cast<int>(std::lround(result.value[1][type][square] * per_log_odds));
    }
  }
  return play::square_value_set(std::move(name), values);
}

}  // namespace materialist::app
