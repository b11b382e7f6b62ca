// The options the play commands share (match, analyse, selfplay, uci, book): the engine's limits
// and evaluation, adjudication, the book, the value sets, read from the argument layer
// (cli/arguments.h); errors are messages for exit status 2.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/arguments.h"
#include "core/error.h"
#include "play/book.h"
#include "play/game.h"
#include "play/match_stats.h"
#include "play/value_set.h"

namespace materialist::cli {

struct PlayOptions {
  std::vector<std::string> values;     // --values: none or one
  std::vector<std::string> opponents;  // each --vs, in order
  bool round_robin = false;
  int pairs = 50;
  int rounds = 3;  // selfplay
  play::GameSettings game;
  std::uint64_t seed = 1;
  int jobs = 0;  // 0: one per core
  std::optional<play::SprtSettings> sprt;
  std::string book_file;  // empty: the bundled sample's book
  int book_plies = play::kDefaultBookPlies;
  std::string pgn_out;
  std::string out_dir;  // selfplay: each round's PGN
  std::string fen;      // analyse
  bool json = false;
  bool progress = true;
  std::vector<std::string> files;  // book: the PGN files
  bool help = false;               // --help: print the command's help
};

// Parses args[1...] (args[0] is the command). For analyse the default limit is a million nodes
// (one position, not a match); for the others GameSettings' 20000 nodes a move.
[[nodiscard]] Expected<PlayOptions> parse_play_options(const std::vector<std::string>& args);
[[nodiscard]] Expected<PlayOptions> play_options_from(const Arguments& args);

// A value set from --values / --vs text: a set's text (play::parse_value_set) or a `fit --json`
// output file ("FILE.json" or "NAME:FILE.json").
[[nodiscard]] Expected<play::ValueSet> load_value_set(const std::string& text);

// The book the options name: --book FILE (PGN or EPD) or the bundled sample's.
[[nodiscard]] Expected<play::Book> load_book(const PlayOptions& options);

// UCI as engines speak it: castling as the king's two-square step when the king and rook stand
// where standard chess puts them (e1g1), king-takes-rook otherwise (Chess960's e1h1).
std::string uci_move_text(chess::Move move);

// The limit in words: "20000 nodes a move".
std::string limits_text(const play::SearchLimits& limits);

// Reads a whole file; an error names it.
[[nodiscard]] Expected<std::string> read_text_file(const std::string& path);

// The number of threads -j N means here (1 where the build has no threads).
int play_threads(int jobs);

}  // namespace materialist::cli
