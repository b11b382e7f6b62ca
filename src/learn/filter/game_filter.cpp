// The filter's decisions: the tags it keeps, the checks in their fixed order, the perspective,
// the reasons' names and tallies, PGN dates. Its compact text form is game_filter_text.cpp.
#include "learn/filter/game_filter.h"

#include <cstdio>

#include "core/enum_names.h"
#include "core/text.h"
#include "learn/filter/game_filter_values.h"

namespace materialist::learn {

using namespace detail;  // filter_int, date_key, earliest, latest: game_filter_values.h

namespace {

constexpr std::array kReasonNames = {
    "kept",    "variant",     "chess960",          "set-up",       "player", "opponent",
    "unrated", "elo",         "rating-difference", "time-control", "date",   "event",
    "site",    "termination", "min-plies"};
static_assert(kReasonNames.size() == kFilterReasonCount);
static_assert(kFilterReasonCount == static_cast<int>(FilterReason::kMinPlies) + 1);

// Exact, case-insensitive; a trailing '*' in the pattern matches any suffix.
bool name_matches(std::string_view pattern, std::string_view name) {
  if (!pattern.empty() && pattern.back() == '*') {
    pattern.remove_suffix(1);
    return name.size() >= pattern.size() &&
           equals_ignoring_case(name.substr(0, pattern.size()), pattern);
  }
  return equals_ignoring_case(pattern, name);
}

// The mean of two ratings rounded half up, (sum + 1) / 2, compared through their sum.
bool average_in(const IntRange& range, long long sum) {
  return (!range.min || sum >= 2LL * *range.min - 1) && (!range.max || sum <= 2LL * *range.max);
}

bool is_chess960(std::string_view variant) {
  return equals_ignoring_case(variant, "chess960") || equals_ignoring_case(variant, "chess 960") ||
         equals_ignoring_case(variant, "fischerandom") || equals_ignoring_case(variant, "960");
}
bool is_from_position(std::string_view variant) {
  return equals_ignoring_case(variant, "from position");
}
bool is_standard(std::string_view variant) {
  return variant.empty() || equals_ignoring_case(variant, "standard") ||
         equals_ignoring_case(variant, "chess");
}

}  // namespace

// ---- tags ------------------------------------------------------------------------------------

// By the name's length first: most tags of a lichess game (Round, ECO, Opening, UTCTime, the
// rating diffs) are not kept, and no length has more than four candidates.
void GameTags::record(std::string_view name, std::string_view value) {
  std::string* slot = nullptr;
  switch (name.size()) {
    case 3:
      if (name == "FEN") slot = &fen;
      break;
    case 4:
      if (name == "Date")
        slot = &date;
      else if (name == "Site")
        slot = &site;
      break;
    case 5:
      if (name == "White")
        slot = &white;
      else if (name == "Black")
        slot = &black;
      else if (name == "Event")
        slot = &event;
      else if (name == "SetUp")
        slot = &set_up;
      break;
    case 7:
      if (name == "UTCDate")
        slot = &utc_date;
      else if (name == "Variant")
        slot = &variant;
      break;
    case 8:
      if (name == "WhiteElo")
        slot = &white_elo;
      else if (name == "BlackElo")
        slot = &black_elo;
      else if (name == "PlyCount")
        slot = &ply_count;
      break;
    case 11:
      if (name == "TimeControl")
        slot = &time_control;
      else if (name == "Termination")
        slot = &termination;
      break;
    default:
      break;
  }
  if (slot) slot->assign(value);
}

std::optional<int> parse_elo(std::string_view tag) {
  const std::optional<int> elo = filter_int(tag);
  if (!elo || *elo <= 0) return std::nullopt;
  return elo;
}

const char* filter_reason_name(FilterReason reason) {
  return name_of(kReasonNames, reason);
}

void FilterTally::merge(const FilterTally& other) {
  for (std::size_t i = 0; i < counts.size(); ++i) counts[i] += other.counts[i];
}

std::uint64_t FilterTally::removed() const {
  std::uint64_t total = 0;
  for (std::size_t i = 1; i < counts.size(); ++i) total += counts[i];
  return total;
}

// ---- dates -----------------------------------------------------------------------------------

std::optional<PgnDate> parse_pgn_date(std::string_view text) {
  text = trim(text);
  PgnDate date;
  int* parts[3] = {&date.year, &date.month, &date.day};
  constexpr int kMaxima[3] = {9999, 12, 31};
  int part = 0;
  while (true) {
    std::size_t end = text.find_first_of(".-/");
    std::string_view piece = text.substr(0, end);
    if (piece.empty() || part >= 3) return std::nullopt;
    if (piece.find_first_not_of('?') == std::string_view::npos) {
      *parts[part] = 0;
    } else {
      auto value = filter_int(piece);
      if (!value || *value < 1 || *value > kMaxima[part] || piece.front() == '+') {
        return std::nullopt;
      }
      *parts[part] = *value;
    }
    ++part;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  // An unknown part cannot be followed by a known one ("????.10.01" says nothing usable).
  if ((date.year == 0 && (date.month || date.day)) || (date.month == 0 && date.day)) {
    return std::nullopt;
  }
  return date;
}

std::string format_pgn_date(PgnDate date) {
  std::string out;
  auto put = [&out](int value, int width) {
    if (value == 0) {
      out.append(static_cast<std::size_t>(width), '?');
      return;
    }
    char digits[8];
    std::snprintf(digits, sizeof digits, "%0*d", width, value);
    out += digits;
  };
  put(date.year, 4);
  out += '.';
  put(date.month, 2);
  out += '.';
  put(date.day, 2);
  return out;
}

// ---- the filter ------------------------------------------------------------------------------

namespace {

constexpr FilterReason kKept = FilterReason::kKept;

// The variant: standard, from a position or Chess960, each as the options keep them.
FilterReason check_variant(const GameFilterOptions& o, const GameTags& tags) {
  const bool chess960 = is_chess960(tags.variant);
  const bool from_position = is_from_position(tags.variant);
  if (!chess960 && !from_position && !is_standard(tags.variant)) return FilterReason::kVariant;
  if (chess960 && !o.keep_chess960) return FilterReason::kChess960;
  const bool set_up = from_position || tags.set_up == "1" || !tags.fen.empty();
  // A Chess960 game always starts from a FEN: only its variant decides it.
  if (set_up && !chess960 && !o.keep_set_up) return FilterReason::kSetUp;
  return kKept;
}

// The player (on the sides allowed) and the opponent; `player_white`/`player_black` say where
// the player was found.
FilterReason check_players(const GameFilterOptions& o, const GameTags& tags, bool& player_white,
                           bool& player_black) {
  player_white = player_black = false;
  if (!o.player.empty()) {
    const bool can_white = o.player_side != PlayerSide::kBlack;
    const bool can_black = o.player_side != PlayerSide::kWhite;
    player_white = can_white && name_matches(o.player, tags.white);
    player_black = can_black && name_matches(o.player, tags.black);
    if (!player_white && !player_black) return FilterReason::kPlayer;
  }
  if (o.opponent.empty()) return kKept;
  const bool matches =
      o.player.empty()
          ? name_matches(o.opponent, tags.white) || name_matches(o.opponent, tags.black)
          : (player_white && name_matches(o.opponent, tags.black)) ||
                (player_black && name_matches(o.opponent, tags.white));
  return matches ? kKept : FilterReason::kOpponent;
}

// The ratings: the player's own, or both sides' (each, or their average), and their difference.
FilterReason check_ratings(const GameFilterOptions& o, const GameTags& tags, bool player_white,
                           bool player_black) {
  const bool player_rating = o.elo.active() && o.elo_mode == EloMode::kPlayer;
  if (player_rating) {
    // The side the player has (White when the name matches both).
    const auto own = parse_elo(player_white || !player_black ? tags.white_elo : tags.black_elo);
    if (!own) {
      if (!o.keep_unrated) return FilterReason::kUnrated;
    } else if (!o.elo.contains(*own)) {
      return FilterReason::kElo;
    }
  }
  if (!((o.elo.active() && !player_rating) || o.max_rating_difference)) return kKept;
  const auto white_elo = parse_elo(tags.white_elo);
  const auto black_elo = parse_elo(tags.black_elo);
  if (!white_elo || !black_elo) return o.keep_unrated ? kKept : FilterReason::kUnrated;
  if (o.elo.active() && !player_rating) {
    const bool in_range = o.elo_mode == EloMode::kAverage
                              ? average_in(o.elo, *white_elo + *black_elo)
                              : o.elo.contains(*white_elo) && o.elo.contains(*black_elo);
    if (!in_range) return FilterReason::kElo;
  }
  if (o.max_rating_difference) {
    int difference = *white_elo - *black_elo;
    if (difference < 0) difference = -difference;
    if (difference > *o.max_rating_difference) return FilterReason::kRatingDifference;
  }
  return kKept;
}

// The speed, base time and increment of the TimeControl tag.
FilterReason check_time_control(const GameFilterOptions& o, const GameTags& tags) {
  if (o.speeds == kAllSpeeds && !o.base_seconds.active() && !o.increment_seconds.active()) {
    return kKept;
  }
  const TimeControl tc = parse_time_control(tags.time_control);
  if (!(o.speeds & (1u << static_cast<unsigned>(tc.speed)))) return FilterReason::kTimeControl;
  if (o.base_seconds.active() &&
      (tc.base_seconds < 0 || !o.base_seconds.contains(tc.base_seconds))) {
    return FilterReason::kTimeControl;
  }
  if (o.increment_seconds.active() &&
      (tc.increment_seconds < 0 || !o.increment_seconds.contains(tc.increment_seconds))) {
    return FilterReason::kTimeControl;
  }
  return kKept;
}

// The date (Date, else UTCDate); a partial date is kept when its possible days overlap.
FilterReason check_date(const GameFilterOptions& o, const GameTags& tags) {
  if (!o.date_from && !o.date_to) return kKept;
  auto date = parse_pgn_date(tags.date);
  if (!date || date->year == 0) date = parse_pgn_date(tags.utc_date);
  if (!date || date->year == 0) return FilterReason::kDate;
  if (o.date_from && date_key(latest(*date)) < date_key(*o.date_from)) return FilterReason::kDate;
  if (o.date_to && date_key(earliest(*date)) > date_key(*o.date_to)) return FilterReason::kDate;
  return kKept;
}

// Event, Site and Termination text, and the PlyCount tag.
FilterReason check_text_tags(const GameFilterOptions& o, const GameTags& tags) {
  if (!o.event_contains.empty() && !contains_ignoring_case(tags.event, o.event_contains)) {
    return FilterReason::kEvent;
  }
  if (!o.site_contains.empty() && !contains_ignoring_case(tags.site, o.site_contains)) {
    return FilterReason::kSite;
  }
  for (const std::string& excluded : o.excluded_terminations) {
    if (equals_ignoring_case(trim(tags.termination), excluded)) return FilterReason::kTermination;
  }
  if (o.min_plies > 0) {
    if (auto plies = filter_int(tags.ply_count); plies && *plies >= 0 && *plies < o.min_plies) {
      return FilterReason::kMinPlies;
    }
  }
  return kKept;
}

}  // namespace

FilterReason GameFilter::check_tags(const GameTags& tags) const {
  const GameFilterOptions& o = options_;
  // In order, each only when the ones before kept the game: the first reason is reported.
  bool player_white = false, player_black = false;
  FilterReason reason = check_variant(o, tags);
  if (reason == kKept) reason = check_players(o, tags, player_white, player_black);
  if (reason == kKept) reason = check_ratings(o, tags, player_white, player_black);
  if (reason == kKept) reason = check_time_control(o, tags);
  if (reason == kKept) reason = check_date(o, tags);
  if (reason == kKept) reason = check_text_tags(o, tags);
  return reason;
}

FilterReason GameFilter::check_plies(int plies) const {
  return plies < options_.min_plies ? FilterReason::kMinPlies : FilterReason::kKept;
}

bool player_view(const GameFilterOptions& options) {
  return options.player_perspective && !options.player.empty();
}

int GameFilter::perspective(const GameTags& tags) const {
  const GameFilterOptions& o = options_;
  if (!player_view(o)) return +1;
  bool white = o.player_side != PlayerSide::kBlack && name_matches(o.player, tags.white);
  bool black = o.player_side != PlayerSide::kWhite && name_matches(o.player, tags.black);
  return (black && !white) ? -1 : +1;
}

}  // namespace materialist::learn
