#include "play/match_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "core/enum_names.h"

namespace materialist::play {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kLn10 = 2.302585092994046;
constexpr double kRegularized = 1e-3;  // fishtest's regularize(): an empty outcome's count

static_assert(kSprtDecisionNames.size() == 3);

double normal_cdf(double z) {
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

// Mean and variance of the outcome scores `a` under the probabilities `p`.
template <std::size_t N>
std::pair<double, double> moments(const std::array<double, N>& a, const std::array<double, N>& p) {
  double mean = 0;
  for (std::size_t i = 0; i < N; ++i) mean += p[i] * a[i];
  double variance = 0;
  for (std::size_t i = 0; i < N; ++i) variance += p[i] * (a[i] - mean) * (a[i] - mean);
  return {mean, variance};
}

// The estimate's numbers from outcome counts over scores `a` (the unit's score in [0, 1]) and
// `sigma_factor`, the per-game sigma over the unit's (sqrt 2 for pairs, 1 for games).
template <std::size_t N>
void fill_estimate(Estimate& e, const std::array<double, N>& a,
                   const std::array<std::uint64_t, N>& counts, double sigma_factor) {
  double units = 0;
  for (const std::uint64_t c : counts) units += static_cast<double>(c);
  if (units == 0) {
    e.score = e.variance = e.elo = e.elo_error95 = e.nelo = e.nelo_error95 = e.los = kNaN;
    return;
  }
  std::array<double, N> p{};
  for (std::size_t i = 0; i < N; ++i) p[i] = static_cast<double>(counts[i]) / units;
  const auto [score, variance] = moments(a, p);
  e.score = score;
  e.variance = variance;
  e.elo = elo_of_score(score);
  const double se = std::sqrt(variance / units);
  // Each bound mapped to Elo, as fastchess; a bound at 0 or 1 leaves the interval unbounded.
  if (std::isinf(e.elo)) {
    e.elo_error95 = kNaN;
  } else {
    const double lower = score - kZ95 * se, upper = score + kZ95 * se;
    e.elo_error95 =
        (lower <= 0 || upper >= 1) ? kInf : (elo_of_score(upper) - elo_of_score(lower)) / 2;
  }
  if (variance > 0) {
    const double sigma_game = sigma_factor * std::sqrt(variance);
    e.nelo = (score - 0.5) / sigma_game * kNeloPerT;
    e.nelo_error95 = kZ95 * se / sigma_game * kNeloPerT;
    e.los = normal_cdf((score - 0.5) / se);
  } else {
    // Every unit scored the same: the limits of nelo and LOS as the spread vanishes.
    e.nelo = score > 0.5 ? kInf : score < 0.5 ? -kInf : kNaN;
    e.nelo_error95 = kNaN;
    e.los = score > 0.5 ? 1.0 : score < 0.5 ? 0.0 : 0.5;
  }
}

// The root x in (-1/max phi, -1/min phi) of sum_i p_i phi_i / (1 + x phi_i) = 0 (the "secular
// equation" of Van den Bergh's MLE), by bisection to the last bit: f decreases from +inf to -inf.
template <std::size_t N>
Expected<double> solve_secular(const std::array<double, N>& phi, const std::array<double, N>& p) {
  const double low_phi = *std::min_element(phi.begin(), phi.end());
  const double high_phi = *std::max_element(phi.begin(), phi.end());
  if (!(low_phi < 0 && high_phi > 0)) {
    return make_error(ErrorCode::kNotConverged,
                      "SPRT: the constrained likelihood has no maximum for these bounds");
  }
  double low = -1 / high_phi, high = -1 / low_phi;
  for (int i = 0; i < 4000; ++i) {
    const double mid = low + (high - low) / 2;
    if (mid <= low || mid >= high) break;
    double f = 0;
    for (std::size_t k = 0; k < N; ++k) f += p[k] * phi[k] / (1 + mid * phi[k]);
    if (f > 0) {
      low = mid;
    } else {
      high = mid;
    }
  }
  return low + (high - low) / 2;
}

// The distribution of largest likelihood for the observed `p_hat` whose mean is `s`
// (fishtest's MLE_expected; Van den Bergh, support_MLE_multinomial.pdf, proposition 1.1).
template <std::size_t N>
Expected<std::array<double, N>> mle_expected(const std::array<double, N>& a,
                                             const std::array<double, N>& p_hat, double s) {
  std::array<double, N> phi{};
  for (std::size_t i = 0; i < N; ++i) phi[i] = a[i] - s;
  const Expected<double> x = solve_secular(phi, p_hat);
  if (!x) return x.error();
  std::array<double, N> p{};
  for (std::size_t i = 0; i < N; ++i) p[i] = p_hat[i] / (1 + *x * phi[i]);
  return p;
}

// The distribution of largest likelihood whose t-value (mu - ref) / sigma is `t` (fishtest's
// MLE_t_value; "Comments on Normalized Elo", section 4.1): a fixed point from the uniform one.
template <std::size_t N>
Expected<std::array<double, N>> mle_t_value(const std::array<double, N>& a,
                                            const std::array<double, N>& p_hat, double ref,
                                            double t) {
  std::array<double, N> p{};
  p.fill(1.0 / N);
  double last_change = kInf;
  for (int iteration = 0; iteration < 500; ++iteration) {
    const auto [mu, variance] = moments(a, p);
    const double sigma = std::sqrt(variance);
    std::array<double, N> phi{};
    for (std::size_t i = 0; i < N; ++i) {
      const double z = (a[i] - mu) / sigma;
      phi[i] = a[i] - ref - 0.5 * t * sigma * (1 + z * z);
    }
    const Expected<double> x = solve_secular(phi, p_hat);
    if (!x) return x.error();
    double change = 0;
    for (std::size_t i = 0; i < N; ++i) {
      const double next = p_hat[i] / (1 + *x * phi[i]);
      change = std::max(change, std::abs(next - p[i]));
      p[i] = next;
    }
    // Done at 1e-13, or when rounding stops the steps shrinking (an outcome of tiny observed
    // frequency puts the root next to a pole, where the last bits of x wander).
    if (change < 1e-13 || (change >= last_change && change < 1e-9)) return p;
    last_change = change;
  }
  return make_error(ErrorCode::kNotConverged, "SPRT: the normalized-Elo MLE did not converge");
}

template <std::size_t N>
Expected<SprtResult> sprt_on(const SprtSettings& settings,
                             const std::array<std::uint64_t, N>& counts) {
  if (const std::optional<Error> invalid = validate_sprt(settings)) return *invalid;
  std::array<double, N> a{}, p_hat{};
  double total = 0;
  for (std::size_t i = 0; i < N; ++i) {
    a[i] = static_cast<double>(i) / (N - 1);
    p_hat[i] = counts[i] == 0 ? kRegularized : static_cast<double>(counts[i]);
    total += p_hat[i];
  }
  for (double& p : p_hat) p /= total;
  Expected<std::array<double, N>> p0 = std::array<double, N>{}, p1 = std::array<double, N>{};
  if (settings.logistic) {
    p0 = mle_expected(a, p_hat, score_of_elo(settings.elo0));
    p1 = mle_expected(a, p_hat, score_of_elo(settings.elo1));
  } else {
    // t per unit: a pair's half score has sigma_game / sqrt 2 (fishtest's LLR_normalized).
    const double per_unit = N == 5 ? std::sqrt(2.0) : 1.0;
    p0 = mle_t_value(a, p_hat, 0.5, settings.elo0 / kNeloPerT * per_unit);
    p1 = mle_t_value(a, p_hat, 0.5, settings.elo1 / kNeloPerT * per_unit);
  }
  if (!p0) return p0.error();
  if (!p1) return p1.error();
  double llr = 0;
  for (std::size_t i = 0; i < N; ++i) llr += p_hat[i] * (std::log((*p1)[i]) - std::log((*p0)[i]));
  SprtResult result;
  result.settings = settings;
  result.llr = total * llr;
  result.lower = std::log(settings.beta / (1 - settings.alpha));
  result.upper = std::log((1 - settings.beta) / settings.alpha);
  result.decision = result.llr >= result.upper   ? SprtDecision::kH1
                    : result.llr <= result.lower ? SprtDecision::kH0
                                                 : SprtDecision::kContinue;
  return result;
}

// ---- small dense linear algebra for the rating table (a handful of sets) ----

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
  const double c = kLn10 / 400;
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

}  // namespace

std::uint64_t Pentanomial::pairs() const {
  std::uint64_t sum = 0;
  for (const std::uint64_t c : counts) sum += c;
  return sum;
}

double Pentanomial::points() const {
  double sum = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) sum += 0.5 * k * static_cast<double>(counts[k]);
  return sum;
}

Pentanomial swapped(const Pentanomial& pairs) {
  Pentanomial out;
  for (std::size_t k = 0; k < 5; ++k) out.counts[k] = pairs.counts[4 - k];
  return out;
}

GameCounts swapped(const GameCounts& games) {
  return {games.losses, games.draws, games.wins};
}

double elo_of_score(double score) {
  if (score >= 1) return kInf;
  if (score <= 0) return -kInf;
  return 400 * std::log10(score / (1 - score));  // = -400 log10(1/score - 1)
}

double score_of_elo(double elo) {
  return 1 / (1 + std::pow(10.0, -elo / 400));
}

Expected<Estimate> estimate_pairs(const Pentanomial& pairs,
                                  const std::optional<GameCounts>& games) {
  // Summed as doubles first: uint64 sums of absurd counts could wrap.
  double total = 0;
  for (const std::uint64_t c : pairs.counts) total += static_cast<double>(c);
  if (total * 2 > static_cast<double>(kMaxGames)) {
    return make_error(ErrorCode::kLimit, "more than 2^52 games");
  }
  Estimate e;
  e.pentanomial = pairs;
  e.pair_count = pairs.pairs();
  e.game_count = 2 * e.pair_count;
  if (games) {
    const std::uint64_t one_draw = pairs.counts[1] + pairs.counts[3];
    if (static_cast<double>(games->wins) + static_cast<double>(games->draws) +
            static_cast<double>(games->losses) !=
        static_cast<double>(e.game_count)) {
      return make_error(ErrorCode::kInvalidArgument,
                        "W/D/L count " + std::to_string(games->games()) + " games, the pairs " +
                            std::to_string(e.game_count));
    }
    if (games->points() != pairs.points()) {
      return make_error(ErrorCode::kInvalidArgument, "W/D/L and the pairs give different points");
    }
    // Pairs scoring 1/2 or 1 1/2 hold one draw each; a pair scoring 1 holds 0 or 2.
    if (games->draws < one_draw || games->draws > one_draw + 2 * pairs.counts[2]) {
      return make_error(
          ErrorCode::kInvalidArgument,
          "W/D/L's " + std::to_string(games->draws) + " draws are not possible with these pairs");
    }
    e.games = games;
  }
  const std::array<double, 5> a{0, 0.25, 0.5, 0.75, 1};
  fill_estimate(e, a, pairs.counts, std::sqrt(2.0));
  e.draw_ratio = games && e.game_count > 0
                     ? static_cast<double>(games->draws) / static_cast<double>(e.game_count)
                     : kNaN;
  return e;
}

Expected<Estimate> estimate_games(const GameCounts& games) {
  const double total = static_cast<double>(games.wins) + static_cast<double>(games.draws) +
                       static_cast<double>(games.losses);
  if (total > static_cast<double>(kMaxGames)) {
    return make_error(ErrorCode::kLimit, "more than 2^52 games");
  }
  Estimate e;
  e.games = games;
  e.game_count = games.games();
  const std::array<double, 3> a{0, 0.5, 1};
  fill_estimate(e, a, std::array<std::uint64_t, 3>{games.losses, games.draws, games.wins}, 1.0);
  e.draw_ratio = e.game_count > 0 ? static_cast<double>(games.draws) / total : kNaN;
  return e;
}

std::optional<Error> validate_sprt(const SprtSettings& s) {
  const auto bad = [](std::string why) {
    return make_error(ErrorCode::kInvalidArgument, "SPRT: " + std::move(why));
  };
  if (!std::isfinite(s.elo0) || !std::isfinite(s.elo1) || !std::isfinite(s.alpha) ||
      !std::isfinite(s.beta)) {
    return bad("elo0, elo1, alpha and beta must be finite numbers");
  }
  if (s.elo0 >= s.elo1) return bad("elo0 must be less than elo1");
  if (!(s.alpha > 0 && s.alpha <= 0.5)) return bad("alpha must be in (0, 0.5]");
  if (!(s.beta > 0 && s.beta <= 0.5)) return bad("beta must be in (0, 0.5]");
  if (!s.logistic &&
      (std::abs(s.elo0) > kMaxNormalizedBound || std::abs(s.elo1) > kMaxNormalizedBound)) {
    return bad("normalized bounds must be within +/-200 nElo (use logistic bounds beyond)");
  }
  return std::nullopt;
}

Expected<SprtResult> run_sprt(const SprtSettings& settings, const Pentanomial& pairs) {
  return sprt_on(settings, pairs.counts);
}

Expected<SprtResult> run_sprt(const SprtSettings& settings, const GameCounts& games) {
  return sprt_on(settings, std::array<std::uint64_t, 3>{games.losses, games.draws, games.wins});
}

TableResult table_result(std::size_t first, std::size_t second, const GameCounts& games) {
  return {first, second, games.games(), games.points()};
}

TableResult table_result(std::size_t first, std::size_t second, const Pentanomial& pairs) {
  return {first, second, 2 * pairs.pairs(), pairs.points()};
}

Expected<RatingTable> rate_sets(std::size_t set_count, const std::vector<TableResult>& results,
                                const RatingOptions& options) {
  const auto bad = [](std::string why) {
    return make_error(ErrorCode::kInvalidArgument, "rating table: " + std::move(why));
  };
  const std::size_t n = set_count;
  if (n < 2) return bad("needs at least 2 sets");
  if (n > 1000) return bad("at most 1000 sets");
  if (options.anchor && *options.anchor >= n) return bad("the anchor is not a set");
  if (!std::isfinite(options.level)) return bad("the level must be finite");
  PairTotals t{Matrix(n, std::vector<double>(n, 0.0)), Matrix(n, std::vector<double>(n, 0.0))};
  RatingTable table;
  table.sets.resize(n);
  table.anchor = options.anchor;
  table.level = options.level;
  for (const TableResult& r : results) {
    if (r.first >= n || r.second >= n)
      return bad("a result names a set beyond " + std::to_string(n - 1));
    if (r.first == r.second) return bad("a set cannot play itself");
    const double games = static_cast<double>(r.games);
    if (!(r.points >= 0 && r.points <= games)) return bad("points outside [0, games]");
    if (games > static_cast<double>(kMaxGames)) return bad("more than 2^52 games");
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
    if (table.sets[i].games == 0) return bad("set " + std::to_string(i) + " has no games");
    table.sets[i].score = table.sets[i].points / static_cast<double>(table.sets[i].games);
  }
  const std::vector<bool> connected =
      reachable(n, 0, [&](std::size_t i, std::size_t j) { return t.games[i][j] > 0; });
  for (std::size_t i = 0; i < n; ++i) {
    if (!connected[i]) {
      return bad("set " + std::to_string(i) + " is not connected to set 0 by games");
    }
  }
  // A finite maximum exists iff "i scored against j" links every set to every other (Zermelo):
  // from set 0 forwards and backwards.
  const bool strongly_connected =
      all_of(reachable(n, 0, [&](std::size_t i, std::size_t j) { return t.points[i][j] > 0; })) &&
      all_of(reachable(n, 0, [&](std::size_t i, std::size_t j) { return t.points[j][i] > 0; }));
  if (!strongly_connected) {
    table.regularized = true;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (i == j || t.games[i][j] == 0) continue;
        t.games[i][j] += 1;  // one virtual draw per pair that played
        t.points[i][j] += 0.5;
      }
    }
  }

  const double c = kLn10 / 400;
  std::vector<double> r(n, 0.0);
  // The Fisher information (in Elo^-2) at r; also the gradient of the log-likelihood.
  const auto information = [&](const std::vector<double>& at, std::vector<double>& gradient) {
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
  };
  // F + lambda J / n: invertible on a connected table, and its inverse maps a gradient (which sums
  // to 0) to a step that sums to 0, the mean staying put.
  const auto shifted = [&](Matrix f, double& lambda) {
    lambda = 0;
    for (std::size_t i = 0; i < n; ++i) lambda += f[i][i] / static_cast<double>(n);
    for (auto& row : f) {
      for (double& v : row) v += lambda / static_cast<double>(n);
    }
    return f;
  };
  std::vector<double> gradient;
  bool converged = false;
  double current = log_likelihood(t, r);
  for (int iteration = 1; iteration <= 200 && !converged; ++iteration) {
    table.iterations = iteration;
    double lambda = 0;
    const std::optional<Matrix> inv = inverse(shifted(information(r, gradient), lambda));
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

  double lambda = 0;
  const std::optional<Matrix> inv = inverse(shifted(information(r, gradient), lambda));
  if (!inv) return make_error(ErrorCode::kNotConverged, "rating table: singular information");
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
  return table;
}

namespace {

// A number or null; an infinite one is recorded under `infinite` too.
void number_field(JsonWriter& json, const char* key, double value,
                  std::vector<std::pair<const char*, double>>& infinite) {
  json.key(key);
  if (std::isfinite(value)) {
    json.value(value);
    return;
  }
  json.null();
  if (std::isinf(value)) infinite.emplace_back(key, value);
}

std::string fixed(double value, int digits) {
  if (std::isnan(value)) return "n/a";
  if (std::isinf(value)) return value > 0 ? "+inf" : "-inf";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

// "51.75 %", or "n/a" when undefined.
std::string percent(double fraction) {
  return std::isnan(fraction) ? "n/a" : fixed(100 * fraction, 2) + " %";
}

}  // namespace

void write_estimate_fields(JsonWriter& json, const Estimate& e,
                           const std::optional<SprtResult>& sprt) {
  json.key("pentanomial");
  if (e.pentanomial) {
    json.begin_array();
    for (const std::uint64_t c : e.pentanomial->counts) json.value(c);
    json.end_array();
  } else {
    json.null();
  }
  for (const char* key : {"wins", "draws", "losses"}) {
    json.key(key);
    if (!e.games) {
      json.null();
    } else {
      const std::string_view k = key;
      json.value(k == "wins" ? e.games->wins : k == "draws" ? e.games->draws : e.games->losses);
    }
  }
  json.field("games", e.game_count);
  json.key("pairs");
  if (e.pentanomial) {
    json.value(e.pair_count);
  } else {
    json.null();
  }
  std::vector<std::pair<const char*, double>> infinite;
  number_field(json, "score", e.score, infinite);
  number_field(json, "elo", e.elo, infinite);
  number_field(json, "eloError95", e.elo_error95, infinite);
  number_field(json, "nelo", e.nelo, infinite);
  number_field(json, "neloError95", e.nelo_error95, infinite);
  number_field(json, "los", e.los, infinite);
  number_field(json, "drawRatio", e.draw_ratio, infinite);
  json.key("infinite").begin_object();
  for (const auto& [key, value] : infinite) json.field(key, value > 0 ? "+inf" : "-inf");
  json.end_object();
  if (!sprt) return;
  json.key("sprt").begin_object();
  json.field("elo0", sprt->settings.elo0);
  json.field("elo1", sprt->settings.elo1);
  json.field("alpha", sprt->settings.alpha);
  json.field("beta", sprt->settings.beta);
  json.field("bounds", sprt->settings.logistic ? "logistic" : "normalized");
  json.field("llr", sprt->llr);
  json.field("lower", sprt->lower);
  json.field("upper", sprt->upper);
  json.field("result", name_of(kSprtDecisionNames, sprt->decision));
  json.end_object();
}

std::string format_estimate_text(const Estimate& e, const std::optional<SprtResult>& sprt) {
  std::string text = "Elo: " + fixed(e.elo, 2) + " +/- " + fixed(e.elo_error95, 2) +
                     ", nElo: " + fixed(e.nelo, 2) + " +/- " + fixed(e.nelo_error95, 2) + "\n";
  text += "LOS: " + percent(e.los) + ", DrawRatio: " + percent(e.draw_ratio) +
          ", Games: " + std::to_string(e.game_count) +
          ", Points: " + fixed(e.score * static_cast<double>(e.game_count), 1) + " (" +
          percent(e.score) + ")\n";
  if (e.pentanomial) {
    text += "Ptnml(0-2): [";
    for (std::size_t k = 0; k < 5; ++k) {
      text += (k ? ", " : "") + std::to_string(e.pentanomial->counts[k]);
    }
    text += "]";
  }
  if (e.games) {
    text += std::string(e.pentanomial ? ", " : "") + "W/D/L: " + std::to_string(e.games->wins) +
            "/" + std::to_string(e.games->draws) + "/" + std::to_string(e.games->losses);
  }
  text += "\n";
  if (sprt) {
    text += "LLR: " + fixed(sprt->llr, 2) + " (" + fixed(sprt->lower, 2) + ", " +
            fixed(sprt->upper, 2) + ") [" + fixed(sprt->settings.elo0, 2) + ", " +
            fixed(sprt->settings.elo1, 2) + "] " +
            (sprt->settings.logistic ? "logistic" : "normalized") + ", " +
            name_of(kSprtDecisionNames, sprt->decision) + "\n";
  }
  return text;
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
