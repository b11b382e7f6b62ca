#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <vector>

#include "learn/fit/design.h"
#include "learn/fit/solvers.h"
#include "learn/learn_test_util.h"

using namespace materialist::learn;
using materialist::learn::testing::histogram_from_mat;
using materialist::learn::testing::read_fixture;

namespace {

// The article's "Text output of the program" (seed 003), every logged iteration.
struct LoggedIteration {
  int iteration;
  std::array<double, 5> theta;
  double loss;
};
constexpr LoggedIteration kArticleLog[] = {
    {0, {0, 0, 0, 0, 0}, 0.693147},
    {1000, {0.703733, 1.89849, 2.31532, 3.16993, 6.9148}, 0.470379},
    {2000, {0.735853, 2.08733, 2.51039, 3.47418, 7.7387}, 0.469398},
    {3000, {0.74429, 2.13676, 2.56152, 3.55386, 7.95879}, 0.46933},
    {4000, {0.746738, 2.15108, 2.57635, 3.57697, 8.02296}, 0.469324},
    {5000, {0.747467, 2.15535, 2.58077, 3.58385, 8.0421}, 0.469324},
    {6000, {0.747685, 2.15663, 2.58209, 3.58591, 8.04785}, 0.469324},
    {7000, {0.747751, 2.15702, 2.58249, 3.58653, 8.04958}, 0.469324},
    {8000, {0.747771, 2.15713, 2.58261, 3.58672, 8.0501}, 0.469324},
    {9000, {0.747777, 2.15717, 2.58265, 3.58678, 8.05026}, 0.469324},
    {10000, {0.747779, 2.15718, 2.58266, 3.58679, 8.0503}, 0.469324},
};

// Agreement to 5 significant digits: within half a unit of the 5th digit of the reference.
bool same_to_5_digits(double value, double reference) {
  if (reference == 0) return std::fabs(value) < 1e-12;
  const double unit = std::pow(10.0, std::floor(std::log10(std::fabs(reference))) - 4);
  return std::fabs(value - reference) <= 0.5 * unit;
}

LogisticData article_data(DrawHandling draws = DrawHandling::kLeaveOut) {
  const Histogram histogram = histogram_from_mat(read_fixture("learn/OpenRating.article.mat"));
  return make_logistic_data(build_design(histogram, ModelSpec::article()), draws);
}

}  // namespace

TEST_CASE("the design merges keys that project onto the same x") {
  Histogram histogram;
  RowKey a = RowKey::from_delta({1, 0, 0, 0, 0});
  RowKey b = a;
  b.phase = 12;  // differs only outside the article's features
  histogram.add(a, Outcome::kWhiteWin, 3);
  histogram.add(b, Outcome::kDraw, 2);
  histogram.add(RowKey::from_delta({0, 0, 0, 0, -1}), Outcome::kBlackWin);
  const Design design = build_design(histogram, ModelSpec::article());
  REQUIRE(design.rows() == 2);
  CHECK(design.columns == 5);
  CHECK(design.names[1] == "knight");
  CHECK(design.row(1)[0] == 1.0);
  CHECK(design.weights[1][static_cast<int>(Outcome::kWhiteWin)] == 3.0);
  CHECK(design.weights[1][static_cast<int>(Outcome::kDraw)] == 2.0);
  CHECK(design.row(0)[4] == -1.0);

  ModelSpec tapered;
  tapered.features = {{FeatureKind::kDeltaMidgame, kPawnIndex},
                      {FeatureKind::kDeltaEndgame, kPawnIndex},
                      {FeatureKind::kIntercept}};
  const Design split = build_design(histogram, tapered);
  CHECK(split.rows() == 3);  // the phase now tells a and b apart
  CHECK(split.names[0] == "pawn-mg");
  CHECK(tapered.pawn_column() == -1);
  CHECK(ModelSpec::article().pawn_column() == 0);
}

TEST_CASE("gradient descent on the article's rows reproduces the article's iteration log") {
  const LogisticData data = article_data();
  CHECK(data.total_weight == 9212 + 8726);  // m = decisive rows
  std::vector<FitState> logged;
  const FitResult result = fit_gradient_descent(data, {}, [&logged](const FitState& state) {
    if (state.iteration % 1000 == 0) logged.push_back(state);
    return true;
  });
  CHECK(result.iterations == 10000);
  REQUIRE(logged.size() == std::size(kArticleLog));
  for (std::size_t i = 0; i < logged.size(); ++i) {
    const LoggedIteration& expected = kArticleLog[i];
    CAPTURE(expected.iteration);
    CHECK(logged[i].iteration == expected.iteration);
    CHECK(same_to_5_digits(logged[i].loss, expected.loss));
    for (int j = 0; j < 5; ++j) {
      CAPTURE(j);
      CAPTURE(logged[i].theta[j]);
      CHECK(same_to_5_digits(logged[i].theta[j], expected.theta[j]));
    }
  }
  const std::vector<double> values = relative_values(result.theta);
  CHECK(values[0] == doctest::Approx(100.0));
  CHECK(std::fabs(values[1] - 288.478) < 0.01);
  CHECK(std::fabs(values[2] - 345.377) < 0.01);
  CHECK(std::fabs(values[3] - 479.66) < 0.01);
  CHECK(std::fabs(values[4] - 1076.56) < 0.01);
}

TEST_CASE("the callback can stop gradient descent, and step() walks the same path") {
  const LogisticData data = article_data();
  const FitResult stopped =
      fit_gradient_descent(data, {}, [](const FitState& s) { return s.iteration < 25; });
  CHECK(stopped.iterations == 25);

  GradientDescent descent(data);
  CHECK(descent.state().iteration == 0);
  CHECK(descent.state().loss == doctest::Approx(std::log(2.0)));
  CHECK(descent.step(10) == 10);
  CHECK(descent.step(15) == 15);
  CHECK(descent.state().theta == stopped.theta);
  CHECK(descent.state().loss == stopped.loss);

  GradientDescent short_run(data, {.iterations = 30});
  CHECK(short_run.step(100) == 30);
  CHECK(short_run.finished());
  CHECK(short_run.step(1) == 0);
}

TEST_CASE("Newton reaches the minimum gradient descent converges to") {
  const LogisticData data = article_data();
  const auto newton = fit_newton(data);
  REQUIRE(newton.ok());
  CHECK(newton->converged);
  CHECK(newton->iterations <= 15);
  const FitResult descent = fit_gradient_descent(data, {.iterations = 15000});
  const auto a = relative_values(newton->theta);
  const auto b = relative_values(descent.theta);
  for (int j = 0; j < 5; ++j) CHECK(std::fabs(a[j] - b[j]) < 0.1);
  CHECK(newton->loss <= descent.loss + 1e-12);

  // The Hessian comes back symmetric and positive on the diagonal.
  REQUIRE(newton->hessian.size() == 25);
  for (int i = 0; i < 5; ++i) {
    CHECK(newton->hessian[i * 5 + i] > 0);
    for (int j = 0; j < 5; ++j) CHECK(newton->hessian[i * 5 + j] == newton->hessian[j * 5 + i]);
  }
  // Finite differences of the gradient agree with the returned Hessian.
  std::vector<double> up = newton->theta, g_up(5), g_down(5);
  std::vector<double> down = newton->theta;
  const double h = 1e-5;
  up[3] += h;
  down[3] -= h;
  evaluate_objective(data, 1e-6, up.data(), g_up.data(), nullptr);
  evaluate_objective(data, 1e-6, down.data(), g_down.data(), nullptr);
  for (int i = 0; i < 5; ++i) {
    CHECK((g_up[i] - g_down[i]) / (2 * h) ==
          doctest::Approx(newton->hessian[i * 5 + 3]).epsilon(1e-5));
  }
}

TEST_CASE("fractional target: draws count half a point, with a known answer") {
  // Pawn-up rows: 6 white wins, 2 draws, 2 black wins; knight-up rows: 1 win, 2 draws, 1 loss.
  // Orthogonal columns and no regulariser: h(θP) = 7/10 and h(θN) = 1/2 exactly; leaving draws
  // out gives h(θP) = 6/8.
  Histogram histogram;
  const RowKey pawn = RowKey::from_delta({1, 0, 0, 0, 0});
  const RowKey knight = RowKey::from_delta({0, 1, 0, 0, 0});
  histogram.add(pawn, Outcome::kWhiteWin, 6);
  histogram.add(pawn, Outcome::kDraw, 2);
  histogram.add(pawn, Outcome::kBlackWin, 2);
  histogram.add(knight, Outcome::kWhiteWin, 1);
  histogram.add(knight, Outcome::kDraw, 2);
  histogram.add(knight, Outcome::kBlackWin, 1);
  ModelSpec model;
  model.features = {{FeatureKind::kDelta, kPawnIndex}, {FeatureKind::kDelta, kKnightIndex}};
  const Design design = build_design(histogram, model);

  const LogisticData half = make_logistic_data(design, DrawHandling::kHalfPoint);
  CHECK(half.total_weight == 14);
  const auto fit = fit_newton(half, {.lambda = 0});
  REQUIRE(fit.ok());
  CHECK(fit->theta[0] == doctest::Approx(std::log(7.0 / 3.0)).epsilon(1e-9));
  CHECK(std::fabs(fit->theta[1]) < 1e-9);

  const LogisticData out = make_logistic_data(design, DrawHandling::kLeaveOut);
  CHECK(out.total_weight == 10);
  const auto decisive = fit_newton(out, {.lambda = 0});
  REQUIRE(decisive.ok());
  CHECK(decisive->theta[0] == doctest::Approx(std::log(3.0)).epsilon(1e-9));

  // Gradient descent heads to the same place.
  const FitResult gd = fit_gradient_descent(half, {.lambda = 0, .iterations = 5000});
  CHECK(gd.theta[0] == doctest::Approx(std::log(7.0 / 3.0)).epsilon(1e-6));
}

TEST_CASE("log-sigmoid stays finite far from the origin, and singular problems fail cleanly") {
  LogisticData data;
  data.columns = 1;
  data.x = {1.0};
  data.weight = {1.0};
  data.target = {0.0};
  data.total_weight = 1.0;
  const double theta_big = 800.0;  // exp(800) overflows a double
  double gradient = 0;
  const double loss = evaluate_objective(data, 0, &theta_big, &gradient, nullptr);
  CHECK(loss == doctest::Approx(800.0));
  CHECK(gradient == doctest::Approx(1.0));
  const double theta_small = -800.0;
  CHECK(evaluate_objective(data, 0, &theta_small, nullptr, nullptr) >= 0);

  LogisticData collinear;  // two equal columns: the unregularised Hessian is singular
  collinear.columns = 2;
  collinear.x = {1.0, 1.0};
  collinear.weight = {1.0};
  collinear.target = {1.0};
  collinear.total_weight = 1.0;
  const auto fit = fit_newton(collinear, {.lambda = 0});
  CHECK_FALSE(fit.ok());
  CHECK(fit.error().code == materialist::ErrorCode::kNotConverged);
}
