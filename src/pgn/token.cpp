#include "pgn/token.h"

namespace materialist::pgn {
namespace {

// Evaluation symbols some tools write as tokens of their own: "+-", "=", "+/-", "~", "=/+".
constexpr bool is_symbolic_glyph_char(char c) {
  return c == '+' || c == '-' || c == '=' || c == '/' || c == '~' || c == '!' || c == '?';
}

TokenPiece move_piece(std::string_view token) {
  const std::size_t length = san_length(token);
  std::string_view san = token.substr(0, length);
  if (san == "Z0") san = "--";
  return {TokenKind::kMove, length, san, 0};
}

// "0-0" and "0-0-0" written with zeros, with an optional check sign, as the letter forms.
bool zero_castling(std::string_view token, TokenPiece& piece) {
  static constexpr std::string_view kForms[][2] = {
      {"0-0-0+", "O-O-O+"}, {"0-0-0#", "O-O-O#"}, {"0-0-0", "O-O-O"},
      {"0-0+", "O-O+"},     {"0-0#", "O-O#"},     {"0-0", "O-O"},
  };
  for (const auto& form : kForms) {
    if (token.substr(0, form[0].size()) != form[0]) continue;
    const std::size_t length = form[0].size();
    if (length < token.size() && !is_annotation_char(token[length])) return false;
    piece = {TokenKind::kMove, length, form[1], 0};
    return true;
  }
  return false;
}

TokenPiece number_piece(std::string_view token) {
  std::size_t i = 0;
  std::uint32_t number = 0;
  while (i < token.size() && is_digit(token[i])) {
    if (number < 100'000'000) number = number * 10 + static_cast<std::uint32_t>(token[i] - '0');
    ++i;
  }
  if (i < token.size() && token[i] != '.') return {TokenKind::kInvalid, token.size(), {}, 0};
  while (i < token.size() && token[i] == '.') ++i;
  return {TokenKind::kMoveNumber, i, {}, number};
}

bool all_of(std::string_view text, bool (*predicate)(char)) {
  for (char c : text)
    if (!predicate(c)) return false;
  return true;
}

}  // namespace

TokenPiece next_token_piece(std::string_view token) {
  const char first = token[0];
  if (is_digit(first)) {
    // Results point to literals, so GameEnd::result outlives the input.
    if (token == "1-0") return {TokenKind::kResult, 3, "1-0", 0};
    if (token == "0-1") return {TokenKind::kResult, 3, "0-1", 0};
    if (token == "1/2-1/2") return {TokenKind::kResult, 7, "1/2-1/2", 0};
    TokenPiece castling;
    if (token.size() >= 3 && token[1] == '-' && zero_castling(token, castling)) return castling;
    return number_piece(token);
  }
  if (is_san_start(first)) return move_piece(token);
  if (token == "*") return {TokenKind::kResult, 1, "*", 0};
  if (token == "\xC2\xBD-\xC2\xBD" || token == "\xBD-\xBD")  // "½-½" in UTF-8 or Latin-1
    return {TokenKind::kResult, token.size(), "1/2-1/2", 0};
  if (token == "...") return {TokenKind::kMissingMove, 3, {}, 0};
  if (token == "--") return {TokenKind::kMove, 2, "--", 0};
  if (first == '$') {
    std::size_t i = 1;
    while (i < token.size() && is_digit(token[i])) ++i;
    if (i == 1) return {TokenKind::kInvalid, token.size(), {}, 0};
    return {TokenKind::kNag, i, {}, 0};
  }
  if (first == '.' && all_of(token, [](char c) { return c == '.'; }))
    return {TokenKind::kGlyph, token.size(), {}, 0};
  if (all_of(token, [](char c) { return is_symbolic_glyph_char(c); }))
    return {TokenKind::kGlyph, token.size(), {}, 0};
  return {TokenKind::kInvalid, token.size(), {}, 0};
}

}  // namespace materialist::pgn
