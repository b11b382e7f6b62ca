#include <doctest/doctest.h>

#include "cli/options.h"

using materialist::ErrorCode;
using materialist::cli::Command;
using materialist::cli::parse_options;

TEST_CASE("cli: fit takes the article preset, a solver and files") {
  const auto options =
      parse_options({"fit", "--preset", "article", "--solver", "newton", "a.pgn", "-"});
  REQUIRE(options.ok());
  CHECK(options->command == Command::kFit);
  CHECK(options->preset == "article");
  CHECK(options->solver == "newton");
  CHECK(options->files == std::vector<std::string>{"a.pgn", "-"});
}

TEST_CASE("cli: numbers are checked and bad values are named") {
  const auto iterations = parse_options({"fit", "--iterations", "12x", "a.pgn"});
  REQUIRE_FALSE(iterations.ok());
  CHECK(iterations.error().code == ErrorCode::kInvalidArgument);
  CHECK(iterations.error().message.find("--iterations") != std::string::npos);

  const auto alpha = parse_options({"fit", "--alpha", "0.5", "--lambda", "0", "a.pgn"});
  REQUIRE(alpha.ok());
  CHECK(*alpha->alpha == doctest::Approx(0.5));
  CHECK(*alpha->lambda == 0.0);
  CHECK_FALSE(parse_options({"fit", "--alpha", "-1", "a.pgn"}).ok());
}

TEST_CASE("cli: unknown commands, options, choices and missing files are errors") {
  CHECK_FALSE(parse_options({"frobnicate"}).ok());
  CHECK_FALSE(parse_options({"fit", "--wat", "a.pgn"}).ok());
  CHECK_FALSE(parse_options({"fit", "--solver", "sgd", "a.pgn"}).ok());
  CHECK_FALSE(parse_options({"fit", "--solver"}).ok());
  CHECK_FALSE(parse_options({"fit"}).ok());
}

TEST_CASE("cli: no arguments and --help ask for the usage text") {
  CHECK(parse_options({})->command == Command::kHelp);
  CHECK(parse_options({"--help"})->command == Command::kHelp);
  CHECK(parse_options({"fit", "--help"})->command == Command::kHelp);
}

TEST_CASE(
    "cli: --side-to-move asks for the side-to-move column; choices come from learn's tables") {
  const auto options = parse_options({"fit", "--side-to-move", "a.pgn"});
  REQUIRE(options.ok());
  CHECK(options->side_to_move);
  CHECK_FALSE(parse_options({"fit", "a.pgn"})->side_to_move);
  const auto outcomes = parse_options({"fit", "--outcomes", "binary", "a.pgn"});
  REQUIRE_FALSE(outcomes.ok());
  CHECK(outcomes.error().message.find("draws-out, fractional, ordinal") != std::string::npos);
  CHECK(parse_options({"compare", "a.pgn"})->command == Command::kCompare);
}
