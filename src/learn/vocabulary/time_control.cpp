#include "learn/vocabulary/time_control.h"

#include <array>

#include "core/enum_names.h"
#include "core/text.h"

namespace materialist::learn {
namespace {

constexpr std::array kSpeedNames = {"ultrabullet", "bullet",         "blitz",  "rapid",
                                    "classical",   "correspondence", "unknown"};
static_assert(kSpeedNames.size() == kSpeedClassCount);
static_assert(kSpeedClassCount == static_cast<int>(SpeedClass::kUnknown) + 1);
constexpr long long kSecondsPerDay = 86400;
constexpr int kMaxStages = 16;

// A non-negative decimal integer spanning the whole of `text` (at most 12 digits).
std::optional<long long> whole_number(std::string_view text) {
  return parse_integer(text, 0, 999'999'999'999);
}

struct Stage {
  long long moves = 0;  // 0: sudden death (or sandclock)
  long long seconds = 0;
  long long increment = 0;
};

std::optional<Stage> parse_stage(std::string_view text) {
  Stage stage;
  if (!text.empty() && text.front() == '*') text.remove_prefix(1);  // sandclock: same time budget
  if (auto slash = text.find('/'); slash != std::string_view::npos) {
    auto moves = whole_number(text.substr(0, slash));
    if (!moves || *moves == 0) return std::nullopt;
    stage.moves = *moves;
    text.remove_prefix(slash + 1);
  }
  if (auto plus = text.find('+'); plus != std::string_view::npos) {
    auto increment = whole_number(text.substr(plus + 1));
    if (!increment) return std::nullopt;
    stage.increment = *increment;
    text = text.substr(0, plus);
  }
  auto seconds = whole_number(text);
  if (!seconds) return std::nullopt;
  stage.seconds = *seconds;
  return stage;
}

}  // namespace

SpeedClass classify_estimated_seconds(long long estimated_seconds) {
  if (estimated_seconds < 0) return SpeedClass::kUnknown;
  if (estimated_seconds < 29) return SpeedClass::kUltraBullet;
  if (estimated_seconds < 179) return SpeedClass::kBullet;
  if (estimated_seconds < 479) return SpeedClass::kBlitz;
  if (estimated_seconds < 1499) return SpeedClass::kRapid;
  return SpeedClass::kClassical;
}

TimeControl parse_time_control(std::string_view tag) {
  TimeControl result;
  tag = trim(tag);
  if (tag == "-") {
    result.speed = SpeedClass::kCorrespondence;
    return result;
  }
  if (tag.empty() || tag == "?") return result;

  std::optional<Stage> first;
  int stages = 0;
  while (true) {
    auto colon = tag.find(':');
    auto stage = parse_stage(trim(tag.substr(0, colon)));
    if (!stage || ++stages > kMaxStages) return TimeControl{};
    if (!first) first = stage;
    if (colon == std::string_view::npos) break;
    tag.remove_prefix(colon + 1);
  }

  result.stage_count = stages;
  result.base_seconds = static_cast<int>(first->seconds);
  result.increment_seconds = static_cast<int>(first->increment);
  result.moves_per_period = static_cast<int>(first->moves);
  if (first->moves > 0 && first->seconds >= kSecondsPerDay * first->moves) {
    result.speed = SpeedClass::kCorrespondence;  // a day or more per move
    return result;
  }
  long long base = first->moves > 0 ? 40 * first->seconds / first->moves : first->seconds;
  result.estimated_seconds = base + 40 * first->increment;
  result.speed = classify_estimated_seconds(result.estimated_seconds);
  return result;
}

const char* speed_class_name(SpeedClass speed) {
  return name_of(kSpeedNames, speed);
}

std::optional<SpeedClass> parse_speed_class(std::string_view name) {
  return value_named<SpeedClass>(kSpeedNames, name);
}

}  // namespace materialist::learn
