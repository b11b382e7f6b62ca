// Helpers shared by the learn tests: fixtures (test_util.h) and histograms from `.mat` text.
#pragma once

#include <string>

#include "learn/stats/histogram.h"
#include "learn/stats/mat_io.h"
#include "test_util.h"

namespace materialist::learn::testing {

using materialist::testing::first_games;
using materialist::testing::read_fixture;
using materialist::testing::replace_all;

// Loads `.mat` text into a histogram (one feed).
inline Histogram histogram_from_mat(const std::string& text) {
  Histogram histogram;
  MatReader reader(histogram);
  reader.feed(text.data(), text.size());
  reader.finish();
  return histogram;
}

}  // namespace materialist::learn::testing
