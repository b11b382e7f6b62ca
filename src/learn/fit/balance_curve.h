// The article's first chart: points scored by White against the material balance ΔM on the
// textbook 1-3-3-5-9 scale, and the α of the logistic curve p(ΔM) = 1 / (1 + e^(-αΔM)) through it.
//
//   std::vector<BalanceBin> bins = balance_bins(histogram);        // one bin per ΔM, sorted
//   Expected<BalanceFit> fit = fit_balance_alpha(bins);            // α ≈ 0.7 on engine games
//
// α maximises the likelihood of White's points (win 1, draw ½, loss 0) over every recorded row,
// Σ n [s log p + (1 − s) log(1 − p)] with n rows and score s per bin: a concave function of one
// variable, solved by Newton's method from α = 0.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "core/error.h"
#include "learn/stats/histogram.h"

namespace materialist::learn {

inline constexpr std::array<int, kPieceKinds> kTextbookScale = {1, 3, 3, 5, 9};

struct BalanceBin {
  int balance = 0;  // ΔM in pawns, White minus Black
  OutcomeCounts counts;
  // A histogram of the evaluation target: the rows' summed expected scores (learn/eval_target.h).
  std::optional<double> targets;

  std::uint64_t rows() const { return counts.total(); }
  // White's mean points per row (draw = ½), or with targets the rows' mean expected score; 0.5
  // for an empty bin.
  double score() const;
};

// Sums the histogram's rows per material balance under `scale`, sorted by balance (and their
// targets, for a histogram with targets: α is then the evaluations' curve).
std::vector<BalanceBin> balance_bins(const Histogram& histogram,
                                     const std::array<int, kPieceKinds>& scale = kTextbookScale);

struct BalanceFit {
  double alpha = 0;
  double loss = 0;  // mean negative log-likelihood per row at α
  int iterations = 0;
};

// Fits α by Newton's method; kInvalidArgument when no row has a non-zero balance (α is then
// undetermined), kNotConverged if Newton fails to settle (it does not on real data).
Expected<BalanceFit> fit_balance_alpha(const std::vector<BalanceBin>& bins);

}  // namespace materialist::learn
