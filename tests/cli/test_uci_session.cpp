// The UCI protocol's synchronous pieces (cli/uci_session.h) and run_uci on whole command
// scripts: the option list, setoption's validation, malformed position and go lines, the time
// budget, bestmove 0000, unknown commands. tests/uci/run.mjs drives the engine with real clients.
#include <doctest/doctest.h>

#include "cli/match_command.h"
#include "cli/uci_session.h"
#include "cli_test_util.h"

namespace materialist::cli {

namespace {

using testing::contains;
using testing::lines_of;
using testing::read_all;

UciSession fresh_session() {
  auto options = parse_play_options({"uci"});
  REQUIRE(options);
  auto session = make_uci_session(*options);
  REQUIRE(session);
  return std::move(*session);
}

// run_uci on `commands`: its output.
std::string uci_output(const std::string& commands,
                       const std::vector<std::string>& args = {"uci"}) {
  std::FILE* in = std::tmpfile();
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  std::fputs(commands.c_str(), in);
  std::rewind(in);
  CHECK(run_uci(args, in, out, err) == kExitOk);
  std::fclose(in);
  CHECK(read_all(err).empty());
  return read_all(out);
}

std::size_t count_prefixed(const std::string& text, const std::string& prefix) {
  std::size_t count = 0;
  for (const std::string& line : lines_of(text)) count += line.rfind(prefix, 0) == 0;
  return count;
}

}  // namespace

TEST_CASE("uci: an option line for every setting, the command line's as defaults") {
  const std::string text = uci_output("uci\n", {"uci", "--values", "kaufman", "--hash-mb", "8",
                                                "--material-only", "--nodes", "5000"});
  CHECK(contains(text, "option name Hash type spin default 8 min 1 max 1024\n"));
  CHECK(contains(text, "option name Values type string default kaufman\n"));
  CHECK(contains(text, "option name MaterialOnly type check default true\n"));
  CHECK(contains(text, "option name Move Overhead type spin default 30 min 0 max 5000\n"));
  CHECK(contains(text, "option name Nodes type spin default 5000 min 0 max 1000000000\n"));
  CHECK(contains(text, "option name Ponder type check default false\n"));
  CHECK(lines_of(text).back() == "uciok");
}

TEST_CASE("uci: setoption checks the name and the value; a bad one changes nothing") {
  UciSession session = fresh_session();
  const play::Searcher* searcher = session.searcher.get();
  CHECK_FALSE(set_uci_option(session, uci_words("setoption name move overhead value 120")));
  CHECK(session.options.move_overhead_ms == 120);
  CHECK(session.searcher.get() == searcher);  // no new table for a time setting
  CHECK_FALSE(
      set_uci_option(session, uci_words("setoption name Values value 100,320,330,500,900")));
  CHECK(session.options.values.middlegame[1] == 320);
  CHECK_FALSE(set_uci_option(session, uci_words("setoption name Hash value 4")));
  CHECK(session.options.hash_mb == 4);
  const UciOptions before = session.options;
  for (const char* line : {"setoption name Hash value 0", "setoption name Hash value 2000",
                           "setoption name Hash value four", "setoption name Hash",
                           "setoption name Values value 0,300,300,500,900",
                           "setoption name MaterialOnly value yes", "setoption name Nodes value -1",
                           "setoption name Threads value 4", "setoption value 3", "setoption"}) {
    CAPTURE(line);
    const auto error = set_uci_option(session, uci_words(line));
    CHECK(error);
    CHECK(session.options.hash_mb == before.hash_mb);
    CHECK(session.options.values == before.values);
    CHECK(session.options.material_only == before.material_only);
    CHECK(session.options.nodes == before.nodes);
  }
}

TEST_CASE("uci: a malformed position line leaves the position as it was") {
  UciSession session = fresh_session();
  REQUIRE_FALSE(set_position(session, uci_words("position startpos moves e2e4 e7e5")));
  CHECK(session.history.size() == 2);
  const std::string fen = session.position.fen();
  for (const char* line :
       {"position", "position sideways", "position startpos e2e4", "position fen",
        "position fen 8/8/8/8 w - - 0 1", "position startpos moves e2e4 e2e4",
        "position startpos moves zz", "position fen 7k/8/8/8/8/8/8/K7 w - - 0 1 moves a1a3"}) {
    CAPTURE(line);
    CHECK(set_position(session, uci_words(line)));
    CHECK(session.position.fen() == fen);
    CHECK(session.history.size() == 2);
  }
  // Castling both ways: the king's two steps and king-takes-rook.
  CHECK_FALSE(set_position(session, uci_words("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 "
                                              "moves e1g1 e8a8")));
}

TEST_CASE("uci: go reads every word; a bad number is a note, never a crash") {
  std::vector<std::string> notes;
  GoRequest go = parse_go(
      uci_words("go wtime 60000 btime 50000 winc 1000 binc 500 movestogo 20 depth 9 nodes 123 "
                "mate 3 ponder"),
      false, notes);
  CHECK(notes.empty());
  CHECK(go.time_left_ms == 50000);  // Black to move: btime, binc
  CHECK(go.increment_ms == 500);
  CHECK(go.moves_to_go == 20);
  CHECK(go.limits.depth == 9);
  CHECK(go.limits.nodes == 123);
  CHECK(go.limits.mate == 3);
  CHECK(go.ponder);
  go = parse_go(uci_words("go depth x movetime -5 nodes wtime 100 infinite frobnicate"), true,
                notes);
  CHECK(notes.size() == 4);  // depth x, movetime -5, nodes with no number, frobnicate
  CHECK(go.limits.depth == 0);
  CHECK(go.time_left_ms == 100);
  CHECK(go.infinite);
  notes.clear();
  go = parse_go(uci_words("go wtime -20 btime 100"), true, notes);
  CHECK(go.time_left_ms == 0);  // a clock already out counts as none left
  go = parse_go(uci_words("go searchmoves e2e4 d2d4 depth 2"), true, notes);
  CHECK(go.limits.depth == 2);
  CHECK(notes.size() == 1);
}

TEST_CASE("uci: the time budget never takes more than a quarter of the clock left") {
  for (const std::int64_t time_left : {0, 1, 20, 50, 100, 500, 1000, 10000, 600000}) {
    for (const std::int64_t increment : {0, 10, 100, 2000}) {
      for (const int moves_to_go : {0, 1, 2, 10, 40}) {
        GoRequest go;
        go.time_left_ms = time_left;
        go.increment_ms = increment;
        go.moves_to_go = moves_to_go;
        const TimeBudget budget = time_budget(go, 30);
        CAPTURE(time_left);
        CAPTURE(increment);
        CAPTURE(moves_to_go);
        CHECK(budget.soft_ms >= 1);
        CHECK(budget.soft_ms <= budget.hard_ms);
        const std::int64_t share = moves_to_go == 1 || moves_to_go == 2 ? 2 : 4;
        CHECK(budget.hard_ms <= std::max<std::int64_t>(1, (time_left - 30) / share));
      }
    }
  }
  GoRequest movetime;
  movetime.movetime_ms = 250;
  CHECK(time_budget(movetime, 30).hard_ms == 250);
  CHECK(time_budget(GoRequest{}, 30).hard_ms == 0);
}

TEST_CASE("uci: search limits: the line's, the Nodes cap, the command line's for a bare go") {
  UciSession session = fresh_session();
  std::vector<std::string> notes;
  CHECK(search_limits(session, parse_go({"go"}, true, notes)).nodes == 20000);
  CHECK(search_limits(session, parse_go(uci_words("go infinite"), true, notes)).infinite);
  CHECK(search_limits(session, parse_go(uci_words("go wtime 1000"), true, notes)).infinite);
  CHECK_FALSE(search_limits(session, parse_go(uci_words("go depth 4"), true, notes)).infinite);
  session.options.nodes = 700;
  CHECK(search_limits(session, parse_go(uci_words("go nodes 5000"), true, notes)).nodes == 700);
  CHECK(search_limits(session, parse_go(uci_words("go wtime 1000"), true, notes)).nodes == 700);
}

TEST_CASE("uci: no legal move is bestmove 0000; unknown commands are read past") {
  const std::string text = uci_output(
      "xyzzy\njoho isready\n"
      "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo depth 3\n"
      "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo wtime 1000 btime 1000\n"
      "position startpos\ngo wtime abc depth 1\nposition fen nonsense\nquit\n");
  CHECK(lines_of(text).front() == "readyok");
  CHECK(contains(text, "info depth 0 score mate 0\nbestmove 0000\n"));
  CHECK(contains(text, "info depth 0 score cp 0\nbestmove 0000\n"));
  CHECK(contains(text, "info string go wtime 'abc'"));
  CHECK(contains(text, "info string position: bad fen"));
  CHECK(count_prefixed(text, "bestmove ") == 3);
}

TEST_CASE("uci: go infinite answers once stopped; every info line has the protocol's fields") {
  const std::string text = uci_output("position startpos\ngo infinite\nstop\ngo depth 4\n");
  CHECK(count_prefixed(text, "bestmove ") == 2);
  for (const std::string& line : lines_of(text)) {
    if (line.rfind("info depth", 0) != 0) continue;
    CAPTURE(line);
    for (const char* field :
         {" seldepth ", " score cp ", " nodes ", " nps ", " time ", " hashfull ", " pv "}) {
      CHECK(contains(line, field));
    }
  }
  // The input's end waits for a search with a limit: depth 4 answered.
  CHECK(contains(text, "info depth 4 "));
}

}  // namespace materialist::cli
