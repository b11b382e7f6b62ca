// Which RowKey fields a histogram keeps. Every field beyond the five material deltas multiplies
// the distinct keys, so a read keeps only what the model it is made for reads; the rating
// difference is kept in bins of kRatingBinElo, so its keys are bounded by the bins (never by the
// number of games).
//
//   KeyFields fields = KeyFields::for_model(model);  // what the ingest fills
//   if (!fields.covers(other_model)) ...             // the data must be read again for it
#pragma once

#include <string>

#include "learn/stats/histogram.h"

namespace materialist::learn {

struct ModelOptions;

// The rating difference's bin width, in Elo: a game's WhiteElo − BlackElo is kept as the nearest
// multiple of it (halves away from zero). The rating-offset model's values move by under
// 0.5 centipawns on the lichess fixture (tests/learn/stats/test_key_fields.cpp).
inline constexpr int kRatingBinElo = 10;
// The bin's centre for a rating difference (clamped to the int16 range of RowKey::rating_diff).
std::int16_t binned_rating_difference(int difference, int bin_elo = kRatingBinElo);

struct KeyFields {
  bool bishop_pair = true;
  bool phase = true;
  bool side_to_move = true;
  bool rating = false;  // rating_known and rating_diff
  // counts_known and white_counts: only the imbalance and split-sides models read them, so other
  // reads keep today's keys.
  bool counts = false;
  // Each row's board (Row::board, IngestOptions::keep_boards): only the squares model reads it
  // (learn/fit/squares.h), so no ModelOptions asks for it: the reader's request says so.
  bool boards = false;

  // The fields a model reads (a key with only these still gives every column and offset).
  static KeyFields for_model(const ModelOptions& model);
  // A key with the fields not kept set to zero.
  RowKey project(const RowKey& key) const;
  // True when every field the model reads is kept.
  bool covers(const ModelOptions& model) const;
  // What the model reads that is not kept, in words ("the bishop pair, the rating difference"),
  // "" when covered.
  std::string missing_for(const ModelOptions& model) const;
  // Every field kept (no projection).
  static KeyFields all();
  // No field beyond the material deltas.
  static KeyFields none();
  // The fields both keep, and the fields either keeps.
  static KeyFields intersection(const KeyFields& a, const KeyFields& b);
  static KeyFields united(const KeyFields& a, const KeyFields& b);

  friend bool operator==(const KeyFields&, const KeyFields&) = default;
};

}  // namespace materialist::learn
