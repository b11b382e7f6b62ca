// Byte classes and movetext token classification for the streaming PGN parser.
//
// The parser splits movetext at delimiters (blanks, newlines, braces, parentheses, '[' and ';');
// what remains is a token such as "12...Nf3", "e4!?", "$14", "1/2-1/2" or "...". A token can hold
// several pieces glued together; next_token_piece() returns the first one and how many bytes it
// covers, so the caller loops until the token is used up. No allocation, no state.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace materialist::pgn {

enum class CharClass : std::uint8_t {
  kTokenChar,       // anything that can be part of a token, including every non-ASCII byte
  kBlank,           // space, tab, vertical tab, form feed, 0x1A (DOS end-of-file)
  kLineFeed,        // '\n'
  kCarriageReturn,  // '\r' (CRLF counts as one line break, a lone CR as one)
  kOpenBrace,       // '{' starts a comment
  kCloseBrace,      // '}' outside a comment is stray and ignored
  kOpenParen,       // '(' starts a variation
  kCloseParen,      // ')' ends a variation
  kOpenBracket,     // '[' starts a tag (and so a new game when met in movetext)
  kSemicolon,       // ';' starts a comment to the end of the line
};

constexpr std::array<CharClass, 256> make_char_classes() {
  std::array<CharClass, 256> classes{};
  for (CharClass& c : classes) c = CharClass::kTokenChar;
  for (unsigned char c : {' ', '\t', '\v', '\f', '\x1a'}) classes[c] = CharClass::kBlank;
  classes['\n'] = CharClass::kLineFeed;
  classes['\r'] = CharClass::kCarriageReturn;
  classes['{'] = CharClass::kOpenBrace;
  classes['}'] = CharClass::kCloseBrace;
  classes['('] = CharClass::kOpenParen;
  classes[')'] = CharClass::kCloseParen;
  classes['['] = CharClass::kOpenBracket;
  classes[';'] = CharClass::kSemicolon;
  return classes;
}

inline constexpr std::array<CharClass, 256> kCharClasses = make_char_classes();

inline CharClass char_class(char c) {
  return kCharClasses[static_cast<unsigned char>(c)];
}

// What the movetext loop learns of a token's bytes in the one table load per byte that finds
// its end: whether the byte ends the token, whether it may start an annotation (san_length()
// only needs to look when one was seen), and whether it may start a SAN move.
enum TokenTrait : std::uint8_t {
  kEndsToken = 1,     // any class but kTokenChar
  kMayAnnotate = 2,   // ! ? $ / = - : every annotation_at() needs one of them
  kStartsSanMove = 4  // is_san_start(), without the null move's 'Z'
};

constexpr std::array<std::uint8_t, 256> make_token_traits() {
  std::array<std::uint8_t, 256> traits{};
  const std::array<CharClass, 256> classes = make_char_classes();
  for (int c = 0; c < 256; ++c) {
    if (classes[c] != CharClass::kTokenChar) traits[c] |= kEndsToken;
  }
  for (unsigned char c : {'!', '?', '$', '/', '=', '-'}) traits[c] |= kMayAnnotate;
  for (unsigned char c : std::string_view("abcdefghKQRBNPO")) traits[c] |= kStartsSanMove;
  return traits;
}

inline constexpr std::array<std::uint8_t, 256> kTokenTraits = make_token_traits();

inline std::uint8_t token_traits(char c) {
  return kTokenTraits[static_cast<unsigned char>(c)];
}

// First letters a SAN move can have: a pawn file, a piece, castling, a null move "Z0".
constexpr bool is_san_start(char c) {
  return (c >= 'a' && c <= 'h') || c == 'K' || c == 'Q' || c == 'R' || c == 'B' || c == 'N' ||
         c == 'P' || c == 'O' || c == 'Z';
}

// Characters that end the SAN part of a token and start an annotation.
constexpr bool is_annotation_char(char c) {
  return c == '!' || c == '?' || c == '$';
}

constexpr bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

constexpr bool is_newline(char c) {
  return c == '\n' || c == '\r';
}

// Whether an annotation starts at token[i]: "!", "?", "$", or an evaluation glyph glued to the
// move ("Bb5+-", "e4=+", "Nf3+/-"). SAN itself never has '-' or '/' after '+' or '='.
constexpr bool annotation_at(std::string_view token, std::size_t i) {
  const char c = token[i];
  if (is_annotation_char(c)) return true;
  if ((c != '+' && c != '=' && c != '-') || i + 1 >= token.size()) return false;
  const char next = token[i + 1];
  if (c == '-') return next == '+' || next == '/';
  return next == '-' || next == '/' || (c == '=' && next == '+') || (c == '+' && next == '=');
}

// Bytes of a move token that are SAN, before any annotation (at least 1).
constexpr std::size_t san_length(std::string_view token) {
  std::size_t i = 1;
  while (i < token.size() && !annotation_at(token, i)) ++i;
  return i;
}

enum class TokenKind : std::uint8_t {
  kMove,         // SAN as written, annotation glyphs removed; "0-0" → "O-O", "Z0" → "--"
  kMoveNumber,   // "12", "12." or "12..."
  kResult,       // "1-0", "0-1", "1/2-1/2", "*" (also "½-½", normalised to "1/2-1/2")
  kNag,          // "$14"
  kGlyph,        // "!", "?!", "+-", "=" ... (annotations without meaning for the main line)
  kMissingMove,  // a bare "..."
  kInvalid,      // anything else: the rest of the token is garbage
};

struct TokenPiece {
  TokenKind kind = TokenKind::kInvalid;
  std::size_t length = 0;    // bytes of the token this piece covers (at least 1)
  std::string_view text;     // kMove: the SAN; kResult: the normalised result; else empty
  std::uint32_t number = 0;  // kMoveNumber: the number (saturating)
};

// Classifies the first piece of a non-empty movetext token.
TokenPiece next_token_piece(std::string_view token);

}  // namespace materialist::pgn
