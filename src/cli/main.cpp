// materialist: the native command-line tool. See `materialist --help`.
#include <string>
#include <vector>

#include "cli/commands.h"

int main(int argc, char** argv) {
  return materialist::cli::run_command(std::vector<std::string>(argv + 1, argv + argc));
}
