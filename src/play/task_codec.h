// JSON for a match's unit of work and its result, so that a match held in one place (the canvas
// app's play::Match) can have its game pairs played elsewhere (Web Workers running
// materialist-play.js) and stay the one owner of the tasks, the statistics and the SPRT.
//
//   std::string task = encode_pair_task(match.task(i), match.settings().game);   // app → worker
//   auto job = decode_pair_task(task);            // worker: job->task, job->settings
//   std::string result = encode_pair_result(job->task.index, play_pair(job->task, job->settings));
//   auto back = decode_pair_result(result, match.task(i));   // worker → app: back->result
//
// Moves travel as UCI ("e2e4", castling as king takes rook: "e1h1") and are read back against
// the legal moves of the position they are played in, so a decoded result equals the played one
// (every field of every GameRecord). Fields are camelCase; a missing or wrong field is an error
// naming it ("task.opening.moves[2]: not a legal move").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/json.h"
#include "core/json_value.h"
#include "play/match.h"

namespace materialist::play {

struct PairJob {
  PairTask task;
  GameSettings settings;
};

// {"index", "pairing", "pair", "opening": {"fen", "moves": [uci]}, "first": set, "second": set,
//  "settings": {...}} with a set {"name", "middlegame": [P,N,B,R,Q], "endgame": [...],
//  "bishopPair": [mg, eg], "imbalance": [...]}.
std::string encode_pair_task(const PairTask& task, const GameSettings& settings);
Expected<PairJob> decode_pair_task(std::string_view json);

// {"index", "games": [game, game]} with a game {"white", "black", "whiteValues", "blackValues",
//  "moves": [{"uci", "score", "depth", "nodes"}], "result": "1-0" | "0-1" | "1/2-1/2",
//  "termination": kTerminationNames' word, "nodes", "finalFen"}. The openings are the task's.
std::string encode_pair_result(std::size_t index, const PairResult& result);
struct DecodedResult {
  std::size_t index = 0;
  PairResult result;
};
// `task` gives each game's opening (the moves are read from its end).
Expected<DecodedResult> decode_pair_result(std::string_view json, const PairTask& task);
// Only the index of a result's JSON (to find its task first).
Expected<std::size_t> pair_result_index(std::string_view json);

// The parts, for callers that embed them in a larger message.
void write_game_settings(JsonWriter& json, const GameSettings& settings);
Expected<GameSettings> read_game_settings(const JsonValue& json, const std::string& where);
void write_value_set(JsonWriter& json, const ValueSet& set);
Expected<ValueSet> read_value_set(const JsonValue& json, const std::string& where);

}  // namespace materialist::play
