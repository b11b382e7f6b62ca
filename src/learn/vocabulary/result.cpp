#include "learn/vocabulary/result.h"

#include "core/enum_names.h"
#include "core/text.h"

namespace materialist::learn {

Outcome parse_result(std::string_view text) {
  text = trim(text);
  if (text == "1-0") return Outcome::kWhiteWin;
  if (text == "0-1") return Outcome::kBlackWin;
  if (text == "1/2-1/2") return Outcome::kDraw;
  return Outcome::kUnknown;
}

namespace {

constexpr std::array kOutcomeNames = {"black-win", "draw", "white-win", "unknown"};
static_assert(kOutcomeNames.size() == static_cast<std::size_t>(Outcome::kUnknown) + 1);

}  // namespace

const char* outcome_name(Outcome outcome) {
  return name_of(kOutcomeNames, outcome);
}

}  // namespace materialist::learn
