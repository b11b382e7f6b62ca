// Runs the CLI in-process: argv in, exit status, stdout and stderr out; temporary input files.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "test_util.h"

namespace materialist::cli::testing {

using materialist::testing::contains;
using materialist::testing::fixture;
using materialist::testing::lines_of;
using materialist::testing::replace_all;
// Reads tests/fixtures/<relative_path> whole.
inline std::string read_fixture_text(const std::string& relative_path) {
  return materialist::testing::read_fixture(relative_path);
}

// A command's JSON output without its timings (parseSeconds, fitSeconds, seconds), which vary.
inline std::string without_timings(const std::string& out) {
  static const std::regex kTimings("\"(parseSeconds|fitSeconds|seconds)\":[-0-9.e+]+,?");
  return std::regex_replace(out, kTimings, "");
}

struct CliRun {
  int status = -1;
  std::string out, err;
};

inline std::string read_all(std::FILE* file) {
  std::string text;
  std::rewind(file);
  char buffer[4096];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, got);
  std::fclose(file);
  return text;
}

inline CliRun run_cli(const std::vector<std::string>& args) {
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  CliRun run;
  run.status = run_command(args, out, err);
  run.out = read_all(out);
  run.err = read_all(err);
  return run;
}

// A file under the system's temporary directory, removed when the object goes.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& bytes)
      : path_(
            (std::filesystem::temp_directory_path() / ("materialist-cli-test-" + name)).string()) {
    std::ofstream(path_, std::ios::binary) << bytes;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// True when `out` is exactly one JSON object on one line (what --json promises on stdout).
inline bool one_json_object(const std::string& out) {
  return out.size() > 2 && out.front() == '{' && out.substr(out.size() - 2) == "}\n" &&
         out.find('\n') == out.size() - 1;
}

}  // namespace materialist::cli::testing
