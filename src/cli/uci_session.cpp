#include "cli/uci_session.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "chess/movegen.h"
#include "core/text.h"
#include "play/zobrist.h"

namespace materialist::cli {

namespace {

constexpr int kMaxHashMb = 1024;
constexpr int kMaxMoveOverheadMs = 5000;
constexpr std::int64_t kMaxNodes = 1000000000;

Error bad(std::string message) {
  return make_error(ErrorCode::kInvalidArgument, std::move(message));
}

// A UCI move in `position`: standard castling (e1g1) or king-takes-rook (Chess960's e1h1).
chess::Move move_of(const chess::Position& position, const std::string& text) {
  chess::MoveList legal;
  chess::generate_legal(position, legal);
  for (const chess::Move move : legal) {
    if (move.uci() == text || uci_move_text(move) == text) return move;
  }
  return chess::Move();
}

std::unique_ptr<play::Searcher> make_searcher(const UciOptions& options) {
  play::EvaluationOptions evaluation;
  evaluation.material_only = options.material_only;
  return std::make_unique<play::Searcher>(options.values, evaluation,
                                          static_cast<std::size_t>(options.hash_mb) << 16);
}

// The words between `from` and `to` (or the end), joined by single spaces.
std::string joined(const std::vector<std::string>& words, std::size_t from, std::size_t to) {
  std::string text;
  for (std::size_t i = from; i < std::min(to, words.size()); ++i) {
    text += (text.empty() ? "" : " ") + words[i];
  }
  return text;
}

std::size_t index_of(const std::vector<std::string>& words, const char* word, std::size_t from) {
  for (std::size_t i = from; i < words.size(); ++i) {
    if (words[i] == word) return i;
  }
  return words.size();
}

// Spin options: a whole number within the advertised bounds, or the message that says so.
Expected<std::int64_t> spin_value(const std::string& name, const std::string& value,
                                  std::int64_t minimum, std::int64_t maximum) {
  const auto number = parse_integer(value, minimum, maximum);
  if (!number) {
    return bad("setoption " + name + " '" + value + "': a whole number from " +
               std::to_string(minimum) + " to " + std::to_string(maximum));
  }
  return *number;
}

Expected<bool> check_value(const std::string& name, const std::string& value) {
  if (equals_ignoring_case(value, "true")) return true;
  if (equals_ignoring_case(value, "false")) return false;
  return bad("setoption " + name + " '" + value + "': true or false");
}

// The option's new settings in `next`; whether the searcher must be made anew.
Expected<bool> apply_option(const std::string& name, const std::string& value, UciOptions& next) {
  if (equals_ignoring_case(name, "Hash")) {
    auto mb = spin_value("Hash", value, 1, kMaxHashMb);
    if (!mb) return mb.error();
    next.hash_mb = static_cast<int>(*mb);
    return true;
  }
  if (equals_ignoring_case(name, "Values")) {
    auto set = load_value_set(value);
    if (!set) return bad("setoption Values '" + value + "': " + set.error().message);
    next.values_text = value;
    next.values = *set;
    return true;
  }
  if (equals_ignoring_case(name, "MaterialOnly")) {
    auto on = check_value("MaterialOnly", value);
    if (!on) return on.error();
    next.material_only = *on;
    return true;
  }
  if (equals_ignoring_case(name, "Move Overhead")) {
    auto ms = spin_value("Move Overhead", value, 0, kMaxMoveOverheadMs);
    if (!ms) return ms.error();
    next.move_overhead_ms = static_cast<int>(*ms);
    return false;
  }
  if (equals_ignoring_case(name, "Nodes")) {
    auto nodes = spin_value("Nodes", value, 0, kMaxNodes);
    if (!nodes) return nodes.error();
    next.nodes = static_cast<std::uint64_t>(*nodes);
    return false;
  }
  if (equals_ignoring_case(name, "Ponder")) {
    auto on = check_value("Ponder", value);
    if (!on) return on.error();
    next.ponder = *on;
    return false;
  }
  return bad("setoption: no option named '" + name +
             "' (Hash, Values, MaterialOnly, Move Overhead, Nodes, Ponder)");
}

// One `go` word's number: `words[at + 1]` within [minimum, maximum].
std::optional<std::int64_t> go_number(const std::vector<std::string>& words, std::size_t at,
                                      std::int64_t minimum, std::int64_t maximum,
                                      std::vector<std::string>& notes) {
  const std::string value = at + 1 < words.size() ? words[at + 1] : "";
  const auto number = parse_integer(value, minimum, maximum);
  if (!number) {
    notes.push_back("go " + words[at] + " '" + value + "': a whole number from " +
                    std::to_string(minimum) + " to " + std::to_string(maximum) + "; ignored");
  }
  return number;
}

bool is_go_word(const std::string& word) {
  static constexpr const char* kWords[] = {"searchmoves", "ponder", "wtime",     "btime",
                                           "winc",        "binc",   "movestogo", "depth",
                                           "nodes",       "mate",   "movetime",  "infinite"};
  return std::any_of(std::begin(kWords), std::end(kWords),
                     [&](const char* known) { return word == known; });
}

// Reads the number of the word at `at` into `go`; false when the word takes no number.
bool read_go_number(const std::vector<std::string>& words, std::size_t at, bool white_to_move,
                    GoRequest& go, std::vector<std::string>& notes) {
  const std::string& word = words[at];
  constexpr std::int64_t kDay = 86400000;  // milliseconds: a bound far past any clock
  if (word == "depth") {
    if (auto n = go_number(words, at, 1, play::kMaxPly - 1, notes)) go.limits.depth = int(*n);
  } else if (word == "nodes") {
    if (auto n = go_number(words, at, 1, kMaxNodes * 1000, notes)) go.limits.nodes = *n;
  } else if (word == "mate") {
    if (auto n = go_number(words, at, 1, play::kMaxPly / 2, notes)) go.limits.mate = int(*n);
  } else if (word == "movetime") {
    if (auto n = go_number(words, at, 1, kDay, notes)) go.movetime_ms = int(*n);
  } else if (word == "movestogo") {
    if (auto n = go_number(words, at, 1, 10000, notes)) go.moves_to_go = int(*n);
  } else if (word == "wtime" || word == "btime") {
    // A GUI may send a negative time once a clock has run out: it counts as none left.
    auto n = go_number(words, at, -kDay, kDay, notes);
    if (n && (word == "wtime") == white_to_move) go.time_left_ms = std::max<std::int64_t>(0, *n);
  } else if (word == "winc" || word == "binc") {
    auto n = go_number(words, at, 0, kDay, notes);
    if (n && (word == "winc") == white_to_move) go.increment_ms = *n;
  } else {
    return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> uci_words(const std::string& line) {
  std::istringstream stream(line);
  std::vector<std::string> words;
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

Expected<UciSession> make_uci_session(const PlayOptions& options) {
  UciSession session;
  session.options.values_text = options.values.empty() ? "classic" : options.values[0];
  auto values = load_value_set(session.options.values_text);
  if (!values) return bad("--values: " + values.error().message);
  session.options.values = *values;
  session.options.material_only = options.game.evaluation.material_only;
  session.options.hash_mb =
      static_cast<int>(std::clamp<std::size_t>(options.game.table_entries >> 16, 1, kMaxHashMb));
  session.default_limits = options.game.limits;
  session.searcher = make_searcher(session.options);
  return session;
}

std::string uci_option_lines(const UciOptions& options) {
  char text[1024];
  std::snprintf(text, sizeof text,
                "option name Hash type spin default %d min 1 max %d\n"
                "option name Values type string default %s\n"
                "option name MaterialOnly type check default %s\n"
                "option name Move Overhead type spin default %d min 0 max %d\n"
                "option name Nodes type spin default %llu min 0 max %lld\n"
                "option name Ponder type check default %s\n",
                options.hash_mb, kMaxHashMb, options.values_text.c_str(),
                options.material_only ? "true" : "false", options.move_overhead_ms,
                kMaxMoveOverheadMs, static_cast<unsigned long long>(options.nodes),
                static_cast<long long>(kMaxNodes), options.ponder ? "true" : "false");
  return text;
}

std::optional<Error> set_uci_option(UciSession& session, const std::vector<std::string>& words) {
  const std::size_t name_at = index_of(words, "name", 1);
  const std::size_t value_at = index_of(words, "value", name_at);
  const std::string name = joined(words, name_at + 1, value_at);
  if (name_at != 1 || name.empty()) return bad("setoption: 'setoption name NAME [value VALUE]'");
  const std::string value = joined(words, value_at + 1, words.size());
  UciOptions next = session.options;
  auto remake = apply_option(name, value, next);
  if (!remake) return remake.error();
  session.options = std::move(next);
  if (*remake) session.searcher = make_searcher(session.options);
  return std::nullopt;
}

std::optional<Error> set_position(UciSession& session, const std::vector<std::string>& words) {
  const std::size_t moves_at = index_of(words, "moves", 1);
  chess::Position position = chess::Position::start();
  if (words.size() > 1 && words[1] == "fen") {
    auto parsed = chess::Position::from_fen(joined(words, 2, moves_at));
    if (!parsed) return bad("position: bad fen: " + parsed.error().message);
    position = *parsed;
  } else if (words.size() < 2 || words[1] != "startpos" || moves_at > 2) {
    return bad("position: 'position startpos|fen FEN [moves M...]'");
  }
  std::vector<std::uint64_t> history;
  for (std::size_t at = moves_at + 1; at < words.size(); ++at) {
    const chess::Move move = move_of(position, words[at]);
    if (move.is_none()) {
      return bad("position: illegal move " + words[at] + " (move " + std::to_string(at - moves_at) +
                 "); the position is unchanged");
    }
    history.push_back(play::zobrist_key(position));
    position.play(move);
  }
  session.position = position;
  session.history = std::move(history);
  return std::nullopt;
}

GoRequest parse_go(const std::vector<std::string>& words, bool white_to_move,
                   std::vector<std::string>& notes) {
  GoRequest go;
  for (std::size_t at = 1; at < words.size(); ++at) {
    const std::string& word = words[at];
    if (word == "infinite") {
      go.infinite = true;
    } else if (word == "ponder") {
      go.ponder = true;
    } else if (word == "searchmoves") {
      // The search has no root-move filter: the moves are read past and all moves searched.
      while (at + 1 < words.size() && !is_go_word(words[at + 1])) ++at;
      notes.push_back("go searchmoves is not supported: every move is searched");
    } else if (read_go_number(words, at, white_to_move, go, notes)) {
      if (at + 1 < words.size() && !is_go_word(words[at + 1])) ++at;
    } else {
      notes.push_back("go: unknown word '" + word + "' ignored");
    }
  }
  return go;
}

TimeBudget time_budget(const GoRequest& go, int move_overhead_ms) {
  if (go.movetime_ms > 0) return {0, go.movetime_ms};
  if (go.time_left_ms < 0) return {};
  const std::int64_t available = std::max<std::int64_t>(1, go.time_left_ms - move_overhead_ms);
  const std::int64_t moves = go.moves_to_go > 0 ? std::min(go.moves_to_go, 40) : 30;
  const std::int64_t target = available / moves + go.increment_ms * 3 / 4;
  // Never more than a quarter of the clock (half with the time control's last two moves), so
  // one long search cannot lose the game on time.
  const std::int64_t cap = available / (go.moves_to_go > 0 && go.moves_to_go <= 2 ? 2 : 4);
  const std::int64_t hard = std::max<std::int64_t>(1, std::min(target * 3, cap));
  // An iteration takes about twice the ones before it: past 60% of the target the next one
  // would likely overrun.
  return {std::max<std::int64_t>(1, std::min(target * 3 / 5, hard)), hard};
}

play::SearchLimits search_limits(const UciSession& session, const GoRequest& go) {
  play::SearchLimits limits = go.limits;
  const bool timed = go.movetime_ms > 0 || go.time_left_ms >= 0;
  const bool bounded = limits.nodes != 0 || limits.depth != 0 || limits.mate != 0;
  if (!bounded && !timed && !go.infinite && !go.ponder) limits = session.default_limits;
  limits.infinite = !bounded && (timed || go.infinite || go.ponder);
  if (session.options.nodes != 0 && (limits.nodes == 0 || limits.nodes > session.options.nodes)) {
    limits.nodes = session.options.nodes;
  }
  return limits;
}

std::string info_line(const play::IterationInfo& info) {
  std::string line = "info depth " + std::to_string(info.depth) + " seldepth " +
                     std::to_string(std::max(info.seldepth, info.depth));
  line += play::is_mate_score(info.score)
              ? " score mate " + std::to_string(play::mate_in_moves(info.score))
              : " score cp " + std::to_string(info.score);
  const std::int64_t micros = std::max<std::int64_t>(1, info.elapsed_us);
  const auto nps = static_cast<unsigned long long>(static_cast<double>(info.nodes) * 1e6 /
                                                   static_cast<double>(micros));
  line += " nodes " + std::to_string(info.nodes) + " nps " + std::to_string(nps) + " time " +
          std::to_string(info.elapsed_us / 1000) + " hashfull " + std::to_string(info.hashfull);
  if (!info.pv.empty()) {
    line += " pv";
    for (const chess::Move move : info.pv) line += " " + uci_move_text(move);
  }
  return line;
}

std::string bestmove_line(const play::SearchResult& result) {
  if (result.best.is_none()) return "bestmove 0000";
  std::string line = "bestmove " + uci_move_text(result.best);
  if (result.pv.size() >= 2 && result.pv[0] == result.best) {
    line += " ponder " + uci_move_text(result.pv[1]);
  }
  return line;
}

}  // namespace materialist::cli
