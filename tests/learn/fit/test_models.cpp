// Models on constructed data: outcomes simulated from known parameters with a fixed-seed RNG,
// then fitted; each test checks the fit recovers the parameters within a few standard errors.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "learn/fit/models.h"
#include "learn/fit/solvers.h"
#include "learn/random.h"

using namespace materialist::learn;
using materialist::kLogOddsPerElo;

namespace {

using materialist::testing::Rng;

double sigmoid(double z) {
  return 1.0 / (1.0 + std::exp(-z));
}

// A random recorded position: small material imbalances, any phase, either side to move.
RowKey random_model_key(Rng& rng) {
  return materialist::testing::random_key(rng, 400, true);
}

// η of the true model for a key: the spec's columns with `theta`, plus the Elo offset if asked.
double true_eta(const ModelOptions& options, const std::vector<double>& theta, const RowKey& key) {
  const ModelSpec spec = model_spec(options);
  double eta = options.rating_offset ? kLogOddsPerElo * key.rating_diff : 0.0;
  for (std::size_t j = 0; j < spec.features.size(); ++j)
    eta += theta[j] * spec.features[j].value(key);
  return eta;
}

enum class Simulated { kBinary, kMeanScore, kOrdinal };

// Draws an outcome: binary σ(η); a mean-score model with E[y] = σ(η) and draws; or ordinal.
Outcome draw_outcome(Rng& rng, Simulated kind, double eta, double margin) {
  const double u = rng.uniform();
  switch (kind) {
    case Simulated::kBinary:
      return u < sigmoid(eta) ? Outcome::kWhiteWin : Outcome::kBlackWin;
    case Simulated::kMeanScore: {
      const double s = sigmoid(eta);
      const double draw = std::min(s, 1.0 - s);        // P(draw) ≤ ½ keeps p_win in [0, 1]
      const double win = (s - draw / 2) / (1 - draw);  // win·(1 − draw) + draw/2 = s
      if (u < draw) return Outcome::kDraw;
      return rng.uniform() < win ? Outcome::kWhiteWin : Outcome::kBlackWin;
    }
    case Simulated::kOrdinal: {
      const OutcomeProbabilities p = ordinal_probabilities(eta, margin);
      if (u < p.white_win) return Outcome::kWhiteWin;
      if (u < p.white_win + p.draw) return Outcome::kDraw;
      return Outcome::kBlackWin;
    }
  }
  return Outcome::kUnknown;
}

Histogram simulate(const ModelOptions& options, const std::vector<double>& theta, Simulated kind,
                   double margin, int rows, std::uint64_t seed) {
  Rng rng(seed);
  Histogram histogram;
  for (int i = 0; i < rows; ++i) {
    const RowKey key = random_model_key(rng);
    histogram.add(key, draw_outcome(rng, kind, true_eta(options, theta, key), margin));
  }
  return histogram;
}

// Every fitted parameter within `sigmas` standard errors of the truth, and the errors small.
void check_recovery(const ModelFit& fit, const std::vector<double>& truth, double sigmas = 4.0) {
  REQUIRE(fit.covariance_ok);
  REQUIRE(fit.coefficients.size() == truth.size());
  for (std::size_t j = 0; j < truth.size(); ++j) {
    const Coefficient& c = fit.coefficients[j];
    CAPTURE(c.name);
    CAPTURE(c.theta.value);
    CAPTURE(c.theta.se);
    CHECK(c.theta.se > 0);
    CHECK(c.theta.se < 0.1);
    CHECK(std::fabs(c.theta.value - truth[j]) < sigmas * c.theta.se);
  }
}

}  // namespace

TEST_CASE("models: draws-out recovers θ and matches the article's Newton solver") {
  ModelOptions options;
  const std::vector<double> theta = {0.6, 1.7, 1.9, 2.6, 4.8};
  const Histogram histogram = simulate(options, theta, Simulated::kBinary, 0, 60000, 1);
  auto fit = fit_model(histogram, options);
  REQUIRE(fit.ok());
  if (!fit.ok()) return;
  check_recovery(*fit, theta);
  CHECK(fit->total_weight == doctest::Approx(60000));

  // The value in pawn units is 100 θ/θP with a delta-method error bigger than zero.
  const Coefficient& knight = fit->coefficients[1];
  CHECK(knight.value.value == doctest::Approx(100 * fit->theta[1] / fit->theta[0]));
  CHECK(knight.elo.value == doctest::Approx(fit->theta[1] * 400 / std::log(10.0)));
  CHECK(std::fabs(knight.value.value - 100 * 1.7 / 0.6) < 4 * knight.value.se);

  // The offset solver with no offset is the same objective: the same optimum.
  const Design design = build_design(histogram, model_spec(options));
  auto own = fit_binary_offset(make_outcome_rows(design), DrawHandling::kLeaveOut);
  REQUIRE(own.ok());
  if (!own.ok()) return;
  for (std::size_t j = 0; j < theta.size(); ++j) {
    CHECK(own->parameters[j] == doctest::Approx(fit->theta[j]).epsilon(1e-8));
  }
}

TEST_CASE("models: fractional target recovers θ when E[score] = σ(θ·x)") {
  ModelOptions options;
  options.outcomes = OutcomeModel::kFractional;
  const std::vector<double> theta = {0.5, 1.4, 1.6, 2.2, 4.0};
  const Histogram histogram = simulate(options, theta, Simulated::kMeanScore, 0, 60000, 2);
  CHECK(histogram.totals()[Outcome::kDraw] > 5000);
  auto fit = fit_model(histogram, options);
  REQUIRE(fit.ok());
  if (!fit.ok()) return;
  check_recovery(*fit, theta);
  CHECK(fit->total_weight == doctest::Approx(60000));  // draws count as half points

  // Leaving those draws out estimates something else: the steeper decisive-only curve.
  auto draws_out = fit_model(histogram, ModelOptions{});
  REQUIRE(draws_out.ok());
  if (!draws_out.ok()) return;
  CHECK(draws_out->theta[0] > theta[0] + 4 * draws_out->coefficients[0].theta.se);
}

TEST_CASE("models: ordinal model recovers θ and the draw margin") {
  ModelOptions options;
  options.outcomes = OutcomeModel::kOrdinal;
  const std::vector<double> theta = {0.5, 1.5, 1.6, 2.4, 4.5};
  const double margin = 0.8;
  const Histogram histogram = simulate(options, theta, Simulated::kOrdinal, margin, 60000, 3);
  auto fit = fit_model(histogram, options);
  REQUIRE(fit.ok());
  if (!fit.ok()) return;
  std::vector<double> truth = theta;
  truth.push_back(margin);
  check_recovery(*fit, truth);
  CHECK(fit->coefficients.back().name == "draw-margin");
  CHECK(fit->draw_margin == fit->coefficients.back().theta.value);

  // Probabilities are a distribution, symmetric in the balance, and more decisive with it.
  const OutcomeProbabilities even = predict(*fit, {0, 0, 0, 0, 0});
  CHECK(even.white_win + even.draw + even.black_win == doctest::Approx(1.0));
  CHECK(even.white_win == doctest::Approx(even.black_win));
  CHECK(even.draw == doctest::Approx(2 * sigmoid(fit->draw_margin) - 1));
  const std::vector<BalancePoint> curve = pawn_balance_curve(*fit, -3, 3, 6);
  REQUIRE(curve.size() == 7);
  CHECK(curve[0].pawns == -3);
  CHECK(curve[6].probabilities.white_win == doctest::Approx(curve[0].probabilities.black_win));
  for (std::size_t i = 1; i < curve.size(); ++i) {
    CHECK(curve[i].probabilities.white_win > curve[i - 1].probabilities.white_win);
    CHECK(curve[i].probabilities.black_win < curve[i - 1].probabilities.black_win);
  }
}

TEST_CASE("models: intercept, bishop pair and side to move are reported with errors") {
  ModelOptions options;
  options.intercept = true;
  options.bishop_pair = true;
  options.side_to_move = true;
  const std::vector<double> theta = {0.6, 1.7, 1.8, 2.6, 4.6, 0.35, 0.25, -0.15};
  const Histogram histogram = simulate(options, theta, Simulated::kBinary, 0, 80000, 4);
  auto fit = fit_model(histogram, options);
  REQUIRE(fit.ok());
  if (!fit.ok()) return;
  check_recovery(*fit, theta);
  CHECK(fit->column("bishop-pair") == 5);
  CHECK(fit->column("intercept") == 6);
  CHECK(fit->column("side-to-move") == 7);
  CHECK(fit->coefficients[6].reference == 0);  // the intercept in pawns too
}

TEST_CASE("models: phase-tapered values recover separate middlegame and endgame values") {
  ModelOptions options;
  options.phase_tapered = true;
  const std::vector<double> theta = {0.4, 1.8, 1.8, 2.2, 5.0,   // middlegame
                                     0.9, 1.5, 1.9, 3.0, 5.0};  // endgame
  const Histogram histogram = simulate(options, theta, Simulated::kBinary, 0, 120000, 5);
  auto fit = fit_model(histogram, options);
  REQUIRE(fit.ok());
  if (!fit.ok()) return;
  check_recovery(*fit, theta);
  CHECK(fit->coefficients[0].name == "pawn-mg");
  CHECK(fit->coefficients[6].name == "knight-eg");
  CHECK(fit->coefficients[6].reference == 5);  // knight-eg in units of pawn-eg
  CHECK(fit->coefficients[6].value.value == doctest::Approx(100 * fit->theta[6] / fit->theta[5]));
}

TEST_CASE("models: the rating offset enters with ln10/400 per Elo point, not fitted") {
  ModelOptions options;
  options.rating_offset = true;
  const std::vector<double> theta = {0.6, 1.7, 1.9, 2.6, 4.8};
  Histogram histogram = simulate(options, theta, Simulated::kBinary, 0, 60000, 6);
  RowKey unrated = RowKey::from_delta({1, 0, 0, 0, 0});
  histogram.add(unrated, Outcome::kWhiteWin, 7);  // rating_known = 0: left out
  auto fit = fit_model(histogram, options);
  REQUIRE(fit.ok());
  if (!fit.ok()) return;
  check_recovery(*fit, theta);
  CHECK(fit->rows_without_rating == 7);
  CHECK(fit->coefficients.size() == 5);  // no rating column among the fitted ones

  // A 400-point favourite scores σ(ln 10) = 10/11 in an equal position.
  CHECK(predict(*fit, {0, 0, 0, 0, 0}, 400).white_win == doctest::Approx(10.0 / 11.0));

  // Ignoring the ratings when they matter biases nothing here (ratings are independent of
  // material) but widens the spread: θ shrinks towards zero (attenuation), by more than noise.
  auto without = fit_model(histogram, ModelOptions{});
  REQUIRE(without.ok());
  if (!without.ok()) return;
  CHECK(without->theta[4] < fit->theta[4] - 2 * fit->coefficients[4].theta.se);

  // The ordinal model takes the same offset.
  ModelOptions ordinal = options;
  ordinal.outcomes = OutcomeModel::kOrdinal;
  const Histogram ordinal_data = simulate(ordinal, theta, Simulated::kOrdinal, 0.7, 60000, 7);
  auto ordinal_fit = fit_model(ordinal_data, ordinal);
  REQUIRE(ordinal_fit.ok());
  if (!ordinal_fit.ok()) return;
  std::vector<double> truth = theta;
  truth.push_back(0.7);
  check_recovery(*ordinal_fit, truth);
}

TEST_CASE("models: standard errors match the spread of estimates over repeated samples") {
  // 40 independent data sets from one truth: the sd of θ̂ should match the reported se.
  for (OutcomeModel model : {OutcomeModel::kDrawsOut, OutcomeModel::kOrdinal}) {
    const std::string model_name = outcome_model_name(model);
    CAPTURE(model_name);
    ModelOptions options;
    options.outcomes = model;
    options.intercept = true;
    const std::vector<double> theta = {0.6, 1.7, 1.9, 2.6, 4.8, 0.2};
    const Simulated kind =
        model == OutcomeModel::kOrdinal ? Simulated::kOrdinal : Simulated::kBinary;
    const int parameters = static_cast<int>(theta.size()) + (model == OutcomeModel::kOrdinal);
    std::vector<std::vector<double>> estimates(parameters);
    std::vector<double> mean_se(parameters, 0.0);
    const int repeats = 40;
    for (int r = 0; r < repeats; ++r) {
      auto fit = fit_model(simulate(options, theta, kind, 0.6, 4000, 100 + r), options);
      REQUIRE_MESSAGE(fit.ok(), (fit.ok() ? std::string() : fit.error().message));
      if (!fit.ok()) return;
      for (int j = 0; j < parameters; ++j) {
        estimates[j].push_back(fit->coefficients[j].theta.value);
        mean_se[j] += fit->coefficients[j].theta.se / repeats;
      }
    }
    for (int j = 0; j < parameters; ++j) {
      CAPTURE(j);
      const double spread = standard_deviation(estimates[j]);
      // With 40 samples the sd itself is uncertain by about 11%: allow 35%.
      CHECK(spread == doctest::Approx(mean_se[j]).epsilon(0.35));
    }
  }
}

TEST_CASE("models: names and failures") {
  CHECK(parse_outcome_model("ordinal") == OutcomeModel::kOrdinal);
  CHECK(std::string(outcome_model_name(OutcomeModel::kFractional)) == "fractional");
  CHECK_FALSE(parse_outcome_model("trinary").has_value());

  Histogram empty;
  CHECK_FALSE(fit_model(empty, ModelOptions{}).ok());
  ModelOptions ordinal;
  ordinal.outcomes = OutcomeModel::kOrdinal;
  Histogram no_draws;
  no_draws.add(RowKey::from_delta({1, 0, 0, 0, 0}), Outcome::kWhiteWin, 3);
  no_draws.add(RowKey::from_delta({-1, 0, 0, 0, 0}), Outcome::kBlackWin, 3);
  CHECK_FALSE(fit_model(no_draws, ordinal).ok());
}

TEST_CASE("models: the reported information is the Hessian of the negative log-likelihood") {
  // Central second differences of the summed NLL at the optimum, for both of our own solvers.
  ModelOptions options;
  options.outcomes = OutcomeModel::kOrdinal;
  options.intercept = true;
  const std::vector<double> theta = {0.5, 1.5, 1.6, 2.4, 4.5, 0.1};
  const Histogram histogram = simulate(options, theta, Simulated::kOrdinal, 0.7, 5000, 8);
  const OutcomeRows rows = make_outcome_rows(build_design(histogram, model_spec(options)));

  auto ordinal = fit_ordinal(rows);
  auto binary = fit_binary_offset(rows, DrawHandling::kHalfPoint);
  REQUIRE(ordinal.ok());
  REQUIRE(binary.ok());
  if (!ordinal.ok() || !binary.ok()) return;

  auto check_hessian = [](const NewtonFit& fit, const auto& nll) {
    const std::vector<double> p = fit.parameters;
    const int n = static_cast<int>(p.size());
    const double h = 1e-4;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        auto at = [&](double di, double dj) {
          std::vector<double> q = p;
          q[i] += di;
          q[j] += dj;
          return nll(q);
        };
        const double numeric = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h);
        CAPTURE(i);
        CAPTURE(j);
        CHECK(fit.information[i * n + j] == doctest::Approx(numeric).epsilon(1e-4).scale(1.0));
      }
    }
  };
  check_hessian(*ordinal, [&](const std::vector<double>& q) {
    return ordinal_negative_log_likelihood(rows, q);
  });
  check_hessian(*binary, [&](const std::vector<double>& q) {
    return binary_negative_log_likelihood(rows, DrawHandling::kHalfPoint, q);
  });
  // The ordinal fit maximises the likelihood: nudging c either way costs likelihood.
  std::vector<double> p = ordinal->parameters;
  const double best = ordinal_negative_log_likelihood(rows, p);
  p.back() += 0.01;
  CHECK(ordinal_negative_log_likelihood(rows, p) > best);
  p.back() -= 0.02;
  CHECK(ordinal_negative_log_likelihood(rows, p) > best);
  p.back() = -0.1;
  CHECK(std::isinf(ordinal_negative_log_likelihood(rows, p)));
}
