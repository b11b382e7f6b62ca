#include "learn/fit/models.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "core/enum_names.h"
#include "core/statistics.h"
#include "core/text.h"
#include "learn/fit/numeric.h"

namespace materialist::learn {
namespace {


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
// the middlegame pawn, else (split sides) the own pawn: the opponent's pieces are then in the
// player's pawns too, so own and opponent values compare on one scale.
int reference_column(const ModelSpec& spec, const Feature& feature) {
  if (is_piece_kind(feature.kind)) return find_feature(spec, feature.kind, kPawnIndex);
  const int plain = find_feature(spec, FeatureKind::kDelta, kPawnIndex);
  if (plain >= 0) return plain;
  const int midgame = find_feature(spec, FeatureKind::kDeltaMidgame, kPawnIndex);
  return midgame >= 0 ? midgame : find_feature(spec, FeatureKind::kOwnCount, kPawnIndex);
}

// Rows whose keys lack the counts a model reads (e.g. .mat rows).
bool lacks_counts(const Histogram& histogram) {
  bool lacking = false;
  histogram.for_each([&lacking](const RowKey& key, const OutcomeCounts&) {
    if (!key.counts_known) lacking = true;
  });
  return lacking;
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

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

std::string count(double value) {
  return grouped(static_cast<std::uint64_t>(std::llround(std::max(0.0, value))));
}

// Sets c.identified from the model-based errors (see finish_fit).
void identify(ModelFit& fit, const FitEvidence& evidence, const std::vector<double>& covariance) {
  const int n = fit.parameter_count();
  const int columns = static_cast<int>(fit.theta.size());
  const std::vector<double> parameters = fit.parameters();
  std::vector<bool> identified(n, true);
  for (int j = 0; j < n; ++j) {
    const double variance =
        covariance.size() == static_cast<std::size_t>(n) * n ? covariance[j * n + j] : kNaN;
    if (!(variance >= 0) || !std::isfinite(variance)) identified[j] = false;
    if (j < columns && j < static_cast<int>(evidence.column_support.size()) &&
        evidence.column_support[j] < kRowsPerParameter) {
      identified[j] = false;
    }
  }
  // A reference (pawn) column must have a sign: its 95% interval of θ must not reach 0.
  for (int j = 0; j < columns; ++j) {
    if (fit.coefficients[j].reference != j || !identified[j]) continue;
    const double se = std::sqrt(covariance[j * n + j]);
    if (!(kZ95 * se < std::fabs(fit.theta[j]))) identified[j] = false;
  }
  for (int j = 0; j < n; ++j) {
    Coefficient& c = fit.coefficients[j];
    const int reference = c.reference;
    if (reference >= 0 && reference != j) {
      if (!identified[reference]) {
        identified[j] = false;
      } else if (identified[j]) {
        const Estimate value = ratio_estimate(parameters, covariance, j, reference);
        if (!(kZ95 * value.se <= kIdentifiedHalfWidth)) identified[j] = false;
      }
    }
    c.identified = identified[j];
  }
}

}  // namespace

const char* error_kind_name(ErrorKind kind) {
  return name_of(kErrorKindNames, kind);
}

void describe_coefficients(ModelFit& fit) {
  const std::vector<double> parameters = fit.parameters();
  const int n = fit.parameter_count();
  const std::size_t size = static_cast<std::size_t>(n) * n;
  std::vector<double> covariance = fit.covariance;
  std::vector<double> model_covariance =
      fit.model_covariance.size() == size ? fit.model_covariance : fit.covariance;
  if (!fit.covariance_ok || covariance.size() != size) covariance.assign(size, kNaN);
  if (!fit.covariance_ok || model_covariance.size() != size) model_covariance.assign(size, kNaN);
  fit.coefficients.clear();
  for (int j = 0; j < n; ++j) {
    Coefficient c;
    std::vector<double> unit(n, 0.0);
    unit[j] = 1.0;
    c.theta = linear_estimate(parameters, covariance, unit);
    c.elo = scaled(c.theta, kEloPerLogOdds);
    c.model_theta_se = linear_estimate(parameters, model_covariance, unit).se;
    if (j < static_cast<int>(fit.theta.size())) {
      c.name = fit.spec.features[j].name();
      c.reference = reference_column(fit.spec, fit.spec.features[j]);
      c.value = c.reference >= 0 ? ratio_estimate(parameters, covariance, j, c.reference)
                                 : Estimate{kNaN, kNaN};
      c.model_value_se =
          c.reference >= 0 ? ratio_estimate(parameters, model_covariance, j, c.reference).se : kNaN;
    } else {
      c.name = "draw-margin";
      c.value = {kNaN, kNaN};
      c.model_value_se = kNaN;
    }
    fit.coefficients.push_back(c);
  }
}

namespace {

// Step 1: the model covariance, and the game-clustered one when the pairs allow it; returns why
// clustered errors were not computed ("" when they were, or when there are no pairs).
std::string set_covariance(ModelFit& fit, const FitEvidence& evidence, const GamePairs* pairs) {
  auto inverse = invert_symmetric(evidence.information, fit.parameter_count());
  fit.covariance_ok = inverse.ok();
  fit.model_covariance.clear();
  fit.covariance.clear();
  fit.errors = ErrorKind::kModel;
  fit.games = 0;
  fit.clusters = 0;
  if (inverse) fit.model_covariance = std::move(*inverse);
  fit.covariance = fit.model_covariance;
  if (pairs == nullptr) return "";
  if (!pairs->fields().covers(fit.options)) {
    return "the games' pair statistics do not keep every field this model reads";
  }
  if (!fit.covariance_ok) return "";
  auto clustered = clustered_covariance(*pairs, fit, fit.model_covariance);
  if (!clustered) return clustered.error().message;
  fit.covariance = std::move(clustered->covariance);
  fit.errors = ErrorKind::kClustered;
  fit.games = pairs->games();
  fit.clusters = clustered->clusters;
  return "";
}

// Step 2: the covariance that decides identification: the model's, or the penalised
// information's inverse when the model's is singular.
std::vector<double> identifying_covariance(const ModelFit& fit, const FitEvidence& evidence) {
  if (fit.covariance_ok) return fit.model_covariance;
  const int n = fit.parameter_count();
  std::vector<double> penalised = evidence.information;
  const int columns = static_cast<int>(fit.theta.size());
  for (int j = 0; j < columns; ++j) {
    penalised[j * n + j] += 2 * fit.options.lambda * fit.total_weight;
  }
  auto penalised_inverse = invert_symmetric(penalised, n);
  return penalised_inverse ? std::move(*penalised_inverse) : std::vector<double>{};
}

// Step 3: converged when the solver says so, or (gradient descent) when its remaining step is
// within kConvergedStepInSe standard errors; returns that step in standard errors.
double judge_convergence(ModelFit& fit, const FitEvidence& evidence,
                         const std::vector<double>& identifying) {
  const int n = fit.parameter_count();
  fit.converged = evidence.solver_converged;
  double worst_step = 0;
  if (evidence.remaining_step.empty()) return worst_step;
  for (int j = 0; j < n && j < static_cast<int>(evidence.remaining_step.size()); ++j) {
    const double variance =
        identifying.size() == static_cast<std::size_t>(n) * n ? identifying[j * n + j] : kNaN;
    const double ratio = std::fabs(evidence.remaining_step[j]) / std::sqrt(variance);
    if (!(ratio <= worst_step)) worst_step = std::isnan(ratio) ? INFINITY : ratio;
  }
  fit.converged = worst_step <= kConvergedStepInSe;
  return worst_step;
}

// Step 4: the warnings a reader must see beside the values.
void add_warnings(ModelFit& fit, const FitEvidence& evidence, double worst_step,
                  const std::string& model_errors) {
  const int n = fit.parameter_count();
  const double k = static_cast<double>(n);
  auto warn = [&fit](const char* code, std::string message) {
    fit.warnings.push_back({code, std::move(message)});
  };
  if (fit.total_weight < kRowsPerParameter * k) {
    warn("too-few-decisive", "only " + count(fit.total_weight) +
                                 (fit.options.outcomes == OutcomeModel::kDrawsOut &&
                                          fit.options.target == Target::kResult
                                      ? " decisive rows"
                                      : " rows") +
                                 " enter the fit for " + std::to_string(n) +
                                 " parameters (at least " + count(kRowsPerParameter * k) +
                                 " are needed)");
  }
  if (fit.errors == ErrorKind::kClustered &&
      static_cast<double>(fit.clusters) < kGamesPerParameter * k) {
    warn("too-few-games", "the game-clustered errors come from only " + grouped(fit.clusters) +
                              " games for " + std::to_string(n) +
                              " parameters: they are unreliable (at least " +
                              count(kGamesPerParameter * k) + " games are needed)");
  }
  if (!fit.converged) {
    warn("not-converged",
         evidence.remaining_step.empty()
             ? "the solver stopped after " + grouped(static_cast<std::uint64_t>(fit.iterations)) +
                   " iterations without reaching its gradient tolerance"
             : "gradient descent stopped after " +
                   grouped(static_cast<std::uint64_t>(fit.iterations)) + " iterations " +
                   number(worst_step) +
                   " standard errors from the optimum: the values are not the fit's");
  }
  if (!fit.covariance_ok) {
    warn("singular",
         "the information matrix is singular (empty or collinear columns): no standard errors");
  } else {
    const double condition = scaled_condition(evidence.information, n);
    if (!(condition <= kNearSingularCondition)) {
      warn("near-singular", "the information matrix is nearly singular (condition number " +
                                number(condition) + "): columns are almost collinear");
    }
  }
  std::string unidentified;
  for (const Coefficient& c : fit.coefficients) {
    if (c.identified) continue;
    unidentified += (unidentified.empty() ? "" : ", ") + c.name;
  }
  if (!unidentified.empty()) {
    warn("not-identified", "the data carry (almost) no information on: " + unidentified);
  }
  if (!model_errors.empty()) {
    warn("model-errors", "standard errors treat positions as independent: " + model_errors);
  }
}

}  // namespace

void finish_fit(ModelFit& fit, const FitEvidence& evidence, const GamePairs* pairs) {
  fit.warnings.clear();
  const std::string model_errors = set_covariance(fit, evidence, pairs);
  describe_coefficients(fit);
  const std::vector<double> identifying = identifying_covariance(fit, evidence);
  identify(fit, evidence, identifying);
  const double worst_step = judge_convergence(fit, evidence, identifying);
  add_warnings(fit, evidence, worst_step, model_errors);
}

ModelSpec model_spec(const ModelOptions& options) {
  ModelSpec spec;
  spec.target = options.target;
  if (options.split_sides && !options.phase_tapered) {
    for (int piece = kPawnIndex; piece <= kQueenIndex; ++piece) {
      spec.features.push_back({FeatureKind::kOwnCount, piece});
    }
    for (int piece = kPawnIndex; piece <= kQueenIndex; ++piece) {
      spec.features.push_back({FeatureKind::kOpponentCount, piece});
    }
  }
  const bool split = !spec.features.empty();
  for (int piece = kPawnIndex; piece <= kQueenIndex && !split; ++piece) {
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
  for (int term = 0; term < kImbalanceTerms; ++term) {
    if (has_term(options.imbalances, static_cast<ImbalanceTerm>(term))) {
      spec.features.push_back({FeatureKind::kImbalance, term});
    }
  }
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

Expected<ModelFit> fit_model(const Histogram& histogram, const ModelOptions& options,
                             const GamePairs* pairs) {
  if (const std::string conflict = model_conflict(options); !conflict.empty()) {
    return make_error(ErrorCode::kInvalidArgument, conflict);
  }
  if (needs_counts(options) && lacks_counts(histogram)) {
    return make_error(ErrorCode::kInvalidArgument,
                      "the imbalance terms and split sides read each side's piece counts, which "
                      ".mat rows (and statistics made without these terms) do not carry: read "
                      "the PGN games with the model");
  }
  if (options.target == Target::kEval && !histogram.has_targets()) {
    return make_error(ErrorCode::kInvalidArgument,
                      "the evaluation target needs positions read with their evaluations "
                      "(--target eval): these rows carry only results");
  }
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

  FitEvidence evidence;
  evidence.information = std::move(result->information);
  evidence.solver_converged = result->converged;
  evidence.column_support.assign(columns, 0.0);
  const bool all_outcomes = options.outcomes != OutcomeModel::kDrawsOut;
  for (std::size_t r = 0; r < rows.rows(); ++r) {
    const auto& w = rows.weights[r];
    const double weight = w[static_cast<int>(Outcome::kWhiteWin)] +
                          w[static_cast<int>(Outcome::kBlackWin)] +
                          (all_outcomes ? w[static_cast<int>(Outcome::kDraw)] : 0.0);
    for (int j = 0; j < columns; ++j) {
      if (rows.x[r * columns + j] != 0) evidence.column_support[j] += weight;
    }
  }
  finish_fit(fit, evidence, pairs);
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
  if (pawn < 0 && pawn_mg < 0) return curve;  // split sides: no balance column to move along
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
  if (!bootstrap.fields().covers(options)) {
    boot.failed = boot.replicates;
    boot.error =
        "the bootstrap replicates were gathered without a field this model reads (e.g. the "
        "rating difference): read the files again with the model's key fields";
    for (int r = 0; r < boot.replicates; ++r) boot.parameters.emplace_back();
    for (auto& c : boot.coefficients) {
      c.theta.assign(boot.replicates, kNaN);
      c.value.assign(boot.replicates, kNaN);
      c.theta_interval = c.value_interval = {kNaN, kNaN};
      c.theta_sd = c.value_sd = kNaN;
    }
    return boot;
  }
  for (int r = 0; r < boot.replicates; ++r) {
    auto fit = fit_model(bootstrap.replicate(r), options);
    if (!fit || !fit->converged) {
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
