#!/usr/bin/env bash
# The long runs the test command keeps short: the same stages of ./tests/run-all.sh, longer.
#   sanlong  the SAN fast path against the full generator along about 270 000 random legal games
#            (two processes of SAN_GAMES=150000; the test command plays 20000 each)
#   fuzz     every libFuzzer target for FUZZ_SECONDS=300 (the test command: 5 s each, a smoke run)
# For 10 million executions per target: FUZZ_RUNS=10000000 tests/fuzz/run.sh 0 (docs/TESTING.md).
# Prints what run-all.sh prints, ending with "N passed, N failed"; exit status 0 only if all pass.
# Environment: SAN_GAMES, FUZZ_SECONDS, STAGES (default "sanlong fuzz"), and run-all.sh's.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
SAN_GAMES="${SAN_GAMES:-150000}" FUZZ_SECONDS="${FUZZ_SECONDS:-300}" STAGES="${STAGES:-sanlong fuzz}" \
  exec ./tests/run-all.sh
