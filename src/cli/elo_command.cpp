#include "cli/elo_command.h"

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/argument_error.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/help.h"
#include "cli/option_values.h"
#include "cli/play_options.h"
#include "core/error.h"
#include "core/json.h"
#include "core/text.h"
#include "play/match_stats.h"
#include "play/rating_table.h"

namespace materialist::cli {

namespace {

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

std::vector<std::uint64_t> counts(const std::string& text, std::size_t n) {
  return *parse_counts(text, n);  // checked while parsing
}

play::TableResult table_result_of(const std::string& text, bool penta) {
  const std::vector<std::uint64_t> v = counts(text, penta ? 7 : 5);
  const auto i = static_cast<std::size_t>(v[0]), j = static_cast<std::size_t>(v[1]);
  if (penta) {
    play::Pentanomial p;
    for (std::size_t k = 0; k < 5; ++k) p.counts[k] = v[2 + k];
    return play::table_result(i, j, p);
  }
  return play::table_result(i, j, play::GameCounts{v[2], v[3], v[4]});
}

// The rules between options, once every value has passed its own.
Expected<EloArgs> elo_args_from(const Arguments& args) {
  EloArgs parsed;
  parsed.json = args.has(Opt::kJson);
  parsed.logistic = args.has(Opt::kLogistic);
  if (const auto text = args.text(Opt::kPenta)) {
    const auto v = counts(*text, 5);
    play::Pentanomial p;
    for (std::size_t k = 0; k < 5; ++k) p.counts[k] = v[k];
    parsed.penta = p;
  }
  if (const auto text = args.text(Opt::kWdl)) {
    const auto v = counts(*text, 3);
    parsed.wdl = play::GameCounts{v[0], v[1], v[2]};
  }
  if (const auto text = args.text(Opt::kSprt)) parsed.sprt = *parse_sprt_text(*text);
  if (args.has(Opt::kSets)) parsed.sets = static_cast<std::size_t>(args.integer(Opt::kSets, 2));
  for (const auto& [id, value] : args.given) {
    if (id == Opt::kPair || id == Opt::kPairPenta) {
      parsed.pairs.push_back(table_result_of(value, id == Opt::kPairPenta));
    }
  }
  if (args.has(Opt::kAnchor))
    parsed.anchor = static_cast<std::size_t>(args.integer(Opt::kAnchor, 0));
  parsed.level = args.number(Opt::kLevel, 0);
  if (parsed.sets) {
    if (parsed.penta || parsed.wdl || parsed.sprt || parsed.logistic) {
      return bad_argument(
          "--sets rates a table: --penta, --wdl, --sprt and --logistic do not apply");
    }
    if (parsed.pairs.empty()) return bad_argument("--sets needs --pair or --pair-penta results");
    return parsed;
  }
  if (!parsed.pairs.empty() || parsed.anchor)
    return bad_argument("--pair and --anchor need --sets N");
  if (!parsed.penta && !parsed.wdl)
    return bad_argument("give --penta N0,N1,N2,N3,N4 or --wdl W,D,L");
  if (parsed.logistic && !parsed.sprt) return bad_argument("--logistic needs --sprt");
  if (parsed.sprt) {
    parsed.sprt->logistic = parsed.logistic;
    if (const std::optional<Error> invalid = play::validate_sprt(*parsed.sprt)) {
      return bad_argument("--sprt: " + invalid->message);
    }
  }
  return parsed;
}

Expected<EloArgs> parse_elo_args(const std::vector<std::string>& args) {
  auto parsed = parse_arguments(Verb::kElo, std::span(args).subspan(1));
  if (!parsed) return parsed.error();
  if (parsed->help) {
    EloArgs help;
    help.help = true;
    return help;
  }
  return elo_args_from(*parsed);
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
    std::fprintf(err, "materialist elo: %s\n", parsed.error().message.c_str());
    return kExitBadOptions;
  }
  if (parsed->help) {
    std::fputs(command_help(Verb::kElo).c_str(), out);
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
