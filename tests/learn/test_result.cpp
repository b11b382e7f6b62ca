#include <doctest/doctest.h>

#include <string>

#include "learn/presets.h"
#include "learn/result.h"

using namespace materialist::learn;

TEST_CASE("parse_result reads the three decided results and nothing else") {
  CHECK(parse_result("1-0") == Outcome::kWhiteWin);
  CHECK(parse_result("0-1") == Outcome::kBlackWin);
  CHECK(parse_result("1/2-1/2") == Outcome::kDraw);
  CHECK(parse_result(" 1-0\r\n") == Outcome::kWhiteWin);
  CHECK(parse_result("*") == Outcome::kUnknown);
  CHECK(parse_result("") == Outcome::kUnknown);
  CHECK(parse_result("1/2") == Outcome::kUnknown);
  CHECK(parse_result("1-0 ") == Outcome::kWhiteWin);
  CHECK(parse_result("10") == Outcome::kUnknown);
}

TEST_CASE(
    "the compatible policy turns unknown results into draws, the default keeps them unknown") {
  CHECK(resolve_outcome(Outcome::kUnknown, UnknownResultPolicy::kTreatAsDraw) == Outcome::kDraw);
  CHECK(resolve_outcome(Outcome::kUnknown, UnknownResultPolicy::kSkip) == Outcome::kUnknown);
  CHECK(resolve_outcome(Outcome::kWhiteWin, UnknownResultPolicy::kTreatAsDraw) ==
        Outcome::kWhiteWin);
  CHECK(outcome_code(Outcome::kBlackWin) == 0);
  CHECK(outcome_code(Outcome::kDraw) == 1);
  CHECK(outcome_code(Outcome::kWhiteWin) == 2);
  CHECK(std::string(outcome_name(Outcome::kUnknown)) == "unknown");
}

TEST_CASE("presets: the article keeps '*' games as draws, the default skips them") {
  const auto article = find_preset("article");
  const auto standard = find_preset("default");
  REQUIRE(article.has_value());
  REQUIRE(standard.has_value());
  CHECK(article->ingest.unknown_results == UnknownResultPolicy::kTreatAsDraw);
  CHECK(standard->ingest.unknown_results == UnknownResultPolicy::kSkip);
  CHECK(article->draws == DrawHandling::kLeaveOut);
  CHECK(article->ingest.quiet.quiet_plies == 2);
  CHECK(article->descent.iterations == 10000);
  CHECK_FALSE(find_preset("nonsense").has_value());
}
