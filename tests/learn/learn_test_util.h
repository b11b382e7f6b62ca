// Helpers shared by the learn tests: fixture loading and building histograms from `.mat` text.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "learn/histogram.h"
#include "learn/mat_io.h"

namespace materialist::learn::testing {

// Reads tests/fixtures/<relative_path> whole; empty when missing (the test then fails loudly).
inline std::string read_fixture(const std::string& relative_path) {
  std::ifstream in(std::string(MATERIALIST_FIXTURES_DIR) + "/" + relative_path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Loads `.mat` text into a histogram (one feed).
inline Histogram histogram_from_mat(const std::string& text) {
  Histogram histogram;
  MatReader reader(histogram);
  reader.feed(text.data(), text.size());
  reader.finish();
  return histogram;
}

}  // namespace materialist::learn::testing
