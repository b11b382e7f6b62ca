// --target eval in the CLI: fit and rows on the lichess sample (96 of 999 games annotated), the
// counts --json reports, -j N's identical output, and the refusals.
#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"
#include "core/json_value.h"

using materialist::parse_json;
using materialist::cli::testing::CliRun;
using materialist::cli::testing::contains;
using materialist::cli::testing::fixture;
using materialist::cli::testing::without_timings;
using materialist::cli::testing::lines_of;
using materialist::cli::testing::one_json_object;
using materialist::cli::testing::run_cli;
using materialist::cli::testing::TempFile;

namespace {

const std::string kSample = "pgn/lichess-2021-10-first999.pgn";

}  // namespace

TEST_CASE("cli --target eval: fit --json names the target and counts what was annotated") {
  const CliRun run =
      run_cli({"fit", "--target", "eval", "--json", "--no-progress", fixture(kSample)});
  REQUIRE(run.status == 0);
  REQUIRE(one_json_object(run.out));
  const auto json = parse_json(run.out);
  REQUIRE(json);
  CHECK(json->find("target")->as_string() == "eval");
  const auto* evals = json->find("evaluations");
  REQUIRE(evals != nullptr);
  CHECK(evals->find("annotatedPositions")->as_number() == 442);
  CHECK(evals->find("unannotatedPositions")->as_number() == 4261);
  CHECK(evals->find("gamesWithEvaluations")->as_number() == 96);
  CHECK(evals->find("gamesWithoutEvaluations")->as_number() == 903);
  CHECK(evals->find("malformedEvaluations")->as_number() == 0);
  CHECK(json->find("errors")->as_string() == "game-clustered");
  CHECK(json->find("clusteredGames")->as_number() == 96);

  // The result target: as before, no evaluation counts.
  const CliRun result = run_cli({"fit", "--json", "--no-progress", fixture(kSample)});
  REQUIRE(result.status == 0);
  const auto plain = parse_json(result.out);
  CHECK(plain->find("target")->as_string() == "result");
  CHECK(plain->find("evaluations") == nullptr);
  CHECK(plain->find("rows")->as_number() == 4703);
}

TEST_CASE("cli --target eval: -j 3 gives -j 1's output, rows in the same order") {
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"fit", "--target", "eval", "--json", "--no-progress",
                                 fixture(kSample)},
        std::vector<std::string>{"rows", "--target", "eval", "--game-ids", "--no-progress",
                                 fixture(kSample)}}) {
    std::vector<std::string> one = command, three = command;
    one.insert(one.begin() + 1, {"-j", "1"});
    three.insert(three.begin() + 1, {"-j", "3", "--chunk-bytes", "30000"});
    const CliRun a = run_cli(one), b = run_cli(three);
    CHECK(a.status == 0);
    CHECK(b.status == 0);
    CHECK(without_timings(a.out) == without_timings(b.out));
  }
}

TEST_CASE("cli --target eval --bootstrap: intervals over games, the same with -j 3") {
  const std::vector<std::string> command = {"fit", "--target", "eval",          "--bootstrap",
                                            "20",  "--json",   "--no-progress", fixture(kSample)};
  std::vector<std::string> one = command, three = command;
  one.insert(one.begin() + 1, {"-j", "1"});
  three.insert(three.begin() + 1, {"-j", "3", "--chunk-bytes", "30000"});
  const CliRun a = run_cli(one), b = run_cli(three);
  REQUIRE(a.status == 0);
  CHECK(without_timings(a.out) == without_timings(b.out));
  const auto json = parse_json(a.out);
  REQUIRE(json);
  const auto* bootstrap = json->find("bootstrap");
  REQUIRE(bootstrap != nullptr);
  CHECK(bootstrap->find("replicates")->as_number() == 20);
  CHECK(bootstrap->find("failed")->as_number() == 0);
  // The knight's interval holds its value.
  const auto& knight = bootstrap->find("valueIntervals")->find("N")->items();
  const double value = json->find("values")->find("N")->as_number();
  CHECK(knight[0].as_number() < value);
  CHECK(value < knight[1].as_number());
}

TEST_CASE("cli rows --target eval: a target column, then the game id") {
  const CliRun run =
      run_cli({"rows", "--target", "eval", "--game-ids", "--no-progress", fixture(kSample)});
  REQUIRE(run.status == 0);
  const auto lines = lines_of(run.out);
  REQUIRE(lines.size() == 442);
  // The sample's first annotated game is its 41st (1-0); 1... e5 { [%eval 0.12] } is its first
  // row: 1 / (1 + exp(-0.00368208 * 12)).
  CHECK(lines.front() == " 0  0  0  0  0  2 0.511044443119 41");
}

TEST_CASE("cli --target eval: what it cannot do is refused with a reason") {
  const std::string sample = fixture(kSample);
  CliRun run =
      run_cli({"fit", "--target", "eval", "--outcomes", "ordinal", "--no-progress", sample});
  CHECK(run.status == 2);
  CHECK(contains(run.err, "ordinal"));
  run = run_cli({"fit", "--target", "eval", "--elo-offset", "--no-progress", sample});
  CHECK(run.status == 2);
  CHECK(contains(run.err, "rating offset"));
  TempFile mat("eval.mat", "1 0 0 0 0 2\n");
  run = run_cli({"fit", "--target", "eval", "--no-progress", mat.path()});
  CHECK(run.status == 2);
  CHECK(contains(run.err, ".mat rows carry no evaluations"));
  run = run_cli({"fit", "--target", "both", sample});
  CHECK(run.status == 2);
  // A file without any annotation: nothing to fit, and why.
  TempFile plain("plain.pgn", "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n");
  run = run_cli({"fit", "--target", "eval", "--json", "--no-progress", plain.path()});
  CHECK(run.status == 1);
  CHECK(contains(run.out, "\"no-evaluations\""));
  CHECK(contains(run.out, "\"gamesWithoutEvaluations\":1"));
}

TEST_CASE("cli compare --targets result,eval: both targets on the same annotated positions") {
  const CliRun run = run_cli({"compare", "--targets", "result,eval", "--units", "logodds",
                              "--no-progress", fixture(kSample)});
  REQUIRE(run.status == 0);
  CHECK(contains(run.out, "Both targets on the same 442 annotated positions of 96 games"));
  CHECK(contains(run.out, "eval - result"));
  CHECK(contains(run.out, "with the two fits' covariance across the same games"));

  const CliRun json =
      run_cli({"compare", "--targets", "eval,result", "--json", "--no-progress", fixture(kSample)});
  REQUIRE(json.status == 0);
  REQUIRE(one_json_object(json.out));
  const auto parsed = parse_json(json.out);
  REQUIRE(parsed);
  CHECK(parsed->find("targets")->items().front().as_string() == "eval");
  CHECK(parsed->find("outcomes")->as_string() == "fractional");  // the same positions
  CHECK(parsed->find("differenceErrors")->as_string() == "game-clustered");
  const auto& coefficients = parsed->find("coefficients")->items();
  REQUIRE(coefficients.size() == 5);
  for (const auto& c : coefficients) {
    const double result = c.find("result")->find("theta")->as_number();
    const double eval = c.find("eval")->find("theta")->as_number();
    CHECK(c.find("thetaDifference")->find("value")->as_number() == doctest::Approx(eval - result));
    CHECK(c.find("thetaDifference")->find("se")->as_number() > 0);
  }
  // The evaluation fit is the one fit --target eval gives (with the same outcomes setting).
  const CliRun alone = run_cli({"fit", "--target", "eval", "--outcomes", "fractional", "--json",
                                "--no-progress", fixture(kSample)});
  const auto single = parse_json(alone.out);
  REQUIRE(single);
  CHECK(single->find("theta")->items()[1].as_number() ==
        coefficients[1].find("eval")->find("theta")->as_number());

  CHECK(run_cli({"compare", "--targets", "result", fixture(kSample)}).status == 2);
  CHECK(run_cli({"compare", "--targets", "result,result", fixture(kSample)}).status == 2);
  CHECK(run_cli({"fit", "--targets", "result,eval", fixture(kSample)}).status == 2);
  CHECK(run_cli({"compare", "--targets", "result,eval", "--each", "tc=blitz", fixture(kSample)})
            .status == 2);
}

TEST_CASE("cli stats --target eval: version 2 statistics, ranges merged, the same fit") {
  const std::string sample = fixture(kSample);
  TempFile whole("eval-whole.mstats", ""), first("eval-a.mstats", ""), second("eval-b.mstats", "");
  REQUIRE(
      run_cli({"stats", "--target", "eval", "--no-progress", "-o", whole.path(), sample}).status ==
      0);
  REQUIRE(run_cli({"stats", "--target", "eval", "--no-progress", "--range", "0:1000000", "-o",
                   first.path(), sample})
              .status == 0);
  REQUIRE(run_cli({"stats", "--target", "eval", "--no-progress", "--range", "1000000:99999999",
                   "-o", second.path(), sample})
              .status == 0);
  const auto fit = [](const std::vector<std::string>& inputs) {
    std::vector<std::string> args = {"fit", "--target", "eval", "--json", "--no-progress"};
    args.insert(args.end(), inputs.begin(), inputs.end());
    const CliRun run = run_cli(args);
    REQUIRE(run.status == 0);
    const auto json = parse_json(run.out);
    REQUIRE(json);
    std::vector<double> out;
    for (const char* key : {"theta", "thetaSe"}) {
      for (const auto& v : json->find(key)->items()) out.push_back(v.as_number());
    }
    for (const auto& [name, value] : json->find("evaluations")->entries()) {
      out.push_back(value.as_number());
    }
    return out;
  };
  const std::vector<double> from_games = fit({sample});
  CHECK(fit({whole.path()}) == from_games);
  CHECK(fit({first.path(), second.path()}) == from_games);
  // A result fit refuses them, and a result file is refused by an eval fit.
  CHECK(run_cli({"fit", "--no-progress", whole.path()}).status != 0);
  TempFile result("result.mstats", "");
  REQUIRE(run_cli({"stats", "--no-progress", "-o", result.path(), sample}).status == 0);
  CHECK(run_cli({"fit", "--target", "eval", "--no-progress", result.path()}).status != 0);
  CHECK(run_cli({"fit", "--no-progress", result.path()}).status == 0);
}
