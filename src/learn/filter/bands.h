// Values by rating band or by speed: one read splits the games into bands (a per-filter split,
// learn/read/dataset_split.h, with one filter per band) and each band is fitted on its own.
//
//   Expected<BandSpec> spec = parse_band_spec("elo:200");   // "speed", "elo:100:player", ...
//   Expected<std::vector<Band>> bands = make_bands(*spec, base_filter);
//   for (const Band& band : *bands) split_options.each_filter.push_back(band.filter);
//   band_label("elo=1400-1599;elo_mode=average;unrated=drop") == "1400-1599"
//
// Rating bands are WIDTH Elo wide, with edges at 800, 800 + WIDTH, ... up to the first edge at
// or above 2800, and one open band at each end ("<800", "2800+"). A game's rating is the mean of
// both ratings rounded half up (average), or the rating of the player the base filter names
// (player); games without that rating are in no band. Speed bands are lichess's classes
// (learn/vocabulary/time_control.h), from ultrabullet to correspondence, then "unknown" for games
// without a readable TimeControl.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "learn/filter/game_filter.h"

namespace materialist::learn {

enum class BandKind : std::uint8_t { kElo, kSpeed };
// Whose rating an Elo band reads; kAuto: the player's when the base filter names a player, else
// the average.
enum class BandRating : std::uint8_t { kAuto, kAverage, kPlayer };

inline constexpr int kBandLowestEdge = 800;
inline constexpr int kBandHighestEdge = 2800;
inline constexpr int kMinBandWidth = 50;  // at most 42 bands: each is a parse of the files
inline constexpr int kMaxBandWidth = 1000;

struct BandSpec {
  BandKind kind = BandKind::kElo;
  int width = 200;
  BandRating rating = BandRating::kAuto;
  bool operator==(const BandSpec&) const = default;
};

// "elo:WIDTH", "elo:WIDTH:average", "elo:WIDTH:player" or "speed"; errors (kInvalidArgument)
// name what is wrong.
Expected<BandSpec> parse_band_spec(std::string_view text);
std::string format_band_spec(const BandSpec& spec);  // parse_band_spec reads it back equal

struct Band {
  std::string label;   // "<800", "1400-1599", "2800+", "blitz"
  std::string filter;  // the band's filter text, layered on the base filter
};

// The bands, in order (rising rating, or speed from ultrabullet to unknown). Errors
// (kInvalidArgument): an Elo band with an elo range in the base filter (the bands are the
// ranges), bands by the player's rating without a player named. Speed bands keep only the
// speeds the base filter keeps.
Expected<std::vector<Band>> make_bands(const BandSpec& spec, const GameFilterOptions& base);

// The per-filter texts of a comparison by `spec_text` ("elo:200", "speed") over the base filter
// text: make_bands' filters, in order. A share link says "compare=elo:200" instead of a dozen
// filters; this turns it back.
Expected<std::vector<std::string>> band_filters(std::string_view spec_text,
                                                std::string_view base_filter);
// The app's comparison ("elo:200" or "speed") whose band filters over `base_filter` are exactly
// `each_filter`, or nullopt.
std::optional<std::string> band_spec_of(const std::vector<std::string>& each_filter,
                                        std::string_view base_filter);

// The band a filter text stands for, when it is exactly a band's filter (make_bands'): "<800",
// "1400-1599", "2800+" (an elo range by the average or the player's rating, unrated games
// dropped) or a speed's name (one speed class); nullopt for any other filter.
std::optional<std::string> band_label(std::string_view filter);

// What the bands are, for titles: "average rating, bands of 200 Elo", "the player's rating,
// bands of 100 Elo", "speed".
std::string band_axis_title(const BandSpec& spec, const GameFilterOptions& base);

}  // namespace materialist::learn
