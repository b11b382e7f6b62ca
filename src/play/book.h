// Opening books for matches: the positions a given number of plies into the games of a PGN file
// (by default the bundled sample's, 8 plies), or the positions of an EPD file; de-duplicated by
// position, in the file's order (the match shuffles them by its seed).
//
//   auto book = openings_from_pgn(pgn_text, 8);     // each Opening: the game's start + 8 moves
//   auto book = openings_from_epd(epd_text);        // each Opening: a FEN, no moves
//   auto book = default_book();                     // the sample's, compiled in
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "play/game.h"

namespace materialist::play {

struct Book {
  std::vector<Opening> openings;
  std::uint64_t games_read = 0;
  std::uint64_t too_short = 0;   // games with fewer plies than asked
  std::uint64_t duplicates = 0;  // positions met before
  std::uint64_t unreadable = 0;  // games with an illegal move or a bad FEN before the ply
  std::uint64_t finished = 0;    // positions with no legal move
};

inline constexpr int kDefaultBookPlies = 8;

// Errors: kInvalidArgument when no opening is left (the message says why: no games, all too
// short), plies outside 0..40.
Expected<Book> openings_from_pgn(std::string_view pgn_text, int plies);
// One position per line (FEN or EPD: four fields at least, EPD operations after them ignored);
// blank lines and lines starting with '#' are skipped. A bad line is an error naming its number.
Expected<Book> openings_from_epd(std::string_view epd_text);
// PGN or EPD by the file's name (".epd"), else by its content.
Expected<Book> openings_from_file_text(std::string_view name, std::string_view text, int plies);

// The bundled sample's book: every distinct position 8 plies into OpenRating.pgn's games.
Book default_book();
// The default book's source text: one opening a line, its SAN moves from the standard start.
std::string_view default_book_text();
// Writes a book's openings in that form (the start's FEN first, then " | ", when not standard).
std::string book_text(const Book& book);
// Reads that form back.
Expected<Book> openings_from_book_text(std::string_view text);

}  // namespace materialist::play
