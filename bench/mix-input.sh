#!/usr/bin/env bash
# Prints the path of the benchmarks' input of at least SIZE_MB MiB, building it once: the
# repository's engine games and lichess games, alternating, until large enough. The DOS
# end-of-file byte at the end of OpenRating.pgn is dropped so every tool sees plain PGN.
#   usage: bench/mix-input.sh SIZE_MB      (read by bench/native.sh and bench/dask.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

size_mb=${1:?usage: bench/mix-input.sh SIZE_MB}
fixtures=tests/fixtures/pgn
input=bench/data/bench-${size_mb}mb.pgn
if [[ ! -f $input ]]; then
  mkdir -p bench/data
  echo "building $input ..." >&2
  tmp=$input.tmp
  : >"$tmp"
  while (($(stat -c %s "$tmp") < size_mb * 1024 * 1024)); do
    tr -d '\032' <"$fixtures/OpenRating.pgn" >>"$tmp"
    printf '\n' >>"$tmp"
    cat "$fixtures/lichess-2021-10-first999.pgn" >>"$tmp"
    printf '\n' >>"$tmp"
  done
  mv "$tmp" "$input"
fi
echo "$input"
