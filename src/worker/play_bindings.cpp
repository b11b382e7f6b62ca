// Embind face of play::TaskRunner, the play module (materialist-play.js) that web/play-worker.js
// runs in each play Web Worker: a pair task's JSON in, a few moves per step() call, the board and
// at the end the result as JSON (web/PROTOCOL.md, "Play-test"). One of the files that include
// Emscripten headers (docs/ARCHITECTURE.md).
#include <emscripten/bind.h>

#include <string>

#include "play/task_runner.h"

namespace materialist::play {
namespace {

class JsPlayer {
 public:
  // "" or why the task was refused.
  std::string start(const std::string& task) {
    auto error = runner_.start(task);
    return error ? error->message : std::string();
  }
  bool step(int moves) { return runner_.step(moves); }
  bool finished() const { return runner_.finished(); }
  std::string board() const { return runner_.board_json(); }
  std::string result() const { return runner_.result_json(); }
  double nodes() const { return static_cast<double>(runner_.nodes()); }

 private:
  TaskRunner runner_;
};

}  // namespace
}  // namespace materialist::play

EMSCRIPTEN_BINDINGS(materialist_play) {
  using materialist::play::JsPlayer;
  emscripten::class_<JsPlayer>("Player")
      .constructor<>()
      .function("start", &JsPlayer::start)
      .function("step", &JsPlayer::step)
      .function("finished", &JsPlayer::finished)
      .function("board", &JsPlayer::board)
      .function("result", &JsPlayer::result)
      .function("nodes", &JsPlayer::nodes);
}
