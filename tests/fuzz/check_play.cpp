// Fuzz properties of the play module's text inputs (fuzz_checks.h): value sets, books (the
// bundled form, EPD and PGN) and a fit's JSON. Whatever the bytes: no crash, and what parses
// writes back to text that parses to the same thing.
#include <string>

#include "fuzz_checks.h"
#include "play/book.h"
#include "play/value_set.h"

namespace materialist::fuzz {

// Input: the first line is a value set; the rest a book (in the bundled form, then as EPD and
// as PGN 2 plies in) and a fit's JSON.
Failure check_play_text(std::string_view input) {
  const std::size_t newline = input.find('\n');
  const std::string_view first = input.substr(0, newline);
  const std::string_view rest =
      newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
  if (const auto set = play::parse_value_set(first)) {
    if (set->middlegame[0] <= 0) return std::string("a value set with a pawn of 0 or less");
    const auto again = play::parse_value_set(
        set->name.empty() ? set->values_text() : set->name + ":" + set->values_text());
    if (!again) return "'" + set->values_text() + "' does not parse back: " + again.error().message;
    if (again->middlegame != set->middlegame)
      return "'" + set->values_text() + "' parses to other values";
  }
  if (const auto book = play::openings_from_book_text(rest)) {
    const std::string text = play::book_text(*book);
    const auto again = play::openings_from_book_text(text);
    if (!again) return "the book's text does not parse back: " + again.error().message;
    if (again->openings.size() != book->openings.size())
      return std::string("the book's text loses openings");
    if (play::book_text(*again) != text)
      return std::string("the book's text writes back differently");
  }
  if (const auto epd = play::openings_from_epd(rest)) {
    for (const play::Opening& opening : epd->openings) {
      if (!play::opening_position(opening))
        return "an EPD opening that does not set up: " + opening.fen;
    }
  }
  if (const auto pgn = play::openings_from_pgn(rest, 2)) {
    for (const play::Opening& opening : pgn->openings) {
      if (opening.moves.size() != 2) return std::string("a PGN opening not 2 plies long");
      if (!play::opening_position(opening))
        return std::string("a PGN opening that does not replay");
    }
  }
  if (const auto fitted = play::value_set_from_fit_json(rest, "fuzz")) {
    for (int piece = 0; piece < 5; ++piece) {
      if (fitted->middlegame[piece] <= 0 || fitted->endgame[piece] <= 0) {
        return std::string("a fit's set with a piece worth nothing");
      }
    }
  }
  return std::nullopt;
}

}  // namespace materialist::fuzz
