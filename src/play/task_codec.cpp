#include "play/task_codec.h"

#include <cmath>
#include <utility>

#include "chess/movegen.h"
#include "play/game_pgn.h"

namespace materialist::play {

namespace {

Error field_error(const std::string& where, const char* what) {
  return make_error(ErrorCode::kSyntax, where + ": " + what);
}

// A number field that must be a non-negative integer (up to 2^53); absent keeps `fallback`.
Expected<std::uint64_t> read_count(const JsonValue& object, std::string_view key,
                                   const std::string& where, std::uint64_t fallback) {
  const JsonValue* field = object.find(key);
  if (field == nullptr) return fallback;
  const double number = field->as_number();
  if (!field->is_number() || number < 0 || number > 9007199254740992.0 ||
      std::floor(number) != number) {
    return field_error(where + "." + std::string(key), "not a whole number");
  }
  return static_cast<std::uint64_t>(number);
}

Expected<int> read_int(const JsonValue& object, std::string_view key, const std::string& where,
                       int fallback) {
  const JsonValue* field = object.find(key);
  if (field == nullptr) return fallback;
  const double number = field->as_number();
  if (!field->is_number() || std::fabs(number) > 2147483647.0 || std::floor(number) != number) {
    return field_error(where + "." + std::string(key), "not an integer");
  }
  return static_cast<int>(number);
}

Expected<bool> read_bool(const JsonValue& object, std::string_view key, const std::string& where,
                         bool fallback) {
  const JsonValue* field = object.find(key);
  if (field == nullptr) return fallback;
  if (!field->is_bool()) return field_error(where + "." + std::string(key), "not true or false");
  return field->as_bool();
}

Expected<std::string> read_text(const JsonValue& object, std::string_view key,
                                const std::string& where) {
  const JsonValue* field = object.find(key);
  if (field == nullptr) return std::string();
  if (!field->is_string()) return field_error(where + "." + std::string(key), "not a string");
  return field->as_string();
}

template <std::size_t N>
std::optional<Error> read_int_array(const JsonValue& object, std::string_view key,
                                    const std::string& where, std::array<int, N>& out) {
  const JsonValue* field = object.find(key);
  if (field == nullptr) return std::nullopt;
  const std::string name = where + "." + std::string(key);
  if (!field->is_array() || field->size() != N) {
    return field_error(name, ("not an array of " + std::to_string(N) + " integers").c_str());
  }
  for (std::size_t i = 0; i < N; ++i) {
    const JsonValue& item = (*field)[i];
    if (!item.is_number() || std::floor(item.as_number()) != item.as_number() ||
        std::fabs(item.as_number()) > 1e9) {
      return field_error(name + "[" + std::to_string(i) + "]", "not an integer");
    }
    out[i] = static_cast<int>(item.as_number());
  }
  return std::nullopt;
}

// The legal move of `position` written `uci`.
std::optional<chess::Move> move_of(const chess::Position& position, std::string_view uci) {
  chess::MoveList moves;
  chess::generate_legal(position, moves);
  for (const chess::Move move : moves) {
    if (move.uci() == uci) return move;
  }
  return std::nullopt;
}

void write_opening(JsonWriter& json, const Opening& opening) {
  json.key("opening").begin_object().field("fen", opening.fen);
  json.key("moves").begin_array();
  for (const chess::Move move : opening.moves) json.value(move.uci());
  json.end_array().end_object();
}

Expected<Opening> read_opening(const JsonValue& json, const std::string& where) {
  if (!json.is_object()) return field_error(where, "not an object");
  Opening opening;
  auto fen = read_text(json, "fen", where);
  if (!fen) return fen.error();
  opening.fen = *fen;
  auto position = opening_position(opening);
  if (!position) return field_error(where + ".fen", "not a valid FEN");
  const JsonValue* moves = json.find("moves");
  if (moves != nullptr) {
    if (!moves->is_array()) return field_error(where + ".moves", "not an array");
    for (std::size_t i = 0; i < moves->size(); ++i) {
      const std::string name = where + ".moves[" + std::to_string(i) + "]";
      const JsonValue& item = (*moves)[i];
      if (!item.is_string()) return field_error(name, "not a string");
      const auto move = move_of(*position, item.as_string());
      if (!move) return field_error(name, "not a legal move");
      opening.moves.push_back(*move);
      position->play(*move);
    }
  }
  return opening;
}

const char* outcome_text(learn::Outcome outcome) {
  return result_text(outcome);
}

void write_game(JsonWriter& json, const GameRecord& game) {
  json.begin_object()
      .field("white", game.white)
      .field("black", game.black)
      .field("whiteValues", game.white_values)
      .field("blackValues", game.black_values);
  json.key("moves").begin_array();
  for (const PlayedMove& move : game.moves) {
    json.begin_object()
        .field("uci", move.move.uci())
        .field("score", move.score)
        .field("depth", move.depth)
        .field("nodes", move.nodes)
        .end_object();
  }
  json.end_array();
  json.field("result", outcome_text(game.result))
      .field("termination", kTerminationNames[static_cast<std::size_t>(game.termination)])
      .field("nodes", game.nodes)
      .field("finalFen", game.final_fen)
      .end_object();
}

Expected<GameRecord> read_game(const JsonValue& json, const Opening& opening,
                               const std::string& where) {
  if (!json.is_object()) return field_error(where, "not an object");
  GameRecord game;
  game.opening = opening;
  for (auto [key, out] :
       {std::pair{"white", &game.white}, std::pair{"black", &game.black},
        std::pair{"whiteValues", &game.white_values}, std::pair{"blackValues", &game.black_values},
        std::pair{"finalFen", &game.final_fen}}) {
    auto text = read_text(json, key, where);
    if (!text) return text.error();
    *out = *text;
  }
  auto position = opening_position(opening);
  if (!position) return position.error();
  const JsonValue* moves = json.find("moves");
  if (moves == nullptr || !moves->is_array()) return field_error(where + ".moves", "not an array");
  for (std::size_t i = 0; i < moves->size(); ++i) {
    const std::string name = where + ".moves[" + std::to_string(i) + "]";
    const JsonValue& item = (*moves)[i];
    if (!item.is_object()) return field_error(name, "not an object");
    auto uci = read_text(item, "uci", name);
    if (!uci) return uci.error();
    const auto move = move_of(*position, *uci);
    if (!move) return field_error(name + ".uci", "not a legal move");
    PlayedMove played;
    played.move = *move;
    auto score = read_int(item, "score", name, 0);
    if (!score) return score.error();
    auto depth = read_int(item, "depth", name, 0);
    if (!depth) return depth.error();
    auto nodes = read_count(item, "nodes", name, 0);
    if (!nodes) return nodes.error();
    played.score = *score;
    played.depth = *depth;
    played.nodes = *nodes;
    game.moves.push_back(played);
    position->play(*move);
  }
  auto result = read_text(json, "result", where);
  if (!result) return result.error();
  const learn::Outcome outcome = learn::parse_result(*result);
  if (outcome == learn::Outcome::kUnknown || *result == "*") {
    return field_error(where + ".result", "not 1-0, 0-1 or 1/2-1/2");
  }
  game.result = outcome;
  auto termination = read_text(json, "termination", where);
  if (!termination) return termination.error();
  bool known = false;
  for (int i = 0; i < kTerminations; ++i) {
    if (*termination == kTerminationNames[static_cast<std::size_t>(i)]) {
      game.termination = static_cast<Termination>(i);
      known = true;
    }
  }
  if (!known) return field_error(where + ".termination", "not a known game end");
  auto nodes = read_count(json, "nodes", where, 0);
  if (!nodes) return nodes.error();
  game.nodes = *nodes;
  return game;
}

}  // namespace

void write_value_set(JsonWriter& json, const ValueSet& set) {
  json.begin_object().field("name", set.name);
  json.key("middlegame").begin_array();
  for (const int v : set.middlegame) json.value(v);
  json.end_array();
  json.key("endgame").begin_array();
  for (const int v : set.endgame) json.value(v);
  json.end_array();
  json.key("bishopPair")
      .begin_array()
      .value(set.bishop_pair_middlegame)
      .value(set.bishop_pair_endgame)
      .end_array();
  json.key("imbalance").begin_array();
  for (const int v : set.imbalance) json.value(v);
  json.end_array();
  if (set.squares) {
    // P..K tables one after another, a1..h8 each.
    for (const auto& [key, tables] : {std::pair{"squaresMg", &set.squares->middlegame},
                                      std::pair{"squaresEg", &set.squares->endgame}}) {
      json.key(key).begin_array();
      for (const auto& table : *tables)
        for (const int v : table) json.value(v);
      json.end_array();
    }
  }
  json.end_object();
}

Expected<ValueSet> read_value_set(const JsonValue& json, const std::string& where) {
  if (!json.is_object()) return field_error(where, "not an object");
  ValueSet set;
  auto name = read_text(json, "name", where);
  if (!name) return name.error();
  set.name = *name;
  if (auto error = read_int_array(json, "middlegame", where, set.middlegame)) return *error;
  set.endgame = set.middlegame;
  if (auto error = read_int_array(json, "endgame", where, set.endgame)) return *error;
  std::array<int, 2> pair{};
  if (auto error = read_int_array(json, "bishopPair", where, pair)) return *error;
  set.bishop_pair_middlegame = pair[0];
  set.bishop_pair_endgame = pair[1];
  if (auto error = read_int_array(json, "imbalance", where, set.imbalance)) return *error;
  if (json.find("squaresMg") != nullptr || json.find("squaresEg") != nullptr) {
    std::array<int, 64 * kSquarePieceTypes> middlegame{};
    std::array<int, 64 * kSquarePieceTypes> endgame{};
    if (json.find("squaresMg") == nullptr || json.find("squaresEg") == nullptr) {
      return field_error(where, "a set of tables needs both squaresMg and squaresEg");
    }
    if (auto error = read_int_array(json, "squaresMg", where, middlegame)) return *error;
    if (auto error = read_int_array(json, "squaresEg", where, endgame)) return *error;
    SquareValues squares;
    for (int type = 0; type < kSquarePieceTypes; ++type) {
      for (int square = 0; square < 64; ++square) {
        squares.middlegame[type][square] = middlegame[type * 64 + square];
        squares.endgame[type][square] = endgame[type * 64 + square];
      }
    }
    // The means are the tables' (square_value_set), whatever the message says.
    return square_value_set(set.name, squares);
  }
  if (set.middlegame[0] <= 0 || set.endgame[0] <= 0) {
    return field_error(where, "a pawn must be worth more than 0");
  }
  return set;
}

void write_game_settings(JsonWriter& json, const GameSettings& settings) {
  const Adjudication& rules = settings.adjudication;
  json.begin_object();
  json.key("limits")
      .begin_object()
      .field("nodes", settings.limits.nodes)
      .field("depth", settings.limits.depth)
      .field("movetimeMs", settings.limits.movetime_ms)
      .end_object();
  json.field("materialOnly", settings.evaluation.material_only);
  json.key("adjudication")
      .begin_object()
      .field("draw", rules.draw)
      .field("drawMoveNumber", rules.draw_move_number)
      .field("drawMoveCount", rules.draw_move_count)
      .field("drawScore", rules.draw_score)
      .field("resign", rules.resign)
      .field("resignMoveCount", rules.resign_move_count)
      .field("resignScore", rules.resign_score)
      .field("maxPlies", rules.max_plies)
      .end_object();
  json.field("tableEntries", static_cast<std::uint64_t>(settings.table_entries));
  json.end_object();
}

Expected<GameSettings> read_game_settings(const JsonValue& json, const std::string& where) {
  if (!json.is_object()) return field_error(where, "not an object");
  GameSettings settings;
  if (const JsonValue* limits = json.find("limits")) {
    const std::string name = where + ".limits";
    if (!limits->is_object()) return field_error(name, "not an object");
    auto nodes = read_count(*limits, "nodes", name, 0);
    if (!nodes) return nodes.error();
    auto depth = read_int(*limits, "depth", name, 0);
    if (!depth) return depth.error();
    auto movetime = read_int(*limits, "movetimeMs", name, 0);
    if (!movetime) return movetime.error();
    settings.limits = {.nodes = *nodes, .depth = *depth, .movetime_ms = *movetime};
  }
  auto material_only = read_bool(json, "materialOnly", where, false);
  if (!material_only) return material_only.error();
  settings.evaluation.material_only = *material_only;
  if (const JsonValue* rules = json.find("adjudication")) {
    const std::string name = where + ".adjudication";
    if (!rules->is_object()) return field_error(name, "not an object");
    Adjudication& out = settings.adjudication;
    for (auto [key, flag] : {std::pair{"draw", &out.draw}, std::pair{"resign", &out.resign}}) {
      auto value = read_bool(*rules, key, name, *flag);
      if (!value) return value.error();
      *flag = *value;
    }
    for (auto [key, number] :
         {std::pair{"drawMoveNumber", &out.draw_move_number},
          std::pair{"drawMoveCount", &out.draw_move_count}, std::pair{"drawScore", &out.draw_score},
          std::pair{"resignMoveCount", &out.resign_move_count},
          std::pair{"resignScore", &out.resign_score}, std::pair{"maxPlies", &out.max_plies}}) {
      auto value = read_int(*rules, key, name, *number);
      if (!value) return value.error();
      *number = *value;
    }
  }
  auto entries = read_count(json, "tableEntries", where, settings.table_entries);
  if (!entries) return entries.error();
  if (*entries == 0 || *entries > (std::uint64_t{1} << 24)) {
    return field_error(where + ".tableEntries", "outside 1 .. 2^24");
  }
  settings.table_entries = static_cast<std::size_t>(*entries);
  return settings;
}

std::string encode_pair_task(const PairTask& task, const GameSettings& settings) {
  JsonWriter json;
  json.begin_object()
      .field("index", static_cast<std::uint64_t>(task.index))
      .field("pairing", task.pairing)
      .field("pair", task.pair);
  write_opening(json, task.opening);
  json.key("first");
  write_value_set(json, task.first);
  json.key("second");
  write_value_set(json, task.second);
  json.key("settings");
  write_game_settings(json, settings);
  json.end_object();
  return json.take();
}

Expected<PairJob> decode_pair_task(std::string_view text) {
  auto parsed = parse_json(text);
  if (!parsed) return make_error(ErrorCode::kSyntax, "task: " + parsed.error().message);
  const JsonValue& json = *parsed;
  if (!json.is_object()) return field_error("task", "not an object");
  PairJob job;
  auto index = read_count(json, "index", "task", 0);
  if (!index) return index.error();
  job.task.index = static_cast<std::size_t>(*index);
  auto pairing = read_int(json, "pairing", "task", 0);
  if (!pairing) return pairing.error();
  auto pair = read_int(json, "pair", "task", 0);
  if (!pair) return pair.error();
  job.task.pairing = *pairing;
  job.task.pair = *pair;
  const JsonValue* opening = json.find("opening");
  if (opening == nullptr) return field_error("task.opening", "missing");
  auto read = read_opening(*opening, "task.opening");
  if (!read) return read.error();
  job.task.opening = std::move(*read);
  for (auto [key, out] :
       {std::pair{"first", &job.task.first}, std::pair{"second", &job.task.second}}) {
    const JsonValue* set = json.find(key);
    if (set == nullptr) return field_error(std::string("task.") + key, "missing");
    auto value = read_value_set(*set, std::string("task.") + key);
    if (!value) return value.error();
    *out = std::move(*value);
  }
  if (const JsonValue* settings = json.find("settings")) {
    auto value = read_game_settings(*settings, "task.settings");
    if (!value) return value.error();
    job.settings = *value;
  }
  return job;
}

std::string encode_pair_result(std::size_t index, const PairResult& result) {
  JsonWriter json;
  json.begin_object().field("index", static_cast<std::uint64_t>(index));
  json.key("games").begin_array();
  for (const GameRecord& game : result.games) write_game(json, game);
  json.end_array().end_object();
  return json.take();
}

Expected<std::size_t> pair_result_index(std::string_view text) {
  auto parsed = parse_json(text);
  if (!parsed) return make_error(ErrorCode::kSyntax, "result: " + parsed.error().message);
  if (!parsed->is_object()) return field_error("result", "not an object");
  auto index = read_count(*parsed, "index", "result", 0);
  if (!index) return index.error();
  if (parsed->find("index") == nullptr) return field_error("result.index", "missing");
  return static_cast<std::size_t>(*index);
}

Expected<DecodedResult> decode_pair_result(std::string_view text, const PairTask& task) {
  auto parsed = parse_json(text);
  if (!parsed) return make_error(ErrorCode::kSyntax, "result: " + parsed.error().message);
  const JsonValue& json = *parsed;
  if (!json.is_object()) return field_error("result", "not an object");
  DecodedResult out;
  auto index = read_count(json, "index", "result", 0);
  if (!index) return index.error();
  out.index = static_cast<std::size_t>(*index);
  const JsonValue* games = json.find("games");
  if (games == nullptr || !games->is_array() || games->size() != 2) {
    return field_error("result.games", "not an array of two games");
  }
  for (std::size_t i = 0; i < 2; ++i) {
    auto game = read_game((*games)[i], task.opening, "result.games[" + std::to_string(i) + "]");
    if (!game) return game.error();
    out.result.games[i] = std::move(*game);
  }
  return out;
}

}  // namespace materialist::play
