#include "play/match_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "core/enum_names.h"
#include "core/statistics.h"

namespace materialist::play {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
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
  // An unbounded interval is early (a lopsided score in few games), not a figure.
  const std::string elo_error = std::isinf(e.elo_error95) && std::isfinite(e.elo)
                                    ? " (early: no interval yet)"
                                    : " +/- " + fixed(e.elo_error95, 2);
  std::string text = "Elo: " + fixed(e.elo, 2) + elo_error + ", nElo: " + fixed(e.nelo, 2) +
                     " +/- " + fixed(e.nelo_error95, 2) + "\n";
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

}  // namespace materialist::play
