// A pair task played a few moves at a time from its JSON (play/task_codec.h): what a play Web
// Worker runs (src/worker/play_bindings.cpp is its Embind face), plain C++ so the native tests run
// it too.
//
//   TaskRunner runner;
//   if (auto error = runner.start(task_json)) ...            // a bad task: error->message
//   while (!runner.step(4)) post(runner.board_json());       // 4 moves, then back to the loop
//   post(runner.result_json());
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "play/match.h"
#include "play/task_codec.h"

namespace materialist::play {

class TaskRunner {
 public:
  std::optional<Error> start(std::string_view task_json);
  // Plays up to `moves` moves; true once both games have ended (or no task was started).
  bool step(int moves);
  bool finished() const { return !player_ || player_->finished(); }
  // The game being played: {"task", "game" (0 or 1), "fen", "lastMove" (UCI or ""),
  // "san" [the moves from the start, the opening's first], "openingPlies", "white", "black",
  // "ply"}.
  std::string board_json() const;
  // encode_pair_result of the finished pair ("" before).
  std::string result_json() const;
  std::uint64_t nodes() const;

 private:
  std::optional<PairJob> job_;
  std::unique_ptr<PairPlayer> player_;
};

}  // namespace materialist::play
