// materialist: the native command-line tool. See `materialist --help`. Started as
// `materialist-uci` (a link the build makes beside it) it is `materialist uci ...`: an engine
// for GUIs and match runners that take one path.
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string_view name = argc > 0 ? argv[0] : "";
  name.remove_prefix(name.find_last_of("/\\") + 1);  // npos + 1 == 0: no folder
  if (name == "materialist-uci" || name == "materialist-uci.exe") args.insert(args.begin(), "uci");
  return materialist::cli::run_command(args);
}
