// The CLI's failure vocabulary: each cause's code and exit status, the core errors of input
// mapped to causes, and docs/CLI.md's table of codes by exit status equal to the table here.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "cli/cli_test_util.h"
#include "cli/failure.h"

namespace materialist::cli {

TEST_CASE("failure: every cause has its own code and the exit status of its kind") {
  std::set<std::string> names;
  for (const FailureCodeInfo& info : kFailureCodes) {
    CHECK(names.insert(info.name).second);
    CHECK((info.status == kExitNoResult || info.status == kExitBadOptions ||
           info.status == kExitService));
  }
  CHECK(bad_options("x").status() == kExitBadOptions);
  CHECK(std::string(bad_options("x").code_name()) == "bad-options");
  CHECK(Failure{FailureCode::kRateLimited, "wait"}.status() == kExitService);
  CHECK(Failure{FailureCode::kNoRows, ""}.status() == kExitNoResult);
}

TEST_CASE(
    "failure: a core error of input becomes the service's cause, bad options or an unreadable "
    "file") {
  CHECK(input_failure_code(ErrorCode::kUnknownUser) == FailureCode::kUnknownUser);
  CHECK(input_failure_code(ErrorCode::kRateLimited) == FailureCode::kRateLimited);
  CHECK(input_failure_code(ErrorCode::kNoNetwork) == FailureCode::kNoNetwork);
  CHECK(input_failure_code(ErrorCode::kServiceError) == FailureCode::kServiceError);
  CHECK(input_failure_code(ErrorCode::kInvalidArgument) == FailureCode::kBadOptions);
  CHECK(input_failure_code(ErrorCode::kIo) == FailureCode::kUnreadableFile);
}

TEST_CASE("docs/CLI.md: its table of error codes holds every cause under its exit status") {
  const std::string docs = testing::read_fixture_text("../../docs/CLI.md");
  const std::size_t table = docs.find("| exit status | when | `error.code` |");
  REQUIRE(table != std::string::npos);
  const std::string text = docs.substr(table, docs.find("\n\n", table) - table);
  for (const FailureCodeInfo& info : kFailureCodes) {
    const std::string code = std::string("`") + info.name + "`";
    const std::size_t at = text.find(code);
    REQUIRE_MESSAGE(at != std::string::npos, info.name, " is not in docs/CLI.md");
    // The row the code is in starts with its exit status: "| 1 | ...".
    const std::size_t row = text.rfind("\n| ", at);
    REQUIRE(row != std::string::npos);
    CHECK_MESSAGE(text.compare(row + 3, 1, std::to_string(info.status)) == 0, info.name,
                  " is listed under another exit status in docs/CLI.md");
  }
}

}  // namespace materialist::cli
