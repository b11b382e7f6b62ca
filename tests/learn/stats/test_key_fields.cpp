// The row-key fields a read keeps, and the rating difference's bins.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "learn/fit/models.h"
#include "learn/read/dataset.h"
#include "learn/stats/key_fields.h"
#include "test_util.h"

using namespace materialist::learn;
using materialist::testing::read_fixture;

namespace {

// The lichess fixture read for the rating-offset model, its rating differences in bins of
// `bin_elo` (1: exact).
DatasetBuilder read_rated(int bin_elo, const ModelOptions& model) {
  IngestOptions ingest;
  ingest.rating_bin_elo = bin_elo;
  DatasetBuilder builder(ingest);
  builder.set_key_fields(KeyFields::for_model(model));
  const std::string pgn = read_fixture("pgn/lichess-2021-10-first999.pgn");
  builder.begin_file("lichess-2021-10-first999.pgn");
  builder.feed(pgn.data(), pgn.size());
  builder.end_file();
  return builder;
}

}  // namespace

TEST_CASE("key fields: rating differences are binned to the nearest multiple of the width") {
  CHECK(kRatingBinElo == 10);
  CHECK(binned_rating_difference(0) == 0);
  CHECK(binned_rating_difference(4) == 0);
  CHECK(binned_rating_difference(5) == 10);  // halves away from zero
  CHECK(binned_rating_difference(-5) == -10);
  CHECK(binned_rating_difference(147) == 150);
  CHECK(binned_rating_difference(-144) == -140);
  CHECK(binned_rating_difference(123, 1) == 123);
  CHECK(binned_rating_difference(100000) == 32767);  // clamped to RowKey's range
  CHECK(binned_rating_difference(-100000) == -32767);
}

TEST_CASE("key fields: a read keeps only what its model reads") {
  ModelOptions rich;
  rich.bishop_pair = true;
  rich.rating_offset = true;
  const KeyFields kept = KeyFields::for_model(rich);
  CHECK(kept == KeyFields{true, false, false, true});
  CHECK(kept.missing_for(rich).empty());
  ModelOptions tapered = rich;
  tapered.phase_tapered = true;
  tapered.side_to_move = true;
  CHECK(kept.missing_for(tapered) == "the game phase, the side to move");
  tapered.imbalances = kAllImbalances;
  CHECK(kept.missing_for(tapered) == "the game phase, the side to move, each side's piece counts");
  CHECK(KeyFields::none().missing_for(rich) == "the bishop pair, the rating difference");
  CHECK(KeyFields::united(kept, KeyFields::for_model(tapered)) == KeyFields::all());

  // The histogram's keys hold no field the model does not read: fewer distinct rows.
  const DatasetBuilder article = read_rated(kRatingBinElo, ModelOptions{});
  const DatasetBuilder rated = read_rated(kRatingBinElo, rich);
  CHECK(article.histogram().totals() == rated.histogram().totals());
  CHECK(article.histogram().distinct() < rated.histogram().distinct());
  article.histogram().for_each([](const RowKey& key, const OutcomeCounts&) {
    CHECK(key == KeyFields::none().project(key));
  });
}

TEST_CASE("key fields: binned rating differences move the rating model's values by < 0.5 cp") {
  ModelOptions model;
  model.rating_offset = true;
  const DatasetBuilder exact = read_rated(1, model);
  const DatasetBuilder binned = read_rated(kRatingBinElo, model);
  // Binning merges keys: the exact read has more distinct rows, the same rows in all.
  CHECK(binned.histogram().distinct() < exact.histogram().distinct());
  CHECK(binned.histogram().totals() == exact.histogram().totals());
  const auto exact_fit = fit_model(exact.histogram(), model, exact.pairs());
  const auto binned_fit = fit_model(binned.histogram(), model, binned.pairs());
  REQUIRE(exact_fit.ok());
  REQUIRE(binned_fit.ok());
  double largest = 0;
  for (std::size_t i = 0; i < 5; ++i) {
    const double a = exact_fit->coefficients[i].value.value;
    const double b = binned_fit->coefficients[i].value.value;
    REQUIRE(std::isfinite(a));
    largest = std::max(largest, std::abs(a - b));
  }
  MESSAGE("largest change of a piece value from 10-Elo bins: " << largest << " cp");
  CHECK(largest < 0.5);
  CHECK(largest > 0);  // the bins do change the keys: the test compares two different reads
}
