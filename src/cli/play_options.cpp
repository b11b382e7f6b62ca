#include "cli/play_options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <thread>
#include <type_traits>

#include "cli/argument_error.h"
#include "cli/arguments.h"
#include "cli/cli_threads.h"
#include "cli/option_values.h"
#include "core/text.h"

namespace materialist::cli {


Expected<std::string> read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::kIo, "cannot read '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int play_threads(int jobs) {
  if (!kThreadsAvailable) return 1;
  if (jobs <= 0) jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return jobs;
}

std::string uci_move_text(chess::Move move) {
  if (move.is_castling()) {
    const chess::Square king = move.from();
    const chess::Square rook = move.to();
    if (king.file() == 4 && (rook.file() == 0 || rook.file() == 7)) {
      return king.name() + chess::Square::at(rook.file() == 7 ? 6 : 2, king.rank()).name();
    }
  }
  return move.uci();
}

std::string limits_text(const play::SearchLimits& limits) {
  if (limits.nodes != 0) return std::to_string(limits.nodes) + " nodes a move";
  if (limits.depth != 0) return "depth " + std::to_string(limits.depth) + " a move";
  if (limits.movetime_ms != 0) return std::to_string(limits.movetime_ms) + " ms a move";
  return "depth 1 a move";
}

Expected<play::ValueSet> load_value_set(const std::string& text) {
  if (!ends_with_ignoring_case(text, ".json")) return play::parse_value_set(text);
  std::string name;
  std::string path = text;
  // "NAME:FILE.json", unless the colon is a Windows drive's.
  if (const std::size_t colon = text.find(':'); colon != std::string::npos && colon > 1) {
    name = text.substr(0, colon);
    path = text.substr(colon + 1);
  }
  auto json = read_text_file(path);
  if (!json) return json.error();
  auto set = play::value_set_from_fit_json(*json, name);
  if (!set) return bad_argument("'" + path + "': " + set.error().message);
  if (name.empty()) {
    // The file's name without folders and extension names the set.
    std::string stem = path.substr(path.find_last_of('/') + 1);
    stem = stem.substr(0, stem.size() - 5);
    set->name = stem.empty() ? play::default_name(*set) : stem;
  }
  return set;
}

Expected<play::Book> load_book(const PlayOptions& options) {
  if (options.book_file.empty()) {
    if (options.book_plies != play::kDefaultBookPlies) {
      return bad_argument(
          "--book-plies applies to a --book PGN file (the bundled book is 8 plies)");
    }
    return play::default_book();
  }
  auto text = read_text_file(options.book_file);
  if (!text) return text.error();
  auto book = play::openings_from_file_text(options.book_file, *text, options.book_plies);
  if (!book) return bad_argument("--book '" + options.book_file + "': " + book.error().message);
  return book;
}

namespace {

// The engine's limit: at most one of --nodes, --depth and --movetime.
Expected<std::optional<play::SearchLimits>> limits_of(const Arguments& args) {
  std::optional<play::SearchLimits> limits;
  for (const Opt id : {Opt::kNodes, Opt::kDepth, Opt::kMovetime}) {
    if (!args.has(id)) continue;
    if (limits) return bad_argument("one limit: --nodes, --depth or --movetime");
    const std::int64_t value = args.integer(id, 0);
    limits = play::SearchLimits{};
    if (id == Opt::kNodes) limits->nodes = static_cast<std::uint64_t>(value);
    if (id == Opt::kDepth) limits->depth = static_cast<int>(value);
    if (id == Opt::kMovetime) limits->movetime_ms = static_cast<int>(value);
  }
  return limits;
}

// Adjudication: --draw and --resign rules over the defaults, then the switches that turn
// rules off (whatever their order).
play::Adjudication adjudication_of(const Arguments& args) {
  play::Adjudication rules;
  if (const auto draw = args.text(Opt::kDraw)) rules = *parse_draw_rule(*draw, rules);
  if (const auto resign = args.text(Opt::kResign)) rules = *parse_resign_rule(*resign, rules);
  rules.max_plies = static_cast<int>(args.integer(Opt::kMaxPlies, rules.max_plies));
  if (args.has(Opt::kNoDrawAdjudication)) rules.draw = false;
  if (args.has(Opt::kNoResign)) rules.resign = false;
  if (args.has(Opt::kNoAdjudication)) {
    rules.draw = rules.resign = false;
    rules.max_plies = 0;
  }
  return rules;
}

std::optional<Error> read_sprt(const Arguments& args, PlayOptions& options) {
  if (args.has(Opt::kLogistic) && !args.has(Opt::kSprt))
    return bad_argument("--logistic needs --sprt");
  const auto text = args.text(Opt::kSprt);
  if (!text) return std::nullopt;
  play::SprtSettings sprt = *parse_sprt_text(*text);
  sprt.logistic = args.has(Opt::kLogistic);
  if (auto error = play::validate_sprt(sprt)) return bad_argument("--sprt: " + error->message);
  options.sprt = sprt;
  return std::nullopt;
}

}  // namespace

Expected<PlayOptions> parse_play_options(const std::vector<std::string>& args) {
  const std::optional<Verb> verb = args.empty() ? std::nullopt : verb_named(args[0]);
  if (!verb) return bad_argument("not a play command");
  auto parsed = parse_arguments(*verb, std::span(args).subspan(1));
  if (!parsed) return parsed.error();
  return play_options_from(*parsed);
}

Expected<PlayOptions> play_options_from(const Arguments& args) {
  PlayOptions options;
  options.help = args.help;
  if (args.help) return options;
  options.values = args.all(Opt::kValues);
  options.opponents = args.all(Opt::kVs);
  options.round_robin = args.has(Opt::kRoundRobin);
  options.pairs = static_cast<int>(args.integer(Opt::kPairs, options.pairs));
  options.rounds = static_cast<int>(args.integer(Opt::kRounds, options.rounds));
  auto limits = limits_of(args);
  if (!limits) return limits.error();
  // One position, not a match: a deeper default.
  if (*limits) {
    options.game.limits = **limits;
  } else if (args.verb == Verb::kAnalyse) {
    options.game.limits = {.nodes = 1000000};
  }
  options.game.evaluation.material_only = args.has(Opt::kMaterialOnly);
  if (args.has(Opt::kHashMb)) {
    options.game.table_entries = static_cast<std::size_t>(args.integer(Opt::kHashMb, 1)) << 16;
  }
  options.game.adjudication = adjudication_of(args);
  if (auto error = read_sprt(args, options)) return *error;
  options.seed = static_cast<std::uint64_t>(args.integer(Opt::kSeed, 1));
  options.jobs = static_cast<int>(args.integer(Opt::kJobs, 0));
  options.book_file = args.text_or(Opt::kBook, "");
  options.book_plies = static_cast<int>(args.integer(Opt::kBookPlies, options.book_plies));
  options.pgn_out = args.text_or(Opt::kPgn, "");
  options.out_dir = args.text_or(Opt::kOut, "");
  options.fen = args.text_or(Opt::kFen, "");
  options.json = args.has(Opt::kJson);
  options.progress = !args.has(Opt::kNoProgress);
  options.files = args.operands;
  return options;
}

}  // namespace materialist::cli
