// The evaluation target: the [%eval] comment reader, the rows it annotates, the histogram's and
// the game pairs' target sums (exact, by addition), and the fractional fit they give.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <string_view>
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

struct EvalRead {
  std::vector<Row> rows;
  IngestReport report;
  Histogram histogram;
};

EvalRead read_eval(const std::string& text, IngestOptions options = IngestOptions::defaults()) {
  options.target = Target::kEval;
  EvalRead read;
  Ingestor ingestor(options);
  ingestor.set_row_sink([&read](const Row& row) { read.rows.push_back(row); });
  ingestor.feed(text.data(), text.size());
  ingestor.finish();
  read.report = ingestor.report();
  read.histogram = ingestor.histogram();
  return read;
}

// The reader as first written, with library searches and trimmed substrings, kept as the
// reference the one-pass reader must match on every input.
namespace reference {

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool digit(char c) {
  return c >= '0' && c <= '9';
}
std::string_view trimmed(std::string_view text) {
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}
bool read_argument(std::string_view text, EvalReading& reading) {
  text = trimmed(text);
  if (const std::size_t comma = text.find(','); comma != std::string_view::npos) {
    const std::string_view depth = trimmed(text.substr(comma + 1));
    if (depth.empty() || depth.size() > 4 || !std::all_of(depth.begin(), depth.end(), digit)) {
      return false;
    }
    text = trimmed(text.substr(0, comma));
  }
  if (text.empty()) return false;
  const bool mate = text.front() == '#';
  if (mate) text.remove_prefix(1);
  int sign = 1;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    sign = text.front() == '-' ? -1 : 1;
    text.remove_prefix(1);
  }
  if (text.empty() || !digit(text.front())) return false;
  if (mate) {
    if (text.size() > 4 || !std::all_of(text.begin(), text.end(), digit)) return false;
    int moves = 0;
    for (char c : text) moves = moves * 10 + (c - '0');
    if (moves == 0) return false;
    reading.mate = sign * moves;
    reading.score = sign > 0 ? 1.0 : 0.0;
    return true;
  }
  std::size_t i = 0;
  double whole = 0;
  while (i < text.size() && digit(text[i])) whole = whole * 10 + (text[i++] - '0');
  if (i > 6) return false;
  double fraction = 0, scale = 1;
  if (i < text.size() && text[i] == '.') {
    const std::size_t start = ++i;
    while (i < text.size() && digit(text[i])) {
      scale /= 10;
      fraction += (text[i++] - '0') * scale;
    }
    if (i - start > 6) return false;
  }
  if (i != text.size()) return false;
  reading.centipawns = sign * (whole + fraction) * 100.0;
  reading.score = expected_score_of_centipawns(reading.centipawns);
  return true;
}
EvalReading read(std::string_view comment) {
  constexpr std::string_view kCommand = "[%eval";
  EvalReading reading;
  std::size_t from = 0;
  while (true) {
    const std::size_t at = comment.find(kCommand, from);
    if (at == std::string_view::npos) break;
    from = at + kCommand.size();
    if (from < comment.size() && !blank(comment[from]) && comment[from] != ']') continue;
    const std::size_t close = comment.find(']', from);
    EvalReading candidate;
    const bool ok = close != std::string_view::npos &&
                    comment.substr(from, close - from).find('[') == std::string_view::npos &&
                    read_argument(comment.substr(from, close - from), candidate);
    if (!ok) {
      ++reading.malformed;
      continue;
    }
    if (reading.status != EvalStatus::kValid) {
      const int malformed = reading.malformed;
      reading = candidate;
      reading.malformed = malformed;
      reading.status = EvalStatus::kValid;
    }
    from = close + 1;
  }
  if (reading.status != EvalStatus::kValid && reading.malformed > 0) {
    reading.status = EvalStatus::kMalformed;
  }
  return reading;
}

}  // namespace reference

// The reference sums decimals digit by digit (rounding at each step); the one-pass reader
// divides one exact integer once, so the two agree to a few units in the last place.
bool near(double a, double b) {
  return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}
bool same_reading(const EvalReading& a, const EvalReading& b) {
  return a.status == b.status && a.malformed == b.malformed && a.mate == b.mate &&
         near(a.centipawns, b.centipawns) && near(a.score, b.score);
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

TEST_CASE("eval comments: the one-pass reader reads as the reference reader") {
  // Random comments over the bytes the grammar turns on, with the command's name planted often.
  constexpr std::string_view kBytes = " \t\n[]%eval#+-.,0123456789xk";
  const std::string_view pieces[] = {"[%eval ", "[%eval", "[%clk 0:03:00]", "]",      " ", "#", ",",
                                     "1234",    "12345",  ".123456",        "1234567"};
  // lichess's shape, its fast path's input, and near misses of it.
  const std::string_view openings[] = {" [%eval ", " [%eval", "", " [%eval 0.17]", " [%eval #-2]"};
  const std::string_view endings[] = {
      "", " ", "] [%clk 0:03:00] ", " [%clk 0:0[:00] ", " [%clk 0:03:00]  ", "] [%clk 0:03:0] "};
  std::mt19937 random(40);
  std::size_t valid = 0, malformed = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    std::string comment(openings[random() % std::size(openings)]);
    const int parts = static_cast<int>(random() % 12);
    for (int i = 0; i < parts; ++i) {
      if (random() % 3 == 0) {
        comment += pieces[random() % std::size(pieces)];
      } else {
        comment += kBytes[random() % kBytes.size()];
      }
    }
    comment += endings[random() % std::size(endings)];
    const EvalReading expected = reference::read(comment);
    const EvalReading actual = read_eval_comment(comment);
    if (!same_reading(actual, expected)) {
      CAPTURE(comment);
      FAIL("the readers differ");
    }
    valid += expected.status == EvalStatus::kValid;
    malformed += expected.status == EvalStatus::kMalformed;
  }
  // The trials reach both outcomes often, so the comparison means something.
  CHECK(valid > 300);
  CHECK(malformed > 1000);
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
  const EvalRead read = read_eval(pgn);
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
  const EvalRead black = read_eval(as_black, options);
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
  const EvalRead eval = read_eval(text);
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
