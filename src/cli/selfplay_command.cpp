// `materialist selfplay`: the founding article's proposal, training on the engine's own games.
// Round r plays the values learned in round r−1 against the start values (round 1: the start
// values against themselves), writes the games, and fits them with `fit`'s defaults: the fit's
// values are the next round's. Each round prints the values and how the round's set scored.
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "cli/commands.h"
#include "cli/match_command.h"
#include "cli/play_options.h"
#include "core/json.h"
#include "play/match_report.h"

namespace materialist::cli {

namespace {

struct Round {
  play::ValueSet played;
  std::optional<play::Estimate> estimate;
  play::ValueSet learned;
  std::uint64_t games = 0;
  int largest_change = 0;  // centipawns, from the played set to the learned one
  std::string pgn;
};

// Fits the round's games as `materialist fit --json FILE` does and reads its values back.
Expected<play::ValueSet> fit_games(const std::string& pgn_path, const std::string& name,
                                   const play::ValueSet& previous) {
  std::FILE* json = std::tmpfile();
  std::FILE* messages = std::tmpfile();
  if (json == nullptr || messages == nullptr) {
    if (json != nullptr) std::fclose(json);
    if (messages != nullptr) std::fclose(messages);
    return make_error(ErrorCode::kIo, "cannot make a temporary file for the fit");
  }
  const int status = run_command({"fit", "--json", "--no-progress", pgn_path}, json, messages);
  std::string text;
  std::rewind(json);
  char buffer[4096];
  std::size_t read = 0;
  while ((read = std::fread(buffer, 1, sizeof buffer, json)) > 0) text.append(buffer, read);
  std::fclose(json);
  std::fclose(messages);
  if (status != kExitOk) {
    return make_error(ErrorCode::kInvalidArgument,
                      "the fit of " + pgn_path + " failed (exit " + std::to_string(status) + ")");
  }
  // A piece the round's games cannot identify keeps its value.
  return play::value_set_from_fit_json(text, name, &previous);
}

int largest_change(const play::ValueSet& from, const play::ValueSet& to) {
  int largest = 0;
  for (int piece = 0; piece < learn::kPieceKinds; ++piece) {
    largest = std::max(largest, std::abs(to.middlegame[piece] - from.middlegame[piece]));
  }
  return largest;
}

// Plays round `round` (the current values against the start's), writes its games into
// `folder` and fits them; the learned values are the next round's.
Expected<Round> play_round(int round, const play::ValueSet& current, const play::ValueSet& start,
                           const play::Book& book, const PlayOptions& options,
                           const std::string& folder) {
  play::MatchSettings settings;
  play::ValueSet played = current;
  played.name = round == 1 ? start.name : "round-" + std::to_string(round - 1);
  settings.sets = {played, start};
  settings.pairs = options.pairs;
  settings.game = options.game;
  settings.seed = options.seed + static_cast<std::uint64_t>(round) - 1;
  auto match = play::Match::create(settings, book);
  if (!match) return match.error();
  play_match(*match, play_threads(options.jobs), [] {});
  Round result;
  result.played = played;
  result.estimate = play::pairing_estimate(match->stats().front());
  result.games = match->games_done();
  result.pgn = folder + "/round-" + std::to_string(round) + ".pgn";
  const std::string text = play::match_pgn(*match);
  std::FILE* file = std::fopen(result.pgn.c_str(), "wb");
  const bool written =
      file != nullptr && std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (file == nullptr || std::fclose(file) != 0 || !written) {
    return make_error(ErrorCode::kIo, "cannot write '" + result.pgn + "'");
  }
  auto learned = fit_games(result.pgn, "round-" + std::to_string(round), current);
  if (!learned)
    return make_error(learned.error().code,
                      "round " + std::to_string(round) + ": " + learned.error().message);
  result.learned = *learned;
  result.largest_change = largest_change(current, *learned);
  return result;
}

void write_rounds_json(std::FILE* out, const std::vector<Round>& rounds,
                       const play::ValueSet& start, const PlayOptions& options) {
  JsonWriter json;
  json.begin_object().field("start", start.values_text()).field("startName", start.name);
  json.field("pairsPerRound", options.pairs).field("limits", limits_text(options.game.limits));
  json.key("rounds").begin_array();
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    const Round& round = rounds[i];
    json.begin_object()
        .field("round", static_cast<int>(i + 1))
        .field("played", round.played.values_text());
    json.field("games", round.games).field("pgn", round.pgn);
    if (round.estimate) {
      json.field("elo", round.estimate->elo)
          .field("eloError95", round.estimate->elo_error95)
          .field("score", round.estimate->score);
    }
    json.field("learned", round.learned.values_text()).field("largestChange", round.largest_change);
    // The pieces the round's games did not identify, with the value they kept.
    if (round.learned.fallback_pieces != 0) json.field("kept", play::fallback_text(round.learned));
    json.end_object();
  }
  json.end_array().end_object();
  std::fprintf(out, "%s\n", json.str().c_str());
}

void write_rounds_text(std::FILE* out, const std::vector<Round>& rounds,
                       const play::ValueSet& start, const PlayOptions& options,
                       const std::string& folder) {
  std::fprintf(out, "Self-play from %s (%s), %d pairs a round, %s\n", start.name.c_str(),
               start.values_text().c_str(), options.pairs,
               limits_text(options.game.limits).c_str());
  std::fputs(
      "round  played                          vs start (Elo)       learned P,N,B,R,Q          "
      "change\n",
      out);
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    const Round& round = rounds[i];
    char elo[64] = "n/a";
    if (round.estimate && std::isfinite(round.estimate->elo) &&
        std::isfinite(round.estimate->elo_error95)) {
      std::snprintf(elo, sizeof elo, "%+.0f +/- %.0f", round.estimate->elo,
                    round.estimate->elo_error95);
    }
    std::fprintf(out, "%5zu  %-30s  %-19s  %-26s %4d cp\n", i + 1,
                 round.played.values_text().c_str(), elo, round.learned.values_text().c_str(),
                 round.largest_change);
    if (round.learned.fallback_pieces != 0) {
      std::fprintf(out, "       not identified by the round's games, kept: %s\n",
                   play::fallback_text(round.learned).c_str());
    }
  }
  std::fprintf(out, "Games in %s/round-N.pgn\n", folder.c_str());
}

}  // namespace

int run_selfplay(const std::vector<std::string>& args, std::FILE* out, std::FILE* err) {
  auto options = parse_play_options(args);
  if (!options) {
    std::fprintf(err, "materialist selfplay: %s\n", options.error().message.c_str());
    return kExitBadOptions;
  }
  auto start = load_value_set(options->values.empty() ? "classic" : options->values[0]);
  if (!start) {
    std::fprintf(err, "materialist selfplay: --values: %s\n", start.error().message.c_str());
    return kExitBadOptions;
  }
  auto book = load_book(*options);
  if (!book) {
    std::fprintf(err, "materialist selfplay: %s\n", book.error().message.c_str());
    return kExitBadOptions;
  }
  const std::string folder = options->out_dir.empty() ? "materialist-selfplay" : options->out_dir;
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) {
    std::fprintf(err, "materialist selfplay: cannot make folder '%s'\n", folder.c_str());
    return kExitNoResult;
  }
  std::vector<Round> rounds;
  play::ValueSet current = *start;
  for (int round = 1; round <= options->rounds; ++round) {
    auto result = play_round(round, current, *start, *book, *options, folder);
    if (!result) {
      std::fprintf(err, "materialist selfplay: %s\n", result.error().message.c_str());
      return kExitNoResult;
    }
    if (options->progress) {
      std::fprintf(err, "round %d: %s vs %s, %llu games -> %s (largest change %d cp)\n", round,
                   result->played.name.c_str(), start->name.c_str(),
                   static_cast<unsigned long long>(result->games),
                   result->learned.values_text().c_str(), result->largest_change);
      if (result->learned.fallback_pieces != 0) {
        std::fprintf(err, "round %d: not identified by its games, kept: %s\n", round,
                     play::fallback_text(result->learned).c_str());
      }
    }
    current = result->learned;
    rounds.push_back(std::move(*result));
  }
  if (options->json) {
    write_rounds_json(out, rounds, *start, *options);
  } else {
    write_rounds_text(out, rounds, *start, *options, folder);
  }
  return kExitOk;
}

}  // namespace materialist::cli
