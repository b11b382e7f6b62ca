// `materialist uci [--values SET] [--material-only] [--hash-mb N] [--nodes K]` (or the
// `materialist-uci` name): the play engine as a UCI engine, so a value set can meet other engines
// in a match runner or a GUI. Reads commands from `in`, one a line; a `go` searches on a thread
// of its own, so `stop`, `ponderhit`, `isready` and `quit` are answered during a search. Where
// the build has no threads (WebAssembly) a search runs to its end before the next line is read.
// The protocol's pieces are in uci_session.h.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "chess/movegen.h"
#include "cli/cli_threads.h"
#include "cli/commands.h"
#include "cli/match_command.h"
#include "cli/uci_session.h"

namespace materialist::cli {

namespace {

constexpr std::size_t kMaxLineBytes = 1 << 20;

using Clock = std::chrono::steady_clock;

// Lines to the GUI: one writer at a time, each line flushed.
class Output {
 public:
  explicit Output(std::FILE* out) : out_(out) {}
  void line(const std::string& text) {
    const std::lock_guard lock(mutex_);
    std::fputs(text.c_str(), out_);
    std::fputc('\n', out_);
    std::fflush(out_);
  }
  void note(const std::string& text) { line("info string " + text); }

 private:
  std::mutex mutex_;
  std::FILE* out_;
};

// One search's state, shared by the reading loop, the search thread and its timer.
struct SearchControl {
  std::mutex mutex;
  std::condition_variable changed;
  std::atomic<bool> stop{false};
  bool pondering = false;       // `go ponder` until `ponderhit`: no clock runs
  bool waits_for_stop = false;  // `go infinite`: bestmove only after `stop`
  bool finished = false;        // the search has returned
  TimeBudget budget;
  Clock::time_point started;  // when the clock started: `go`, or `ponderhit`

  void request_stop() {
    const std::lock_guard lock(mutex);
    stop = true;
    changed.notify_all();
  }
};

// The running search: its threads and their shared state.
struct RunningSearch {
  std::unique_ptr<SearchControl> control;
  std::thread search;
  std::thread timer;
  bool active() const { return control != nullptr; }
};

std::int64_t elapsed_ms(Clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count();
}

// Stops the search at the hard limit; waits while pondering, wakes at ponderhit and stop.
void run_timer(SearchControl& control) {
  std::unique_lock lock(control.mutex);
  while (!control.stop && !control.finished) {
    if (control.pondering || control.budget.hard_ms == 0) {
      control.changed.wait(lock);
      continue;
    }
    const auto deadline = control.started + std::chrono::milliseconds(control.budget.hard_ms);
    if (control.changed.wait_until(lock, deadline) == std::cv_status::timeout &&
        !control.pondering) {
      control.stop = true;
    }
  }
}

// Past the soft limit no new iteration starts: the one to come would likely not finish.
void stop_if_past_soft_limit(SearchControl& control) {
  const std::lock_guard lock(control.mutex);
  if (control.pondering || control.budget.soft_ms == 0) return;
  if (elapsed_ms(control.started) >= control.budget.soft_ms) control.stop = true;
}

// Searches, writes an info line per iteration, then the best move: after `stop` or `ponderhit`
// when the protocol says the answer waits for one.
void search_and_answer(play::Searcher& searcher, const chess::Position& position,
                       const std::vector<std::uint64_t>& history, const play::SearchLimits& limits,
                       SearchControl& control, Output& output) {
  const play::SearchResult result = searcher.search(position, history, limits, &control.stop,
                                                    [&](const play::IterationInfo& info) {
                                                      output.line(info_line(info));
                                                      stop_if_past_soft_limit(control);
                                                    });
  if (result.best.is_none()) {
    output.line(position.in_check() ? "info depth 0 score mate 0" : "info depth 0 score cp 0");
  }
  {
    std::unique_lock lock(control.mutex);
    control.finished = true;
    control.changed.notify_all();
    control.changed.wait(
        lock, [&] { return control.stop || (!control.pondering && !control.waits_for_stop); });
  }
  output.line(bestmove_line(result));
}

// Waits for the search's threads (its bestmove is written by then).
void join(RunningSearch& running) {
  if (!running.active()) return;
  running.search.join();
  running.timer.join();
  running = {};
}

void stop_search(RunningSearch& running) {
  if (running.active()) running.control->request_stop();
  join(running);
}

// Before a command that changes the position or the engine: a search with a limit ends on its
// own, one that waits for `stop` (infinite, ponder) is stopped.
void finish_search(RunningSearch& running) {
  if (!running.active()) return;
  SearchControl& control = *running.control;
  bool waits;
  {
    const std::lock_guard lock(control.mutex);
    waits = control.pondering || control.waits_for_stop;
  }
  if (waits) control.request_stop();
  join(running);
}

void ponderhit(RunningSearch& running) {
  if (!running.active()) return;
  SearchControl& control = *running.control;
  const std::lock_guard lock(control.mutex);
  control.pondering = false;
  control.started = Clock::now();  // our clock runs from now
  control.changed.notify_all();
}

// Without threads nothing could end an open-ended search: it gets the command line's limit.
play::SearchLimits synchronous_limits(const UciSession& session, play::SearchLimits limits,
                                      const TimeBudget& budget, Output& output) {
  if (!limits.infinite) return limits;
  limits.infinite = false;
  if (budget.hard_ms > 0) {
    limits.movetime_ms = static_cast<int>(budget.hard_ms);
  } else {
    limits = session.default_limits;
    output.note("no threads in this build: go infinite and go ponder search " +
                limits_text(limits) + " and answer at once");
  }
  return limits;
}

void go(UciSession& session, const std::vector<std::string>& words, RunningSearch& running,
        Output& output) {
  std::vector<std::string> notes;
  const GoRequest request =
      parse_go(words, session.position.side_to_move() == chess::Color::kWhite, notes);
  for (const std::string& note : notes) output.note(note);
  auto control = std::make_unique<SearchControl>();
  control->budget = time_budget(request, session.options.move_overhead_ms);
  control->pondering = request.ponder;
  control->waits_for_stop = request.infinite;
  control->started = Clock::now();
  play::SearchLimits limits = search_limits(session, request);
  if (!kThreadsAvailable) {
    control->pondering = control->waits_for_stop = false;
    limits = synchronous_limits(session, limits, control->budget, output);
    search_and_answer(*session.searcher, session.position, session.history, limits, *control,
                      output);
    return;
  }
  SearchControl& shared = *control;
  running.control = std::move(control);
  running.timer = std::thread([&shared] { run_timer(shared); });
  running.search = std::thread(
      [&session, limits, &shared, &output, position = session.position, history = session.history] {
        search_and_answer(*session.searcher, position, history, limits, shared, output);
      });
}

void report(const std::optional<Error>& error, Output& output) {
  if (error) output.note(error->message);
}

void identify(const UciSession& session, Output& output) {
  output.line("id name Materialist " + session.options.values.name + " (" +
              session.options.values.values_text() + ")");
  output.line("id author Materialist");
  std::string options = uci_option_lines(session.options);
  options.pop_back();  // the last newline: line() adds it
  output.line(options);
  output.line("uciok");
}

// One line from `in` without its newline; false at the end of the input. A line longer than
// kMaxLineBytes is cut there (the rest is read past).
bool read_line(std::FILE* in, std::string& line) {
  line.clear();
  char buffer[4096];
  bool any = false;
  while (std::fgets(buffer, sizeof buffer, in) != nullptr) {
    any = true;
    const std::string_view part(buffer);
    const bool ends = !part.empty() && part.back() == '\n';
    if (line.size() < kMaxLineBytes) line.append(part.substr(0, part.size() - (ends ? 1 : 0)));
    if (ends) break;
  }
  if (line.size() > kMaxLineBytes) line.resize(kMaxLineBytes);
  return any;
}

bool is_command(const std::string& word) {
  static constexpr const char* kCommands[] = {"uci",      "debug",      "isready",  "setoption",
                                              "register", "ucinewgame", "position", "go",
                                              "stop",     "ponderhit",  "quit"};
  for (const char* command : kCommands) {
    if (word == command) return true;
  }
  return false;
}

// Handles one command line; false at `quit`.
bool handle(UciSession& session, std::vector<std::string> words, RunningSearch& running,
            Output& output) {
  // The protocol: an unknown word is skipped and the rest of the line read ("joho debug on").
  while (!words.empty() && !is_command(words.front())) words.erase(words.begin());
  if (words.empty()) return true;
  const std::string& command = words[0];
  if (command == "uci") {
    identify(session, output);
  } else if (command == "isready") {
    output.line("readyok");
  } else if (command == "stop") {
    stop_search(running);
  } else if (command == "ponderhit") {
    ponderhit(running);
  } else if (command == "quit") {
    stop_search(running);
    return false;
  } else if (command == "ucinewgame") {
    finish_search(running);
    session.searcher->new_game();
  } else if (command == "setoption") {
    finish_search(running);
    report(set_uci_option(session, words), output);
  } else if (command == "position") {
    finish_search(running);
    report(set_position(session, words), output);
  } else if (command == "go") {
    finish_search(running);
    go(session, words, running, output);
  }  // debug and register: nothing to do
  return true;
}

}  // namespace

int run_uci(const std::vector<std::string>& args, std::FILE* in, std::FILE* out, std::FILE* err) {
  auto options = parse_play_options(args);
  if (!options) {
    std::fprintf(err, "materialist: uci: %s\n", options.error().message.c_str());
    return kExitBadOptions;
  }
  auto session = make_uci_session(*options);
  if (!session) {
    std::fprintf(err, "materialist: uci: %s\n", session.error().message.c_str());
    return kExitBadOptions;
  }
  // --nodes K is the Nodes option's starting value (a bare go searches it too, as before).
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--nodes") session->options.nodes = options->game.limits.nodes;
  }
  Output output(out);
  RunningSearch running;
  bool open = true;
  for (std::string line; open && read_line(in, line);) {
    open = handle(*session, uci_words(line), running, output);
  }
  // The input's end: a search with a limit still answers (`echo ... | materialist uci`).
  finish_search(running);
  return kExitOk;
}

}  // namespace materialist::cli
