// compare: fits several datasets side by side (see --help).
#pragma once

#include <cstdio>

#include "cli/options.h"

namespace materialist::cli {

int run_compare(const CliOptions& options, std::FILE* out, std::FILE* err);

}  // namespace materialist::cli
