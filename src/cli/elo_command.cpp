#include "cli/elo_command.h"

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "cli/play_options.h"
#include "core/error.h"
#include "core/json.h"
#include "core/text.h"
#include "play/match_stats.h"
#include "play/rating_table.h"

namespace materialist::cli {

namespace {

constexpr const char* kEloUsage =
    "usage: materialist elo --penta N0,N1,N2,N3,N4 [--wdl W,D,L] [--sprt ELO0,ELO1[,ALPHA,BETA]]\n"
    "                       [--logistic] [--json]\n"
    "       materialist elo --wdl W,D,L [--sprt ...] [--logistic] [--json]\n"
    "       materialist elo --sets N (--pair I,J,W,D,L | --pair-penta I,J,N0,...,N4)...\n"
    "                       [--anchor I] [--level ELO] [--json]\n"
    "--penta: game pairs scoring 0, 1/2, 1, 1 1/2, 2 for the first side; --wdl: its wins, draws,\n"
    "losses. --sprt: the generalized SPRT with bounds in normalized Elo (logistic with\n"
    "--logistic), alpha and beta 0.05 by default. --sets: ratings of N sets from pairwise\n"
    "results (I's view), mean --level (0) or set --anchor at --level.\n";

struct EloArgs {
  std::optional<play::Pentanomial> penta;
  std::optional<play::GameCounts> wdl;
  std::optional<play::SprtSettings> sprt;
  bool logistic = false;
  bool json = false;
  std::optional<std::size_t> sets;
  std::vector<play::TableResult> pairs;
  std::optional<std::size_t> anchor;
  double level = 0;
  bool help = false;
};

Error bad(std::string message) {
  return make_error(ErrorCode::kInvalidArgument, message);
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) return parts;
    start = comma + 1;
  }
}

Expected<std::uint64_t> count_of(const std::string& flag, const std::string& text) {
  const std::optional<std::int64_t> value =
      parse_integer(trim(text), 0, static_cast<std::int64_t>(play::kMaxGames));
  if (!value) {
    return bad(flag + " expects whole numbers from 0 to 2^52, got '" + printable(text) + "'");
  }
  return static_cast<std::uint64_t>(*value);
}

Expected<double> number_of(const std::string& flag, const std::string& text) {
  const std::string trimmed(trim(text));
  char* end = nullptr;
  const double value = std::strtod(trimmed.c_str(), &end);
  if (trimmed.empty() || end != trimmed.c_str() + trimmed.size() || !std::isfinite(value)) {
    return bad(flag + " expects finite numbers, got '" + printable(text) + "'");
  }
  return value;
}

// `text` as exactly `n` counts (or n_min..n_max numbers for the SPRT).
Expected<std::vector<std::uint64_t>> counts_of(const std::string& flag, const std::string& text,
                                               std::size_t n) {
  const std::vector<std::string> parts = split_commas(text);
  if (parts.size() != n) {
    return bad(flag + " expects " + std::to_string(n) + " comma-separated counts, got '" +
               printable(text) + "'");
  }
  std::vector<std::uint64_t> values;
  for (const std::string& part : parts) {
    const Expected<std::uint64_t> value = count_of(flag, part);
    if (!value) return value.error();
    values.push_back(*value);
  }
  return values;
}

// A set index below 1000 (rate_sets' limit; --sets checks the range).
Expected<std::size_t> index_of(const std::string& flag, std::uint64_t value) {
  if (value >= 1000) return bad(flag + ": set indices go up to 999");
  return static_cast<std::size_t>(value);
}

Expected<play::TableResult> pair_of(const std::string& flag, const std::string& text, bool penta) {
  const Expected<std::vector<std::uint64_t>> v = counts_of(flag, text, penta ? 7 : 5);
  if (!v) return v.error();
  const Expected<std::size_t> i = index_of(flag, (*v)[0]), j = index_of(flag, (*v)[1]);
  if (!i) return i.error();
  if (!j) return j.error();
  if (penta) {
    play::Pentanomial p;
    for (std::size_t k = 0; k < 5; ++k) p.counts[k] = (*v)[2 + k];
    return play::table_result(*i, *j, p);
  }
  return play::table_result(*i, *j, play::GameCounts{(*v)[2], (*v)[3], (*v)[4]});
}

Expected<EloArgs> parse_elo_args(const std::vector<std::string>& args) {
  EloArgs parsed;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string flag = args[i];
    std::optional<std::string> inline_value;
    if (const std::size_t eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != flag.npos) {
      inline_value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    const bool takes_value = flag == "--penta" || flag == "--wdl" || flag == "--sprt" ||
                             flag == "--sets" || flag == "--pair" || flag == "--pair-penta" ||
                             flag == "--anchor" || flag == "--level";
    if (!takes_value) {
      if (inline_value) return bad(flag + " takes no value");
      if (flag == "--json") {
        parsed.json = true;
      } else if (flag == "--logistic") {
        parsed.logistic = true;
      } else if (flag == "--help" || flag == "-h") {
        parsed.help = true;
      } else {
        return bad("unknown option '" + printable(flag) + "'");
      }
      continue;
    }
    if (!inline_value && i + 1 >= args.size()) return bad(flag + " needs a value");
    const std::string value = inline_value ? *inline_value : args[++i];
    if (flag == "--penta") {
      const Expected<std::vector<std::uint64_t>> v = counts_of(flag, value, 5);
      if (!v) return v.error();
      play::Pentanomial p;
      for (std::size_t k = 0; k < 5; ++k) p.counts[k] = (*v)[k];
      parsed.penta = p;
    } else if (flag == "--wdl") {
      const Expected<std::vector<std::uint64_t>> v = counts_of(flag, value, 3);
      if (!v) return v.error();
      parsed.wdl = play::GameCounts{(*v)[0], (*v)[1], (*v)[2]};
    } else if (flag == "--sprt") {
      Expected<play::SprtSettings> settings = parse_sprt_text(value);
      if (!settings) return settings.error();
      parsed.sprt = *settings;
    } else if (flag == "--sets") {
      const std::optional<std::int64_t> n = parse_integer(trim(value), 2, 1000);
      if (!n) return bad("--sets expects a whole number from 2 to 1000, got '" + value + "'");
      parsed.sets = static_cast<std::size_t>(*n);
    } else if (flag == "--pair" || flag == "--pair-penta") {
      const Expected<play::TableResult> pair = pair_of(flag, value, flag == "--pair-penta");
      if (!pair) return pair.error();
      parsed.pairs.push_back(*pair);
    } else if (flag == "--anchor") {
      const Expected<std::uint64_t> v = count_of(flag, value);
      if (!v) return v.error();
      const Expected<std::size_t> anchor = index_of(flag, *v);
      if (!anchor) return anchor.error();
      parsed.anchor = *anchor;
    } else {  // --level
      const Expected<double> level = number_of(flag, value);
      if (!level) return level.error();
      parsed.level = *level;
    }
  }
  if (parsed.help) return parsed;
  if (parsed.sets) {
    if (parsed.penta || parsed.wdl || parsed.sprt || parsed.logistic) {
      return bad("--sets rates a table: --penta, --wdl, --sprt and --logistic do not apply");
    }
    if (parsed.pairs.empty()) return bad("--sets needs --pair or --pair-penta results");
    return parsed;
  }
  if (!parsed.pairs.empty() || parsed.anchor) return bad("--pair and --anchor need --sets N");
  if (!parsed.penta && !parsed.wdl) return bad("give --penta N0,N1,N2,N3,N4 or --wdl W,D,L");
  if (parsed.logistic && !parsed.sprt) return bad("--logistic needs --sprt");
  if (parsed.sprt) {
    parsed.sprt->logistic = parsed.logistic;
    if (const std::optional<Error> invalid = play::validate_sprt(*parsed.sprt)) return *invalid;
  }
  return parsed;
}

int fail(std::FILE* err, const Error& error) {
  std::fprintf(err, "materialist elo: %s\n", error.message.c_str());
  return error.code == ErrorCode::kNotConverged ? kExitNoResult : kExitBadOptions;
}

int run_table(const EloArgs& args, std::FILE* out, std::FILE* err) {
  play::RatingOptions options;
  options.anchor = args.anchor;
  options.level = args.level;
  const Expected<play::RatingTable> table = play::rate_sets(*args.sets, args.pairs, options);
  if (!table) return fail(err, table.error());
  if (args.json) {
    JsonWriter json;
    json.begin_object();
    json.field("sets", static_cast<std::uint64_t>(*args.sets));
    play::write_rating_table_fields(json, *table);
    json.end_object();
    std::fprintf(out, "%s\n", json.str().c_str());
  } else {
    std::fputs(play::format_rating_table_text(*table).c_str(), out);
  }
  return kExitOk;
}

}  // namespace

int run_elo(const std::vector<std::string>& args, std::FILE* out, std::FILE* err) {
  const Expected<EloArgs> parsed = parse_elo_args(args);
  if (!parsed) {
    fail(err, parsed.error());
    std::fputs(kEloUsage, err);
    return kExitBadOptions;
  }
  if (parsed->help) {
    std::fputs(kEloUsage, out);
    return kExitOk;
  }
  if (parsed->sets) return run_table(*parsed, out, err);
  const Expected<play::Estimate> estimate = parsed->penta
                                                ? play::estimate_pairs(*parsed->penta, parsed->wdl)
                                                : play::estimate_games(*parsed->wdl);
  if (!estimate) return fail(err, estimate.error());
  std::optional<play::SprtResult> sprt;
  if (parsed->sprt) {
    // The pairs when paired (fishtest's pentanomial LLR), else the games.
    const Expected<play::SprtResult> result = parsed->penta
                                                  ? play::run_sprt(*parsed->sprt, *parsed->penta)
                                                  : play::run_sprt(*parsed->sprt, *parsed->wdl);
    if (!result) return fail(err, result.error());
    sprt = *result;
  }
  if (parsed->json) {
    JsonWriter json;
    json.begin_object();
    play::write_estimate_fields(json, *estimate, sprt);
    json.end_object();
    std::fprintf(out, "%s\n", json.str().c_str());
  } else {
    std::fputs(play::format_estimate_text(*estimate, sprt).c_str(), out);
  }
  return kExitOk;
}

}  // namespace materialist::cli
