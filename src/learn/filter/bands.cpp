#include "learn/filter/bands.h"

#include <utility>
#include <vector>

#include "core/text.h"

namespace materialist::learn {
namespace {

Error bad_spec(std::string_view text, const std::string& why) {
  return Error{ErrorCode::kInvalidArgument,
               "--by '" + std::string(text) + "': " + why +
                   " (expected elo:WIDTH, elo:WIDTH:average, elo:WIDTH:player or speed)"};
}

std::string range_label(const IntRange& range) {
  if (range.min && range.max) return std::to_string(*range.min) + "-" + std::to_string(*range.max);
  if (range.min) return std::to_string(*range.min) + "+";
  if (range.max) return "<" + std::to_string(*range.max + 1);
  return "all";
}

bool reads_player_rating(const BandSpec& spec, const GameFilterOptions& base) {
  return spec.rating == BandRating::kPlayer ||
         (spec.rating == BandRating::kAuto && !base.player.empty());
}

}  // namespace

Expected<BandSpec> parse_band_spec(std::string_view text) {
  BandSpec spec;
  if (text == "speed") {
    spec.kind = BandKind::kSpeed;
    return spec;
  }
  std::vector<std::string_view> parts;
  for (std::string_view rest = text;;) {
    const std::size_t colon = rest.find(':');
    parts.push_back(rest.substr(0, colon));
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  if (parts[0] != "elo") return bad_spec(text, "unknown kind");
  if (parts.size() < 2 || parts.size() > 3) return bad_spec(text, "give the band width");
  const auto width = parse_integer(parts[1], kMinBandWidth, kMaxBandWidth);
  if (!width) {
    return bad_spec(text, "the width is a whole number of Elo from " +
                              std::to_string(kMinBandWidth) + " to " +
                              std::to_string(kMaxBandWidth));
  }
  spec.width = static_cast<int>(*width);
  if (parts.size() == 3) {
    if (parts[2] == "average") {
      spec.rating = BandRating::kAverage;
    } else if (parts[2] == "player") {
      spec.rating = BandRating::kPlayer;
    } else {
      return bad_spec(text, "the rating is 'average' or 'player'");
    }
  }
  return spec;
}

std::string format_band_spec(const BandSpec& spec) {
  if (spec.kind == BandKind::kSpeed) return "speed";
  std::string text = "elo:" + std::to_string(spec.width);
  if (spec.rating == BandRating::kAverage) text += ":average";
  if (spec.rating == BandRating::kPlayer) text += ":player";
  return text;
}

Expected<std::vector<Band>> make_bands(const BandSpec& spec, const GameFilterOptions& base) {
  std::vector<Band> bands;
  if (spec.kind == BandKind::kSpeed) {
    for (int i = 0; i < kSpeedClassCount; ++i) {
      if (!(base.speeds & (1u << i))) continue;
      const std::string name = speed_class_name(static_cast<SpeedClass>(i));
      bands.push_back({name, "tc=" + name});
    }
    return bands;
  }
  if (base.elo.active()) {
    return Error{ErrorCode::kInvalidArgument,
                 "rating bands cannot be combined with an elo filter: the bands are the ranges "
                 "(filter the games with elo_mode=... or narrow them otherwise)"};
  }
  const bool player = reads_player_rating(spec, base);
  if (player && base.player.empty()) {
    return Error{ErrorCode::kInvalidArgument,
                 "bands by the player's rating need a player (--filter \"player=NAME\")"};
  }
  // unrated=drop: a game without the band's rating belongs to no band.
  const std::string mode =
      player ? ";elo_mode=player;unrated=drop" : ";elo_mode=average;unrated=drop";
  const auto add = [&](IntRange range) {
    bands.push_back({range_label(range), "elo=" + (range.min ? std::to_string(*range.min) : "") +
                                             "-" + (range.max ? std::to_string(*range.max) : "") +
                                             mode});
  };
  int edge = kBandLowestEdge;
  add({std::nullopt, edge - 1});
  for (; edge < kBandHighestEdge; edge += spec.width) add({edge, edge + spec.width - 1});
  add({edge, std::nullopt});
  return bands;
}

Expected<std::vector<std::string>> band_filters(std::string_view spec_text,
                                                std::string_view base_filter) {
  Expected<BandSpec> spec = parse_band_spec(spec_text);
  if (!spec) return spec.error();
  Expected<GameFilterOptions> base = parse_game_filter(base_filter);
  if (!base) return base.error();
  Expected<std::vector<Band>> bands = make_bands(*spec, *base);
  if (!bands) return bands.error();
  std::vector<std::string> filters;
  for (const Band& band : *bands) filters.push_back(band.filter);
  return filters;
}

std::optional<std::string> band_spec_of(const std::vector<std::string>& each_filter,
                                        std::string_view base_filter) {
  for (const char* spec : {"elo:200", "speed"}) {
    const Expected<std::vector<std::string>> filters = band_filters(spec, base_filter);
    if (filters && *filters == each_filter) return std::string(spec);
  }
  return std::nullopt;
}

std::optional<std::string> band_label(std::string_view filter) {
  Expected<GameFilterOptions> options = parse_game_filter(filter);
  // A band by the player's rating names no player: its subset layers it on the base filter.
  const bool player_added = !options;
  if (player_added) options = parse_game_filter(combine_game_filters("player=?", filter));
  if (!options) return std::nullopt;
  GameFilterOptions rest = *options;
  if (player_added) rest.player.clear();
  std::optional<std::string> label;
  if (rest.elo.active() && rest.elo_mode != EloMode::kBoth && !rest.keep_unrated) {
    label = range_label(rest.elo);
    rest.elo = {};
    rest.elo_mode = EloMode::kBoth;
    rest.keep_unrated = true;
  } else {
    for (int i = 0; i < kSpeedClassCount; ++i) {
      if (rest.speeds != (1u << i)) continue;
      label = speed_class_name(static_cast<SpeedClass>(i));
      rest.speeds = kAllSpeeds;
    }
  }
  // Exactly a band's filter: anything more is another comparison.
  if (!(rest == GameFilterOptions{})) return std::nullopt;
  return label;
}

std::string band_axis_title(const BandSpec& spec, const GameFilterOptions& base) {
  if (spec.kind == BandKind::kSpeed) return "speed";
  const std::string width = ", bands of " + std::to_string(spec.width) + " Elo";
  return (reads_player_rating(spec, base) ? "the player's rating" : "average rating") + width;
}

}  // namespace materialist::learn
