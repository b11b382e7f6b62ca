#include <doctest/doctest.h>

#include <string>

#include "learn/fit/design.h"
#include "learn/vocabulary/coefficient_names.h"
#include "learn/vocabulary/pieces.h"

using namespace materialist::learn;

TEST_CASE("pieces: one table of column names, people's names and letters") {
  CHECK(kPieces[kPawnIndex].column == "pawn");
  CHECK(kPieces[kQueenIndex].label == "Queen");
  CHECK(kPieces[kKnightIndex].letter == "N");
  CHECK(piece_index("rook") == kRookIndex);
  CHECK_FALSE(piece_index("rook-eg").has_value());
  CHECK_FALSE(piece_index("king").has_value());
  CHECK(piece_key("bishop") == "B");
  CHECK(piece_key("bishop-pair") == "bishop-pair");
  // The design's columns and the labels are spelled from the same table.
  const ModelSpec article = ModelSpec::article();
  for (int i = 0; i < kPieceKinds; ++i) {
    CHECK(article.features[i].name() == kPieces[i].column);
    CHECK(coefficient_label(article.features[i].name(), false) == kPieces[i].label);
  }
  CHECK(coefficient_label("knight-mg", false) == "Knight (middlegame)");
}

TEST_CASE("pieces: the column and letter lists follow the table") {
  for (int i = 0; i < kPieceKinds; ++i) {
    CHECK(kPieceColumns[i] == kPieces[i].column);
    CHECK(kPieceLetters[i] == kPieces[i].letter);
  }
}
