// The PGN TimeControl tag, parsed and classified the way lichess names its speeds.
//
//   TimeControl tc = parse_time_control("180+2");   // tc.speed == SpeedClass::kBlitz
//
// Accepted forms (PGN standard §9.6 plus lichess's exports):
//   "?"              unknown
//   "-"              no clock (lichess writes this for correspondence and unlimited games)
//   "300", "300+2"   sudden death, optional increment in seconds
//   "*180"           sandclock
//   "40/7200"        moves per period; "40/7200:3600" multi-stage (stages separated by ':')
//   "1/259200"       a period of one move per day or more: correspondence
// Classification uses the first stage: estimated = base + 40 × increment, where a "moves/seconds"
// stage counts 40 × seconds / moves as its base (the time for 40 moves).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace materialist::learn {

enum class SpeedClass : std::uint8_t {
  kUltraBullet,
  kBullet,
  kBlitz,
  kRapid,
  kClassical,
  kCorrespondence,
  kUnknown,
};
inline constexpr int kSpeedClassCount = 7;

struct TimeControl {
  SpeedClass speed = SpeedClass::kUnknown;
  int base_seconds = -1;       // first stage's time in seconds; -1 when there is no clock
  int increment_seconds = -1;  // first stage's increment (0 when none written); -1 without clock
  int moves_per_period = 0;    // first stage's move count ("40/7200" → 40); 0 for sudden death
  int stage_count = 0;         // number of ':'-separated stages
  long long estimated_seconds = -1;  // base + 40 × increment; -1 when not applicable
};

// Parses a TimeControl tag value; malformed text yields speed kUnknown (never an error:
// a filter must be able to treat it as "unknown").
TimeControl parse_time_control(std::string_view tag);

// Classifies an estimated duration in seconds (lichess: < 29 ultrabullet, < 179 bullet,
// < 479 blitz, < 1499 rapid, else classical).
SpeedClass classify_estimated_seconds(long long estimated_seconds);

// Names a class for reports and the compact filter text: "ultrabullet", "bullet", "blitz",
// "rapid", "classical", "correspondence", "unknown".
const char* speed_class_name(SpeedClass speed);
std::optional<SpeedClass> parse_speed_class(std::string_view name);

}  // namespace materialist::learn
