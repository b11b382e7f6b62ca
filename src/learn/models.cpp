#include "learn/models.h"

#include <array>
#include <cmath>
#include <limits>

namespace materialist::learn {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kEloPerLogOdds = 400.0 / kLn10;
constexpr std::array<const char*, 3> kOutcomeModelNames = {"draws-out", "fractional", "ordinal"};

int find_feature(const ModelSpec& spec, FeatureKind kind, int piece) {
  for (std::size_t i = 0; i < spec.features.size(); ++i) {
    const Feature& f = spec.features[i];
    if (f.kind == kind && f.piece == piece) return static_cast<int>(i);
  }
  return -1;
}

bool is_piece_kind(FeatureKind kind) {
  return kind == FeatureKind::kDelta || kind == FeatureKind::kDeltaMidgame ||
         kind == FeatureKind::kDeltaEndgame;
}

// The pawn = 100 reference of a column: the pawn of the same phase, else the plain pawn, else
// the middlegame pawn.
int reference_column(const ModelSpec& spec, const Feature& feature) {
  if (is_piece_kind(feature.kind)) return find_feature(spec, feature.kind, kPawnIndex);
  const int plain = find_feature(spec, FeatureKind::kDelta, kPawnIndex);
  return plain >= 0 ? plain : find_feature(spec, FeatureKind::kDeltaMidgame, kPawnIndex);
}

Histogram rated_rows_only(const Histogram& histogram, std::uint64_t& left_out) {
  Histogram rated;
  left_out = 0;
  histogram.for_each([&](const RowKey& key, const OutcomeCounts& counts) {
    if (key.rating_known) {
      rated.add(key, counts);
    } else {
      left_out += counts.total();
    }
  });
  return rated;
}

Estimate scaled(Estimate e, double factor) {
  return {e.value * factor, e.se * factor};
}

}  // namespace

void describe_coefficients(ModelFit& fit) {
  const std::vector<double> parameters = fit.parameters();
  const int n = fit.parameter_count();
  std::vector<double> covariance = fit.covariance;
  if (!fit.covariance_ok) covariance.assign(static_cast<std::size_t>(n) * n, kNaN);
  for (int j = 0; j < n; ++j) {
    Coefficient c;
    std::vector<double> unit(n, 0.0);
    unit[j] = 1.0;
    c.theta = linear_estimate(parameters, covariance, unit);
    c.elo = scaled(c.theta, kEloPerLogOdds);
    if (j < static_cast<int>(fit.theta.size())) {
      c.name = fit.spec.features[j].name();
      c.reference = reference_column(fit.spec, fit.spec.features[j]);
      c.value = c.reference >= 0 ? ratio_estimate(parameters, covariance, j, c.reference)
                                 : Estimate{kNaN, kNaN};
    } else {
      c.name = "draw-margin";
      c.value = {kNaN, kNaN};
    }
    fit.coefficients.push_back(c);
  }
}

const char* outcome_model_name(OutcomeModel model) {
  auto index = static_cast<std::size_t>(model);
  return index < kOutcomeModelNames.size() ? kOutcomeModelNames[index] : "unknown";
}

std::optional<OutcomeModel> parse_outcome_model(std::string_view name) {
  for (std::size_t i = 0; i < kOutcomeModelNames.size(); ++i) {
    if (name == kOutcomeModelNames[i]) return static_cast<OutcomeModel>(i);
  }
  return std::nullopt;
}

ModelSpec model_spec(const ModelOptions& options) {
  ModelSpec spec;
  for (int piece = kPawnIndex; piece <= kQueenIndex; ++piece) {
    if (options.phase_tapered) {
      spec.features.push_back({FeatureKind::kDeltaMidgame, piece});
    } else {
      spec.features.push_back({FeatureKind::kDelta, piece});
    }
  }
  if (options.phase_tapered) {
    for (int piece = kPawnIndex; piece <= kQueenIndex; ++piece) {
      spec.features.push_back({FeatureKind::kDeltaEndgame, piece});
    }
  }
  if (options.bishop_pair) spec.features.push_back({FeatureKind::kBishopPair, kPawnIndex});
  if (options.intercept) spec.features.push_back({FeatureKind::kIntercept, kPawnIndex});
  if (options.side_to_move) spec.features.push_back({FeatureKind::kSideToMove, kPawnIndex});
  return spec;
}

int ModelFit::column(std::string_view name) const {
  for (std::size_t i = 0; i < spec.features.size(); ++i) {
    if (spec.features[i].name() == name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<double> ModelFit::parameters() const {
  std::vector<double> p = theta;
  if (has_margin()) p.push_back(draw_margin);
  return p;
}

Expected<ModelFit> fit_model(const Histogram& histogram, const ModelOptions& options) {
  ModelFit fit;
  fit.options = options;
  fit.spec = model_spec(options);
  const int columns = static_cast<int>(fit.spec.features.size());

  const Histogram* source = &histogram;
  Histogram rated;
  ModelSpec design_spec = fit.spec;
  if (options.rating_offset) {
    rated = rated_rows_only(histogram, fit.rows_without_rating);
    source = &rated;
    design_spec.features.push_back({FeatureKind::kRatingDiff, kPawnIndex});  // (ΔElo / 100)
  }
  const Design design = build_design(*source, design_spec);
  const NewtonSettings settings{options.lambda, options.gradient_tolerance, options.max_iterations};
  // Our own Newton for every model: it accepts steps whose J change is below rounding, so it
  // also converges on bootstrap replicates where J is flat to the last bit (the same optimum as
  // solvers.h's fit_newton, checked in tests).
  const OutcomeRows rows = options.rating_offset
                               ? make_outcome_rows(design, columns, 100.0 * kLogOddsPerElo)
                               : make_outcome_rows(design);
  const DrawHandling draws = options.outcomes == OutcomeModel::kFractional
                                 ? DrawHandling::kHalfPoint
                                 : DrawHandling::kLeaveOut;
  Expected<NewtonFit> result = options.outcomes == OutcomeModel::kOrdinal
                                   ? fit_ordinal(rows, settings)
                                   : fit_binary_offset(rows, draws, settings);
  if (!result) return result.error();
  fit.theta.assign(result->parameters.begin(), result->parameters.begin() + columns);
  if (fit.has_margin()) fit.draw_margin = result->parameters.back();
  fit.loss = result->loss;
  fit.iterations = result->iterations;
  fit.total_weight = result->total_weight;
  const std::vector<double>& information = result->information;

  auto covariance = invert_symmetric(information, fit.parameter_count());
  fit.covariance_ok = covariance.ok();
  if (covariance) fit.covariance = std::move(*covariance);
  describe_coefficients(fit);
  return fit;
}

OutcomeProbabilities predict(const ModelFit& fit, const std::vector<double>& x,
                             double elo_difference) {
  double eta = fit.options.rating_offset ? kLogOddsPerElo * elo_difference : 0.0;
  for (std::size_t j = 0; j < fit.theta.size() && j < x.size(); ++j) eta += fit.theta[j] * x[j];
  if (fit.has_margin()) return ordinal_probabilities(eta, fit.draw_margin);
  OutcomeProbabilities p;
  p.white_win = ordinal_probabilities(eta, 0.0).white_win;  // σ(η)
  p.black_win = 1.0 - p.white_win;
  return p;
}

std::vector<BalancePoint> pawn_balance_curve(const ModelFit& fit, double from, double to,
                                             int steps) {
  std::vector<BalancePoint> curve;
  if (steps < 1) steps = 1;
  const int pawn = find_feature(fit.spec, FeatureKind::kDelta, kPawnIndex);
  const int pawn_mg = find_feature(fit.spec, FeatureKind::kDeltaMidgame, kPawnIndex);
  const int intercept = find_feature(fit.spec, FeatureKind::kIntercept, kPawnIndex);
  for (int i = 0; i <= steps; ++i) {
    const double pawns = from + (to - from) * i / steps;
    std::vector<double> x(fit.theta.size(), 0.0);
    if (pawn >= 0)
      x[pawn] = pawns;
    else if (pawn_mg >= 0)
      x[pawn_mg] = pawns;  // tapered: a full middlegame (phase 24)
    if (intercept >= 0) x[intercept] = 1.0;
    curve.push_back({pawns, predict(fit, x)});
  }
  return curve;
}

BootstrapFit bootstrap_model(const BootstrapHistograms& bootstrap, const ModelOptions& options,
                             double level) {
  BootstrapFit boot;
  boot.replicates = bootstrap.replicate_count();
  const ModelSpec spec = model_spec(options);
  const int columns = static_cast<int>(spec.features.size());
  const int n = columns + (options.outcomes == OutcomeModel::kOrdinal ? 1 : 0);
  boot.coefficients.resize(n);
  for (int j = 0; j < n; ++j) {
    boot.coefficients[j].name = j < columns ? spec.features[j].name() : "draw-margin";
  }
  for (const Histogram& replicate : bootstrap.replicates()) {
    auto fit = fit_model(replicate, options);
    if (!fit) {
      ++boot.failed;
      boot.parameters.emplace_back();
      for (auto& c : boot.coefficients) {
        c.theta.push_back(kNaN);
        c.value.push_back(kNaN);
      }
      continue;
    }
    boot.parameters.push_back(fit->parameters());
    for (int j = 0; j < n; ++j) {
      boot.coefficients[j].theta.push_back(fit->coefficients[j].theta.value);
      boot.coefficients[j].value.push_back(fit->coefficients[j].value.value);
    }
  }
  for (auto& c : boot.coefficients) {
    c.theta_interval = percentile_interval(c.theta, level);
    c.value_interval = percentile_interval(c.value, level);
    c.theta_sd = standard_deviation(c.theta);
    c.value_sd = standard_deviation(c.value);
  }
  return boot;
}

}  // namespace materialist::learn
