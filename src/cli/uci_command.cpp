// `materialist uci [--values SET] [--material-only]`: the play engine as a UCI engine, so a
// value set can meet other engines in cutechess-cli, fastchess or a GUI (the article's
// match-tournament played against Fruit, Crafty and Delfi). Reads commands from `in`, one a line;
// searches synchronously (a `stop` during a search is not seen: give go a limit).
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "cli/commands.h"
#include "cli/match_command.h"
#include "cli/play_options.h"
#include "play/search.h"
#include "play/zobrist.h"

namespace materialist::cli {

namespace {

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream stream(line);
  std::vector<std::string> words;
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
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

struct Session {
  play::ValueSet values;
  PlayOptions options;
  chess::Position position;
  std::vector<std::uint64_t> history;  // the keys before `position`, for repetitions
  std::unique_ptr<play::Searcher> searcher;
};

void set_position(Session& session, const std::vector<std::string>& words, std::FILE* err) {
  std::size_t at = 1;
  chess::Position position;
  if (at < words.size() && words[at] == "fen") {
    std::string fen;
    for (++at; at < words.size() && words[at] != "moves"; ++at)
      fen += (fen.empty() ? "" : " ") + words[at];
    auto parsed = chess::Position::from_fen(fen);
    if (!parsed) {
      std::fprintf(err, "info string bad fen: %s\n", parsed.error().message.c_str());
      return;
    }
    position = *parsed;
  } else if (at < words.size() && words[at] == "startpos") {
    ++at;
  }
  std::vector<std::uint64_t> history;
  if (at < words.size() && words[at] == "moves") {
    for (++at; at < words.size(); ++at) {
      const chess::Move move = move_of(position, words[at]);
      if (move.is_none()) {
        std::fprintf(err, "info string illegal move %s\n", words[at].c_str());
        return;
      }
      history.push_back(play::zobrist_key(position));
      position.play(move);
    }
  }
  session.position = position;
  session.history = std::move(history);
}

// go: nodes / depth / movetime as asked, or a share of the clock (wtime/btime, winc/binc,
// movestogo), or the command line's limit.
play::SearchLimits limits_of(const Session& session, const std::vector<std::string>& words) {
  play::SearchLimits limits;
  long long time_left = -1, increment = 0, moves_to_go = 30;
  const bool white = session.position.side_to_move() == chess::Color::kWhite;
  for (std::size_t i = 1; i + 1 < words.size(); ++i) {
    const long long value = std::atoll(words[i + 1].c_str());
    if (words[i] == "nodes") limits.nodes = static_cast<std::uint64_t>(value);
    if (words[i] == "depth") limits.depth = static_cast<int>(value);
    if (words[i] == "movetime") limits.movetime_ms = static_cast<int>(value);
    if (words[i] == (white ? "wtime" : "btime")) time_left = value;
    if (words[i] == (white ? "winc" : "binc")) increment = value;
    if (words[i] == "movestogo" && value > 0) moves_to_go = value;
  }
  if (limits.nodes == 0 && limits.depth == 0 && limits.movetime_ms == 0) {
    if (time_left >= 0) {
      limits.movetime_ms =
          static_cast<int>(std::max<long long>(1, time_left / moves_to_go + increment * 3 / 4));
    } else {
      limits = session.options.game.limits;
    }
  }
  return limits;
}

void go(Session& session, const std::vector<std::string>& words, std::FILE* out) {
  const play::SearchResult result =
      session.searcher->search(session.position, session.history, limits_of(session, words));
  std::string pv;
  for (const chess::Move move : result.pv) pv += " " + uci_move_text(move);
  if (play::is_mate_score(result.score)) {
    std::fprintf(out, "info depth %d score mate %d nodes %llu pv%s\n", result.depth,
                 play::mate_in_moves(result.score), static_cast<unsigned long long>(result.nodes),
                 pv.c_str());
  } else {
    std::fprintf(out, "info depth %d score cp %d nodes %llu pv%s\n", result.depth, result.score,
                 static_cast<unsigned long long>(result.nodes), pv.c_str());
  }
  std::fprintf(out, "bestmove %s\n",
               result.best.is_none() ? "0000" : uci_move_text(result.best).c_str());
  std::fflush(out);
}

}  // namespace

int run_uci(const std::vector<std::string>& args, std::FILE* in, std::FILE* out, std::FILE* err) {
  auto options = parse_play_options(args);
  if (!options) {
    std::fprintf(err, "materialist: uci: %s\n", options.error().message.c_str());
    return kExitBadOptions;
  }
  auto values = load_value_set(options->values.empty() ? "classic" : options->values[0]);
  if (!values) {
    std::fprintf(err, "materialist: uci: --values: %s\n", values.error().message.c_str());
    return kExitBadOptions;
  }
  Session session{*values, *options, chess::Position::start(), {}, nullptr};
  session.searcher = std::make_unique<play::Searcher>(*values, options->game.evaluation,
                                                      options->game.table_entries);
  char buffer[65536];
  while (std::fgets(buffer, sizeof buffer, in) != nullptr) {
    const std::vector<std::string> words = words_of(buffer);
    if (words.empty()) continue;
    const std::string& command = words[0];
    if (command == "uci") {
      std::fprintf(out, "id name Materialist %s (%s)\nid author Materialist\nuciok\n",
                   values->name.c_str(), values->values_text().c_str());
    } else if (command == "isready") {
      std::fputs("readyok\n", out);
    } else if (command == "ucinewgame") {
      session.searcher->new_game();
    } else if (command == "position") {
      set_position(session, words, out);
    } else if (command == "go") {
      go(session, words, out);
    } else if (command == "quit") {
      break;
    }
    std::fflush(out);
  }
  return kExitOk;
}

}  // namespace materialist::cli
