// materialist: the native command-line tool. See `materialist --help`.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/options.h"

int main(int argc, char** argv) {
  using namespace materialist::cli;
  const std::vector<std::string> args(argv + 1, argv + argc);
  const auto options = parse_options(args);
  if (!options) {
    std::fprintf(stderr, "materialist: %s\n", options.error().message.c_str());
    return 2;
  }
  switch (options->command) {
    case Command::kHelp:
      std::fputs(usage_text(), stdout);
      return 0;
    case Command::kVersion:
      std::puts("materialist 0.1.0");
      return 0;
    case Command::kRows:
      return run_rows(*options);
    case Command::kFit:
      return run_fit(*options);
    case Command::kCompare:
      return run_compare(*options);
  }
  return 2;
}
