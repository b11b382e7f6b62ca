#!/usr/bin/env bash
# The play engine's search at a fixed depth, run by hand (not by CI): for kiwipete, the start
# position and a quiet middlegame, `materialist analyse --depth DEPTH` (classic values): nodes,
# seconds, nodes per second (the best of RUNS runs, less the best of RUNS runs at depth 1: the
# process's start, about 0.2 s, is not search). Given a second binary (e.g. an older
# commit's build) it prints its rows too and the ratios: nodes (base / this, higher is fewer
# nodes now), nodes per second (this / base). Builds nothing. Node counts are deterministic;
# time only on an idle machine (no compiler running).
#   usage: [RUNS=3] [DEPTH=8] bench/search.sh [BIN (build/native/materialist)] [BASE_BIN]
set -euo pipefail
export LC_NUMERIC=C  # $EPOCHREALTIME with a decimal point
cd "$(dirname "$0")/.."

bin=${1:-build/native/materialist}
base=${2:-}
runs=${RUNS:-3}
depth=${DEPTH:-8}
names=(kiwipete startpos middlegame)
fens=(
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
  "r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R1BQ1RK1 w - - 0 8"
)

# Prints "nodes seconds best-move" for one binary, position and depth: the fastest of RUNS runs.
measure_at() {
  local binary=$1 fen=$2 at_depth=$3 best_seconds="" nodes move
  for ((run = 0; run < runs; ++run)); do
    local start end output seconds
    start=$EPOCHREALTIME
    output=$("$binary" analyse --fen "$fen" --depth "$at_depth")
    end=$EPOCHREALTIME
    seconds=$(awk -v s="$start" -v e="$end" 'BEGIN {print e - s}')
    nodes=$(sed -n 's/.*depth [0-9]*, \([0-9]*\) nodes.*/\1/p' <<<"$output")
    move=$(sed -n 's/.*best move \([^ ]*\) .*/\1/p' <<<"$output")
    if [[ -z $best_seconds ]] || awk -v a="$seconds" -v b="$best_seconds" 'BEGIN {exit !(a < b)}'; then
      best_seconds=$seconds
    fi
  done
  echo "$nodes $best_seconds $move"
}

measure() {
  local nodes seconds move startup
  read -r nodes seconds move < <(measure_at "$1" "$2" "$depth")
  read -r _ startup _ < <(measure_at "$1" "$2" 1)
  echo "$nodes $(awk -v s="$seconds" -v t="$startup" 'BEGIN {print s - t}') $move"
}

row() {
  printf '%-11s %-6s %12s nodes %8.3f s %10.0f nodes/s  %s\n' "$1" "$2" "$3" "$4" \
    "$(awk -v n="$3" -v s="$4" 'BEGIN {print n / s}')" "$5"
}

echo "depth $depth, best of $runs runs; $bin${base:+ against $base}"
for i in "${!names[@]}"; do
  read -r nodes seconds move < <(measure "$bin" "${fens[$i]}")
  row "${names[$i]}" this "$nodes" "$seconds" "$move"
  if [[ -n $base ]]; then
    read -r base_nodes base_seconds base_move < <(measure "$base" "${fens[$i]}")
    row "${names[$i]}" base "$base_nodes" "$base_seconds" "$base_move"
    printf '%-11s ratio  %.2fx fewer nodes, %.2fx nodes/s, %.2fx faster\n' "${names[$i]}" \
      "$(awk -v a="$base_nodes" -v b="$nodes" 'BEGIN {print a / b}')" \
      "$(awk -v a="$nodes" -v s="$seconds" -v b="$base_nodes" -v t="$base_seconds" \
        'BEGIN {print (a / s) / (b / t)}')" \
      "$(awk -v s="$seconds" -v t="$base_seconds" 'BEGIN {print t / s}')"
  fi
done
