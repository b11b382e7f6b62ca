#include <doctest/doctest.h>

#include <string>

#include "learn/filter/game_filter.h"
#include "learn/vocabulary/time_control.h"

using namespace materialist::learn;

namespace {

GameTags lichess_tags() {
  GameTags tags;
  tags.record("Event", "Rated Blitz game");
  tags.record("Site", "https://lichess.org/NRafdioG");
  tags.record("Date", "2021.10.01");
  tags.record("White", "xtzdavi182");
  tags.record("Black", "Al_Fatih");
  tags.record("WhiteElo", "1703");
  tags.record("BlackElo", "1698");
  tags.record("TimeControl", "180+2");
  tags.record("Termination", "Normal");
  tags.record("Opening", "Sicilian Defense");  // not a filter tag: ignored
  return tags;
}

FilterReason check(const std::string& filter_text, const GameTags& tags) {
  auto options = parse_game_filter(filter_text);
  REQUIRE_MESSAGE(options.ok(), filter_text);
  if (!options.ok()) return static_cast<FilterReason>(255);  // matches no expected reason
  return GameFilter(*options).check_tags(tags);
}

}  // namespace

TEST_CASE("time control: forms and lichess speed classes") {
  struct Row {
    const char* tag;
    SpeedClass speed;
    int base, increment;
    long long estimated;
  };
  const Row rows[] = {
      {"15+0", SpeedClass::kUltraBullet, 15, 0, 15},
      {"0+1", SpeedClass::kBullet, 0, 1, 40},
      {"60+0", SpeedClass::kBullet, 60, 0, 60},
      {"120+1", SpeedClass::kBullet, 120, 1, 160},
      {"180+0", SpeedClass::kBlitz, 180, 0, 180},
      {"60+3", SpeedClass::kBlitz, 60, 3, 180},
      {"300+2", SpeedClass::kBlitz, 300, 2, 380},
      {"420+2", SpeedClass::kRapid, 420, 2, 500},
      {"600+0", SpeedClass::kRapid, 600, 0, 600},
      {"900+10", SpeedClass::kRapid, 900, 10, 1300},
      {"1800+0", SpeedClass::kClassical, 1800, 0, 1800},
      {"1500", SpeedClass::kClassical, 1500, 0, 1500},
      {"*180", SpeedClass::kBlitz, 180, 0, 180},
      {"40/7200:3600", SpeedClass::kClassical, 7200, 0, 7200},
      {"20/600", SpeedClass::kRapid, 600, 0, 1200},
  };
  for (const Row& row : rows) {
    CAPTURE(row.tag);
    TimeControl tc = parse_time_control(row.tag);
    CHECK(tc.speed == row.speed);
    CHECK(tc.base_seconds == row.base);
    CHECK(tc.increment_seconds == row.increment);
    CHECK(tc.estimated_seconds == row.estimated);
  }
  CHECK(parse_time_control("40/7200:3600").stage_count == 2);
  CHECK(parse_time_control("40/7200:3600").moves_per_period == 40);

  TimeControl correspondence = parse_time_control("1/259200");
  CHECK(correspondence.speed == SpeedClass::kCorrespondence);
  CHECK(correspondence.base_seconds == 259200);
  CHECK(parse_time_control("-").speed == SpeedClass::kCorrespondence);
  CHECK(parse_time_control("-").base_seconds == -1);
  for (const char* unknown : {"?", "", "abc", "300+", "+2", "40/", "0/300", "300:?"}) {
    CAPTURE(unknown);
    CHECK(parse_time_control(unknown).speed == SpeedClass::kUnknown);
  }
}

TEST_CASE("time control: class boundaries are lichess's") {
  CHECK(classify_estimated_seconds(28) == SpeedClass::kUltraBullet);
  CHECK(classify_estimated_seconds(29) == SpeedClass::kBullet);
  CHECK(classify_estimated_seconds(178) == SpeedClass::kBullet);
  CHECK(classify_estimated_seconds(179) == SpeedClass::kBlitz);
  CHECK(classify_estimated_seconds(478) == SpeedClass::kBlitz);
  CHECK(classify_estimated_seconds(479) == SpeedClass::kRapid);
  CHECK(classify_estimated_seconds(1498) == SpeedClass::kRapid);
  CHECK(classify_estimated_seconds(1499) == SpeedClass::kClassical);
  for (int i = 0; i < kSpeedClassCount; ++i) {
    auto speed = static_cast<SpeedClass>(i);
    CHECK(parse_speed_class(speed_class_name(speed)) == speed);
  }
  CHECK_FALSE(parse_speed_class("lightning").has_value());
}

TEST_CASE("pgn dates: partial parts and formatting") {
  CHECK(parse_pgn_date("2021.10.01") == PgnDate{2021, 10, 1});
  CHECK(parse_pgn_date("2021.??.??") == PgnDate{2021, 0, 0});
  CHECK(parse_pgn_date("????.??.??") == PgnDate{0, 0, 0});
  CHECK(parse_pgn_date("2015") == PgnDate{2015, 0, 0});
  CHECK_FALSE(parse_pgn_date("2021.13.01").has_value());
  CHECK_FALSE(parse_pgn_date("????.10.01").has_value());
  CHECK_FALSE(parse_pgn_date("2021..01").has_value());
  CHECK(format_pgn_date({2021, 10, 1}) == "2021.10.01");
  CHECK(format_pgn_date({2021, 0, 0}) == "2021.??.??");
}

TEST_CASE("game filter: GameTags::clear empties every tag that record fills") {
  GameTags tags;
  const std::vector<std::string> names = {
      "White", "Black", "WhiteElo",    "BlackElo", "TimeControl", "Date", "UTCDate",
      "Event", "Site",  "Termination", "Variant",  "SetUp",       "FEN",  "PlyCount"};
  for (const std::string& name : names) tags.record(name, "a value longer than sixteen bytes");
  const auto filled = [](const GameTags& t) {
    int count = 0;
    for (std::string GameTags::*value : kGameTagValues) count += (t.*value).empty() ? 0 : 1;
    return count;
  };
  CHECK(filled(tags) == 14);
  for (std::size_t i = 0; i < kGameTagValues.size(); ++i)  // each value once
    for (std::size_t j = i + 1; j < kGameTagValues.size(); ++j)
      CHECK(kGameTagValues[i] != kGameTagValues[j]);
  tags.clear();
  CHECK(filled(tags) == 0);
  tags.record("Site", "https://lichess.org/abcdefgh");
  CHECK(tags.site == "https://lichess.org/abcdefgh");
  CHECK(filled(tags) == 1);
}

TEST_CASE("game filter: default keeps everything, names are case-insensitive") {
  GameTags tags = lichess_tags();
  CHECK(GameFilter().keeps_everything());
  CHECK(GameFilter().check_tags(tags) == FilterReason::kKept);
  CHECK(GameFilter().check_tags(GameTags{}) == FilterReason::kKept);

  CHECK(check("player=al_fatih", tags) == FilterReason::kKept);
  CHECK(check("player=AL_FATIH;side=black", tags) == FilterReason::kKept);
  CHECK(check("player=al_fatih;side=white", tags) == FilterReason::kPlayer);
  CHECK(check("player=al_fati", tags) == FilterReason::kPlayer);  // exact, not substring
  CHECK(check("player=al_fa*", tags) == FilterReason::kKept);     // explicit prefix
  CHECK(check("player=xtzdavi182;opponent=al_fatih", tags) == FilterReason::kKept);
  CHECK(check("player=xtzdavi182;opponent=someone", tags) == FilterReason::kOpponent);
  // The opponent is the other side: the player himself does not count as his opponent.
  CHECK(check("player=xtzdavi182;opponent=xtzdavi182", tags) == FilterReason::kOpponent);
  CHECK(check("opponent=xtzdavi182", tags) == FilterReason::kKept);
}

TEST_CASE("game filter: the player's own rating") {
  GameTags tags = lichess_tags();  // xtzdavi182 (White) 1703, al_fatih (Black) 1698
  CHECK(check("player=xtzdavi182;elo=1700-1710;elo_mode=player", tags) == FilterReason::kKept);
  CHECK(check("player=al_fatih;elo=1700-1710;elo_mode=player", tags) == FilterReason::kElo);
  CHECK(check("player=al_fatih;elo=1690-1698;elo_mode=player", tags) == FilterReason::kKept);
  CHECK(check("player=al_fatih;elo=1699-;elo_mode=player", tags) == FilterReason::kElo);
  // Only the player's rating is needed: an unrated opponent still counts.
  GameTags opponent_unrated = tags;
  opponent_unrated.record("WhiteElo", "?");
  CHECK(check("player=al_fatih;elo=1690-1698;elo_mode=player;unrated=drop", opponent_unrated) ==
        FilterReason::kKept);
  CHECK(check("player=xtzdavi182;elo=1700-;elo_mode=player;unrated=drop", opponent_unrated) ==
        FilterReason::kUnrated);
  CHECK_FALSE(parse_game_filter("elo=1700-;elo_mode=player").ok());  // whose rating?
  CHECK(format_game_filter(*parse_game_filter("player=a;elo=1-2;elo_mode=player")) ==
        "player=a;elo=1-2;elo_mode=player");
}

TEST_CASE("game filter: perspective flips only when the player has Black") {
  GameTags tags = lichess_tags();
  auto filter_for = [](const std::string& text) { return GameFilter(*parse_game_filter(text)); };
  CHECK(filter_for("player=al_fatih;pov=1").perspective(tags) == -1);
  CHECK(filter_for("player=xtzdavi182;pov=1").perspective(tags) == +1);
  CHECK(filter_for("player=al_fatih").perspective(tags) == +1);  // no point of view asked
  CHECK(filter_for("").perspective(tags) == +1);
}

TEST_CASE("game filter: ratings") {
  GameTags tags = lichess_tags();                             // 1703 vs 1698
  CHECK(check("elo=1700-1800", tags) == FilterReason::kElo);  // Black is 1698
  // The mean 1700.5 rounds half up to 1701: in 1701-1800, not in 1600-1700.
  CHECK(check("elo=1702-1800;elo_mode=average", tags) == FilterReason::kElo);
  CHECK(check("elo=1701-1800;elo_mode=average", tags) == FilterReason::kKept);
  CHECK(check("elo=1700-1800;elo_mode=average", tags) == FilterReason::kKept);
  CHECK(check("elo=1600-1700;elo_mode=average", tags) == FilterReason::kElo);
  CHECK(check("elo=1690-1710;elo_mode=average", tags) == FilterReason::kKept);
  CHECK(check("elo=1698-", tags) == FilterReason::kKept);
  CHECK(check("elo=-1702", tags) == FilterReason::kElo);
  CHECK(check("max_diff=5", tags) == FilterReason::kKept);
  CHECK(check("max_diff=4", tags) == FilterReason::kRatingDifference);

  GameTags unrated = tags;
  unrated.record("BlackElo", "?");
  CHECK(check("elo=1700-1800", unrated) == FilterReason::kKept);
  CHECK(check("elo=1700-1800;unrated=drop", unrated) == FilterReason::kUnrated);
  CHECK(check("max_diff=0;unrated=drop", unrated) == FilterReason::kUnrated);
  CHECK(check("unrated=drop", unrated) == FilterReason::kKept);  // no rating filter: no effect
}

TEST_CASE("parse_elo: a positive number is a rating; '?', '-', '', '0' and the rest are unknown") {
  CHECK(parse_elo("2450") == 2450);
  CHECK(parse_elo(" 1500 ") == 1500);
  CHECK(parse_elo("+1500") == 1500);
  CHECK(parse_elo("1") == 1);
  for (const char* unknown : {"?", "-", "", "0", "-5", "1500?", "abc", "99999999999"}) {
    CAPTURE(unknown);
    CHECK_FALSE(parse_elo(unknown).has_value());
  }
  // The filter reads "0" as unrated, like "?".
  GameTags zero = lichess_tags();
  zero.record("BlackElo", "0");
  CHECK(check("elo=1700-1800", zero) == FilterReason::kKept);
  CHECK(check("elo=1700-1800;unrated=drop", zero) == FilterReason::kUnrated);
}

TEST_CASE("game filter: time control, date, event, site, termination, plies") {
  GameTags tags = lichess_tags();  // 180+2 blitz, 2021.10.01
  CHECK(check("tc=blitz,rapid", tags) == FilterReason::kKept);
  CHECK(check("tc=bullet", tags) == FilterReason::kTimeControl);
  CHECK(check("base=180-300", tags) == FilterReason::kKept);
  CHECK(check("inc=0", tags) == FilterReason::kTimeControl);
  GameTags no_clock = tags;
  no_clock.record("TimeControl", "-");
  CHECK(check("base=0-", no_clock) == FilterReason::kTimeControl);
  CHECK(check("tc=correspondence", no_clock) == FilterReason::kKept);

  CHECK(check("date=2021.10.01-2021.10.01", tags) == FilterReason::kKept);
  CHECK(check("date=2021.10.02-", tags) == FilterReason::kDate);
  CHECK(check("date=-2021.09.30", tags) == FilterReason::kDate);
  CHECK(check("date=2021-2021", tags) == FilterReason::kKept);
  GameTags partial = tags;
  partial.record("Date", "2021.??.??");
  CHECK(check("date=2021.06.01-2021.12.31", partial) == FilterReason::kKept);  // overlaps
  CHECK(check("date=2022-", partial) == FilterReason::kDate);
  GameTags undated = tags;
  undated.record("Date", "????.??.??");
  undated.record("UTCDate", "2021.10.01");
  CHECK(check("date=2021-", undated) == FilterReason::kKept);  // UTCDate stands in for Date
  undated.utc_date.clear();
  CHECK(check("date=2021-", undated) == FilterReason::kDate);
  CHECK(check("", undated) == FilterReason::kKept);

  CHECK(check("event=blitz", tags) == FilterReason::kKept);
  CHECK(check("event=bullet", tags) == FilterReason::kEvent);
  CHECK(check("site=lichess.org", tags) == FilterReason::kKept);
  CHECK(check("site=chess.com", tags) == FilterReason::kSite);
  CHECK(check("exclude_termination=Time forfeit,Abandoned", tags) == FilterReason::kKept);
  GameTags forfeit = tags;
  forfeit.record("Termination", "time forfeit");
  CHECK(check("exclude_termination=Time forfeit,Abandoned", forfeit) == FilterReason::kTermination);

  CHECK(check("min_plies=20", tags) == FilterReason::kKept);  // no PlyCount: decided after replay
  GameTags counted = tags;
  counted.record("PlyCount", "19");
  CHECK(check("min_plies=20", counted) == FilterReason::kMinPlies);
  GameFilter plies(*parse_game_filter("min_plies=20"));
  CHECK(plies.check_plies(19) == FilterReason::kMinPlies);
  CHECK(plies.check_plies(20) == FilterReason::kKept);
}

TEST_CASE("game filter: variants and set-up positions") {
  GameTags tags = lichess_tags();
  GameTags chess960 = tags;
  chess960.record("Variant", "Chess960");
  chess960.record("SetUp", "1");
  chess960.record("FEN", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
  CHECK(check("", chess960) == FilterReason::kKept);
  CHECK(check("setup=drop", chess960) == FilterReason::kKept);
  CHECK(check("chess960=drop", chess960) == FilterReason::kChess960);

  GameTags from_fen = tags;
  from_fen.record("SetUp", "1");
  from_fen.record("FEN", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  CHECK(check("chess960=drop", from_fen) == FilterReason::kKept);
  CHECK(check("setup=drop", from_fen) == FilterReason::kSetUp);

  GameTags crazyhouse = tags;
  crazyhouse.record("Variant", "Crazyhouse");
  CHECK(check("", crazyhouse) == FilterReason::kVariant);
  GameTags standard = tags;
  standard.record("Variant", "Standard");
  CHECK(check("setup=drop;chess960=drop", standard) == FilterReason::kKept);
}

TEST_CASE("game filter: the first failing check names the reason; tallies merge") {
  GameTags tags = lichess_tags();
  // Both the player and the time control fail: player comes first.
  CHECK(check("player=nobody;tc=bullet", tags) == FilterReason::kPlayer);
  CHECK(check("tc=bullet;event=nothing", tags) == FilterReason::kTimeControl);

  FilterTally a, b;
  a.add(FilterReason::kKept);
  a.add(FilterReason::kPlayer);
  b.add(FilterReason::kPlayer);
  b.add(FilterReason::kDate);
  a.merge(b);
  CHECK(a.kept() == 1);
  CHECK(a.removed() == 3);
  CHECK(a.count(FilterReason::kPlayer) == 2);
  CHECK(std::string(filter_reason_name(FilterReason::kRatingDifference)) == "rating-difference");
}

TEST_CASE("game filter text: parse, format and round trip") {
  const std::string canonical =
      "player=Carlsen%2C Magnus;side=black;pov=1;opponent=Anand*;elo=2000-2500;"
      "elo_mode=average;max_diff=300;unrated=drop;tc=blitz,rapid;base=60-;inc=-5;"
      "date=2015.01.01-2020.12.31;event=World %3D Cup;site=lichess;"
      "exclude_termination=Time forfeit,Abandoned,Rules infraction;min_plies=20;"
      "chess960=drop;setup=drop";
  auto parsed = parse_game_filter(canonical);
  REQUIRE(parsed.ok());
  if (!parsed.ok()) return;
  const GameFilterOptions& o = *parsed;
  CHECK(o.player == "Carlsen, Magnus");
  CHECK(o.player_side == PlayerSide::kBlack);
  CHECK(o.player_perspective);
  CHECK(o.opponent == "Anand*");
  CHECK(o.elo.min == 2000);
  CHECK(o.elo.max == 2500);
  CHECK(o.elo_mode == EloMode::kAverage);
  CHECK(o.max_rating_difference == 300);
  CHECK_FALSE(o.keep_unrated);
  CHECK(o.speeds == ((1u << static_cast<int>(SpeedClass::kBlitz)) |
                     (1u << static_cast<int>(SpeedClass::kRapid))));
  CHECK(o.base_seconds.min == 60);
  CHECK_FALSE(o.base_seconds.max.has_value());
  CHECK(o.increment_seconds.max == 5);
  CHECK(o.date_from == PgnDate{2015, 1, 1});
  CHECK(o.date_to == PgnDate{2020, 12, 31});
  CHECK(o.event_contains == "World = Cup");
  CHECK(o.excluded_terminations.size() == 3);
  CHECK(o.excluded_terminations[2] == "Rules infraction");
  CHECK(o.min_plies == 20);
  CHECK_FALSE(o.keep_chess960);
  CHECK_FALSE(o.keep_set_up);

  CHECK(format_game_filter(o) == canonical);
  auto again = parse_game_filter(format_game_filter(o));
  REQUIRE(again.ok());
  if (!again.ok()) return;
  CHECK(*again == o);

  CHECK(format_game_filter(GameFilterOptions{}).empty());
  CHECK(GameFilter(*parse_game_filter("")).keeps_everything());
}

TEST_CASE("game filter text: partial dates widen, empty items are skipped, errors name the key") {
  auto years = parse_game_filter(" date = 2015-2020 ; ;");
  REQUIRE(years.ok());
  if (!years.ok()) return;
  CHECK(years->date_from == PgnDate{2015, 1, 1});
  CHECK(years->date_to == PgnDate{2020, 12, 31});
  CHECK(format_game_filter(*years) == "date=2015.01.01-2020.12.31");

  auto none = parse_game_filter("tc=");
  REQUIRE(none.ok());
  if (!none.ok()) return;
  CHECK(none->speeds == 0);
  CHECK(format_game_filter(*none) == "tc=");
  CHECK(parse_game_filter(format_game_filter(*none))->speeds == 0);

  for (const char* bad :
       {"colour=white", "player", "side=left", "elo=2500-2000", "elo=abc", "tc=blitz,lightning",
        "date=2020.13.01-", "date=2015-01-01-2016", "min_plies=-3", "pov=yes", "player=a%2",
        "player=x;player=y", "unrated=maybe", "date=-"}) {
    CAPTURE(bad);
    auto result = parse_game_filter(bad);
    CHECK_FALSE(result.ok());
    if (!result.ok()) CHECK(result.error().code == materialist::ErrorCode::kSyntax);
  }
}

TEST_CASE("game filter: a dataset's filter replaces the base filter's keys and keeps the rest") {
  CHECK(combine_game_filters("tc=blitz,rapid;elo=1500-", "tc=blitz") == "elo=1500-;tc=blitz");
  CHECK(combine_game_filters("", "tc=bullet") == "tc=bullet");
  CHECK(combine_game_filters("player=Carlsen*; pov=1", "") == "player=Carlsen*;pov=1");
  const auto combined =
      parse_game_filter(combine_game_filters("tc=blitz,rapid;elo=1500-", "tc=rapid"));
  REQUIRE(combined.ok());
  CHECK(combined->elo.min == 1500);
}
