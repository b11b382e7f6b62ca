// `materialist replay FILE...`: the legal replay of every game, one line each, for checking it
// against another rules library (tests/differential). Not a learning command: no filter, no rows.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace materialist::cli {

// args: "replay" then PGN files ("-" for stdin). Prints, per game, tab-separated:
//   game number, plies played, stop, final FEN, why
// where stop is "-" when every move was played, "fen" when the start position does not parse
// (SetUp "1" or a FEN tag, as the ingest reads them), else the 1-based ply that could not be
// played (illegal, ambiguous, unreadable, a null move in check, or the parser's error), and why
// is "ok" or what stopped it. Null moves ("--", "Z0") are played as passes when not in check.
// Returns 0, or 1 when a file cannot be read.
int run_replay(const std::vector<std::string>& args, std::FILE* out, std::FILE* err);

}  // namespace materialist::cli
