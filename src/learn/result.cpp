#include "learn/result.h"

#include "core/text.h"

namespace materialist::learn {

Outcome parse_result(std::string_view text) {
  text = trim(text);
  if (text == "1-0") return Outcome::kWhiteWin;
  if (text == "0-1") return Outcome::kBlackWin;
  if (text == "1/2-1/2") return Outcome::kDraw;
  return Outcome::kUnknown;
}

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::kBlackWin:
      return "black-win";
    case Outcome::kDraw:
      return "draw";
    case Outcome::kWhiteWin:
      return "white-win";
    case Outcome::kUnknown:
      return "unknown";
  }
  return "unknown";
}

}  // namespace materialist::learn
