#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "learn/learn_test_util.h"
#include "learn/stats/mat_io.h"

using namespace materialist::learn;
using materialist::learn::testing::histogram_from_mat;
using materialist::learn::testing::read_fixture;

TEST_CASE("append_mat_row writes the original tool's layout") {
  std::string text;
  append_mat_row(text, {0, 0, 0, 0, 0}, Outcome::kBlackWin);
  append_mat_row(text, {2, -1, 0, 0, 0}, Outcome::kWhiteWin);
  CHECK(text == " 0  0  0  0  0  0\n 2 -1  0  0  0  2\n");
}

TEST_CASE("the article's .mat file loads whole, in any chunking") {
  const std::string text = read_fixture("learn/OpenRating.article.mat");
  REQUIRE(!text.empty());
  const Histogram whole = histogram_from_mat(text);
  // METHOD.md: 20196 rows, 9212 white wins, 2258 draws, 8726 black wins.
  CHECK(whole.totals().total() == 20196);
  CHECK(whole.totals()[Outcome::kWhiteWin] == 9212);
  CHECK(whole.totals()[Outcome::kDraw] == 2258);
  CHECK(whole.totals()[Outcome::kBlackWin] == 8726);

  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
    Histogram histogram;
    MatReader reader(histogram);
    for (std::size_t at = 0; at < text.size(); at += chunk) {
      reader.feed(text.data() + at, std::min(chunk, text.size() - at));
    }
    reader.finish();
    CHECK(reader.report().rows == 20196);
    CHECK(reader.report().bad_lines == 0);
    CHECK(reader.report().bytes == text.size());
    CHECK(histogram == whole);
  }
}

TEST_CASE(".mat round trip: written rows read back into the same histogram, byte-exact text") {
  const std::string original = read_fixture("learn/OpenRating.article.mat");
  REQUIRE(!original.empty());
  // Re-write every row of the article's file through the writer: the bytes must not change.
  std::string rewritten;
  Histogram histogram;
  MatReader reader(histogram);
  reader.set_row_sink(
      [&rewritten](const Row& row) { append_mat_row(rewritten, row.key.delta, row.outcome); });
  reader.feed(original.data(), original.size());
  reader.finish();
  CHECK(rewritten == original);
  CHECK(histogram_from_mat(rewritten) == histogram_from_mat(original));
}

TEST_CASE("bad .mat lines are reported with line numbers and never stop the reader") {
  const std::string text =
      " 1 0 0 0 0 2\n"           // 1: good
      "\n"                       // 2: blank, ignored
      "1 0 0 0 0\n"              // 3: five numbers
      "1 0 0 0 0 3\n"            // 4: bad result
      "1 0 x 0 0 2\n"            // 5: not a number
      "1 0 0 0 0 2 7\n"          // 6: seven numbers
      "99 0 0 0 0 1\n"           // 7: delta out of range
      + std::string(300, '1') +  // 8: too long
      "\n-1\t0 0 0 0 0\r\n"      // 9: good (tabs, CRLF)
      "0 0 0 0 1 1";             // 10: good, no final newline
  Histogram histogram;
  MatReader reader(histogram, 3);
  reader.feed(text.data(), text.size());
  reader.finish();
  const MatReadReport& report = reader.report();
  CHECK(report.rows == 3);
  CHECK(report.lines == 10);
  CHECK(report.bad_lines == 6);
  REQUIRE(report.first_bad_lines.size() == 3);  // capped, the count stays exact
  CHECK(report.first_bad_lines[0].line == 3);
  CHECK(report.first_bad_lines[0].reason == "fewer than six numbers");
  CHECK(report.first_bad_lines[1].line == 4);
  CHECK(report.first_bad_lines[2].line == 5);
  CHECK(histogram.find(RowKey::from_delta({-1, 0, 0, 0, 0}))->total() == 1);
  CHECK((*histogram.find(RowKey::from_delta({0, 0, 0, 0, 1})))[Outcome::kDraw] == 1);
}
