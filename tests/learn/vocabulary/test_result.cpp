#include <doctest/doctest.h>

#include <string>

#include "learn/vocabulary/result.h"

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
