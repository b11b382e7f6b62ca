#include "play/task_runner.h"

#include "chess/san.h"
#include "core/json.h"

namespace materialist::play {

std::optional<Error> TaskRunner::start(std::string_view task_json) {
  player_.reset();
  job_.reset();
  auto job = decode_pair_task(task_json);
  if (!job) return job.error();
  job_ = std::move(*job);
  player_ = std::make_unique<PairPlayer>(job_->task, job_->settings);
  return std::nullopt;
}

bool TaskRunner::step(int moves) {
  for (int i = 0; i < moves && !finished(); ++i) player_->step();
  return finished();
}

std::string TaskRunner::board_json() const {
  JsonWriter json;
  json.begin_object();
  if (!player_) return json.end_object().take();
  const GamePlayer& game = player_->current();
  const GameRecord& record = game.record();
  json.field("task", static_cast<std::uint64_t>(job_->task.index))
      .field("game", player_->game_index())
      .field("fen", game.position().fen())
      .field("white", record.white)
      .field("black", record.black);
  // SAN from the start: the opening's moves, then the engines'.
  std::string last;
  json.key("san").begin_array();
  auto position = opening_position(Opening{record.opening.fen, {}});
  if (position) {
    auto play = [&](chess::Move move) {
      json.value(chess::to_san(*position, move));
      position->play(move);
      last = move.uci();
    };
    for (const chess::Move move : record.opening.moves) play(move);
    for (const PlayedMove& move : record.moves) play(move.move);
  }
  json.end_array();
  json.field("lastMove", last)
      .field("openingPlies", static_cast<std::uint64_t>(record.opening.moves.size()))
      .field("ply", static_cast<std::uint64_t>(record.opening.moves.size() + record.moves.size()));
  json.end_object();
  return json.take();
}

std::string TaskRunner::result_json() const {
  if (!player_ || !player_->finished()) return std::string();
  return encode_pair_result(job_->task.index, player_->result());
}

std::uint64_t TaskRunner::nodes() const {
  if (!player_) return 0;
  const PairResult result = player_->result();
  return result.games[0].nodes + result.games[1].nodes;
}

}  // namespace materialist::play
