// The help pages, made from the option table (cli/option_table.h) so they cannot drift from
// the rules: `materialist --help` lists the commands, `materialist COMMAND --help` (or -h) shows
// the command's usage and every option it takes, and docs/CLI.md's reference section is
// reference_markdown() (a doctest compares them).
#pragma once

#include <string>

#include "cli/option_table.h"

namespace materialist::cli {

std::string global_help();
std::string command_help(Verb verb);
// docs/CLI.md's generated reference: every command with its usage and its options' table.
std::string reference_markdown();

}  // namespace materialist::cli
