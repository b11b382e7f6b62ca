#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "learn/stats/histogram.h"

using namespace materialist::learn;

namespace {

// A deterministic stream of varied keys and outcomes (a linear congruential generator).
struct Sample {
  RowKey key;
  Outcome outcome;
};

std::vector<Sample> make_samples(int count) {
  std::vector<Sample> samples;
  std::uint64_t state = 12345;
  const auto next = [&state](int modulus) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(modulus));
  };
  for (int i = 0; i < count; ++i) {
    RowKey key;
    for (auto& d : key.delta) d = static_cast<std::int8_t>(next(7) - 3);
    key.bishop_pair = static_cast<std::int8_t>(next(3) - 1);
    key.phase = static_cast<std::uint8_t>(next(25));
    key.black_to_move = static_cast<std::uint8_t>(next(2));
    key.rating_known = static_cast<std::uint8_t>(next(2));
    key.rating_diff = key.rating_known ? static_cast<std::int16_t>(next(801) - 400) : 0;
    samples.push_back({key, static_cast<Outcome>(next(3))});
  }
  return samples;
}

}  // namespace

TEST_CASE("RowKey packs every field losslessly, extremes included") {
  RowKey key;
  key.delta = {-64, 63, 0, -1, 9};
  key.bishop_pair = -1;
  key.phase = 24;
  key.black_to_move = 1;
  key.rating_known = 1;
  key.rating_diff = -32768;
  CHECK(RowKey::unpack(key.pack()) == key);
  key.rating_diff = 32767;
  key.bishop_pair = 1;
  CHECK(RowKey::unpack(key.pack()) == key);
  CHECK(RowKey::unpack(RowKey{}.pack()) == RowKey{});
  CHECK((key.pack() >> 60) == 0u);  // the top bits stay free for the empty-slot marker
}

TEST_CASE("histogram counts rows per key and outcome") {
  Histogram histogram;
  const RowKey even = RowKey::from_delta({0, 0, 0, 0, 0});
  const RowKey pawn_up = RowKey::from_delta({1, 0, 0, 0, 0});
  histogram.add(even, Outcome::kWhiteWin);
  histogram.add(even, Outcome::kWhiteWin);
  histogram.add(even, Outcome::kDraw);
  histogram.add(pawn_up, Outcome::kBlackWin, 5);
  histogram.add(pawn_up, Outcome::kUnknown);  // ignored
  CHECK(histogram.distinct() == 2);
  REQUIRE(histogram.find(even) != nullptr);
  CHECK((*histogram.find(even))[Outcome::kWhiteWin] == 2);
  CHECK((*histogram.find(even))[Outcome::kDraw] == 1);
  CHECK(histogram.find(pawn_up)->total() == 5);
  CHECK(histogram.find(RowKey::from_delta({0, 1, 0, 0, 0})) == nullptr);
  CHECK(histogram.totals().total() == 8);
  CHECK(histogram.totals()[Outcome::kBlackWin] == 5);
}

TEST_CASE("merging shards by addition equals a single pass") {
  const std::vector<Sample> samples = make_samples(20000);
  Histogram single;
  for (const Sample& s : samples) single.add(s.key, s.outcome);

  Histogram shards[3];
  for (std::size_t i = 0; i < samples.size(); ++i)
    shards[i % 3].add(samples[i].key, samples[i].outcome);
  Histogram merged;
  for (int i = 2; i >= 0; --i) merged.merge(shards[i]);

  CHECK(merged == single);
  CHECK(merged.distinct() == single.distinct());
  CHECK(merged.totals().total() == samples.size());
  CHECK(single.distinct() > 1000);  // the sample exercises growth and probing

  // Sorted entries are identical whatever the insertion history.
  const auto a = single.entries();
  const auto b = merged.entries();
  REQUIRE(a.size() == b.size());
  bool identical = true;
  for (std::size_t i = 0; i < a.size(); ++i) {
    identical = identical && a[i].key == b[i].key && a[i].counts == b[i].counts;
  }
  CHECK(identical);

  merged.add(samples[0].key, Outcome::kDraw);
  CHECK_FALSE(merged == single);
}
