// `materialist analyse --fen FEN`: the play engine's search of one position with a value set.
#include <cstdio>

#include "chess/san.h"
#include "cli/commands.h"
#include "cli/match_command.h"
#include "cli/play_options.h"
#include "core/json.h"
#include "play/search.h"

namespace materialist::cli {

namespace {

// UCI as engines speak it: castling as the king's two-square step when the king and rook stand
// where standard chess puts them (e1g1), king-takes-rook otherwise (Chess960).
std::string uci_text(const chess::Position& position, chess::Move move) {
  if (move.is_castling()) {
    const chess::Square king = move.from();
    const chess::Square rook = move.to();
    if (king.file() == 4 && (rook.file() == 0 || rook.file() == 7)) {
      const int file = rook.file() == 7 ? 6 : 2;
      return king.name() + chess::Square::at(file, king.rank()).name();
    }
  }
  (void)position;
  return move.uci();
}

std::string score_text(int score) {
  if (play::is_mate_score(score)) return "mate " + std::to_string(play::mate_in_moves(score));
  char text[32];
  std::snprintf(text, sizeof text, "%+.2f", score / 100.0);
  return text;
}

}  // namespace

int run_analyse(const std::vector<std::string>& args, std::FILE* out, std::FILE* err) {
  auto options = parse_play_options(args);
  if (!options) {
    std::fprintf(err, "materialist: analyse: %s\n", options.error().message.c_str());
    return kExitBadOptions;
  }
  if (options->fen.empty()) {
    std::fputs("materialist: analyse needs --fen \"FEN\"\n", err);
    return kExitBadOptions;
  }
  auto position = chess::Position::from_fen(options->fen);
  if (!position) {
    std::fprintf(err, "materialist: analyse: --fen: %s\n", position.error().message.c_str());
    return kExitBadOptions;
  }
  auto values = load_value_set(options->values.empty() ? "classic" : options->values[0]);
  if (!values) {
    std::fprintf(err, "materialist: analyse: --values: %s\n", values.error().message.c_str());
    return kExitBadOptions;
  }
  play::Searcher searcher(*values, options->game.evaluation, options->game.table_entries);
  const play::SearchResult result = searcher.search(*position, {}, options->game.limits);
  std::vector<std::string> pv_san;
  std::vector<std::string> pv_uci;
  chess::Position line = *position;
  for (const chess::Move move : result.pv) {
    pv_san.push_back(chess::to_san(line, move));
    pv_uci.push_back(uci_text(line, move));
    line.play(move);
  }
  const int static_eval = searcher.evaluator().evaluate(*position);
  if (options->json) {
    JsonWriter json;
    json.begin_object();
    json.field("fen", position->fen())
        .field("values", values->values_text())
        .field("set", values->name);
    if (result.best.is_none()) {
      json.key("bestMove").null();
    } else {
      json.key("bestMove")
          .begin_object()
          .field("san", chess::to_san(*position, result.best))
          .field("uci", uci_text(*position, result.best))
          .end_object();
    }
    json.key("score").begin_object();
    if (play::is_mate_score(result.score)) {
      json.field("mate", play::mate_in_moves(result.score));
    } else {
      json.field("cp", result.score);
    }
    json.end_object();
    json.key("pv").begin_array();
    for (const std::string& san : pv_san) json.value(san);
    json.end_array();
    json.key("pvUci").begin_array();
    for (const std::string& uci : pv_uci) json.value(uci);
    json.end_array();
    json.field("depth", result.depth).field("nodes", result.nodes);
    json.field("staticEval", static_eval)
        .field("material", searcher.evaluator().material(*position));
    json.end_object();
    std::fprintf(out, "%s\n", json.str().c_str());
    return kExitOk;
  }
  std::fprintf(out, "values %s (%s), %s\n", values->name.c_str(), values->values_text().c_str(),
               limits_text(options->game.limits).c_str());
  if (result.best.is_none()) {
    std::fprintf(out, "no legal move: %s\n", position->in_check() ? "checkmate" : "stalemate");
    return kExitOk;
  }
  std::fprintf(out, "best move %s (%s), score %s (side to move), depth %d, %llu nodes\npv",
               chess::to_san(*position, result.best).c_str(),
               uci_text(*position, result.best).c_str(), score_text(result.score).c_str(),
               result.depth, static_cast<unsigned long long>(result.nodes));
  for (const std::string& san : pv_san) std::fprintf(out, " %s", san.c_str());
  std::fprintf(out, "\nstatic evaluation %+d cp (side to move), material %+d cp (White)\n",
               static_eval, searcher.evaluator().material(*position));
  return kExitOk;
}

int run_book(const std::vector<std::string>& args, std::FILE* out, std::FILE* err) {
  auto options = parse_play_options(args);
  if (!options) {
    std::fprintf(err, "materialist: book: %s\n", options.error().message.c_str());
    return kExitBadOptions;
  }
  if (options->files.size() != 1) {
    std::fputs("materialist: book needs one PGN or EPD file\n", err);
    return kExitBadOptions;
  }
  auto text = read_text_file(options->files[0]);
  if (!text) {
    std::fprintf(err, "materialist: book: %s\n", text.error().message.c_str());
    return kExitNoResult;
  }
  auto book = play::openings_from_file_text(options->files[0], *text, options->book_plies);
  if (!book) {
    std::fprintf(err, "materialist: book: %s\n", book.error().message.c_str());
    return kExitBadOptions;
  }
  std::fputs(play::book_text(*book).c_str(), out);
  std::fprintf(
      err, "book: %zu openings from %llu games (%llu repeats, %llu too short, %llu unreadable)\n",
      book->openings.size(), static_cast<unsigned long long>(book->games_read),
      static_cast<unsigned long long>(book->duplicates),
      static_cast<unsigned long long>(book->too_short),
      static_cast<unsigned long long>(book->unreadable));
  return kExitOk;
}

}  // namespace materialist::cli
