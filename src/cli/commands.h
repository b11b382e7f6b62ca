// The CLI's commands: rows, fit and compare. Each returns the process exit code.
#pragma once

#include "cli/options.h"

namespace materialist::cli {

int run_rows(const CliOptions& options);
int run_fit(const CliOptions& options);
int run_compare(const CliOptions& options);

}  // namespace materialist::cli
