#!/usr/bin/env bash
# The play engine's benchmark, run by hand (not by CI). Prints, from one run:
#   - nodes per second of one search thread natively (target >= 2 M) and of the same program
#     compiled to WebAssembly under Node (target >= 0.6x native), the median of RUNS runs each,
#     taken in turn (native, wasm, native, wasm, ...);
#   - games per minute of `materialist match` at the default limit (20 000 nodes a move) on one
#     thread, and -j J against -j 1 on the same games (target for -j 2 >= 1.8x), for each J in
#     JOBS (default "2"; on a bigger machine e.g. "2 4 8 16").
#   usage: [RUNS=3] [PAIRS=16] [JOBS="2"] [BIN=build/native/materialist] [WASM_DIR=build/wasm-bench]
#          [NO_WASM=1] bench/play.sh   (WASM_DIR: any Emscripten build tree of this project)
set -euo pipefail
export LC_NUMERIC=C
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
pairs=${PAIRS:-16}
jobs_list=${JOBS:-2}
bin=${BIN:-build/native/materialist}
native_bench=${NATIVE_BENCH:-build/native/materialist_play_bench}
wasm_dir=${WASM_DIR:-build/wasm-bench}
wasm_bench=$wasm_dir/materialist_play_bench.js

if [[ -z ${BIN:-} ]]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j2 --target materialist materialist_play_bench >/dev/null
fi
if [[ -z ${NO_WASM:-} ]]; then
  # shellcheck disable=SC1091 # written by emsdk-setup.sh
  source build/env.sh
  [[ -f $wasm_dir/CMakeCache.txt ]] ||
    emcmake cmake -S . -B "$wasm_dir" -DCMAKE_BUILD_TYPE=Release -DMATERIALIST_TESTS=OFF >/dev/null
  cmake --build "$wasm_dir" -j2 --target materialist_play_bench >/dev/null
fi

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
nps_of() { awk '{for (i = 1; i < NF; ++i) if ($i == "nps") print $(i + 1)}'; }

native=() wasm=()
for ((run = 0; run < runs; ++run)); do
  native+=("$("$native_bench" 2000000 | nps_of)")
  [[ -n ${NO_WASM:-} ]] || wasm+=("$(node "$wasm_bench" 2000000 | nps_of)")
done
native_nps=$(printf '%s\n' "${native[@]}" | median)
printf 'nodes/s, one thread, native:        %12.0f   (target >= 2000000)\n' "$native_nps"
if [[ -z ${NO_WASM:-} ]]; then
  wasm_nps=$(printf '%s\n' "${wasm[@]}" | median)
  printf 'nodes/s, one thread, wasm (Node):   %12.0f   %.2fx native (target >= 0.6x)\n' \
    "$wasm_nps" "$(awk -v w="$wasm_nps" -v n="$native_nps" 'BEGIN {print w / n}')"
fi

# Games: the same match (PAIRS pairs, seed 1, the default limit) at each -j; the games are the
# same whatever -j, so the times compare directly.
match_seconds() {
  local start end
  start=$EPOCHREALTIME
  "$bin" match --values learned-sample --vs classic --pairs "$pairs" -j "$1" --no-progress >/dev/null
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" 'BEGIN {print e - s}'
}
one=$(match_seconds 1)
games=$((2 * pairs))
printf 'games/min, one thread (20000 nodes a move): %8.1f   (%d games in %.1f s)\n' \
  "$(awk -v g="$games" -v s="$one" 'BEGIN {print 60 * g / s}')" "$games" "$one"
for jobs in $jobs_list; do
  many=$(match_seconds "$jobs")
  printf 'games/min, -j %-2s: %8.1f   %.2fx -j 1%s\n' "$jobs" \
    "$(awk -v g="$games" -v s="$many" 'BEGIN {print 60 * g / s}')" \
    "$(awk -v a="$one" -v b="$many" 'BEGIN {print a / b}')" \
    "$([[ $jobs == 2 ]] && echo '   (target >= 1.8x)')"
done
