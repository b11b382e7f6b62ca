// The CLI's commands: rows, fit and compare. Each writes its results to `out`, messages and
// progress to `err`, and returns the process exit status (see --help).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "cli/options.h"

namespace materialist::cli {

// Exit statuses, the same for every command.
inline constexpr int kExitOk = 0;  // done: rows written, fitted (warnings or not)
// A file could not be read (missing, a directory, compressed), the data gave nothing to fit (no
// rows, every game filtered out, no decisive row) or the fit failed; compare: any dataset.
inline constexpr int kExitNoResult = 1;
inline constexpr int kExitBadOptions = 2;  // unknown or malformed options, a bad --filter, a
                                           // model the chosen solver cannot fit
// A game service (--lichess, --chesscom) gave no games: unknown user, rate limit, no network, a
// service error (cli/http_input.h).
inline constexpr int kExitService = 3;

// The whole tool: parses argv (without the program name) and runs the command.
int run_command(const std::vector<std::string>& args, std::FILE* out = stdout,
                std::FILE* err = stderr);

}  // namespace materialist::cli
