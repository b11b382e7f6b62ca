#include "learn/fit/squares.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <string>

#include "core/hash.h"
#include "core/text.h"
#include "learn/fit/linear_algebra.h"

namespace materialist::learn {

namespace {

constexpr std::uint64_t kSplitSalt = 0x7e1d0a5b3c9f2461ULL;
constexpr int kPhaseBins = kMaxSquarePhase + 1;
constexpr int kMaterialColumns = kPieceKinds;
constexpr int kMaxNewtonIterations = 40;

double softplus(double z) {
  return std::max(z, 0.0) + std::log1p(std::exp(-std::abs(z)));
}
double logistic(double z) {
  return 1.0 / (1.0 + std::exp(-z));
}
// −[y log p + (1 − y) log(1 − p)] with p = σ(z).
double log_loss(double z, double y) {
  return softplus(z) - y * z;
}

// A position's active cells: the cell (type * 64 + White's-view square) and +1 for White's
// pieces, −1 for Black's.
struct Cells {
  std::array<std::uint16_t, kMaxPackedPieces> cell{};
  std::array<std::int8_t, kMaxPackedPieces> sign{};
  int count = 0;
};

Cells cells_of(const SquaresRow& row) {
  Cells cells;
  std::uint64_t rest = row.occupied;
  for (int i = 0; rest != 0; ++i, rest &= rest - 1) {
    const int code = (row.pieces[static_cast<std::size_t>(i >> 1)] >> ((i & 1) * 4)) & 15;
    const int square = std::countr_zero(rest);
    const bool black = (code & 8) != 0;
    const int type = code & 7;
    cells.cell[static_cast<std::size_t>(cells.count)] =
        static_cast<std::uint16_t>(type * kBoardSquares + (black ? square ^ 56 : square));
    cells.sign[static_cast<std::size_t>(cells.count)] = black ? -1 : 1;
    ++cells.count;
  }
  return cells;
}

// White's minus Black's P..Q.
std::array<double, kMaterialColumns> material_of(const SquaresRow& row) {
  std::array<double, kMaterialColumns> delta{};
  std::uint64_t rest = row.occupied;
  for (int i = 0; rest != 0; ++i, rest &= rest - 1) {
    const int code = (row.pieces[static_cast<std::size_t>(i >> 1)] >> ((i & 1) * 4)) & 15;
    const int type = code & 7;
    if (type < kMaterialColumns) delta[static_cast<std::size_t>(type)] += (code & 8) ? -1 : 1;
  }
  return delta;
}

double phase_weight(const SquaresRow& row) {
  return static_cast<double>(row.phase) / kMaxSquarePhase;
}

double squares_logit(const SquaresRow& row, const Cells& cells, const std::vector<double>& theta) {
  const double f = phase_weight(row);
  double mg = 0;
  double eg = 0;
  for (int i = 0; i < cells.count; ++i) {
    const double s = cells.sign[static_cast<std::size_t>(i)];
    const std::uint16_t c = cells.cell[static_cast<std::size_t>(i)];
    mg += s * theta[c];
    eg += s * theta[kSquareCells + c];
  }
  return f * mg + (1 - f) * eg;
}

// The penalty λ Σ (θ − table mean)² + ε Σ θ², its gradient and Hessian added in place.
double add_penalty(const std::vector<double>& theta, double lambda, std::vector<double>* gradient,
                   std::vector<double>* hessian) {
  double penalty = 0;
  constexpr int n = kSquareParameters;
  for (int table = 0; table < 2 * kBoardPieceTypes; ++table) {
    const int first = table * kBoardSquares;
    double mean = 0;
    for (int s = 0; s < kBoardSquares; ++s) mean += theta[first + s];
    mean /= kBoardSquares;
    for (int s = 0; s < kBoardSquares; ++s) {
      const double centred = theta[first + s] - mean;
      penalty += lambda * centred * centred;
      if (gradient) (*gradient)[first + s] += 2 * lambda * centred;
    }
    if (hessian) {  // 2λ (I − 11ᵀ/64) on the table's block
      for (int a = 0; a < kBoardSquares; ++a) {
        for (int b = 0; b < kBoardSquares; ++b) {
          (*hessian)[(first + a) * n + first + b] +=
              2 * lambda * ((a == b ? 1.0 : 0.0) - 1.0 / kBoardSquares);
        }
      }
    }
  }
  for (int j = 0; j < n; ++j) {
    penalty += kSquaresRidge * theta[j] * theta[j];
    if (gradient) (*gradient)[j] += 2 * kSquaresRidge * theta[j];
    if (hessian) (*hessian)[j * n + j] += 2 * kSquaresRidge;
  }
  return penalty;
}

class SquaresProblem {
 public:
  explicit SquaresProblem(const std::vector<const SquaresRow*>& rows) : rows_(rows) {}

  // The penalised objective at θ.
  double objective(const std::vector<double>& theta, double lambda) const {
    double loss = 0;
    for (const SquaresRow* row : rows_) {
      loss += log_loss(squares_logit(*row, cells_of(*row), theta), row->score);
    }
    return loss + add_penalty(theta, lambda, nullptr, nullptr);
  }

  // The penalised objective and its gradient at θ.
  double gradient(const std::vector<double>& theta, double lambda,
                  std::vector<double>& gradient) const {
    gradient.assign(kSquareParameters, 0.0);
    double loss = 0;
    for (const SquaresRow* row : rows_) {
      const Cells cells = cells_of(*row);
      const double z = squares_logit(*row, cells, theta);
      loss += log_loss(z, row->score);
      const double residual = logistic(z) - row->score;
      const double f = phase_weight(*row);
      for (int i = 0; i < cells.count; ++i) {
        const int a = cells.cell[static_cast<std::size_t>(i)];
        const double r = residual * cells.sign[static_cast<std::size_t>(i)];
        gradient[a] += r * f;
        gradient[kSquareCells + a] += r * (1 - f);
      }
    }
    return loss + add_penalty(theta, lambda, &gradient, nullptr);
  }

  // The data's Hessian at θ (row-major n × n, without the penalty): Σ p(1 − p) x xᵀ.
  void data_hessian(const std::vector<double>& theta, std::vector<double>& hessian) {
    constexpr int n = kSquareParameters;
    bins_.assign(static_cast<std::size_t>(kPhaseBins) * kSquareCells * kSquareCells, 0.0);
    for (const SquaresRow* row : rows_) {
      const Cells cells = cells_of(*row);
      const double p = logistic(squares_logit(*row, cells, theta));
      const double weight = p * (1 - p);
      double* bin =
          bins_.data() + static_cast<std::size_t>(row->phase) * kSquareCells * kSquareCells;
      for (int i = 0; i < cells.count; ++i) {
        const int a = cells.cell[static_cast<std::size_t>(i)];
        const double wa = cells.sign[static_cast<std::size_t>(i)] * weight;
        bin[a * kSquareCells + a] += weight;
        for (int j = i + 1; j < cells.count; ++j) {
          const int b = cells.cell[static_cast<std::size_t>(j)];
          const double w = wa * cells.sign[static_cast<std::size_t>(j)];
          // A White and a Black piece can share a cell (b1 and the mirrored b8): the pair is
          // both (a, b) and (b, a) on the diagonal.
          bin[std::min(a, b) * kSquareCells + std::max(a, b)] += a == b ? 2 * w : w;
        }
      }
    }
    hessian.assign(static_cast<std::size_t>(n) * n, 0.0);
    for (int k = 0; k < kPhaseBins; ++k) {
      const double f = static_cast<double>(k) / kMaxSquarePhase;
      const double mm = f * f;
      const double me = f * (1 - f);
      const double ee = (1 - f) * (1 - f);
      const double* bin = bins_.data() + static_cast<std::size_t>(k) * kSquareCells * kSquareCells;
      for (int a = 0; a < kSquareCells; ++a) {
        for (int b = a; b < kSquareCells; ++b) {
          const double m = bin[a * kSquareCells + b];
          if (m == 0) continue;
          hessian[a * n + b] += mm * m;
          hessian[(kSquareCells + a) * n + kSquareCells + b] += ee * m;
          hessian[a * n + kSquareCells + b] += me * m;
          if (a != b) hessian[b * n + kSquareCells + a] += me * m;
        }
      }
    }
    for (int a = 0; a < n; ++a) {  // the lower triangle from the upper
      for (int b = a + 1; b < n; ++b) hessian[b * n + a] = hessian[a * n + b];
    }
  }

 private:
  const std::vector<const SquaresRow*>& rows_;
  std::vector<double> bins_;  // per phase: Σ w sa sb over the cells' pairs (upper triangle)
};

// The data's Hessian at a recent θ, and the factor of it plus a λ's penalty.
struct Curvature {
  std::vector<double> data;
  std::vector<double> factor;
  double factor_lambda = -1;
  int refreshes = 0;

  bool refactor(const std::vector<double>& theta, double lambda) {
    factor = data;
    add_penalty(theta, lambda, nullptr, &factor);
    factor_lambda = lambda;
    return cholesky_factor(factor, kSquareParameters);
  }
  bool refresh(SquaresProblem& problem, const std::vector<double>& theta, double lambda) {
    problem.data_hessian(theta, data);
    ++refreshes;
    return refactor(theta, lambda);
  }
};

struct NewtonResult {
  int iterations = 0;
  bool ok = true;
};

// Minimises the penalised objective from θ (in place). The steps are Newton's with the data's
// Hessian of a recent θ: it is recomputed (a pass that costs a few gradients) only when a step
// did not shrink the next one tenfold, so a warm-started λ takes gradient passes mostly.
NewtonResult minimise(SquaresProblem& problem, std::vector<double>& theta, double lambda,
                      Curvature& curvature) {
  constexpr int n = kSquareParameters;
  NewtonResult result;
  std::vector<double> gradient;
  std::vector<double> step(n);
  std::vector<double> trial(n);
  if (curvature.data.empty()) {
    if (!curvature.refresh(problem, theta, lambda)) return {0, false};
  } else if (curvature.factor_lambda != lambda && !curvature.refactor(theta, lambda)) {
    return {0, false};
  }
  double previous_decrement = 0;
  bool fresh = true;  // the factor's Hessian is this θ's or the previous step's
  for (; result.iterations < kMaxNewtonIterations; ++result.iterations) {
    const double current = problem.gradient(theta, lambda, gradient);
    double decrement = 0;  // gᵀH⁻¹g: twice the decrease a full step predicts
    for (int attempt = 0; attempt < 2; ++attempt) {
      step = gradient;
      cholesky_solve(curvature.factor, step.data(), n);
      decrement = 0;
      for (int j = 0; j < n; ++j) decrement += gradient[j] * step[j];
      const bool slow = previous_decrement > 0 && decrement > 0.1 * previous_decrement;
      if (fresh || !slow) break;
      if (!curvature.refresh(problem, theta, lambda)) return {result.iterations, false};
      fresh = true;
    }
    if (decrement < 1e-11 * std::max(1.0, std::abs(current))) break;  // converged
    double scale = 1;
    bool improved = false;
    for (int halving = 0; halving < 20; ++halving, scale /= 2) {
      for (int j = 0; j < n; ++j) trial[j] = theta[j] - scale * step[j];
      if (problem.objective(trial, lambda) <= current) {
        improved = true;
        break;
      }
    }
    if (!improved) break;  // no step lowers it: at the minimum to rounding
    theta = trial;
    previous_decrement = decrement;
    fresh = false;
  }
  return result;
}

// The material-only model: five untapered values, ridge ε, Newton on the training rows.
std::array<double, kMaterialColumns> fit_material(const std::vector<const SquaresRow*>& rows) {
  constexpr int n = kMaterialColumns;
  std::vector<double> theta(n, 0.0);
  for (int iteration = 0; iteration < kMaxNewtonIterations; ++iteration) {
    std::vector<double> gradient(n, 0.0);
    std::vector<double> hessian(n * n, 0.0);
    for (const SquaresRow* row : rows) {
      const auto x = material_of(*row);
      double z = 0;
      for (int j = 0; j < n; ++j) z += x[j] * theta[j];
      const double p = logistic(z);
      for (int a = 0; a < n; ++a) {
        gradient[a] += (p - row->score) * x[a];
        for (int b = 0; b < n; ++b) hessian[a * n + b] += p * (1 - p) * x[a] * x[b];
      }
    }
    for (int j = 0; j < n; ++j) {
      gradient[j] += 2 * kSquaresRidge * theta[j];
      hessian[j * n + j] += 2 * kSquaresRidge;
    }
    if (!solve_symmetric(hessian, gradient, n)) break;
    double largest = 0;
    for (int j = 0; j < n; ++j) {
      theta[j] -= gradient[j];
      largest = std::max(largest, std::abs(gradient[j]));
    }
    if (largest < 1e-10) break;
  }
  std::array<double, kMaterialColumns> values{};
  std::copy(theta.begin(), theta.end(), values.begin());
  return values;
}

double mean_loss(const std::vector<const SquaresRow*>& rows, const std::vector<double>& theta) {
  double loss = 0;
  for (const SquaresRow* row : rows) {
    loss += log_loss(squares_logit(*row, cells_of(*row), theta), row->score);
  }
  return rows.empty() ? 0 : loss / static_cast<double>(rows.size());
}

double material_mean_loss(const std::vector<const SquaresRow*>& rows,
                          const std::array<double, kMaterialColumns>& values) {
  double loss = 0;
  for (const SquaresRow* row : rows) {
    const auto x = material_of(*row);
    double z = 0;
    for (int j = 0; j < kMaterialColumns; ++j) z += x[j] * values[j];
    loss += log_loss(z, row->score);
  }
  return rows.empty() ? 0 : loss / static_cast<double>(rows.size());
}

}  // namespace

bool held_out_game(std::uint64_t game_hash) {
  return mix64(game_hash ^ kSplitSalt) % 10 == 0;
}

SquaresData::SquaresData(const SquaresOptions& options) : options_(options) {}

void SquaresData::add(const Row& row) {
  if (!row.board.valid()) {
    ++tally_.without_board;
    return;
  }
  const bool new_game = row.game_hash != last_game_hash_ || row.game != last_game_;
  if (new_game) {
    last_game_hash_ = row.game_hash;
    last_game_ = row.game;
    row_in_game_ = 0;
  }
  const std::uint32_t index = row_in_game_++;
  float score = 0;
  if (options_.target == Target::kEval) {
    if (row.target == kNoTarget) return;
    score = static_cast<float>(target_score(row.target));
  } else {
    if (row.outcome == Outcome::kDraw && options_.outcomes == OutcomeModel::kDrawsOut) {
      ++tally_.draws_left_out;
      return;
    }
    score = row.outcome == Outcome::kWhiteWin ? 1.0f : row.outcome == Outcome::kDraw ? 0.5f : 0.0f;
  }
  ++tally_.offered;
  const bool held_out = held_out_game(row.game_hash);
  if (new_game) ++(held_out ? tally_.held_out_games : tally_.training_games);
  const auto key = static_cast<std::uint32_t>(mix64(row.game_hash + index * 0x9E3779B97F4A7C15ULL));
  if (key >= tally_.threshold) return;
  SquaresRow& kept = rows_.emplace_back();
  kept.occupied = row.board.occupied;
  kept.pieces = row.board.pieces;
  kept.score = score;
  kept.sample_key = key;
  kept.phase = static_cast<std::uint8_t>(row.board.phase());
  kept.held_out = held_out ? 1 : 0;
  kept.state = row.board.state;
  kept.en_passant = row.board.en_passant;
  while (rows_.size() > options_.max_positions) thin();
}

void SquaresData::absorb(const std::vector<SquaresRow>& rows, const SquaresTally& tally) {
  const std::uint64_t threshold = std::min(tally_.threshold, tally.threshold);
  if (threshold < tally_.threshold) {
    std::erase_if(rows_, [&](const SquaresRow& row) { return row.sample_key >= threshold; });
  }
  for (const SquaresRow& row : rows) {
    if (row.sample_key < threshold) rows_.push_back(row);
  }
  tally_.offered += tally.offered;
  tally_.without_board += tally.without_board;
  tally_.draws_left_out += tally.draws_left_out;
  tally_.held_out_games += tally.held_out_games;
  tally_.training_games += tally.training_games;
  tally_.threshold = threshold;
  tally_.sampled = tally_.sampled || tally.sampled;
  while (rows_.size() > options_.max_positions) thin();
}

SquaresData SquaresData::sample(std::uint64_t max_rows) const {
  SquaresOptions options = options_;
  options.max_positions = max_rows;
  SquaresData out(options);
  SquaresTally tally = tally_;
  const auto kept = [&] {
    return static_cast<std::uint64_t>(
        std::count_if(rows_.begin(), rows_.end(),
                      [&](const SquaresRow& row) { return row.sample_key < tally.threshold; }));
  };
  while (tally.threshold > 0 && kept() > max_rows) {
    tally.threshold = tally.threshold * 9 / 10;
    tally.sampled = true;
  }
  out.absorb(rows_, tally);  // only the rows below the threshold are copied
  return out;
}

PackedBoard SquaresRow::board() const {
  PackedBoard board;
  board.occupied = occupied;
  board.pieces = pieces;
  board.state = state;
  board.en_passant = en_passant;
  return board;
}

void SquaresData::thin() {
  tally_.sampled = true;
  // The next threshold of one fixed sequence (2^32, then nine tenths of the last, rounded down):
  // the rows kept are those below the first threshold of the sequence that keeps at most the
  // cap, whatever the order the rows came in or the readers that shared them.
  tally_.threshold = tally_.threshold * 9 / 10;
  std::erase_if(rows_, [&](const SquaresRow& row) { return row.sample_key >= tally_.threshold; });
}

Expected<SquaresFit> fit_squares(const SquaresData& data, const SquaresOptions& options) {
  if (options.outcomes == OutcomeModel::kOrdinal) {
    return make_error(ErrorCode::kInvalidArgument,
                      "the squares model fits draws left out or as ½ (--outcomes draws-out or "
                      "fractional), not the ordinal model");
  }
  std::vector<const SquaresRow*> training;
  std::vector<const SquaresRow*> validation;
  const bool skip_draws =
      options.target == Target::kResult && options.outcomes == OutcomeModel::kDrawsOut;
  for (const SquaresRow& row : data.rows()) {
    if (skip_draws && row.score == 0.5f) continue;
    (row.held_out ? validation : training).push_back(&row);
  }
  const std::uint64_t needed = options.min_training_positions;
  if (training.size() < needed || validation.size() < needed / 10) {
    return make_error(ErrorCode::kInvalidArgument,
                      "too few positions for a squares model: " + grouped(training.size()) +
                          " training and " + grouped(validation.size()) +
                          " held-out positions (at least " + grouped(needed) + " and " +
                          grouped(needed / 10) + " are needed)");
  }
  SquaresFit fit;
  fit.training_positions = training.size();
  fit.validation_positions = validation.size();
  fit.validation_games = data.held_out_games();
  for (const SquaresRow* row : training) {
    const Cells cells = cells_of(*row);
    for (int i = 0; i < cells.count; ++i) ++fit.positions[cells.cell[static_cast<std::size_t>(i)]];
  }
  fit.material = fit_material(training);
  fit.material_log_loss = material_mean_loss(validation, fit.material);

  // Warm start: each piece's material value on every square, the kings at 0.
  std::vector<double> theta(kSquareParameters, 0.0);
  for (int type = 0; type < kMaterialColumns; ++type) {
    for (int s = 0; s < kBoardSquares; ++s) {
      theta[type * kBoardSquares + s] = fit.material[static_cast<std::size_t>(type)];
      theta[kSquareCells + type * kBoardSquares + s] = fit.material[static_cast<std::size_t>(type)];
    }
  }
  SquaresProblem problem(training);
  Curvature curvature;
  std::vector<double> best_theta;
  double best_loss = 0;
  int worse_in_a_row = 0;
  for (const double lambda : options.lambdas) {
    const NewtonResult run = minimise(problem, theta, lambda, curvature);
    fit.newton_iterations += run.iterations;
    if (!run.ok) {
      return make_error(ErrorCode::kNotConverged,
                        "the squares model's Hessian is not positive definite at lambda " +
                            std::to_string(lambda));
    }
    const double loss = mean_loss(validation, theta);
    fit.path.push_back({lambda, loss});
    if (best_theta.empty() || loss < best_loss) {
      best_loss = loss;
      best_theta = theta;
      fit.lambda = lambda;
      worse_in_a_row = 0;
    } else if (++worse_in_a_row == 2) {
      break;  // past the minimum of the held-out loss
    }
  }
  fit.theta = std::move(best_theta);
  fit.validation_log_loss = best_loss;
  fit.hessian_passes = curvature.refreshes + 1;
  // The errors: the penalised Hessian at the chosen θ, inverted.
  if (!curvature.refresh(problem, fit.theta, fit.lambda)) {
    return make_error(ErrorCode::kNotConverged,
                      "the squares model's Hessian is not positive definite at its minimum");
  }
  fit.se = inverse_diagonal(curvature.factor, kSquareParameters);
  for (double& v : fit.se) v = std::sqrt(std::max(0.0, v));
  return fit;
}

}  // namespace materialist::learn
