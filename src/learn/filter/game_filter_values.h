// Internal to src/learn: how a game filter reads a number and bounds a partial date, shared by
// the filter's decisions (game_filter.cpp) and its compact text form (game_filter_text.cpp).
#pragma once

#include <optional>
#include <string_view>

#include "core/text.h"
#include "learn/filter/game_filter.h"

namespace materialist::learn::detail {

// A number in the filter text or a tag: spaces around it and a leading '+' allowed.
inline std::optional<int> filter_int(std::string_view text) {
  text = trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  return parse_int(text);
}

// A date as one comparable number: yyyymmdd.
inline int date_key(PgnDate date) {
  return date.year * 10000 + date.month * 100 + date.day;
}
// The first and the last day a partial date may be ("2021.??.??": 2021.01.01 and 2021.12.31).
inline PgnDate earliest(PgnDate date) {
  return {date.year, date.month ? date.month : 1, date.day ? date.day : 1};
}
inline PgnDate latest(PgnDate date) {
  return {date.year, date.month ? date.month : 12, date.day ? date.day : 31};
}

}  // namespace materialist::learn::detail
