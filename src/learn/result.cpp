#include "learn/result.h"

namespace materialist::learn {

namespace {

constexpr bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

}  // namespace

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
