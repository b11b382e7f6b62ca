#include "play/match_report.h"

#include "play/game_pgn.h"

namespace materialist::play {

void write_limits_json(JsonWriter& json, const GameSettings& game) {
  json.key("limits").begin_object();
  if (game.limits.nodes != 0) json.field("nodes", game.limits.nodes);
  if (game.limits.depth != 0) json.field("depth", game.limits.depth);
  if (game.limits.movetime_ms != 0) json.field("movetimeMs", game.limits.movetime_ms);
  json.end_object();
  json.field("materialOnly", game.evaluation.material_only);
  const Adjudication& rules = game.adjudication;
  json.key("adjudication").begin_object();
  if (rules.draw) {
    json.key("draw")
        .begin_object()
        .field("moveNumber", rules.draw_move_number)
        .field("moveCount", rules.draw_move_count)
        .field("score", rules.draw_score)
        .end_object();
  } else {
    json.key("draw").null();
  }
  if (rules.resign) {
    json.key("resign")
        .begin_object()
        .field("moveCount", rules.resign_move_count)
        .field("score", rules.resign_score)
        .end_object();
  } else {
    json.key("resign").null();
  }
  json.field("maxPlies", rules.max_plies).end_object();
}

std::string match_json(const Match& match, std::size_t book_size, const std::string& book_source,
                       double seconds, bool cancelled) {
  const MatchSettings& settings = match.settings();
  JsonWriter json;
  json.begin_object();
  json.key("sets").begin_array();
  for (const ValueSet& set : settings.sets) {
    json.begin_object().field("name", set.name).field("values", set.values_text()).end_object();
  }
  json.end_array();
  json.field("schedule", settings.schedule == Schedule::kRoundRobin ? "round-robin" : "gauntlet");
  json.field("pairsPerPairing", settings.pairs);
  write_limits_json(json, settings.game);
  json.field("seed", settings.seed);
  json.key("book")
      .begin_object()
      .field("source", book_source)
      .field("openings", static_cast<std::uint64_t>(book_size))
      .end_object();
  json.field("gamesPlayed", static_cast<std::uint64_t>(match.games_done()));
  std::uint64_t nodes = 0;
  for (const PairResult& pair : match.results()) nodes += pair.games[0].nodes + pair.games[1].nodes;
  json.field("nodes", nodes).field("seconds", seconds);
  json.key("terminations").begin_object();
  for (int reason = 0; reason < kTerminations; ++reason) {
    json.field(kTerminationNames[reason], match.terminations()[reason]);
  }
  json.end_object();
  auto write_pairing = [&](const PairingStats& stats) {
    json.field("first", settings.sets[stats.pairing.first].name)
        .field("second", settings.sets[stats.pairing.second].name);
    if (const auto estimate = pairing_estimate(stats)) {
      write_estimate_fields(json, *estimate,
                            match.pairings().size() == 1 ? match.sprt() : std::nullopt);
    }
    write_verdict_field(json, pairing_verdict(match, stats, cancelled));
  };
  if (match.pairings().size() == 1) {
    write_pairing(match.stats().front());
  } else {
    json.key("matches").begin_array();
    for (const PairingStats& stats : match.stats()) {
      json.begin_object();
      write_pairing(stats);
      json.end_object();
    }
    json.end_array();
    if (auto table = match_ratings(match)) {
      json.key("ratings").begin_array();
      for (std::size_t set = 0; set < table->sets.size(); ++set) {
        const SetRating& rating = table->sets[set];
        json.begin_object()
            .field("set", settings.sets[set].name)
            .field("rating", rating.rating)
            .field("error95", rating.error95)
            .field("points", rating.points)
            .field("games", rating.games)
            .field("score", rating.score)
            .end_object();
      }
      json.end_array();
      json.field("ratingsRegularized", table->regularized);
    } else {
      json.key("ratings").null();
      json.field("ratingsError", table.error().message);
    }
  }
  json.end_object();
  return json.take();
}

std::string match_pgn(const Match& match) {
  std::string text;
  for (std::size_t index = 0; index < match.results().size(); ++index) {
    PgnHeader header;
    header.round = std::to_string(index + 1);
    for (const GameRecord& game : match.results()[index].games) text += game_pgn(game, header);
  }
  return text;
}

}  // namespace materialist::play
