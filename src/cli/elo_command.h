// `materialist elo`: the match statistics of play/match_stats.h on counts from any runner.
//
//   materialist elo --penta N0,N1,N2,N3,N4 [--wdl W,D,L] [--sprt ELO0,ELO1[,ALPHA,BETA]]
//                   [--logistic] [--json]
//   materialist elo --wdl W,D,L [--sprt ...] [--logistic] [--json]
//   materialist elo --sets N (--pair I,J,W,D,L | --pair-penta I,J,N0,N1,N2,N3,N4)...
//                   [--anchor I] [--level ELO] [--json]
//
// The first two print the estimate (Elo, nElo, LOS, ... and the SPRT's LLR and decision) as text
// or one JSON object (write_estimate_fields); with both --penta and --wdl the estimate is the
// pairs' and the W/D/L must be the same games'. The third rates N sets (0 ... N-1) from their
// pairwise results (rate_sets), I's view; scripts/match_stats_crosscheck.py drives all three.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace materialist::cli {

// args: "elo" then the options above. Returns kExitOk; kExitBadOptions (2) for a malformed or
// missing option, a count that is not a whole number in [0, 2^52], impossible SPRT settings or
// counts that contradict each other (a message on `err`); kExitNoResult (1) when a solver fails.
int run_elo(const std::vector<std::string>& args, std::FILE* out, std::FILE* err);

}  // namespace materialist::cli
