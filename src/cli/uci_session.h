// The UCI protocol's state and its synchronous pieces, apart from the reading loop and the search
// thread (uci_command.cpp): the `option` lines and `setoption`, `position`, the words of `go`,
// the time a move may take, and the `info` and `bestmove` lines.
//
//   auto session = make_uci_session(play_options);          // --values, --nodes ... as defaults
//   if (auto error = set_position(*session, words)) say "info string " + error->message;
//   const GoRequest go = parse_go(words, notes);            // notes: one per bad word
//
// Every failure is a message for an `info string` line; the state is then unchanged.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chess/position.h"
#include "cli/play_options.h"
#include "core/error.h"
#include "play/search.h"
#include "play/value_set.h"

namespace materialist::cli {

// The engine's settings, as `uci` advertises them and `setoption` changes them.
struct UciOptions {
  std::string values_text = "classic";  // the set as given: its text, a name or a fit's .json
  play::ValueSet values;
  bool material_only = false;
  int hash_mb = 1;
  int move_overhead_ms = 30;  // kept back from the clock for the pipe and the GUI
  std::uint64_t nodes = 0;    // a strength limit: at most this many nodes a move (0: none)
  bool ponder = false;        // the GUI's switch; the engine ponders whenever told `go ponder`
};

struct UciSession {
  UciOptions options;
  play::SearchLimits
      default_limits;  // a bare `go`: the command line's --nodes, --depth, --movetime
  chess::Position position = chess::Position::start();
  std::vector<std::uint64_t> history;  // the keys before `position`, for repetitions
  std::unique_ptr<play::Searcher> searcher;
};

// The session the command line's options describe (their value set, evaluation, table size and
// limit), at the start position.
Expected<UciSession> make_uci_session(const PlayOptions& options);

// The `option name ... type ...` lines `uci` prints, each ending in a newline.
std::string uci_option_lines(const UciOptions& options);

// `setoption name NAME [value VALUE]` (names case-insensitive, as the protocol asks). A change
// of the set, the evaluation or the table makes a new searcher (a new game).
std::optional<Error> set_uci_option(UciSession& session, const std::vector<std::string>& words);

// `position startpos|fen FEN [moves M...]`: the whole line, or nothing changes.
std::optional<Error> set_position(UciSession& session, const std::vector<std::string>& words);

// What one `go` asks, before the clock is turned into a time budget.
struct GoRequest {
  play::SearchLimits limits;  // nodes, depth, mate from the line
  int movetime_ms = 0;
  bool infinite = false;
  bool ponder = false;
  std::int64_t time_left_ms = -1;  // the side to move's clock; -1: none given
  std::int64_t increment_ms = 0;
  int moves_to_go = 0;  // 0: sudden death
};

// The words of a `go` line; each malformed or unsupported word adds a note and is skipped.
GoRequest parse_go(const std::vector<std::string>& words, bool white_to_move,
                   std::vector<std::string>& notes);

// How long a move may take on the clock: past `soft_ms` no new iteration starts, at `hard_ms`
// the search stops. Both 0 when the move has no time limit.
struct TimeBudget {
  std::int64_t soft_ms = 0;
  std::int64_t hard_ms = 0;
};
TimeBudget time_budget(const GoRequest& go, int move_overhead_ms);

// The search's limits for `go`: the line's, the Nodes strength limit, or the command line's for
// a bare `go`. `infinite` whenever time, `stop` or `ponderhit` ends the search (the caller's
// stop flag does).
play::SearchLimits search_limits(const UciSession& session, const GoRequest& go);

// "info depth 6 seldepth 11 score cp 35 nodes 81234 nps 2500000 time 32 hashfull 12 pv e2e4 ..."
std::string info_line(const play::IterationInfo& info);
// "bestmove e2e4 ponder e7e5", or "bestmove 0000" when the position has no legal move.
std::string bestmove_line(const play::SearchResult& result);

// A line's words, split at blanks.
std::vector<std::string> uci_words(const std::string& line);

}  // namespace materialist::cli
