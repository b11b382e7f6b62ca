// Models beyond the article on the same histogram: outcome handling (draws out, fractional,
// ordinal with a fitted draw margin), an intercept or side-to-move term, bishop pair, phase
// tapering, and the rating difference as a fixed offset, with every value reported in three
// units and with its standard error.
//
//   ModelOptions options;
//   options.outcomes = OutcomeModel::kOrdinal;
//   options.intercept = true;
//   Expected<ModelFit> fit = fit_model(histogram, options);
//   for (const Coefficient& c : fit->coefficients) print(c.name, c.value, c.value_se);
//   OutcomeProbabilities p = predict(*fit, {1, 0, 0, 0, 0, 1});   // a pawn up, with intercept
//
// Units: θ in natural log-odds; Elo = θ · 400 / ln10; value = 100 θ / θ(reference pawn), where
// the reference is the pawn column of the same phase (pawn-mg for *-mg columns, pawn-eg for
// *-eg, pawn for the rest). Standard errors come from the inverse observed information at the
// optimum (delta method for values). The rating offset adds ln10/400 · (WhiteElo − BlackElo) to
// the log-odds with that coefficient fixed, so the fitted values read as Elo-adjusted.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "learn/fit/clustered.h"
#include "learn/fit/design.h"
#include "learn/fit/ordinal.h"
#include "learn/fit/uncertainty.h"
#include "learn/stats/bootstrap_histograms.h"
#include "learn/stats/histogram.h"
#include "learn/vocabulary/imbalance.h"
#include "learn/vocabulary/model_options.h"

namespace materialist::learn {

// Which covariance the reported standard errors come from.
enum class ErrorKind : std::uint8_t {
  kModel,      // inverse information: every position treated as an independent observation
  kClustered,  // game-clustered sandwich: positions of one game are not independent
};
inline constexpr std::array kErrorKindNames = {"model", "game-clustered"};
static_assert(kErrorKindNames.size() == static_cast<std::size_t>(ErrorKind::kClustered) + 1);
const char* error_kind_name(ErrorKind kind);  // "model", "game-clustered"

// Why a fit must not be read as a plain result. Codes are stable wire names:
// "too-few-decisive", "too-few-games", "not-converged", "singular", "near-singular",
// "not-identified", "model-errors" (clustered errors could not be computed for this model).
struct FitWarning {
  std::string code;
  std::string message;  // one sentence for people, naming the cause

  friend bool operator==(const FitWarning&, const FitWarning&) = default;
};

// The fitted columns of a model (the rating offset is not one of them).
ModelSpec model_spec(const ModelOptions& options);

struct Coefficient {
  std::string name;    // the design's column name ("knight", "rook-eg", "intercept"), or
                       // "draw-margin" for the ordinal model's c
  Estimate theta;      // natural log-odds
  Estimate elo;        // θ · 400 / ln10
  Estimate value;      // 100 θ / θ(reference); NaN for the draw margin or without a reference
  int reference = -1;  // the column used as pawn = 100, −1 if none
  // False when the data carry (almost) no information on this coefficient: its numbers are not
  // to be shown as values ("not identified").
  bool identified = true;
  // The model-based standard errors (positions independent), beside the reported ones.
  double model_theta_se = 0;
  double model_value_se = 0;
};

struct ModelFit {
  ModelOptions options;
  ModelSpec spec;
  std::vector<double> theta;  // one per column of spec
  double draw_margin = 0;     // c (ordinal only)
  // parameters² (θ, then c for ordinal): the covariance the reported errors come from
  // (`errors` says which); `model_covariance` is always the inverse information.
  std::vector<double> covariance;
  std::vector<double> model_covariance;
  ErrorKind errors = ErrorKind::kModel;
  std::uint64_t games = 0;           // games with rows in the clustered statistics (0: none)
  std::uint64_t clusters = 0;        // games whose rows enter this model's likelihood (G)
  bool covariance_ok = false;        // false when the information was singular (se are NaN)
  bool converged = true;             // the solver's gradient norm reached its tolerance
  std::vector<FitWarning> warnings;  // empty: a plain fit
  double loss = 0;
  double total_weight = 0;  // weighted rows in the likelihood
  int iterations = 0;
  std::uint64_t rows_without_rating = 0;  // left out by rating_offset
  std::vector<Coefficient> coefficients;  // one per column, then the draw margin (ordinal)

  int parameter_count() const { return static_cast<int>(theta.size()) + (has_margin() ? 1 : 0); }
  bool has_margin() const { return options.outcomes == OutcomeModel::kOrdinal; }
  // The column of a name, or −1.
  int column(std::string_view name) const;
  // Parameters (θ then c) as one vector, matching `covariance`.
  std::vector<double> parameters() const;
};

// Fills fit.coefficients (θ, Elo and pawn = 100 values with standard errors) from fit.spec,
// fit.theta, fit.draw_margin, fit.covariance (theta/elo/value se) and fit.model_covariance
// (model_theta_se, model_value_se); used by every solver that produces a ModelFit.
void describe_coefficients(ModelFit& fit);

// What a solver knows at its last iterate, for the errors and the warnings of its fit.
struct FitEvidence {
  // −∂² log L of the sum at the parameters, without λ (parameters², row-major).
  std::vector<double> information;
  // Weighted rows in the likelihood whose column j is not 0, one per θ column.
  std::vector<double> column_support;
  // The remaining Newton step (∇²J)⁻¹∇J of the penalised mean objective (gradient descent);
  // empty when the solver reports its own convergence (Newton).
  std::vector<double> remaining_step;
  bool solver_converged = true;
};

// Thresholds of the warnings (see finish_fit).
inline constexpr double kRowsPerParameter = 10;     // too-few-decisive, and per column
inline constexpr double kGamesPerParameter = 10;    // too-few-games
inline constexpr double kConvergedStepInSe = 0.01;  // not-converged (gradient descent)
inline constexpr double kNearSingularCondition = 1e10;
inline constexpr double kIdentifiedHalfWidth = 1000;  // centipawns: ±10 pawns at 95%

// Completes a fit from fit.theta/draw_margin/total_weight/options/spec and the evidence:
// model_covariance = information⁻¹; covariance = the game-clustered sandwich when `pairs` cover
// the model (errors kClustered, games = pairs->games(), clusters = G), else the model's; then
// coefficients, identification and warnings. Warning rules (codes as FitWarning says):
//   too-few-decisive  fewer than 10 rows per parameter in the likelihood (draws-out: decisive
//                     rows; fractional and ordinal: every scored row);
//   too-few-games     clustered errors from fewer than 10 games (clusters) per parameter;
//   not-converged     Newton stopped at max_iterations or stalled above its gradient tolerance;
//                     gradient descent whose remaining Newton step exceeds 1% of a model standard
//                     error on some parameter (the distance to the optimum is not negligible
//                     against the sampling error);
//   singular          the information is not positive definite (no standard errors);
//   near-singular     condition number of the information scaled to unit diagonal (its
//                     correlation form, eigenvalues by Jacobi rotations) above 1e10: collinear
//                     columns;
//   not-identified    a coefficient with fewer than 10 weighted rows where its column is not 0,
//                     or whose pawn = 100 value has a 95% half-width (1.96 model value se) above
//                     1000 (±10 pawns), or a pawn column whose 95% interval of θ reaches 0 (then
//                     every value in its units is not identified too). Model standard errors
//                     decide (identification is about information, not clustering); with a
//                     singular information, those of the penalised information (λ included).
//   model-errors      pairs were given but do not cover the model (or G ≤ 1, N ≤ K).
void finish_fit(ModelFit& fit, const FitEvidence& evidence, const GamePairs* pairs);

// Fits the model on the histogram with Newton's method; with `pairs` (the games behind the
// histogram) the reported errors are game-clustered.
Expected<ModelFit> fit_model(const Histogram& histogram, const ModelOptions& options,
                             const GamePairs* pairs = nullptr);

// Outcome probabilities for a feature vector x (one value per spec column) and an Elo
// difference (used when rating_offset is on). Binary models give draw = 0 and, for the
// fractional target, white_win is the expected score.
OutcomeProbabilities predict(const ModelFit& fit, const std::vector<double>& x,
                             double elo_difference = 0.0);

// P(win), P(draw), P(loss) for White against a material balance in pawns along the fitted
// pawn column (x = k · e_pawn, other columns 0; intercept 1 when present), k from `from` to
// `to` in `steps` + 1 points; empty for split sides (absolute counts, no balance column).
struct BalancePoint {
  double pawns = 0;
  OutcomeProbabilities probabilities;
};
std::vector<BalancePoint> pawn_balance_curve(const ModelFit& fit, double from, double to,
                                             int steps);

// ---- bootstrap refits ----

struct BootstrapCoefficient {
  std::string name;
  std::vector<double> theta, value;         // one per replicate that converged (NaN otherwise)
  Interval theta_interval, value_interval;  // 95% percentile intervals
  double theta_sd = 0, value_sd = 0;
};

struct BootstrapFit {
  int replicates = 0;
  int failed = 0;                                  // replicates whose fit did not converge
  std::vector<BootstrapCoefficient> coefficients;  // same order as ModelFit::coefficients
  // The replicate fits' parameters (θ then c), one vector per replicate; empty if it failed.
  std::vector<std::vector<double>> parameters;
  std::string error;  // why no replicate could be fitted, empty otherwise
};

// Refits every replicate with the same options; intervals at `level`. A replicate whose fit
// fails or does not converge counts in `failed`. When the replicates' KeyFields do not cover the
// model (e.g. rating offset on keys without ratings) nothing is fitted: every replicate failed
// and `error` says why.
BootstrapFit bootstrap_model(const BootstrapHistograms& bootstrap, const ModelOptions& options,
                             double level = 0.95);

}  // namespace materialist::learn
