// The CLI's one failure vocabulary: why a command gave no result, as a cause (FailureCode), a
// message for people, and the exit status the cause implies. The codes' names are the `--json`
// "error" object's `code` (docs/CLI.md lists them by exit status; a test checks the list).
//
//   Failure failure = bad_options("--pairs: 0 is not in 1..100000");
//   failure.status() == kExitBadOptions;   failure_code_name(failure.code) == "bad-options"
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/error.h"

namespace materialist::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitNoResult = 1;
inline constexpr int kExitBadOptions = 2;
inline constexpr int kExitService = 3;

enum class FailureCode : std::uint8_t {
  kBadOptions,         // unknown or malformed options, a model the solver cannot fit
  kUnreadableFile,     // missing, a directory, an I/O error
  kUnwritableFile,     // an output file that cannot be written
  kUnsupportedFormat,  // xz, 7z, rar, zip64, an encrypted zip
  kCorruptArchive,     // corrupt or truncated compressed data, binary data
  kCorruptStats,       // a damaged, truncated or other-version .mstats file
  kIncompatibleStats,  // .mstats files that cannot be merged or fitted with these options
  kNoGames,
  kNoRows,
  kFilteredOut,
  kNoDecisiveRows,
  kNoEvaluations,     // the evaluation target: no game carries [%eval]
  kFitFailed,         // the solver failed
  kDatasetNotFitted,  // compare: a dataset without a fit (the others still shown)
  kSquaresNotFitted,  // --model squares: too few positions
  kUnknownUser,       // --lichess / --chesscom (cli/http_input.h)
  kRateLimited,
  kNoNetwork,
  kServiceError,
};

struct FailureCodeInfo {
  const char* name;  // the JSON code
  int status;        // the exit status
};

inline constexpr std::array<FailureCodeInfo, 19> kFailureCodes = {{
    {"bad-options", kExitBadOptions},
    {"unreadable-file", kExitNoResult},
    {"unwritable-file", kExitNoResult},
    {"unsupported-format", kExitNoResult},
    {"corrupt-archive", kExitNoResult},
    {"corrupt-stats", kExitNoResult},
    {"incompatible-stats", kExitNoResult},
    {"no-games", kExitNoResult},
    {"no-rows", kExitNoResult},
    {"filtered-out", kExitNoResult},
    {"no-decisive-rows", kExitNoResult},
    {"no-evaluations", kExitNoResult},
    {"fit-failed", kExitNoResult},
    {"dataset-not-fitted", kExitNoResult},
    {"squares-not-fitted", kExitNoResult},
    {"unknown-user", kExitService},
    {"rate-limited", kExitService},
    {"no-network", kExitService},
    {"service-error", kExitService},
}};
static_assert(kFailureCodes.size() == static_cast<std::size_t>(FailureCode::kServiceError) + 1);

constexpr const char* failure_code_name(FailureCode code) {
  return kFailureCodes[static_cast<std::size_t>(code)].name;
}

struct [[nodiscard]] Failure {
  FailureCode code = FailureCode::kFitFailed;
  std::string message;

  int status() const { return kFailureCodes[static_cast<std::size_t>(code)].status; }
  const char* code_name() const { return failure_code_name(code); }
};

inline Failure bad_options(std::string message) {
  return {FailureCode::kBadOptions, std::move(message)};
}

// The failure of a core error reading input: a service's own code, bad options for an invalid
// argument, else an unreadable file.
constexpr FailureCode input_failure_code(ErrorCode code) {
  switch (code) {
    case ErrorCode::kUnknownUser:
      return FailureCode::kUnknownUser;
    case ErrorCode::kRateLimited:
      return FailureCode::kRateLimited;
    case ErrorCode::kNoNetwork:
      return FailureCode::kNoNetwork;
    case ErrorCode::kServiceError:
      return FailureCode::kServiceError;
    case ErrorCode::kInvalidArgument:
      return FailureCode::kBadOptions;
    default:
      return FailureCode::kUnreadableFile;
  }
}

}  // namespace materialist::cli
