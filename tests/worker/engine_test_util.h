// Helpers of the engine's tests: fixtures, reading a file in odd-sized chunks as the worker's
// slices would, fitting to the end, counting substrings.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "worker/engine.h"

namespace materialist::worker::test {

inline std::string fixture(const std::string& name) {
  std::ifstream in(std::string(MATERIALIST_FIXTURES_DIR) + "/pgn/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void read_file(Engine& engine, const std::string& name, const std::string& bytes) {
  engine.begin_file(name, static_cast<double>(bytes.size()));
  for (std::size_t at = 0; at < bytes.size(); at += 65521) {
    engine.feed(bytes.data() + at, std::min<std::size_t>(65521, bytes.size() - at));
  }
  engine.end_file();
}

inline void fit_to_end(Engine& engine, const FitSettings& settings) {
  REQUIRE(engine.begin_fit(settings).ok());
  for (int guard = 0; !engine.fit_session().finished && guard < 100000; ++guard) engine.step(500);
  REQUIRE(engine.fit_session().finished);
}

inline std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The bytes of tests/fixtures/archive/<name>.
inline std::string archive_fixture(const std::string& name) {
  std::ifstream in(std::string(MATERIALIST_FIXTURES_DIR) + "/archive/" + name, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace materialist::worker::test
