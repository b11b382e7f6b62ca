// The squares model: a table it was given back within its errors (synthetic positions drawn from
// a known tapered table), its held-out split by game, its sample at the cap, its refusals.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/hash.h"
#include "learn/fit/squares.h"

namespace materialist::learn {

namespace {

// The known table: each piece's material, a centre bonus in the middlegame and an advance bonus
// in the endgame (log-odds).
double true_value(int phase_index, int type, int square) {
  constexpr std::array<double, 6> kMaterial = {0.6, 1.8, 1.9, 2.8, 5.0, 0.0};
  const int file = square % 8;
  const int rank = square / 8;
  const double centre = 3.5 - std::max(std::abs(file - 3.5), std::abs(rank - 3.5));
  if (phase_index == 0) return kMaterial[type] + 0.08 * centre;
  return kMaterial[type] * 1.1 + 0.05 * rank;
}

struct Placed {
  int square, type;
  bool black;
};

// A random position: two kings, then each side's pieces at random counts on free squares.
PackedBoard random_board(std::mt19937_64& random) {
  std::array<int, 64> taken{};
  std::vector<Placed> pieces;
  const auto place = [&](int type, bool black) {
    for (;;) {
      int square = static_cast<int>(random() % 64);
      if (type == 0 && (square < 8 || square >= 56)) continue;
      if (taken[static_cast<std::size_t>(square)] != 0) continue;
      taken[static_cast<std::size_t>(square)] = 1;
      pieces.push_back({square, type, black});
      return;
    }
  };
  for (const bool black : {false, true}) {
    place(5, black);
    for (int type = 0; type < 5; ++type) {
      const int most = type == 0 ? 8 : type == 4 ? 1 : 2;
      const int count = static_cast<int>(random() % static_cast<unsigned>(most + 1));
      for (int i = 0; i < count; ++i) place(type, black);
    }
  }
  std::sort(pieces.begin(), pieces.end(),
            [](const Placed& a, const Placed& b) { return a.square < b.square; });
  PackedBoard board;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    board.occupied |= std::uint64_t{1} << pieces[i].square;
    board.set_code(static_cast<int>(i), pieces[i].type + (pieces[i].black ? 8 : 0));
  }
  return board;
}

double true_logit(const PackedBoard& board) {
  const double f = board.phase() / 24.0;
  double z = 0;
  board.for_each_piece([&](int square, int type, bool black) {
    const int at = black ? square ^ 56 : square;
    const double v = f * true_value(0, type, at) + (1 - f) * true_value(1, type, at);
    z += black ? -v : v;
  });
  return z;
}

// `count` positions, each its own game, their results drawn from the known table.
SquaresData synthetic_data(int count, const SquaresOptions& options, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  SquaresData data(options);
  for (int i = 0; i < count; ++i) {
    Row row;
    row.board = random_board(random);
    row.game = static_cast<std::uint64_t>(i) + 1;
    row.game_hash = mix64(row.game);
    const double p = 1.0 / (1.0 + std::exp(-true_logit(row.board)));
    row.outcome = uniform(random) < p ? Outcome::kWhiteWin : Outcome::kBlackWin;
    data.add(row);
  }
  return data;
}

}  // namespace

TEST_CASE("squares: a known tapered table is recovered within its errors") {
  SquaresOptions options;
  options.lambdas = {0.01};  // next to no penalty: the estimates are the likelihood's
  const SquaresData data = synthetic_data(40000, options, 7);
  const auto fit = fit_squares(data, options);
  REQUIRE(fit);
  int checked = 0;
  int within = 0;
  double worst = 0;
  for (int phase = 0; phase < 2; ++phase) {
    for (int type = 0; type < 5; ++type) {  // the kings' mean is not identified
      for (int square = 0; square < 64; ++square) {
        if (fit->positions[static_cast<std::size_t>(type * 64 + square)] < 500) continue;
        const double estimate = phase == 0 ? fit->mg(type, square) : fit->eg(type, square);
        const double se =
            fit->se[static_cast<std::size_t>(phase * kSquareCells + type * 64 + square)];
        const double z = (estimate - true_value(phase, type, square)) / se;
        ++checked;
        within += std::abs(z) < 3 ? 1 : 0;
        worst = std::max(worst, std::abs(z));
      }
    }
  }
  INFO("cells checked " << checked << ", within 3 se " << within << ", worst z " << worst);
  CHECK(checked > 300);
  CHECK(within >= checked * 97 / 100);
  CHECK(fit->validation_positions > 3000);
  CHECK(fit->validation_positions < 5000);
}

TEST_CASE("squares: the penalty is chosen on the held-out games, from the list given") {
  SquaresOptions options;
  options.lambdas = {1000, 100, 10, 1};
  const SquaresData data = synthetic_data(8000, options, 11);
  const auto fit = fit_squares(data, options);
  REQUIRE(fit);
  REQUIRE(!fit->path.empty());
  double best = fit->path.front().validation_log_loss;
  for (const SquaresLambda& step : fit->path) best = std::min(best, step.validation_log_loss);
  CHECK(fit->validation_log_loss == best);
  bool listed = false;
  for (const SquaresLambda& step : fit->path) listed = listed || step.lambda == fit->lambda;
  CHECK(listed);
  for (const double se : fit->se) CHECK(std::isfinite(se));
}

TEST_CASE("squares: the held-out games are a fixed tenth, by the game's hash") {
  int held = 0;
  for (std::uint64_t game = 1; game <= 20000; ++game) held += held_out_game(mix64(game)) ? 1 : 0;
  CHECK(held > 1800);
  CHECK(held < 2200);
  CHECK(held_out_game(12345) == held_out_game(12345));
}

TEST_CASE("squares: past the cap the positions are a sample, and it says so") {
  SquaresOptions options;
  options.max_positions = 3000;
  const SquaresData data = synthetic_data(10000, options, 3);
  CHECK(data.sampled());
  CHECK(data.positions_offered() == 10000);
  CHECK(data.rows().size() <= 3000);
  CHECK(data.rows().size() >= 2000);
  SquaresOptions roomy;
  const SquaresData all = synthetic_data(10000, roomy, 3);
  CHECK_FALSE(all.sampled());
  CHECK(all.rows().size() == 10000);
}

TEST_CASE("squares: too few positions, rows without boards, draws left out") {
  SquaresOptions options;
  const SquaresData few = synthetic_data(500, options, 5);
  const auto fit = fit_squares(few, options);
  REQUIRE_FALSE(fit);
  CHECK(fit.error().code == ErrorCode::kInvalidArgument);
  CHECK(fit.error().message.find("too few positions") != std::string::npos);

  SquaresData data(options);
  Row no_board;  // a .mat row
  no_board.outcome = Outcome::kWhiteWin;
  data.add(no_board);
  Row draw;
  std::mt19937_64 random(1);
  draw.board = random_board(random);
  draw.outcome = Outcome::kDraw;
  data.add(draw);
  CHECK(data.without_board() == 1);
  CHECK(data.draws_left_out() == 1);
  CHECK(data.rows().empty());

  SquaresOptions fractional;
  fractional.outcomes = OutcomeModel::kFractional;
  SquaresData halves(fractional);
  halves.add(draw);
  REQUIRE(halves.rows().size() == 1);
  CHECK(halves.rows()[0].score == doctest::Approx(0.5));

  SquaresOptions ordinal;
  ordinal.outcomes = OutcomeModel::kOrdinal;
  CHECK_FALSE(fit_squares(synthetic_data(3000, ordinal, 2), ordinal));
}

TEST_CASE("squares: two readers' shares absorbed equal one read, to the sampled position") {
  SquaresOptions options;
  options.max_positions = 3000;
  std::mt19937_64 random(11);
  std::vector<Row> rows;
  for (int i = 0; i < 8000; ++i) {
    Row row;
    row.board = random_board(random);
    row.game = static_cast<std::uint64_t>(i / 4) + 1;  // four positions a game
    row.game_hash = mix64(row.game);
    row.outcome = i % 3 == 0 ? Outcome::kWhiteWin : Outcome::kBlackWin;
    rows.push_back(row);
  }
  SquaresData whole(options);
  for (const Row& row : rows) whole.add(row);
  SquaresData first(options), second(options);
  for (std::size_t i = 0; i < rows.size(); ++i) (i < 5000 ? first : second).add(rows[i]);
  first.absorb(second.rows(), second.tally());
  CHECK(first.positions_offered() == whole.positions_offered());
  CHECK(first.held_out_games() == whole.held_out_games());
  CHECK(first.training_games() == whole.training_games());
  CHECK(first.sampled());
  // The same positions kept: the one with the lower threshold decides, then the cap.
  const auto keys = [](const SquaresData& data) {
    std::vector<std::uint32_t> out;
    for (const SquaresRow& row : data.rows()) out.push_back(row.sample_key);
    std::sort(out.begin(), out.end());
    return out;
  };
  const std::vector<std::uint32_t> merged = keys(first), sequential = keys(whole);
  CHECK(merged.size() <= 3000);
  CHECK(merged.size() > 2000);
  // The thresholds follow one sequence: the same positions, whatever the readers.
  CHECK(merged == sequential);
  CHECK(first.tally().threshold == whole.tally().threshold);
}

TEST_CASE("squares: a sample of a read is the one a read with that cap keeps") {
  SquaresOptions options;
  std::mt19937_64 random(13);
  SquaresOptions capped = options;
  capped.max_positions = 1500;
  SquaresData whole(options), read_capped(capped), first(options), second(options);
  for (int i = 0; i < 6000; ++i) {
    Row row;
    row.board = random_board(random);
    row.game = static_cast<std::uint64_t>(i / 3) + 1;
    row.game_hash = mix64(row.game);
    row.outcome = i % 2 == 0 ? Outcome::kWhiteWin : Outcome::kBlackWin;
    whole.add(row);
    read_capped.add(row);
    (i < 2400 ? first : second).add(row);  // readers split at a game's start
  }
  const auto keys = [](const SquaresData& data) {
    std::vector<std::uint32_t> out;
    for (const SquaresRow& row : data.rows()) out.push_back(row.sample_key);
    std::sort(out.begin(), out.end());
    return out;
  };
  const SquaresData sample = whole.sample(1500);
  CHECK(sample.rows().size() <= 1500);
  CHECK(sample.rows().size() > 1000);
  CHECK(sample.sampled());
  CHECK(sample.positions_offered() == whole.positions_offered());
  CHECK(keys(sample) == keys(read_capped));
  // Readers' samples absorbed (a live preview's data): the same sample again.
  SquaresData live = first.sample(1500);
  const SquaresData other = second.sample(1500);
  live.absorb(other.rows(), other.tally());
  CHECK(keys(live) == keys(read_capped));
  // Under the cap, everything.
  CHECK(whole.sample(10000).rows().size() == whole.rows().size());
  CHECK_FALSE(whole.sample(10000).sampled());
}

TEST_CASE("squares: rows kept with draws as ½ fit with draws left out, and give their EPD lines") {
  SquaresOptions halves;
  halves.outcomes = OutcomeModel::kFractional;
  SquaresOptions out;  // draws left out
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  SquaresData kept(halves), without(out);
  for (int i = 0; i < 6000; ++i) {
    Row row;
    row.board = random_board(random);
    row.game = static_cast<std::uint64_t>(i) + 1;
    row.game_hash = mix64(row.game);
    const double p = 1.0 / (1.0 + std::exp(-true_logit(row.board)));
    const double u = uniform(random);
    row.outcome = u < 0.2             ? Outcome::kDraw
                  : u < 0.2 + 0.8 * p ? Outcome::kWhiteWin
                                      : Outcome::kBlackWin;
    kept.add(row);
    without.add(row);
  }
  out.lambdas = {16};
  const auto from_kept = fit_squares(kept, out);
  const auto from_without = fit_squares(without, out);
  REQUIRE(from_kept);
  REQUIRE(from_without);
  CHECK(from_kept->training_positions == from_without->training_positions);
  for (std::size_t i = 0; i < from_kept->theta.size(); ++i) {
    CHECK(from_kept->theta[i] == doctest::Approx(from_without->theta[i]).epsilon(1e-9));
  }
  halves.lambdas = {16};
  const auto with_halves = fit_squares(kept, halves);
  REQUIRE(with_halves);
  CHECK(with_halves->training_positions > from_kept->training_positions);

  std::string epd;
  append_labelled_epd(epd, kept.rows()[0].board(), kept.rows()[0].score, false);
  CHECK(epd.find(" w - - [") != std::string::npos);
  CHECK(epd.back() == '\n');
}

}  // namespace materialist::learn
