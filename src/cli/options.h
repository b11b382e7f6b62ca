// The options of the commands that read games (rows, fit, compare, stats), read from the
// argument layer (cli/arguments.h) into a plain struct.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/option_values.h"
#include "core/error.h"
#include "learn/vocabulary/imbalance.h"

namespace materialist::cli {

// The commands that read files; kHelp: the command's --help was asked for.
enum class Command : std::uint8_t { kRows, kFit, kCompare, kStats, kPositions, kHelp, kVersion };

struct CliOptions {
  Command command = Command::kHelp;
  std::vector<std::string> files;

  // Data: which games and positions become rows.
  std::string preset = "default";  // "article" reproduces the founding article exactly
  std::optional<int> quiet_plies;
  bool checks_are_quiet = false;
  bool every_position = false;
  int skip_plies = 0;
  std::string filter;  // compact filter text, see learn/filter/game_filter.h
  // compare: one dataset per filter (each added to --filter), all read in one pass.
  std::vector<std::string> each_filter;
  // compare: one dataset per rating band or speed (learn/filter/bands.h: "elo:200", "speed").
  std::string by;

  // Model and solver.
  std::string solver;    // "gd" or "newton"; empty = preset's choice
  std::string outcomes;  // "draws-out", "fractional" or "ordinal"; empty = preset's choice
  // --target result|eval: what is fitted (learn/vocabulary/eval_target.h); eval reads the [%eval]
  // annotations and keeps only the annotated positions.
  std::string target = "result";
  // compare --targets result,eval: both targets fitted on the same (annotated) positions, side
  // by side, in the order given (empty: one target).
  std::vector<std::string> targets;
  std::optional<int> iterations;
  std::optional<double> alpha;
  std::optional<double> lambda;
  // --intercept / --no-intercept; unset: on from a player's point of view (pov=1), else off.
  std::optional<bool> intercept;
  bool side_to_move = false;  // a side-to-move column: +1 White to move, -1 Black
  bool bishop_pair = false;
  bool phase = false;
  bool elo_offset = false;
  learn::ImbalanceSet imbalances = 0;  // --imbalance TERM,... or all (learn/vocabulary/imbalance.h)
  // Own and opponent's pieces as separate columns; needs --filter "player=NAME;pov=1".
  bool split_sides = false;
  // "material" or "squares" (learn/fit/squares.h: values by square, beside the material fit).
  std::string model = "material";
  std::uint64_t max_positions = 1'000'000;  // --model squares: kept positions, more are sampled
  std::optional<double> squares_lambda;     // --model squares: this penalty, not the chosen one
  std::string split = "all";                // positions: all, training or held-out games
  std::string units = "pawn";               // "pawn", "elo" or "logodds"
  int bootstrap = 0;                        // replicates over games; 0 = none
  std::uint64_t seed = 1;

  // Output.
  // rows: a 7th column with each row's game id, (file index << 40) | the game's 1-based number
  // in its file (a .mat input row counts as a game of its own: its 1-based row number).
  bool game_ids = false;
  std::string export_mat;
  std::string export_squares;  // --model squares: the tables as .csv, a C++ header or JSON
  bool json = false;
  int log_every = 1000;
  bool progress = true;

  // Reading: -j N parse threads (0: one per core; 1: read on this thread alone); the decoded
  // text is cut into chunks of about chunk_bytes at game starts.
  int jobs = 0;
  // 1 MiB: a few ms of parsing each, 2N+1 of them in flight (about 2 MiB a thread). With -j 2
  // on the 272 MB mix: 0.975x the time of 256 KiB chunks, peak memory 24 MiB instead of 18.
  std::size_t chunk_bytes = 1u << 20;
  // Stop after this many games over all files, or after the game being read once this many MB
  // of the files (as stored) are read; 0: read everything. A limited read uses one thread.
  std::uint64_t max_games = 0;
  double max_megabytes = 0;

  // stats: the statistics file written (-o), one byte range of the one input (--range), and
  // the first input's index in the whole collection (--file-index: the bootstrap's game ids).
  std::string output;
  std::optional<ByteRange> range;
  std::uint64_t file_index = 0;

  // A player's games from a service (cli/player_input.h): --lichess NAME or --chesscom NAME,
  // with lichess's filters (speed: its perfType, "blitz" or "bullet,blitz"; rated) and the days
  // (YYYY-MM-DD, inclusive). Read from the player's side (their edge on) unless both_sides.
  std::string lichess, chesscom;
  std::string speed, since, until;
  bool rated = false;
  bool both_sides = false;
};

// Parses argv (without the program name): rows, fit, compare or stats and its options. Errors
// name the offending argument.
[[nodiscard]] Expected<CliOptions> parse_options(const std::vector<std::string>& args);

}  // namespace materialist::cli
