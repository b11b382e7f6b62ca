#include "play/rating_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "core/statistics.h"

namespace materialist::play {
namespace {

using Matrix = std::vector<std::vector<double>>;

// The inverse of a symmetric positive definite matrix by Gauss-Jordan with partial pivoting;
// nullopt when singular.
std::optional<Matrix> inverse(Matrix m) {
  const std::size_t n = m.size();
  Matrix inv(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) inv[i][i] = 1;
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < n; ++r) {
      if (std::abs(m[r][col]) > std::abs(m[pivot][col])) pivot = r;
    }
    if (!(std::abs(m[pivot][col]) > 0)) return std::nullopt;
    std::swap(m[pivot], m[col]);
    std::swap(inv[pivot], inv[col]);
    const double d = m[col][col];
    for (std::size_t k = 0; k < n; ++k) {
      m[col][k] /= d;
      inv[col][k] /= d;
    }
    for (std::size_t r = 0; r < n; ++r) {
      if (r == col || m[r][col] == 0) continue;
      const double f = m[r][col];
      for (std::size_t k = 0; k < n; ++k) {
        m[r][k] -= f * m[col][k];
        inv[r][k] -= f * inv[col][k];
      }
    }
  }
  return inv;
}

// Pairwise totals: games[i][j] and points[i][j] (i's points against j).
struct PairTotals {
  Matrix games, points;
};

// Sets reachable from set 0 along edges where `edge(i, j)` holds.
template <typename Edge>
std::vector<bool> reachable(std::size_t n, std::size_t from, Edge edge) {
  std::vector<bool> seen(n, false);
  std::vector<std::size_t> stack{from};
  seen[from] = true;
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    for (std::size_t j = 0; j < n; ++j) {
      if (!seen[j] && edge(i, j)) {
        seen[j] = true;
        stack.push_back(j);
      }
    }
  }
  return seen;
}

bool all_of(const std::vector<bool>& flags) {
  return std::all_of(flags.begin(), flags.end(), [](bool f) { return f; });
}

double log_likelihood(const PairTotals& t, const std::vector<double>& r) {
  const double c = kLogOddsPerElo;
  double sum = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    for (std::size_t j = i + 1; j < r.size(); ++j) {
      if (t.games[i][j] == 0) continue;
      const double d = c * (r[i] - r[j]);
      // log E = -log(1 + e^-d), log(1 - E) = -log(1 + e^d), without overflow.
      const double log_e = -(std::max(-d, 0.0) + std::log1p(std::exp(-std::abs(d))));
      const double log_not_e = -(std::max(d, 0.0) + std::log1p(std::exp(-std::abs(d))));
      sum += t.points[i][j] * log_e + (t.games[i][j] - t.points[i][j]) * log_not_e;
    }
  }
  return sum;
}

Error bad_table(std::string why) {
  return Error{ErrorCode::kInvalidArgument, "rating table: " + std::move(why)};
}

// Step 1: the options and results checked, the pairs' totals and each set's points and score.
std::optional<Error> collect_totals(std::size_t n, const std::vector<TableResult>& results,
                                    const RatingOptions& options, PairTotals& t,
                                    RatingTable& table) {
  if (n < 2) return bad_table("needs at least 2 sets");
  if (n > 1000) return bad_table("at most 1000 sets");
  if (options.anchor && *options.anchor >= n) return bad_table("the anchor is not a set");
  if (!std::isfinite(options.level)) return bad_table("the level must be finite");
  t = PairTotals{Matrix(n, std::vector<double>(n, 0.0)), Matrix(n, std::vector<double>(n, 0.0))};
  table.sets.resize(n);
  table.anchor = options.anchor;
  table.level = options.level;
  for (const TableResult& r : results) {
    if (r.first >= n || r.second >= n)
      return bad_table("a result names a set beyond " + std::to_string(n - 1));
    if (r.first == r.second) return bad_table("a set cannot play itself");
    const double games = static_cast<double>(r.games);
    if (!(r.points >= 0 && r.points <= games)) return bad_table("points outside [0, games]");
    if (games > static_cast<double>(kMaxGames)) return bad_table("more than 2^52 games");
    t.games[r.first][r.second] += games;
    t.games[r.second][r.first] += games;
    t.points[r.first][r.second] += r.points;
    t.points[r.second][r.first] += games - r.points;
    table.sets[r.first].points += r.points;
    table.sets[r.first].games += r.games;
    table.sets[r.second].points += games - r.points;
    table.sets[r.second].games += r.games;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (table.sets[i].games == 0) return bad_table("set " + std::to_string(i) + " has no games");
    table.sets[i].score = table.sets[i].points / static_cast<double>(table.sets[i].games);
  }
  const std::vector<bool> connected =
      reachable(n, 0, [&](std::size_t i, std::size_t j) { return t.games[i][j] > 0; });
  for (std::size_t i = 0; i < n; ++i) {
    if (!connected[i]) {
      return bad_table("set " + std::to_string(i) + " is not connected to set 0 by games");
    }
  }
  return std::nullopt;
}

// Step 2: a finite maximum exists iff "i scored against j" links every set to every other
// (Zermelo), from set 0 forwards and backwards; else one virtual draw per pair that played.
void regularize_if_unbounded(PairTotals& t, RatingTable& table) {
  const std::size_t n = t.games.size();
  const bool strongly_connected =
      all_of(reachable(n, 0, [&](std::size_t i, std::size_t j) { return t.points[i][j] > 0; })) &&
      all_of(reachable(n, 0, [&](std::size_t i, std::size_t j) { return t.points[j][i] > 0; }));
  if (strongly_connected) return;
  table.regularized = true;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j || t.games[i][j] == 0) continue;
      t.games[i][j] += 1;
      t.points[i][j] += 0.5;
    }
  }
}

// The Fisher information (in Elo^-2) at r; also the gradient of the log-likelihood.
Matrix information(const PairTotals& t, const std::vector<double>& at,
                   std::vector<double>& gradient) {
  const std::size_t n = at.size();
  const double c = kLogOddsPerElo;
  Matrix f(n, std::vector<double>(n, 0.0));
  gradient.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j || t.games[i][j] == 0) continue;
      const double e = 1 / (1 + std::exp(-c * (at[i] - at[j])));
      gradient[i] += c * (t.points[i][j] - t.games[i][j] * e);
      const double w = c * c * t.games[i][j] * e * (1 - e);
      f[i][i] += w;
      f[i][j] -= w;
    }
  }
  return f;
}

// F + lambda J / n: invertible on a connected table, and its inverse maps a gradient (which sums
// to 0) to a step that sums to 0, the mean staying put.
Matrix shifted(Matrix f, double& lambda) {
  const std::size_t n = f.size();
  lambda = 0;
  for (std::size_t i = 0; i < n; ++i) lambda += f[i][i] / static_cast<double>(n);
  for (auto& row : f) {
    for (double& v : row) v += lambda / static_cast<double>(n);
  }
  return f;
}

// Step 3: Newton's method with a halving line search from all zeros: the ratings.
Expected<std::vector<double>> maximize_likelihood(const PairTotals& t, RatingTable& table) {
  const std::size_t n = t.games.size();
  std::vector<double> r(n, 0.0);
  std::vector<double> gradient;
  bool converged = false;
  double current = log_likelihood(t, r);
  for (int iteration = 1; iteration <= 200 && !converged; ++iteration) {
    table.iterations = iteration;
    double lambda = 0;
    const std::optional<Matrix> inv = inverse(shifted(information(t, r, gradient), lambda));
    if (!inv) return make_error(ErrorCode::kNotConverged, "rating table: singular information");
    std::vector<double> step(n, 0.0);
    double largest = 0;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) step[i] += (*inv)[i][j] * gradient[j];
      largest = std::max(largest, std::abs(step[i]));
    }
    // Halving keeps every step uphill; concavity makes the full Newton step win near the top.
    // Steps below 1e-6 Elo are taken whole: there rounding, not the slope, decides the comparison.
    double scale = 1;
    std::vector<double> next(n);
    for (int halving = 0; halving < 60; ++halving) {
      for (std::size_t i = 0; i < n; ++i) next[i] = r[i] + scale * step[i];
      const double value = log_likelihood(t, next);
      if (largest < 1e-6 || value >= current) {
        current = value;
        break;
      }
      scale /= 2;
    }
    r = next;
    converged = largest < 1e-10;
  }
  if (!converged) return make_error(ErrorCode::kNotConverged, "rating table: no convergence");
  return r;
}

// Step 4: the ratings shifted to the anchor or the level, with errors from the covariance.
std::optional<Error> fill_ratings(const PairTotals& t, const std::vector<double>& r,
                                  const RatingOptions& options, RatingTable& table) {
  const std::size_t n = r.size();
  std::vector<double> gradient;
  double lambda = 0;
  const std::optional<Matrix> inv = inverse(shifted(information(t, r, gradient), lambda));
  if (!inv) return Error{ErrorCode::kNotConverged, "rating table: singular information"};
  // The covariance with the mean fixed: the pseudo-inverse (F + lambda J/n)^-1 - J / (lambda n).
  Matrix cov = *inv;
  for (auto& row : cov) {
    for (double& v : row) v -= 1 / (lambda * static_cast<double>(n));
  }
  double mean = 0;
  for (const double v : r) mean += v / static_cast<double>(n);
  for (std::size_t i = 0; i < n; ++i) {
    double variance = cov[i][i];
    double shift = options.level - mean;
    if (options.anchor) {
      const std::size_t a = *options.anchor;
      variance = cov[i][i] + cov[a][a] - 2 * cov[i][a];
      shift = options.level - r[a];
    }
    table.sets[i].rating = r[i] + shift;
    table.sets[i].error95 =
        (options.anchor && *options.anchor == i) ? 0.0 : kZ95 * std::sqrt(std::max(variance, 0.0));
  }
  return std::nullopt;
}

}  // namespace

TableResult table_result(std::size_t first, std::size_t second, const GameCounts& games) {
  return {first, second, games.games(), games.points()};
}

TableResult table_result(std::size_t first, std::size_t second, const Pentanomial& pairs) {
  return {first, second, 2 * pairs.pairs(), pairs.points()};
}

Expected<RatingTable> rate_sets(std::size_t set_count, const std::vector<TableResult>& results,
                                const RatingOptions& options) {
  PairTotals totals;
  RatingTable table;
  if (auto error = collect_totals(set_count, results, options, totals, table)) return *error;
  regularize_if_unbounded(totals, table);
  auto ratings = maximize_likelihood(totals, table);
  if (!ratings) return ratings.error();
  if (auto error = fill_ratings(totals, *ratings, options, table)) return *error;
  return table;
}

void write_rating_table_fields(JsonWriter& json, const RatingTable& table) {
  json.key("ratings").begin_array();
  for (std::size_t i = 0; i < table.sets.size(); ++i) {
    const SetRating& s = table.sets[i];
    json.begin_object();
    json.field("set", static_cast<std::uint64_t>(i));
    json.field("rating", s.rating);
    json.field("error95", s.error95);
    json.field("points", s.points);
    json.field("games", s.games);
    json.field("score", s.score);
    json.end_object();
  }
  json.end_array();
  json.key("anchor");
  if (table.anchor) {
    json.value(static_cast<std::uint64_t>(*table.anchor));
  } else {
    json.null();
  }
  json.field("level", table.level);
  json.field("regularized", table.regularized);
  json.field("iterations", table.iterations);
}

std::string format_rating_table_text(const RatingTable& table) {
  std::string text;
  for (std::size_t i = 0; i < table.sets.size(); ++i) {
    const SetRating& s = table.sets[i];
    char line[160];
    std::snprintf(line, sizeof line, "%4zu  %9.2f  +/- %7.2f  %10.1f/%llu  %6.2f %%\n", i, s.rating,
                  s.error95, s.points, static_cast<unsigned long long>(s.games), 100 * s.score);
    text += line;
  }
  if (table.regularized) {
    text +=
        "(some sets won or lost every game against the rest: one virtual draw was added per "
        "pair of sets that played)\n";
  }
  return text;
}

}  // namespace materialist::play
