// The article's "quiet filter" (METHOD.md §1): which positions of a game become rows.
//
//   QuietFilter filter;                  // N = 2, checks break quietness, distinct per game
//   filter.begin_game();
//   for each ply: if (filter.observe(facts, material.delta())) record the row;
//
// A counter of consecutive quiet plies is reset by a capture, a promotion or a checking move and
// grows by one otherwise. A position is recorded when the counter reaches N and its material
// vector differs from the last one recorded in this game (initially nothing matches, so the first
// quiet position is always recorded).
#pragma once

#include <cstdint>

#include "learn/vocabulary/material.h"

namespace materialist::learn {

// What one ply did; the same three facts as chess::MoveFacts, kept here so the filter needs no
// board.
struct PlyFacts {
  bool capture = false;
  bool promotion = false;
  bool gives_check = false;
};

struct QuietFilterOptions {
  int quiet_plies = 2;             // N: record once this many consecutive plies were quiet
  bool checks_break_quiet = true;  // the article: a checking move is not quiet
  bool distinct_per_game = true;   // the article: skip a vector equal to the last recorded one
  int skip_first_plies = 0;        // never record after any of the first K plies
};

class QuietFilter {
 public:
  explicit QuietFilter(QuietFilterOptions options = {}) : options_(options) {}

  // Forgets the previous game: counter 0, no last vector, ply 0.
  void begin_game() {
    quiet_ = 0;
    plies_ = 0;
    has_last_ = false;
  }

  // Takes the facts of the ply just played and the material vector after it; returns whether
  // this position is to be recorded (and then remembers its vector).
  bool observe(const PlyFacts& facts, const MaterialVector& delta) {
    ++plies_;
    const bool noisy =
        facts.capture || facts.promotion || (facts.gives_check && options_.checks_break_quiet);
    quiet_ = noisy ? 0 : quiet_ + 1;
    if (quiet_ < options_.quiet_plies || plies_ <= options_.skip_first_plies) return false;
    if (options_.distinct_per_game && has_last_ && delta == last_) return false;
    last_ = delta;
    has_last_ = true;
    return true;
  }

  int quiet_plies() const { return quiet_; }
  int plies() const { return plies_; }
  const QuietFilterOptions& options() const { return options_; }

 private:
  QuietFilterOptions options_;
  int quiet_ = 0;
  int plies_ = 0;
  bool has_last_ = false;
  MaterialVector last_{};
};

}  // namespace materialist::learn
