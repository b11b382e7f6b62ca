#include "learn/stats/key_fields.h"

#include <algorithm>
#include <cstdlib>

#include "learn/vocabulary/model_options.h"

namespace materialist::learn {

std::int16_t binned_rating_difference(int difference, int bin_elo) {
  const int width = std::max(1, bin_elo);
  const int bins = (std::abs(difference) + width / 2) / width;
  const int centre = (difference < 0 ? -bins : bins) * width;
  return static_cast<std::int16_t>(std::clamp(centre, -32767, 32767));
}

KeyFields KeyFields::for_model(const ModelOptions& model) {
  KeyFields fields;
  fields.bishop_pair = model.bishop_pair;
  fields.phase = model.phase_tapered;
  fields.side_to_move = model.side_to_move;
  fields.rating = model.rating_offset;
  fields.counts = needs_counts(model);
  return fields;
}

RowKey KeyFields::project(const RowKey& key) const {
  RowKey projected = key;
  if (!bishop_pair) projected.bishop_pair = 0;
  if (!phase) projected.phase = 0;
  if (!side_to_move) projected.black_to_move = 0;
  if (!rating) {
    projected.rating_known = 0;
    projected.rating_diff = 0;
  }
  if (!counts) {
    projected.counts_known = 0;
    projected.white_counts = {};
    projected.opposite_bishops = 0;
  }
  return projected;
}

bool KeyFields::covers(const ModelOptions& model) const {
  const KeyFields needed = for_model(model);
  return united(*this, needed) == *this;
}

std::string KeyFields::missing_for(const ModelOptions& model) const {
  const KeyFields needed = for_model(model);
  std::string out;
  const auto add = [&out](bool missing, const char* what) {
    if (!missing) return;
    if (!out.empty()) out += ", ";
    out += what;
  };
  add(needed.bishop_pair && !bishop_pair, "the bishop pair");
  add(needed.phase && !phase, "the game phase");
  add(needed.side_to_move && !side_to_move, "the side to move");
  add(needed.rating && !rating, "the rating difference");
  add(needed.counts && !counts, "each side's piece counts");
  return out;
}

KeyFields KeyFields::all() {
  return KeyFields{true, true, true, true, true, false};  // boards: not a key field
}

KeyFields KeyFields::none() {
  return KeyFields{false, false, false, false, false, false};
}

KeyFields KeyFields::intersection(const KeyFields& a, const KeyFields& b) {
  return KeyFields{a.bishop_pair && b.bishop_pair, a.phase && b.phase,
                   a.side_to_move && b.side_to_move, a.rating && b.rating, a.counts && b.counts,
                   a.boards && b.boards};
}

KeyFields KeyFields::united(const KeyFields& a, const KeyFields& b) {
  return KeyFields{a.bishop_pair || b.bishop_pair, a.phase || b.phase,
                   a.side_to_move || b.side_to_move, a.rating || b.rating, a.counts || b.counts,
                   a.boards || b.boards};
}

}  // namespace materialist::learn
