#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "learn/filter/bands.h"
#include "learn/filter/game_filter.h"
#include "learn/learn_test_util.h"
#include "learn/read/dataset_split.h"

using namespace materialist::learn;
using materialist::learn::testing::read_fixture;

namespace {

GameTags rated(const char* white_elo, const char* black_elo, const char* time_control = "180+2") {
  GameTags tags;
  tags.record("White", "Alice");
  tags.record("Black", "Bob");
  tags.record("WhiteElo", white_elo);
  tags.record("BlackElo", black_elo);
  tags.record("TimeControl", time_control);
  return tags;
}

std::vector<Band> bands_of(const char* spec, const char* base = "") {
  auto bands = make_bands(*parse_band_spec(spec), *parse_game_filter(base));
  REQUIRE(bands.ok());
  return *bands;
}

// The labels of the bands that keep the game (with the base filter layered under each band).
std::vector<std::string> bands_keeping(const std::vector<Band>& bands, const GameTags& tags,
                                       const std::string& base = "") {
  std::vector<std::string> labels;
  for (const Band& band : bands) {
    const GameFilter filter(*parse_game_filter(combine_game_filters(base, band.filter)));
    if (filter.check_tags(tags) == FilterReason::kKept) labels.push_back(band.label);
  }
  return labels;
}

using Labels = std::vector<std::string>;

}  // namespace

TEST_CASE("bands: the spec's text form") {
  CHECK(parse_band_spec("elo:200")->width == 200);
  CHECK(parse_band_spec("elo:200")->rating == BandRating::kAuto);
  CHECK(parse_band_spec("elo:100:player")->rating == BandRating::kPlayer);
  CHECK(parse_band_spec("elo:100:average")->rating == BandRating::kAverage);
  CHECK(parse_band_spec("speed")->kind == BandKind::kSpeed);
  for (const char* text : {"elo:200", "elo:50:player", "elo:1000:average", "speed"}) {
    CHECK(format_band_spec(*parse_band_spec(text)) == text);
  }
  for (const char* bad : {"", "elo", "elo:", "elo:49", "elo:1001", "elo:2x0", "elo:200:white",
                          "elo:200:player:x", "rating:200", "speed:1"}) {
    CAPTURE(bad);
    const auto spec = parse_band_spec(bad);
    REQUIRE_FALSE(spec.ok());
    CHECK(spec.error().message.find("expected elo:WIDTH") != std::string::npos);
  }
}

TEST_CASE("bands: rating bands cover every rating once, open at both ends") {
  const std::vector<Band> bands = bands_of("elo:200");
  REQUIRE(bands.size() == 12);
  CHECK(bands.front().label == "<800");
  CHECK(bands.front().filter == "elo=-799;elo_mode=average;unrated=drop");
  CHECK(bands[1].label == "800-999");
  CHECK(bands[10].label == "2600-2799");
  CHECK(bands.back().label == "2800+");
  CHECK(bands.back().filter == "elo=2800-;elo_mode=average;unrated=drop");
  // A width that does not divide 2000: the last closed band ends past 2800.
  const std::vector<Band> wide = bands_of("elo:300");
  CHECK(wide[wide.size() - 2].label == "2600-2899");
  CHECK(wide.back().label == "2900+");
  CHECK(bands_of("elo:50").size() == 42);

  // The edges: each game in exactly one band, the mean rounded half up.
  CHECK(bands_keeping(bands, rated("799", "799")) == Labels{"<800"});
  CHECK(bands_keeping(bands, rated("800", "799")) == Labels{"800-999"});  // 799.5 → 800
  CHECK(bands_keeping(bands, rated("999", "998")) == Labels{"800-999"});  // 998.5 → 999
  CHECK(bands_keeping(bands, rated("1000", "999")) == Labels{"1000-1199"});
  CHECK(bands_keeping(bands, rated("1400", "2000")) == Labels{"1600-1799"});  // mean 1700
  CHECK(bands_keeping(bands, rated("2800", "2799")) == Labels{"2800+"});
  CHECK(bands_keeping(bands, rated("3500", "100")) == Labels{"1800-1999"});
}

TEST_CASE("bands: unrated games are in no rating band") {
  const std::vector<Band> bands = bands_of("elo:200");
  CHECK(bands_keeping(bands, rated("?", "1500")).empty());
  CHECK(bands_keeping(bands, rated("1500", "0")).empty());
  CHECK(bands_keeping(bands, rated("", "")).empty());
  // The base filter's unrated=keep does not put them back: each band drops them.
  CHECK(bands_keeping(bands, rated("?", "1500"), "unrated=keep").empty());
}

TEST_CASE("bands: by the player's rating when a player is named") {
  const GameTags game = rated("2100", "1500");  // Alice 2100 (White), Bob 1500
  const std::vector<Band> average = bands_of("elo:200:average", "player=Bob");
  CHECK(bands_keeping(average, game, "player=Bob") == Labels{"1800-1999"});
  const std::vector<Band> automatic = bands_of("elo:200", "player=Bob");
  CHECK(automatic[1].filter == "elo=800-999;elo_mode=player;unrated=drop");
  CHECK(bands_keeping(automatic, game, "player=Bob") == Labels{"1400-1599"});
  CHECK(bands_keeping(automatic, game, "player=Alice") == Labels{"2000-2199"});
  // Only the player's rating is needed.
  CHECK(bands_keeping(automatic, rated("?", "1500"), "player=Bob") == Labels{"1400-1599"});
  CHECK(bands_keeping(automatic, rated("1500", "?"), "player=Bob").empty());

  const auto no_player = make_bands(*parse_band_spec("elo:200:player"), {});
  REQUIRE_FALSE(no_player.ok());
  CHECK(no_player.error().message.find("need a player") != std::string::npos);
  const auto with_elo = make_bands(*parse_band_spec("elo:200"), *parse_game_filter("elo=1500-"));
  REQUIRE_FALSE(with_elo.ok());
  CHECK(with_elo.error().message.find("elo filter") != std::string::npos);
}

TEST_CASE("bands: speeds, and only those the base filter keeps") {
  const std::vector<Band> bands = bands_of("speed");
  REQUIRE(bands.size() == 7);
  CHECK(bands[0].label == "ultrabullet");
  CHECK(bands[2].filter == "tc=blitz");
  CHECK(bands.back().label == "unknown");
  CHECK(bands_keeping(bands, rated("1", "1", "15+0")) == Labels{"ultrabullet"});
  CHECK(bands_keeping(bands, rated("1", "1", "60+0")) == Labels{"bullet"});
  CHECK(bands_keeping(bands, rated("1", "1", "180+2")) == Labels{"blitz"});
  CHECK(bands_keeping(bands, rated("1", "1", "600+5")) == Labels{"rapid"});
  CHECK(bands_keeping(bands, rated("1", "1", "1800+30")) == Labels{"classical"});
  CHECK(bands_keeping(bands, rated("1", "1", "-")) == Labels{"correspondence"});
  CHECK(bands_keeping(bands, rated("1", "1", "?")) == Labels{"unknown"});

  const std::vector<Band> some = bands_of("speed", "tc=blitz,rapid");
  REQUIRE(some.size() == 2);
  CHECK(some[0].label == "blitz");
  CHECK(some[1].label == "rapid");
}

TEST_CASE("bands: a filter's band label") {
  for (const Band& band : bands_of("elo:200")) CHECK(band_label(band.filter) == band.label);
  // As a per-filter subset is named: the band's text alone, without the base's player.
  for (const Band& band : bands_of("elo:100", "player=x")) {
    CHECK(band_label(band.filter) == band.label);
  }
  for (const Band& band : bands_of("speed")) CHECK(band_label(band.filter) == band.label);
  CHECK_FALSE(band_label("elo=1500-").has_value());  // both ratings: not one band's rating
  CHECK_FALSE(band_label("elo=1500-;elo_mode=average").has_value());  // unrated games kept
  // Anything beyond the band is another comparison.
  CHECK_FALSE(band_label("elo=1500-;elo_mode=average;unrated=drop;tc=blitz").has_value());
  CHECK_FALSE(band_label("tc=blitz;event=Titled").has_value());
  CHECK_FALSE(band_label("tc=blitz,rapid").has_value());
  CHECK_FALSE(band_label("").has_value());
  CHECK_FALSE(band_label("tc=nonsense").has_value());
}

TEST_CASE("bands: one read of the lichess sample puts every rated game in one band") {
  const std::string games = read_fixture("pgn/lichess-2021-10-first999.pgn");
  SplitOptions options;
  options.mode = SplitMode::kPerFilter;
  options.keep_merged = true;
  for (const Band& band : bands_of("elo:200")) options.each_filter.push_back(band.filter);
  auto split = DatasetSplit::create(options);
  REQUIRE(split.ok());
  split->begin_file("lichess.pgn");
  split->feed(games.data(), games.size());
  split->end_file();
  std::uint64_t in_bands = 0, used_in_bands = 0, bands_with_games = 0;
  for (const NamedSubset& subset : split->subsets()) {
    const IngestReport& report = subset.builder->report().games;
    in_bands += report.filter_tally.kept();
    used_in_bands += report.games_used + report.games_partial;
    bands_with_games += report.filter_tally.kept() > 0;
  }
  const IngestReport& all = split->merged().report().games;
  CHECK(in_bands == all.filter_tally.kept());  // every game of the sample is rated
  CHECK(used_in_bands == all.games_used + all.games_partial);
  CHECK(bands_with_games >= 6);
}
