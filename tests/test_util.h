// Helpers every test directory shares: fixtures and plain text handling.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace materialist::testing {

// tests/fixtures/<relative_path>.
inline std::string fixture(const std::string& relative_path) {
  return std::string(MATERIALIST_FIXTURES_DIR) + "/" + relative_path;
}

// Reads tests/fixtures/<relative_path> whole; empty when missing (the test then fails loudly).
inline std::string read_fixture(const std::string& relative_path) {
  std::ifstream in(fixture(relative_path), std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first `count` games of a PGN text whose games each begin with "[Event ": the text up to
// the next game's "[Event ", or the whole text when it holds no more.
inline std::string first_games(const std::string& pgn, std::size_t count) {
  std::size_t at = 0;
  for (std::size_t game = 0; game <= count; ++game) {
    at = pgn.find("[Event ", at + (game == 0 ? 0 : 1));
    if (at == std::string::npos) return pgn;
  }
  return pgn.substr(0, at);
}

// Replaces every occurrence of `from` in `text` by `to`.
inline std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

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

}  // namespace materialist::testing
