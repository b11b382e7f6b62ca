// The CLI's commands (cli/option_table.h lists them). Each writes its results to `out`, messages
// and progress to `err`, and returns the process exit status (see --help).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "cli/option_table.h"
#include "cli/options.h"

namespace materialist::cli {

// Exit statuses (kExitOk ...): cli/option_table.h, one table for every command and its help.

// The whole tool: parses argv (without the program name) and runs the command.
int run_command(const std::vector<std::string>& args, std::FILE* out = stdout,
                std::FILE* err = stderr);

}  // namespace materialist::cli
