// Why a read gave nothing to learn from: the code and the sentence, variants named.
#include <doctest/doctest.h>

#include "learn/read/empty_read.h"

using namespace materialist::learn;

TEST_CASE("empty read: variants named, other filters counted, evaluations missing") {
  IngestReport games;
  games.games_read = 3;
  games.games_filtered = 3;
  for (int i = 0; i < 3; ++i) games.filter_tally.add(FilterReason::kVariant);
  add_variant_name(games.filtered_variants, "Crazyhouse");
  add_variant_name(games.filtered_variants, "Atomic");
  add_variant_name(games.filtered_variants, "Crazyhouse");
  EmptyRead why = empty_read_of(games, Target::kResult);
  CHECK(why == EmptyRead::kAllVariants);
  CHECK(std::string(empty_read_code(why)) == "all-variants");
  CHECK(empty_read_message(why, games) ==
        "all 3 games are Crazyhouse, Atomic: chess variants Materialist does not learn from (it "
        "learns from standard chess, and from Chess960 when \"keep Chess960\" is on)");

  games.filter_tally = {};
  for (int i = 0; i < 3; ++i) games.filter_tally.add(FilterReason::kPlayer);
  why = empty_read_of(games, Target::kResult);
  CHECK(std::string(empty_read_code(why)) == "all-filtered");
  CHECK(empty_read_message(why, games) ==
        "the filters removed all 3 games (each filter's count is under the values)");

  IngestReport unannotated;
  unannotated.games_read = 2997;
  unannotated.games_without_evals = 2997;
  why = empty_read_of(unannotated, Target::kEval);
  CHECK(std::string(empty_read_code(why)) == "no-evaluations");
  CHECK(empty_read_message(why, unannotated).rfind("none of the 2,997 games carries", 0) == 0);
  CHECK(std::string(empty_read_code(empty_read_of(unannotated, Target::kResult))) == "no-rows");
  CHECK(count_of(1, "game") == "1 game");
  CHECK(count_of(1234567, "game") == "1,234,567 games");
}
