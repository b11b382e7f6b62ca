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

namespace {

// Walks argv: the current flag, and the values that follow it.
class ArgReader {
 public:
  explicit ArgReader(const std::vector<std::string>& args) : args_(args) {}
  bool next_flag() { return ++at_ < args_.size(); }
  const std::string& flag() const { return args_[at_]; }
  Expected<std::string> value(const char* what) {
    if (at_ + 1 >= args_.size() || args_[at_ + 1].empty()) return bad(flag() + " needs " + what);
    return args_[++at_];
  }
  Expected<std::int64_t> integer(std::int64_t minimum, std::int64_t maximum) {
    const std::string name = flag();
    auto text = value("a value");
    if (!text) return text.error();
    const auto number = parse_integer(*text, minimum, maximum);
    if (!number) {
      return bad(name + " '" + *text + "': a whole number from " + std::to_string(minimum) +
                 " to " + std::to_string(maximum));
    }
    return *number;
  }

 private:
  const std::vector<std::string>& args_;
  std::size_t at_ = 0;  // args_[0] is the command
};

// Each reads one group's flags: true when the flag was its own, an error when its value is bad.
Expected<bool> read_set_flag(ArgReader& reader, PlayOptions& options) {
  const std::string flag = reader.flag();
  if (flag != "--values" && flag != "--vs") return false;
  auto text = reader.value("P,N,B,R,Q, a named set or a fit's .json");
  if (!text) return text.error();
  if (flag == "--values" && !options.values.empty()) {
    return bad("--values is given once (the set under test); add opponents with --vs");
  }
  (flag == "--values" ? options.values : options.opponents).push_back(*text);
  return true;
}

Expected<bool> read_engine_flag(ArgReader& reader, PlayOptions& options, bool& limit_given) {
  const std::string flag = reader.flag();
  if (flag == "--nodes" || flag == "--depth" || flag == "--movetime") {
    if (limit_given) return bad("one limit: --nodes, --depth or --movetime");
    limit_given = true;
    auto value = reader.integer(1, flag == "--depth"      ? 100
                                   : flag == "--movetime" ? 600000
                                                          : 1000000000);
    if (!value) return value.error();
    options.game.limits = {};
    if (flag == "--nodes") options.game.limits.nodes = static_cast<std::uint64_t>(*value);
    if (flag == "--depth") options.game.limits.depth = static_cast<int>(*value);
    if (flag == "--movetime") options.game.limits.movetime_ms = static_cast<int>(*value);
  } else if (flag == "--material-only") {
    options.game.evaluation.material_only = true;
  } else if (flag == "--hash-mb") {
    auto value = reader.integer(1, 1024);
    if (!value) return value.error();
    options.game.table_entries = static_cast<std::size_t>(*value) << 16;  // 16 bytes each
  } else {
    return false;
  }
  return true;
}

Expected<bool> read_adjudication_flag(ArgReader& reader, play::Adjudication& rules) {
  const std::string flag = reader.flag();
  if (flag == "--no-adjudication") {
    rules.draw = rules.resign = false;
    rules.max_plies = 0;
  } else if (flag == "--no-draw-adjudication") {
    rules.draw = false;
  } else if (flag == "--no-resign") {
    rules.resign = false;
  } else if (flag == "--draw" || flag == "--resign") {
    auto text = reader.value("KEY=N,...");
    if (!text) return text.error();
    if (auto error = parse_adjudication(flag, *text, rules)) return *error;
    (flag == "--draw" ? rules.draw : rules.resign) = true;
  } else if (flag == "--max-plies") {
    auto value = reader.integer(0, 100000);
    if (!value) return value.error();
    rules.max_plies = static_cast<int>(*value);
  } else {
    return false;
  }
  return true;
}

Expected<bool> read_sprt_flag(ArgReader& reader, PlayOptions& options) {
  const std::string flag = reader.flag();
  if (flag == "--sprt") {
    auto text = reader.value("ELO0,ELO1[,ALPHA,BETA]");
    if (!text) return text.error();
    auto sprt = parse_sprt_text(*text);
    if (!sprt) return sprt.error();
    if (auto error = play::validate_sprt(*sprt)) return bad("--sprt: " + error->message);
    options.sprt = *sprt;
  } else if (flag == "--logistic") {
    if (!options.sprt)
      return bad("--logistic comes after --sprt (it sets the SPRT's bounds' kind)");
    options.sprt->logistic = true;
    if (auto error = play::validate_sprt(*options.sprt)) return bad("--sprt: " + error->message);
  } else {
    return false;
  }
  return true;
}

Expected<bool> read_run_flag(ArgReader& reader, PlayOptions& options) {
  const std::string flag = reader.flag();
  auto whole = [&](std::int64_t minimum, std::int64_t maximum, auto& field) -> Expected<bool> {
    auto value = reader.integer(minimum, maximum);
    if (!value) return value.error();
    field = static_cast<std::remove_reference_t<decltype(field)>>(*value);
    return true;
  };
  auto text = [&](std::string& field) -> Expected<bool> {
    auto value = reader.value("a value");
    if (!value) return value.error();
    field = *value;
    return true;
  };
  if (flag == "--pairs") return whole(1, 1000000, options.pairs);
  if (flag == "--rounds") return whole(1, 1000, options.rounds);
  if (flag == "--seed") return whole(0, std::numeric_limits<std::int64_t>::max(), options.seed);
  if (flag == "-j" || flag == "--jobs") return whole(0, 1024, options.jobs);
  if (flag == "--book-plies") return whole(0, 40, options.book_plies);
  if (flag == "--book") return text(options.book_file);
  if (flag == "--pgn") return text(options.pgn_out);
  if (flag == "--out") return text(options.out_dir);
  if (flag == "--fen") return text(options.fen);
  if (flag == "--round-robin") {
    options.round_robin = true;
  } else if (flag == "--json") {
    options.json = true;
  } else if (flag == "--no-progress") {
    options.progress = false;
  } else {
    return false;
  }
  return true;
}

}  // namespace

Expected<PlayOptions> parse_play_options(const std::vector<std::string>& args) {
  PlayOptions options;
  bool limit_given = false;
  ArgReader reader(args);
  while (reader.next_flag()) {
    Expected<bool> read = read_set_flag(reader, options);
    if (read && !*read) read = read_engine_flag(reader, options, limit_given);
    if (read && !*read) read = read_adjudication_flag(reader, options.game.adjudication);
    if (read && !*read) read = read_sprt_flag(reader, options);
    if (read && !*read) read = read_run_flag(reader, options);
    if (!read) return read.error();
    if (*read) continue;
    const std::string& arg = reader.flag();
    if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return bad("unknown option '" + arg + "' (see materialist --help)");
    }
    options.files.push_back(arg);
  }
  // One position, not a match: a deeper default.
  if (!args.empty() && args[0] == "analyse" && !limit_given)
    options.game.limits = {.nodes = 1000000};
  return options;
}

}  // namespace materialist::cli
