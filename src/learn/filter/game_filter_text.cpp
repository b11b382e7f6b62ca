// The compact text form of a game filter (CLI flags, share links): parse_game_filter,
// format_game_filter and combine_game_filters. The filter's decisions are game_filter.cpp.
#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/text.h"
#include "learn/filter/game_filter.h"
#include "learn/filter/game_filter_values.h"
#include "learn/vocabulary/time_control.h"

namespace materialist::learn {

using namespace detail;  // filter_int, date_key, earliest, latest: game_filter_values.h

namespace {

constexpr const char* kHexDigits = "0123456789ABCDEF";

bool needs_escape(char c) {
  return c == '%' || c == ';' || c == ',' || c == '=' || static_cast<unsigned char>(c) < 0x20;
}

std::string escape_value(std::string_view value) {
  std::string out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    // A blank at either end too: parse_game_filter trims values, "%20" keeps it.
    const bool end_blank = c == ' ' && (i == 0 || i + 1 == value.size());
    if (needs_escape(c) || end_blank) {
      auto byte = static_cast<unsigned char>(c);
      out += '%';
      out += kHexDigits[byte >> 4];
      out += kHexDigits[byte & 15];
    } else {
      out += c;
    }
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = ascii_lower(c);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

Expected<std::string> unescape_value(std::string_view value) {
  std::string out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] != '%') {
      out += value[i];
      continue;
    }
    int high = i + 2 < value.size() ? hex_value(value[i + 1]) : -1;
    int low = i + 2 < value.size() ? hex_value(value[i + 2]) : -1;
    if (high < 0 || low < 0) {
      return make_error(ErrorCode::kSyntax, "bad %-escape in filter value: " + std::string(value));
    }
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  while (true) {
    std::size_t at = text.find(separator);
    pieces.push_back(trim(text.substr(0, at)));
    if (at == std::string_view::npos) return pieces;
    text.remove_prefix(at + 1);
  }
}

Error bad_value(std::string_view key, std::string_view value) {
  return make_error(ErrorCode::kSyntax, "bad value for filter key '" + std::string(key) + "': '" +
                                            std::string(value) + "'");
}

// "lo-hi", "lo-", "-hi" or a single "n" (lo = hi = n); values are non-negative.
std::optional<IntRange> parse_range(std::string_view text) {
  IntRange range;
  std::size_t dash = text.find('-');
  if (dash == std::string_view::npos) {
    auto value = filter_int(text);
    if (!value) return std::nullopt;
    range.min = range.max = value;
    return range;
  }
  std::string_view low = trim(text.substr(0, dash)), high = trim(text.substr(dash + 1));
  if (!low.empty() && !(range.min = filter_int(low))) return std::nullopt;
  if (!high.empty() && !(range.max = filter_int(high))) return std::nullopt;
  if (!range.active() || (range.min && range.max && *range.min > *range.max)) return std::nullopt;
  return range;
}

std::string format_range(const IntRange& range) {
  if (range.min && range.max && *range.min == *range.max) return std::to_string(*range.min);
  std::string out;
  if (range.min) out += std::to_string(*range.min);
  out += '-';
  if (range.max) out += std::to_string(*range.max);
  return out;
}

bool parse_keep_drop(std::string_view value, bool& keep) {
  if (value == "keep")
    keep = true;
  else if (value == "drop")
    keep = false;
  else
    return false;
  return true;
}

using KeyHandler = bool (*)(GameFilterOptions&, std::string_view raw, const std::string& value);

bool set_date_range(GameFilterOptions& o, std::string_view raw) {
  std::size_t dash = raw.find('-');
  if (dash == std::string_view::npos || raw.find('-', dash + 1) != std::string_view::npos) {
    return false;  // bounds are written with '.', so exactly one '-' separates them
  }
  std::string_view from = trim(raw.substr(0, dash)), to = trim(raw.substr(dash + 1));
  if (!from.empty()) {
    auto date = parse_pgn_date(from);
    if (!date || date->year == 0) return false;
    o.date_from = earliest(*date);
  }
  if (!to.empty()) {
    auto date = parse_pgn_date(to);
    if (!date || date->year == 0) return false;
    o.date_to = latest(*date);
  }
  if (o.date_from && o.date_to && date_key(*o.date_from) > date_key(*o.date_to)) return false;
  return o.date_from || o.date_to;
}

struct KeySpec {
  const char* name;
  KeyHandler handle;
};

constexpr KeySpec kKeys[] = {
    {"player",
     [](GameFilterOptions& o, std::string_view, const std::string& v) {
       o.player = v;
       return !v.empty();
     }},
    {"side",
     [](GameFilterOptions& o, std::string_view, const std::string& v) {
       if (v == "either")
         o.player_side = PlayerSide::kEither;
       else if (v == "white")
         o.player_side = PlayerSide::kWhite;
       else if (v == "black")
         o.player_side = PlayerSide::kBlack;
       else
         return false;
       return true;
     }},
    {"pov",
     [](GameFilterOptions& o, std::string_view, const std::string& v) {
       o.player_perspective = v == "1";
       return v == "0" || v == "1";
     }},
    {"opponent",
     [](GameFilterOptions& o, std::string_view, const std::string& v) {
       o.opponent = v;
       return !v.empty();
     }},
    {"elo",
     [](GameFilterOptions& o, std::string_view, const std::string& v) {
       auto range = parse_range(v);
       if (range) o.elo = *range;
       return range.has_value();
     }},
    {"elo_mode",
     [](GameFilterOptions& o, std::string_view, const std::string& v) {
       if (v == "both")
         o.elo_mode = EloMode::kBoth;
       else if (v == "average")
         o.elo_mode = EloMode::kAverage;
       else if (v == "player")
         o.elo_mode = EloMode::kPlayer;
       else
         return false;
       return true;
     }},
    {"max_diff",
     [](GameFilterOptions& o, std::string_view, const std::string& v) {
       o.max_rating_difference = filter_int(v);
       return o.max_rating_difference && *o.max_rating_difference >= 0;
     }},
    {"unrated", [](GameFilterOptions& o, std::string_view,
                   const std::string& v) { return parse_keep_drop(v, o.keep_unrated); }},
    {"tc",
     [](GameFilterOptions& o, std::string_view raw, const std::string&) {
       o.speeds = 0;
       if (trim(raw).empty()) return true;  // an empty list keeps no speed at all
       for (std::string_view name : split(raw, ',')) {
         auto speed = parse_speed_class(name);
         if (!speed) return false;
         o.speeds |= static_cast<std::uint8_t>(1u << static_cast<unsigned>(*speed));
       }
       return true;
     }},
    {"base",
     [](GameFilterOptions& o, std::string_view, const std::string& v) {
       auto range = parse_range(v);
       if (range) o.base_seconds = *range;
       return range.has_value();
     }},
    {"inc",
     [](GameFilterOptions& o, std::string_view, const std::string& v) {
       auto range = parse_range(v);
       if (range) o.increment_seconds = *range;
       return range.has_value();
     }},
    {"date", [](GameFilterOptions& o, std::string_view raw,
                const std::string&) { return set_date_range(o, raw); }},
    {"event",
     [](GameFilterOptions& o, std::string_view, const std::string& v) {
       o.event_contains = v;
       return !v.empty();
     }},
    {"site",
     [](GameFilterOptions& o, std::string_view, const std::string& v) {
       o.site_contains = v;
       return !v.empty();
     }},
    {"exclude_termination",
     [](GameFilterOptions& o, std::string_view raw, const std::string&) {
       o.excluded_terminations.clear();
       for (std::string_view item : split(raw, ',')) {
         auto name = unescape_value(item);
         if (!name || name->empty()) return false;
         o.excluded_terminations.push_back(std::move(*name));
       }
       return true;
     }},
    {"min_plies",
     [](GameFilterOptions& o, std::string_view, const std::string& v) {
       auto plies = filter_int(v);
       if (plies) o.min_plies = *plies;
       return plies && *plies >= 0;
     }},
    {"chess960", [](GameFilterOptions& o, std::string_view,
                    const std::string& v) { return parse_keep_drop(v, o.keep_chess960); }},
    {"setup", [](GameFilterOptions& o, std::string_view,
                 const std::string& v) { return parse_keep_drop(v, o.keep_set_up); }},
};
constexpr std::size_t kKeyCount = sizeof(kKeys) / sizeof(kKeys[0]);

}  // namespace

Expected<GameFilterOptions> parse_game_filter(std::string_view text) {
  GameFilterOptions options;
  std::array<bool, kKeyCount> seen{};
  for (std::string_view item : split(text, ';')) {
    if (item.empty()) continue;
    std::size_t equals = item.find('=');
    if (equals == std::string_view::npos) {
      return make_error(ErrorCode::kSyntax, "filter item without '=': '" + std::string(item) + "'");
    }
    std::string_view key = trim(item.substr(0, equals));
    std::string_view raw = trim(item.substr(equals + 1));
    std::size_t index = 0;
    while (index < kKeyCount && key != kKeys[index].name) ++index;
    if (index == kKeyCount) {
      return make_error(ErrorCode::kSyntax, "unknown filter key '" + std::string(key) + "'");
    }
    if (seen[index]) {
      return make_error(ErrorCode::kSyntax, "filter key given twice: '" + std::string(key) + "'");
    }
    seen[index] = true;
    auto value = unescape_value(raw);
    if (!value) return value.error();
    if (!kKeys[index].handle(options, raw, *value)) return bad_value(key, raw);
  }
  if (options.elo_mode == EloMode::kPlayer && options.player.empty()) {
    return make_error(ErrorCode::kSyntax, "elo_mode=player needs a player (player=NAME)");
  }
  return options;
}

bool player_view(std::string_view filter_text) {
  const Expected<GameFilterOptions> options = parse_game_filter(filter_text);
  return options && player_view(*options);
}

std::string format_game_filter(const GameFilterOptions& o) {
  std::string out;
  auto put = [&out](const char* key, const std::string& value) {
    if (!out.empty()) out += ';';
    out += key;
    out += '=';
    out += value;
  };
  const GameFilterOptions defaults;
  if (!o.player.empty()) put("player", escape_value(o.player));
  if (o.player_side != defaults.player_side) {
    put("side", o.player_side == PlayerSide::kWhite ? "white" : "black");
  }
  if (o.player_perspective) put("pov", "1");
  if (!o.opponent.empty()) put("opponent", escape_value(o.opponent));
  if (o.elo.active()) put("elo", format_range(o.elo));
  if (o.elo_mode != defaults.elo_mode) {
    put("elo_mode", o.elo_mode == EloMode::kAverage ? "average" : "player");
  }
  if (o.max_rating_difference) put("max_diff", std::to_string(*o.max_rating_difference));
  if (!o.keep_unrated) put("unrated", "drop");
  if (o.speeds != kAllSpeeds) {
    std::string list;
    for (int i = 0; i < kSpeedClassCount; ++i) {
      if (!(o.speeds & (1u << i))) continue;
      if (!list.empty()) list += ',';
      list += speed_class_name(static_cast<SpeedClass>(i));
    }
    put("tc", list);
  }
  if (o.base_seconds.active()) put("base", format_range(o.base_seconds));
  if (o.increment_seconds.active()) put("inc", format_range(o.increment_seconds));
  if (o.date_from || o.date_to) {
    put("date", (o.date_from ? format_pgn_date(*o.date_from) : "") + "-" +
                    (o.date_to ? format_pgn_date(*o.date_to) : ""));
  }
  if (!o.event_contains.empty()) put("event", escape_value(o.event_contains));
  if (!o.site_contains.empty()) put("site", escape_value(o.site_contains));
  if (!o.excluded_terminations.empty()) {
    std::string list;
    for (const std::string& name : o.excluded_terminations) {
      if (!list.empty()) list += ',';
      list += escape_value(name);
    }
    put("exclude_termination", list);
  }
  if (o.min_plies > 0) put("min_plies", std::to_string(o.min_plies));
  if (!o.keep_chess960) put("chess960", "drop");
  if (!o.keep_set_up) put("setup", "drop");
  return out;
}

namespace {

// The non-empty "key=value" parts of a filter text, in order.
std::vector<std::string_view> filter_parts(std::string_view text) {
  std::vector<std::string_view> parts;
  while (!text.empty()) {
    const std::size_t end = text.find(';');
    const std::string_view part = trim(text.substr(0, end));
    if (!part.empty()) parts.push_back(part);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return parts;
}

// Trimmed as parse_game_filter trims it, so "elo =" and "elo=" are the same key.
std::string_view filter_key(std::string_view part) {
  return trim(part.substr(0, part.find('=')));
}

}  // namespace

std::string combine_game_filters(std::string_view base, std::string_view overriding) {
  const std::vector<std::string_view> top = filter_parts(overriding);
  std::string combined;
  const auto append = [&combined](std::string_view part) {
    if (!combined.empty()) combined += ';';
    combined.append(part);
  };
  for (std::string_view part : filter_parts(base)) {
    const bool replaced = std::any_of(top.begin(), top.end(), [&](std::string_view t) {
      return filter_key(t) == filter_key(part);
    });
    if (!replaced) append(part);
  }
  for (std::string_view part : top) append(part);
  return combined;
}

}  // namespace materialist::learn
