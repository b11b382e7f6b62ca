// The evaluation target: the [%eval] comment reader, the rows it annotates, the histogram's and
// the game pairs' target sums (exact, by addition), and the fractional fit they give.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "learn/fit/clustered.h"
#include "learn/fit/models.h"
#include "learn/learn_test_util.h"
#include "learn/read/dataset.h"
#include "learn/read/ingest.h"
#include "learn/vocabulary/eval_target.h"

using namespace materialist::learn;
using materialist::Expected;
using materialist::learn::testing::read_fixture;

namespace {

double lichess(double cp) {
  return 1.0 / (1.0 + std::exp(-0.00368208 * cp));
}

struct Read {
  std::vector<Row> rows;
  IngestReport report;
  Histogram histogram;
};

Read read_eval(const std::string& text, IngestOptions options = IngestOptions::defaults()) {
  options.target = Target::kEval;
  Read read;
  Ingestor ingestor(options);
  ingestor.set_row_sink([&read](const Row& row) { read.rows.push_back(row); });
  ingestor.feed(text.data(), text.size());
  ingestor.finish();
  read.report = ingestor.report();
  read.histogram = ingestor.histogram();
  return read;
}

}  // namespace

TEST_CASE("eval comments: the forms lichess and others write") {
  EvalReading r = read_eval_comment(" [%eval 0.17] ");
  REQUIRE(r.status == EvalStatus::kValid);
  CHECK(r.centipawns == doctest::Approx(17));
  CHECK(r.score == doctest::Approx(lichess(17)).epsilon(1e-15));
  CHECK(r.mate == 0);

  r = read_eval_comment("[%eval -1.05,23]");
  REQUIRE(r.status == EvalStatus::kValid);
  CHECK(r.centipawns == doctest::Approx(-105));
  CHECK(r.score == doctest::Approx(lichess(-105)));

  r = read_eval_comment("[%eval #3]");
  REQUIRE(r.status == EvalStatus::kValid);
  CHECK(r.mate == 3);
  CHECK(r.score == 1.0);
  r = read_eval_comment("[%eval #-2]");
  REQUIRE(r.status == EvalStatus::kValid);
  CHECK(r.mate == -2);
  CHECK(r.score == 0.0);

  r = read_eval_comment(" [%clk 0:03:00] [%eval +0.5] [%emt 0:00:02] ");
  REQUIRE(r.status == EvalStatus::kValid);
  CHECK(r.centipawns == doctest::Approx(50));
  r = read_eval_comment("[%eval 0.24] [%clk 0:10:00]");
  CHECK(r.centipawns == doctest::Approx(24));
  r = read_eval_comment("a good move [%eval 2]");
  CHECK(r.centipawns == doctest::Approx(200));

  // Clamped to ±1000 centipawns, as lichess does.
  CHECK(read_eval_comment("[%eval 15.3]").score == doctest::Approx(lichess(1000)));
  CHECK(read_eval_comment("[%eval -42]").score == doctest::Approx(lichess(-1000)));
  CHECK(expected_score_of_centipawns(0) == 0.5);
  CHECK(expected_score_of_centipawns(300) + expected_score_of_centipawns(-300) ==
        doctest::Approx(1.0));

  // None, and another command with a longer name.
  CHECK(read_eval_comment("").status == EvalStatus::kNone);
  CHECK(read_eval_comment("[%clk 0:01:00]").status == EvalStatus::kNone);
  CHECK(read_eval_comment("[%evaluation 0.3]").status == EvalStatus::kNone);
}

TEST_CASE("eval comments: malformed ones are counted, a later good one still read") {
  for (const char* bad : {"[%eval]", "[%eval ]", "[%eval abc]", "[%eval 1.2.3]", "[%eval #0]",
                          "[%eval #]", "[%eval 1e3]", "[%eval 0.5", "[%eval 0.5,]", "[%eval 0.5,x]",
                          "[%eval --1]", "[%eval .5]", "[%eval 0.5 [%clk 1]"}) {
    CAPTURE(bad);
    const EvalReading r = read_eval_comment(bad);
    CHECK(r.status == EvalStatus::kMalformed);
    CHECK(r.malformed == 1);
  }
  const EvalReading r = read_eval_comment("[%eval x] [%eval 0.3] [%eval y]");
  CHECK(r.status == EvalStatus::kValid);
  CHECK(r.centipawns == doctest::Approx(30));
  CHECK(r.malformed == 2);
  // The first good one counts.
  CHECK(read_eval_comment("[%eval 1] [%eval 2]").centipawns == doctest::Approx(100));
}

TEST_CASE("eval target: a row takes the [%eval] of the move that led to it") {
  // e4 e5: the position after e5 is the first quiet one (2 quiet plies); then the material
  // changes at 3. Nxe5 and 3...Nxe5 (captures: not quiet), and 4...Nc6 is the second quiet ply
  // after them (4. d4's [%eval] is not its).
  const std::string pgn =
      "[Event \"a\"]\n[Result \"1-0\"]\n\n"
      "1. e4 { [%eval 0.2] } 1... e5 { [%eval 0.3] [%clk 0:01:00] } 2. Nf3 { [%eval 0.25] } "
      "2... Nc6 3. Nxe5 { [%eval 1.5] } 3... Nxe5 { [%eval -3] } 4. d4 { [%eval 1] } "
      "4... Nc6 { [%eval #-4] } 5. d5 { [%eval bad] } 1-0\n\n"
      "[Event \"b\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 0-1\n\n"
      "[Event \"c\"]\n[Result \"1/2-1/2\"]\n\n1. d4 { [%eval 0.1] } d5 2. c4 { [%eval 0.2] } "
      "1/2-1/2\n";
  const Read read = read_eval(pgn);
  // Game a: rows after 1...e5 (0.3) and after 4...Nc6 (mate for Black: 0). Game b: one row
  // without an evaluation. Game c: the row after 1...d5 has none.
  REQUIRE(read.rows.size() == 2);
  CHECK(read.rows[0].key.delta == MaterialVector{0, 0, 0, 0, 0});
  CHECK(read.rows[0].target == target_units(lichess(30)));
  CHECK(read.rows[1].key.delta == MaterialVector{1, -1, 0, 0, 0});
  CHECK(read.rows[1].target == 0);
  CHECK(read.report.rows == 2);
  CHECK(read.report.rows_without_eval == 2);
  CHECK(read.report.games_with_evals == 2);
  CHECK(read.report.games_without_evals == 1);
  CHECK(read.report.malformed_evals == 1);
  CHECK(read.histogram.has_targets());
  CHECK(read.histogram.totals().total() == 2);
  CHECK(read.histogram.target_total() == target_units(lichess(30)));

  // From the player's side (Black in game a): the expected score turns over.
  IngestOptions options;
  options.games = *parse_game_filter("player=B;pov=1");
  const std::string as_black =
      "[Event \"a\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n"
      "1. e4 e5 { [%eval 0.3] } 1-0\n";
  const Read black = read_eval(as_black, options);
  REQUIRE(black.rows.size() == 1);
  CHECK(black.rows[0].target == kTargetOne - target_units(lichess(30)));
}

TEST_CASE("eval target: the result target reads no comments and gives the same rows as before") {
  const std::string text = read_fixture("pgn/lichess-2021-10-first999.pgn");
  Ingestor result;
  result.feed(text.data(), text.size());
  result.finish();
  CHECK(!result.histogram().has_targets());
  CHECK(result.report().games_with_evals == 0);
  CHECK(result.report().rows_without_eval == 0);
  // The annotated rows are a subset of the result rows, with the same outcomes.
  const Read eval = read_eval(text);
  CHECK(eval.report.games_with_evals == 96);
  CHECK(eval.report.games_with_evals + eval.report.games_without_evals == 999);
  CHECK(eval.report.rows + eval.report.rows_without_eval == result.report().rows);
  eval.histogram.for_each([&](const RowKey& key, const OutcomeCounts& counts) {
    const OutcomeCounts* all = result.histogram().find(key);
    REQUIRE(all != nullptr);
    for (int o = 0; o < kOutcomeCount; ++o) CHECK(counts.by_outcome[o] <= all->by_outcome[o]);
  });
}

TEST_CASE("eval target: histogram and pairs sum exactly, in any order") {
  const std::string text = read_fixture("pgn/lichess-2021-10-first999.pgn");
  IngestOptions options;
  options.target = Target::kEval;
  DatasetBuilder whole(options);
  whole.begin_file("all.pgn");
  whole.feed(text.data(), text.size());
  whole.end_file();
  // Two halves, merged the other way round.
  const std::size_t cut = text.find("\n[Event ", text.size() / 2) + 1;
  DatasetBuilder first(options), second(options);
  first.begin_file("a.pgn");
  first.feed(text.data(), cut);
  first.end_file();
  second.begin_file("b.pgn");
  second.feed(text.data() + cut, text.size() - cut);
  second.end_file();
  Histogram merged = second.histogram();
  merged.merge(first.histogram());
  CHECK(merged == whole.histogram());
  GamePairs pairs = *second.pairs();
  pairs.merge(*first.pairs());
  CHECK(pairs == *whole.pairs());
  CHECK(pairs.has_targets());
  GamePairs taken = pairs;
  taken.subtract(*first.pairs());
  CHECK(taken == *second.pairs());

  ModelOptions model;
  model.target = Target::kEval;
  const Expected<ModelFit> fit = fit_model(whole.histogram(), model, whole.pairs());
  REQUIRE(fit);
  CHECK(fit->errors == ErrorKind::kClustered);
  CHECK(fit->clusters == 96);
  CHECK(fit->total_weight == doctest::Approx(442));
  const Expected<ModelFit> again = fit_model(merged, model, &pairs);
  REQUIRE(again);
  CHECK(again->theta == fit->theta);
  CHECK(again->covariance == fit->covariance);
  // draws-out and fractional fit the expected score alike.
  model.outcomes = OutcomeModel::kFractional;
  const Expected<ModelFit> fractional = fit_model(whole.histogram(), model, whole.pairs());
  REQUIRE(fractional);
  for (std::size_t j = 0; j < fit->theta.size(); ++j) {
    CHECK(fractional->theta[j] == doctest::Approx(fit->theta[j]).epsilon(1e-12));
  }
}

TEST_CASE("eval target: models that make no sense for it are refused") {
  Histogram histogram;
  histogram.add(RowKey::from_delta({1, 0, 0, 0, 0}), OutcomeCounts{{0, 0, 3}},
                target_units(0.7) * 3);
  ModelOptions model;
  model.target = Target::kEval;
  model.outcomes = OutcomeModel::kOrdinal;
  CHECK(!model_conflict(model).empty());
  CHECK(!fit_model(histogram, model));
  model.outcomes = OutcomeModel::kDrawsOut;
  model.rating_offset = true;
  CHECK(!model_conflict(model).empty());
  // A result histogram cannot be fitted for the evaluation target.
  model.rating_offset = false;
  Histogram results;
  results.add(RowKey::from_delta({1, 0, 0, 0, 0}), Outcome::kWhiteWin, 3);
  const auto refused = fit_model(results, model);
  REQUIRE(!refused);
  CHECK(refused.error().message.find("--target eval") != std::string::npos);
}
