#include "cli/play_options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <thread>

#include "core/text.h"

namespace materialist::cli {

namespace {

constexpr bool kThreadsAvailable = MATERIALIST_CLI_THREADS != 0;

Error bad(std::string message) {
  return make_error(ErrorCode::kInvalidArgument, std::move(message));
}

std::optional<double> parse_real(std::string_view text) {
  const std::string copy(trim(text));
  if (copy.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

// "movenumber=40,movecount=8,score=10" into the adjudication's fields.
std::optional<Error> parse_adjudication(const std::string& flag, std::string_view text,
                                        play::Adjudication& rules) {
  for (const auto part : split(text, ',')) {
    const std::size_t equals = part.find('=');
    const std::string_view key = trim(part.substr(0, equals));
    const auto number = equals == std::string_view::npos
                            ? std::nullopt
                            : parse_int(trim(part.substr(equals + 1)), 0, 1000000);
    if (!number) return bad(flag + " '" + std::string(text) + "': KEY=N, comma-separated");
    if (flag == "--draw" && key == "movenumber") {
      rules.draw_move_number = *number;
    } else if (flag == "--draw" && key == "movecount") {
      rules.draw_move_count = *number;
    } else if (flag == "--draw" && key == "score") {
      rules.draw_score = *number;
    } else if (flag == "--resign" && key == "movecount") {
      rules.resign_move_count = *number;
    } else if (flag == "--resign" && key == "score") {
      rules.resign_score = *number;
    } else {
      return bad(flag + ": unknown key '" + std::string(key) + "' (" +
                 (flag == "--draw" ? "movenumber, movecount, score" : "movecount, score") + ")");
    }
  }
  return std::nullopt;
}

}  // namespace

Expected<play::SprtSettings> parse_sprt_text(std::string_view text) {
  const auto parts = split(text, ',');
  if (parts.size() != 2 && parts.size() != 4) {
    return bad("--sprt '" + std::string(text) + "': ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA");
  }
  std::vector<double> numbers;
  for (const auto part : parts) {
    const auto number = parse_real(part);
    if (!number) {
      return bad("--sprt '" + std::string(text) + "': '" + std::string(part) + "' is not a number");
    }
    numbers.push_back(*number);
  }
  play::SprtSettings sprt;
  sprt.elo0 = numbers[0];
  sprt.elo1 = numbers[1];
  if (numbers.size() == 4) {
    sprt.alpha = numbers[2];
    sprt.beta = numbers[3];
  }
  return sprt;
}

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
  if (!set) return bad("'" + path + "': " + set.error().message);
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
      return bad("--book-plies applies to a --book PGN file (the bundled book is 8 plies)");
    }
    return play::default_book();
  }
  auto text = read_text_file(options.book_file);
  if (!text) return text.error();
  auto book = play::openings_from_file_text(options.book_file, *text, options.book_plies);
  if (!book) return bad("--book '" + options.book_file + "': " + book.error().message);
  return book;
}

Expected<PlayOptions> parse_play_options(const std::vector<std::string>& args) {
  PlayOptions options;
  const bool analyse = !args.empty() && args[0] == "analyse";
  bool limit_given = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto next = [&]() -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      return args[++i];
    };
    auto integer = [&](std::int64_t minimum, std::int64_t maximum) -> Expected<std::int64_t> {
      const auto text = next();
      if (!text) return bad(arg + " needs a value");
      const auto value = parse_integer(*text, minimum, maximum);
      if (!value) {
        return bad(arg + " '" + *text + "': a whole number from " + std::to_string(minimum) +
                   " to " + std::to_string(maximum));
      }
      return *value;
    };
    if (arg == "--values" || arg == "--vs") {
      const auto text = next();
      if (!text) return bad(arg + " needs P,N,B,R,Q, a named set or a fit's .json");
      if (arg == "--values" && !options.values.empty()) {
        return bad("--values is given once (the set under test); add opponents with --vs");
      }
      (arg == "--values" ? options.values : options.opponents).push_back(*text);
    } else if (arg == "--round-robin") {
      options.round_robin = true;
    } else if (arg == "--pairs" || arg == "--rounds") {
      auto value = integer(1, 1000000);
      if (!value) return value.error();
      (arg == "--pairs" ? options.pairs : options.rounds) = static_cast<int>(*value);
    } else if (arg == "--nodes" || arg == "--depth" || arg == "--movetime") {
      if (limit_given) return bad("one limit: --nodes, --depth or --movetime");
      limit_given = true;
      auto value = integer(1, arg == "--depth" ? 100 : arg == "--movetime" ? 600000 : 1000000000);
      if (!value) return value.error();
      options.game.limits = {};
      if (arg == "--nodes") options.game.limits.nodes = static_cast<std::uint64_t>(*value);
      if (arg == "--depth") options.game.limits.depth = static_cast<int>(*value);
      if (arg == "--movetime") options.game.limits.movetime_ms = static_cast<int>(*value);
    } else if (arg == "--material-only") {
      options.game.evaluation.material_only = true;
    } else if (arg == "--hash-mb") {
      auto value = integer(1, 1024);
      if (!value) return value.error();
      options.game.table_entries = static_cast<std::size_t>(*value) << 16;  // 16 bytes each
    } else if (arg == "--no-adjudication") {
      options.game.adjudication.draw = false;
      options.game.adjudication.resign = false;
      options.game.adjudication.max_plies = 0;
    } else if (arg == "--no-draw-adjudication") {
      options.game.adjudication.draw = false;
    } else if (arg == "--no-resign") {
      options.game.adjudication.resign = false;
    } else if (arg == "--draw" || arg == "--resign") {
      const auto text = next();
      if (!text) return bad(arg + " needs KEY=N,...");
      if (auto error = parse_adjudication(arg, *text, options.game.adjudication)) return *error;
      (arg == "--draw" ? options.game.adjudication.draw : options.game.adjudication.resign) = true;
    } else if (arg == "--max-plies") {
      auto value = integer(0, 100000);
      if (!value) return value.error();
      options.game.adjudication.max_plies = static_cast<int>(*value);
    } else if (arg == "--seed") {
      auto value = integer(0, std::numeric_limits<std::int64_t>::max());
      if (!value) return value.error();
      options.seed = static_cast<std::uint64_t>(*value);
    } else if (arg == "-j" || arg == "--jobs") {
      auto value = integer(0, 1024);
      if (!value) return value.error();
      options.jobs = static_cast<int>(*value);
    } else if (arg == "--sprt") {
      const auto text = next();
      if (!text) return bad("--sprt needs ELO0,ELO1[,ALPHA,BETA]");
      auto sprt = parse_sprt_text(*text);
      if (!sprt) return sprt.error();
      if (auto error = play::validate_sprt(*sprt)) return bad("--sprt: " + error->message);
      options.sprt = *sprt;
    } else if (arg == "--logistic") {
      if (!options.sprt)
        return bad("--logistic comes after --sprt (it sets the SPRT's bounds' kind)");
      options.sprt->logistic = true;
      if (auto error = play::validate_sprt(*options.sprt)) return bad("--sprt: " + error->message);
    } else if (arg == "--book" || arg == "--pgn" || arg == "--out" || arg == "--fen") {
      const auto text = next();
      if (!text || text->empty()) return bad(arg + " needs a value");
      if (arg == "--book") options.book_file = *text;
      if (arg == "--pgn") options.pgn_out = *text;
      if (arg == "--out") options.out_dir = *text;
      if (arg == "--fen") options.fen = *text;
    } else if (arg == "--book-plies") {
      auto value = integer(0, 40);
      if (!value) return value.error();
      options.book_plies = static_cast<int>(*value);
    } else if (arg == "--json") {
      options.json = true;
    } else if (arg == "--no-progress") {
      options.progress = false;
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return bad("unknown option '" + arg + "' (see materialist --help)");
    } else {
      options.files.push_back(arg);
    }
  }
  if (analyse && !limit_given) options.game.limits = {.nodes = 1000000};
  return options;
}

}  // namespace materialist::cli
