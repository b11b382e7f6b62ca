// The CLI's commands: rows, fit and compare. Each writes its results to `out`, messages and
// progress to `err`, and returns the process exit status (see --help).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "cli/options.h"

namespace materialist::cli {

int run_rows(const CliOptions& options, std::FILE* out = stdout, std::FILE* err = stderr);
int run_fit(const CliOptions& options, std::FILE* out = stdout, std::FILE* err = stderr);
int run_compare(const CliOptions& options, std::FILE* out = stdout, std::FILE* err = stderr);

// The whole tool: parses argv (without the program name) and runs the command.
int run_command(const std::vector<std::string>& args, std::FILE* out = stdout,
                std::FILE* err = stderr);

}  // namespace materialist::cli
