// Runs the CLI in-process: argv in, exit status, stdout and stderr out; temporary input files.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace materialist::cli::testing {

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

inline std::string fixture(const std::string& relative_path) {
  return std::string(MATERIALIST_FIXTURES_DIR) + "/" + relative_path;
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

// Lines of text, without their newlines.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Reads tests/fixtures/<relative_path> whole.
inline std::string read_fixture_text(const std::string& relative_path) {
  std::ifstream in(fixture(relative_path), std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Replaces every occurrence of `from` in `text` by `to`.
inline std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// True when `out` is exactly one JSON object on one line (what --json promises on stdout).
inline bool one_json_object(const std::string& out) {
  return out.size() > 2 && out.front() == '{' && out.substr(out.size() - 2) == "}\n" &&
         out.find('\n') == out.size() - 1;
}

}  // namespace materialist::cli::testing
