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

std::string score_text(int score) {
  if (play::is_mate_score(score)) return "mate " + std::to_string(play::mate_in_moves(score));
  char text[32];
  std::snprintf(text, sizeof text, "%+.2f", score / 100.0);
  return text;
}

}  // namespace

namespace {

// One value set's view of the position.
struct Analysis {
  play::ValueSet set;
  play::SearchResult result;
  std::vector<std::string> pv_san;
  std::vector<std::string> pv_uci;
  int static_eval = 0;  // the side to move's point of view
  int material = 0;     // White's point of view
};

Analysis analyse_with(const play::ValueSet& set, const chess::Position& position,
                      const PlayOptions& options) {
  Analysis analysis;
  analysis.set = set;
  play::Searcher searcher(set, options.game.evaluation, options.game.table_entries);
  analysis.result = searcher.search(position, {}, options.game.limits);
  chess::Position line = position;
  for (const chess::Move move : analysis.result.pv) {
    analysis.pv_san.push_back(chess::to_san(line, move));
    analysis.pv_uci.push_back(uci_move_text(move));
    line.play(move);
  }
  analysis.static_eval = searcher.evaluator().evaluate(position);
  analysis.material = searcher.evaluator().material(position);
  return analysis;
}

void write_analysis_fields(JsonWriter& json, const Analysis& analysis,
                           const chess::Position& position) {
  json.field("values", analysis.set.values_text()).field("set", analysis.set.name);
  const play::SearchResult& result = analysis.result;
  if (result.best.is_none()) {
    json.key("bestMove").null();
  } else {
    json.key("bestMove")
        .begin_object()
        .field("san", chess::to_san(position, result.best))
        .field("uci", uci_move_text(result.best))
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
  for (const std::string& san : analysis.pv_san) json.value(san);
  json.end_array();
  json.key("pvUci").begin_array();
  for (const std::string& uci : analysis.pv_uci) json.value(uci);
  json.end_array();
  json.field("depth", result.depth).field("nodes", result.nodes);
  json.field("staticEval", analysis.static_eval).field("material", analysis.material);
}

void write_analysis_text(std::FILE* out, const Analysis& analysis,
                         const chess::Position& position) {
  std::fprintf(out, "%s (%s):\n", analysis.set.name.c_str(), analysis.set.values_text().c_str());
  const play::SearchResult& result = analysis.result;
  if (result.best.is_none()) {
    std::fprintf(out, "  no legal move: %s\n", position.in_check() ? "checkmate" : "stalemate");
    return;
  }
  std::fprintf(out, "  best move %s (%s), score %s (side to move), depth %d, %llu nodes\n  pv",
               chess::to_san(position, result.best).c_str(), uci_move_text(result.best).c_str(),
               score_text(result.score).c_str(), result.depth,
               static_cast<unsigned long long>(result.nodes));
  for (const std::string& san : analysis.pv_san) std::fprintf(out, " %s", san.c_str());
  std::fprintf(out, "\n  static evaluation %+d cp (side to move), material %+d cp (White)\n",
               analysis.static_eval, analysis.material);
}

}  // namespace

int run_analyse(const std::vector<std::string>& args, std::FILE* out, std::FILE* err) {
  auto options = parse_play_options(args);
  if (!options) {
    std::fprintf(err, "materialist analyse: %s\n", options.error().message.c_str());
    return kExitBadOptions;
  }
  if (options->fen.empty()) {
    std::fputs("materialist analyse: needs --fen \"FEN\"\n", err);
    return kExitBadOptions;
  }
  auto position = chess::Position::from_fen(options->fen);
  if (!position) {
    std::fprintf(err, "materialist analyse: --fen: %s\n", position.error().message.c_str());
    return kExitBadOptions;
  }
  // --values (default: classic), then each --vs: what a set changes is seen side by side.
  std::vector<std::string> texts = {options->values.empty() ? "classic" : options->values[0]};
  texts.insert(texts.end(), options->opponents.begin(), options->opponents.end());
  std::vector<Analysis> analyses;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    auto set = load_value_set(texts[i]);
    if (!set) {
      std::fprintf(err, "materialist analyse: %s: %s\n", i == 0 ? "--values" : "--vs",
                   set.error().message.c_str());
      return kExitBadOptions;
    }
    analyses.push_back(analyse_with(*set, *position, *options));
  }
  if (options->json) {
    JsonWriter json;
    json.begin_object().field("fen", position->fen());
    write_analysis_fields(json, analyses.front(), *position);
    if (analyses.size() > 1) {
      json.key("vs").begin_array();
      for (std::size_t i = 1; i < analyses.size(); ++i) {
        json.begin_object();
        write_analysis_fields(json, analyses[i], *position);
        json.end_object();
      }
      json.end_array();
    }
    json.end_object();
    std::fprintf(out, "%s\n", json.str().c_str());
    return kExitOk;
  }
  std::fprintf(out, "%s, %s\n", position->fen().c_str(), limits_text(options->game.limits).c_str());
  for (const Analysis& analysis : analyses) write_analysis_text(out, analysis, *position);
  return kExitOk;
}

int run_book(const std::vector<std::string>& args, std::FILE* out, std::FILE* err) {
  auto options = parse_play_options(args);
  if (!options) {
    std::fprintf(err, "materialist book: %s\n", options.error().message.c_str());
    return kExitBadOptions;
  }
  if (options->files.size() != 1) {
    std::fputs("materialist book: needs one PGN or EPD file\n", err);
    return kExitBadOptions;
  }
  auto text = read_text_file(options->files[0]);
  if (!text) {
    std::fprintf(err, "materialist book: %s\n", text.error().message.c_str());
    return kExitNoResult;
  }
  auto book = play::openings_from_file_text(options->files[0], *text, options->book_plies);
  if (!book) {
    std::fprintf(err, "materialist book: %s\n", book.error().message.c_str());
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
