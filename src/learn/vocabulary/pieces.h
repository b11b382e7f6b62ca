// The five piece kinds' names, once for every front end: the model's column names ("knight"),
// people's names ("Knight") and the letters JSON objects are keyed by ("N").
//
//   kPieces[kKnightIndex].label          // "Knight"
//   piece_index("rook")                  // kRookIndex
//   piece_key("queen") == "Q";  piece_key("bishop-pair") == "bishop-pair"
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "learn/vocabulary/material.h"

namespace materialist::learn {

struct PieceNames {
  std::string_view column;  // the design's column name: "pawn".."queen" (+ "-mg", "-eg" tapered)
  std::string_view label;   // for people: "Pawn".."Queen"
  std::string_view letter;  // "P", "N", "B", "R", "Q"
};

// In the order of PieceIndex (the article's P N B R Q).
inline constexpr std::array<PieceNames, kPieceKinds> kPieces = {{
    {"pawn", "Pawn", "P"},
    {"knight", "Knight", "N"},
    {"bishop", "Bishop", "B"},
    {"rook", "Rook", "R"},
    {"queen", "Queen", "Q"},
}};
static_assert(!kPieces[kQueenIndex].column.empty(), "a name for every piece kind");

// The columns alone and the letters alone, in the same order (for lists of the five pieces).
inline constexpr std::array<std::string_view, kPieceKinds> kPieceColumns = [] {
  std::array<std::string_view, kPieceKinds> columns{};
  for (int i = 0; i < kPieceKinds; ++i) columns[i] = kPieces[i].column;
  return columns;
}();
inline constexpr std::array<std::string_view, kPieceKinds> kPieceLetters = [] {
  std::array<std::string_view, kPieceKinds> letters{};
  for (int i = 0; i < kPieceKinds; ++i) letters[i] = kPieces[i].letter;
  return letters;
}();

// The PieceIndex of a plain piece column ("knight" → kKnightIndex); nullopt for anything else.
constexpr std::optional<int> piece_index(std::string_view column) {
  for (int i = 0; i < kPieceKinds; ++i) {
    if (kPieces[i].column == column) return i;
  }
  return std::nullopt;
}

// The one-letter key of a piece column ("pawn" → "P"); any other name unchanged.
inline std::string piece_key(std::string_view column) {
  const std::optional<int> index = piece_index(column);
  return std::string(index ? kPieces[*index].letter : column);
}

}  // namespace materialist::learn
