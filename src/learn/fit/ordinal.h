// Newton solvers for what the article's objective cannot express: a fixed per-row offset in the
// log-odds (the rating difference at ln10/400 per Elo point), and a three-outcome ordinal model.
//
//   OutcomeRows rows = make_outcome_rows(design, rating_column, kLogOddsPerElo * 100);
//   Expected<NewtonFit> fit = fit_ordinal(rows, {});
//   OutcomeProbabilities p = ordinal_probabilities(/*eta=*/0.7, fit->parameters.back());
//
// Ordinal model (a cumulative logit with symmetric cut points ±c), with η = θ·x + offset:
//   P(white wins) = σ(η − c),   P(black wins) = σ(−η − c),   P(draw) = σ(η + c) − σ(η − c).
// Both solvers minimise the mean negative log-likelihood per weighted row + λ Σ θj² (λ never on
// c), by Newton steps with step halving, and return the observed information of the summed
// log-likelihood (the Hessian without λ, times m) for standard errors.
#pragma once

#include <array>
#include <vector>

#include "core/error.h"
#include "core/statistics.h"
#include "learn/fit/design.h"
#include "learn/fit/solvers.h"

namespace materialist::learn {

struct OutcomeRows {
  int columns = 0;
  std::vector<double> x;                                   // rows × columns, row-major
  std::vector<double> offset;                              // per row, added to θ·x
  std::vector<std::array<double, kOutcomeCount>> weights;  // per row, indexed by Outcome

  std::size_t rows() const { return weights.size(); }
};

// The design's columns without `offset_column`, whose value × offset_scale becomes the row's
// offset (offset_column −1: all offsets 0).
OutcomeRows make_outcome_rows(const Design& design, int offset_column = -1,
                              double offset_scale = 0.0);

struct NewtonSettings {
  double lambda = 1e-6;
  double gradient_tolerance = 1e-10;
  int max_iterations = 100;
};

struct NewtonFit {
  std::vector<double> parameters;  // θ (one per column), then c for the ordinal model
  double loss = 0;                 // the minimised objective
  double gradient_norm = 0;
  double total_weight = 0;  // m: the weighted rows the likelihood counts
  int iterations = 0;
  // False when it stopped at max_iterations or where no step descends with |gradient| still
  // above the tolerance: the parameters are then the last iterate, not an optimum.
  bool converged = false;
  std::vector<double> information;  // parameters², row-major: −∂² log L of the sum, no λ
};

// P(white wins) = σ(θ·x + offset); draws left out or scored ½ (DrawHandling of solvers.h).
// Errors only for input problems and a singular Hessian; a fit that did not converge is returned
// with converged = false.
Expected<NewtonFit> fit_binary_offset(const OutcomeRows& rows, DrawHandling draws,
                                      const NewtonSettings& settings = {});
// The ordinal model above; needs at least one draw and one decisive row.
Expected<NewtonFit> fit_ordinal(const OutcomeRows& rows, const NewtonSettings& settings = {});

// The summed negative log-likelihood (no λ) at `parameters` (θ, then c for the ordinal model);
// +inf outside the model's domain (c ≤ 0). For likelihood comparisons and derivative checks.
double binary_negative_log_likelihood(const OutcomeRows& rows, DrawHandling draws,
                                      const std::vector<double>& parameters);
double ordinal_negative_log_likelihood(const OutcomeRows& rows,
                                       const std::vector<double>& parameters);

// One row's log-likelihood gradient with respect to η (and c, ordinal only) at one outcome: the
// per-row score is (eta · x, margin). A row outside the likelihood (a draw with draws left out,
// an unknown outcome) scores 0.
struct RowScore {
  double eta = 0, margin = 0;
};
RowScore binary_row_score(double eta, Outcome outcome, DrawHandling draws);
RowScore ordinal_row_score(double eta, double draw_margin, Outcome outcome);

struct OutcomeProbabilities {
  double white_win = 0, draw = 0, black_win = 0;
};
OutcomeProbabilities ordinal_probabilities(double eta, double draw_margin);

}  // namespace materialist::learn
