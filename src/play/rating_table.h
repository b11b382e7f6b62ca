// A rating table of more than two value sets: maximum-likelihood (Bradley-Terry) ratings of
// every set from the pairs' results, with 95% errors, as Ordo computes them.
//
//   std::vector<TableResult> results{table_result(0, 1, pairs01), table_result(1, 2, pairs12)};
//   Expected<RatingTable> table = rate_sets(3, results, {.anchor = 0});  // set 0 rated 0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/json.h"
#include "play/match_stats.h"

namespace materialist::play {

// One pair of sets' results, from `first`'s view: its points in `games` games. Several entries
// for the same two sets add up.
struct TableResult {
  std::size_t first = 0, second = 0;
  std::uint64_t games = 0;
  double points = 0;
};
TableResult table_result(std::size_t first, std::size_t second, const GameCounts& games);
TableResult table_result(std::size_t first, std::size_t second, const Pentanomial& pairs);

struct RatingOptions {
  // The set whose rating is fixed at `level`; without one the mean rating is `level`.
  std::optional<std::size_t> anchor;
  double level = 0;
};

struct SetRating {
  double rating = 0;
  double error95 = 0;  // kZ95 standard errors; 0 for the anchor
  double points = 0;   // over all its games (virtual ones not counted)
  std::uint64_t games = 0;
  double score = 0;  // points / games
};

struct RatingTable {
  std::vector<SetRating> sets;
  std::optional<std::size_t> anchor;
  double level = 0;
  // True when some sets, or a group of them, won or lost every game against the rest (their
  // maximum-likelihood ratings are infinite): one virtual draw was then added to every pair of
  // sets that played, and the ratings are that prior's finite estimates.
  bool regularized = false;
  int iterations = 0;
};

// Ratings by maximum likelihood of the logistic (Bradley-Terry) model, a draw as half a point:
// P(first scores) = score_of_elo(r_first - r_second), likelihood prod E^points (1-E)^(games -
// points), as Ordo. Newton's method with a halving line search from all zeros (deterministic;
// the log-likelihood is concave, so it converges for any connected table). error95 = kZ95 sqrt of
// the diagonal of the inverse Fisher information under the constraint (the pseudo-inverse for a
// fixed mean, var(r_i - r_anchor) with an anchor); games are taken as independent. Errors: fewer
// than 2 sets, an index out of range or a set against itself, points outside [0, games], a set
// without games, sets not connected by games, no convergence.
Expected<RatingTable> rate_sets(std::size_t set_count, const std::vector<TableResult>& results,
                                const RatingOptions& options = {});

// ---- output ----

// Writes into an open object: ratings [{set, rating, error95, points, games, score}], anchor
// (the set, or null), level, regularized, iterations.
void write_rating_table_fields(JsonWriter& json, const RatingTable& table);

// One line per set: "set  rating  +/- error95  points/games  score %".
std::string format_rating_table_text(const RatingTable& table);

}  // namespace materialist::play
