// Game filters decided on the tag section, before any move is replayed.
//
//   auto options = parse_game_filter("player=Carlsen;side=either;pov=1;tc=blitz,rapid");
//   GameFilter filter(*options);
//   GameTags tags;                       // the ingest: tags.clear() at begin_game,
//   tags.record(name, value);            //   record() on every tag(),
//   FilterReason why = filter.check_tags(tags);   // then decide at begin_moves
//   if (why != FilterReason::kKept) { tally.add(why); return pgn::Action::kSkipGame; }
//   int sign = filter.perspective(tags);  // -1: negate deltas and swap win/loss for this game
//   ...replay...; why = filter.check_plies(plies_replayed);  // min_plies without PlyCount
//
// Checks run in a fixed order and the first failing one names the reason (one reason per game):
// variant, Chess960, set-up position, player, opponent, missing rating, Elo, rating difference,
// time control, date, event, site, termination, minimum plies (from PlyCount when present).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "learn/vocabulary/time_control.h"

namespace materialist::learn {

// The tags a filter reads, kept while the parser reports the tag section (other tags ignored).
struct GameTags {
  std::string white, black, white_elo, black_elo, time_control, date, utc_date, event, site,
      termination, variant, set_up, fen, ply_count;

  // Empties every value but keeps its buffer: a game's Site or Event would be allocated again.
  void clear();
  void record(std::string_view name, std::string_view value);
};

// Every value of GameTags, once (clear() and the tests walk it).
inline constexpr std::array<std::string GameTags::*, 14> kGameTagValues = {
    &GameTags::white,        &GameTags::black,       &GameTags::white_elo, &GameTags::black_elo,
    &GameTags::time_control, &GameTags::date,        &GameTags::utc_date,  &GameTags::event,
    &GameTags::site,         &GameTags::termination, &GameTags::variant,   &GameTags::set_up,
    &GameTags::fen,          &GameTags::ply_count};
static_assert(sizeof(GameTags) == kGameTagValues.size() * sizeof(std::string),
              "kGameTagValues lists every value of GameTags");

inline void GameTags::clear() {
  for (std::string GameTags::*value : kGameTagValues) (this->*value).clear();
}

// A rating tag (WhiteElo, BlackElo): a positive whole number (spaces around it and a leading
// '+' allowed). "?" (lichess's unknown), "-", "" and anything else mean unknown, and so do "0" and
// negative numbers: no one is rated 0, a 0 is what some tools write for "unrated". The filter's
// rating checks and the rating-difference feature both read ratings through this.
std::optional<int> parse_elo(std::string_view tag);

enum class FilterReason : std::uint8_t {
  kKept,
  kVariant,   // a variant other than standard chess or Chess960: not replayable as chess
  kChess960,  // Chess960 while the filter keeps standard chess only
  kSetUp,     // starts from a FEN position (SetUp "1", FEN tag, Variant "From Position")
  kPlayer,
  kOpponent,
  kUnrated,  // a rating filter is set and a needed rating is missing, and unrated games drop
  kElo,
  kRatingDifference,
  kTimeControl,
  kDate,
  kEvent,
  kSite,
  kTermination,
  kMinPlies,
};
inline constexpr int kFilterReasonCount = 15;

// Names a reason for reports and JSON: "kept", "variant", "chess960", "set-up", "player", ...
const char* filter_reason_name(FilterReason reason);

// Games seen per reason (kKept counts the games that passed). Merges by addition.
struct FilterTally {
  std::array<std::uint64_t, kFilterReasonCount> counts{};

  void add(FilterReason reason) { ++counts[static_cast<std::size_t>(reason)]; }
  void merge(const FilterTally& other);
  std::uint64_t count(FilterReason reason) const {
    return counts[static_cast<std::size_t>(reason)];
  }
  std::uint64_t kept() const { return count(FilterReason::kKept); }
  std::uint64_t removed() const;
  bool operator==(const FilterTally&) const = default;
};

// A PGN date; 0 marks an unknown ("??") part, year 0 an undated game.
struct PgnDate {
  int year = 0, month = 0, day = 0;
  bool operator==(const PgnDate&) const = default;
};
// Reads "2021.10.01", "2021.??.??", "2021.10", "2021" (also '-' or '/' separators).
std::optional<PgnDate> parse_pgn_date(std::string_view text);
std::string format_pgn_date(PgnDate date);  // "2021.10.01", unknown parts as "??"

enum class PlayerSide : std::uint8_t { kEither, kWhite, kBlack };
// Which rating the elo range reads: both ratings in range; their mean rounded half up (a whole
// number, so "elo=1400-1599" and "elo=1600-1799" bands share no game and lose none); or the
// rating of the player `player` names (elo_mode=player needs a player).
enum class EloMode : std::uint8_t { kBoth, kAverage, kPlayer };

struct IntRange {
  std::optional<int> min, max;  // inclusive; empty = open
  bool active() const { return min.has_value() || max.has_value(); }
  bool contains(long long value) const {
    return (!min || value >= *min) && (!max || value <= *max);
  }
  bool operator==(const IntRange&) const = default;
};

inline constexpr std::uint8_t kAllSpeeds = (1u << kSpeedClassCount) - 1;

struct GameFilterOptions {
  // Player: case-insensitive exact match; a trailing '*' matches a prefix ("Carlsen*" matches
  // "Carlsen, Magnus" and "Carlsen,M"). Empty: any player.
  std::string player;
  PlayerSide player_side = PlayerSide::kEither;
  bool player_perspective = false;  // values from the player's point of view (perspective())
  std::string opponent;             // same matching; the other side of `player` if one is set

  IntRange elo;
  EloMode elo_mode = EloMode::kBoth;
  std::optional<int> max_rating_difference;
  bool keep_unrated = true;  // a missing rating passes the rating checks instead of dropping

  std::uint8_t speeds = kAllSpeeds;          // bit (1 << SpeedClass) set: kept
  IntRange base_seconds, increment_seconds;  // raw first-stage ranges; a game without clock fails

  std::optional<PgnDate> date_from, date_to;       // stored with unknown parts filled (01 / 12.31)
  std::string event_contains, site_contains;       // case-insensitive substrings
  std::vector<std::string> excluded_terminations;  // case-insensitive exact ("Time forfeit")
  int min_plies = 0;
  bool keep_chess960 = true;
  bool keep_set_up = true;

  bool operator==(const GameFilterOptions&) const = default;
};

class GameFilter {
 public:
  GameFilter() = default;
  explicit GameFilter(GameFilterOptions options) : options_(std::move(options)) {}

  const GameFilterOptions& options() const { return options_; }
  // True when no option removes anything (the ingest can skip collecting tags).
  bool keeps_everything() const { return options_ == GameFilterOptions{}; }

  // Decides on the tag section alone; PlyCount, when present, settles min_plies here.
  FilterReason check_tags(const GameTags& tags) const;
  // Decides min_plies on the plies actually replayed (call at end_game; PlyCount may be absent
  // or wrong).
  FilterReason check_plies(int plies) const;
  // +1, or -1 when player_perspective is on and the player has Black in this game (the ingest
  // then negates every delta, the rating difference and side to move, and swaps win and loss).
  int perspective(const GameTags& tags) const;

 private:
  GameFilterOptions options_;
};

// The compact text form used by CLI flags and share links, e.g.
//   player=Carlsen;side=either;pov=1;elo=2000-2500;tc=blitz,rapid;date=2015.01.01-2020.12.31
// Keys: player side(white|black|either) pov(0|1) opponent elo(lo-hi, either end open)
// elo_mode(both|average|player) max_diff unrated(keep|drop) tc(class list) base inc (seconds,
// lo-hi) date(from-to) event site exclude_termination(list) min_plies chess960(keep|drop)
// setup(keep|drop). Values escape '%', ';', ',', '=' as %XX. Empty text: keep everything.
Expected<GameFilterOptions> parse_game_filter(std::string_view text);
// True when values are seen from the player's point of view: pov on and a player named (the
// coefficients are then labelled for the player: coefficient_label's player_view).
bool player_view(const GameFilterOptions& options);
// The same for a filter's text form; false when the text does not parse.
bool player_view(std::string_view filter_text);
// Writes the non-default options in the key order above; parse_game_filter reads it back equal.
std::string format_game_filter(const GameFilterOptions& options);

// A base filter with another layered on top: a key the second sets replaces the base's
// ("tc=blitz,rapid;elo=1500-" and "tc=blitz" give "tc=blitz;elo=1500-"), other keys add up.
// Works on the text form, whose values escape ';' and '='.
std::string combine_game_filters(std::string_view base, std::string_view overriding);

}  // namespace materialist::learn
