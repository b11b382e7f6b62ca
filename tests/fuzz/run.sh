#!/usr/bin/env bash
# Builds the libFuzzer targets (ASan + UBSan, build/fuzz) and runs each for SECONDS, two at a
# time; prints executions and findings per target, then "N passed, N failed" (a target
# passes with no finding). Corpora grow in build/fuzz/corpus/<target>, seeded each run from
# tests/fixtures and tests/fuzz/seeds; findings (crash-*, leak-*, timeout-*, oom-*) land in
# build/fuzz/findings/<target>/: copy each to tests/fixtures/fuzz/<target>/, where the doctest
# suite (tests/fuzz/test_fuzz_findings.cpp) replays it.
#   tests/fuzz/run.sh 10                     every target for 10 s (the test command's smoke run)
#   tests/fuzz/run.sh 600 san fen            the named targets only
#   FUZZ_RUNS=10000000 tests/fuzz/run.sh 0   until 10 million executions each (no time limit)
# Environment: JOBS (build, default 2), FUZZ_PARALLEL (targets run at once, default 2),
# FUZZ_NICE (default 10), FUZZ_RUNS, UNITY (default 1: the
# libraries in unity batches, CMake option MATERIALIST_UNITY; 0: file by file).
set -uo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "${REPO_ROOT}" || exit 1
SECONDS_EACH="${1:?usage: tests/fuzz/run.sh SECONDS [TARGET...]}"
shift
ALL_TARGETS=(pgn_chunking ingest san fen filter_text settings mat_import
  archive_zstd archive_gzip archive_bzip2 archive_zip play_text ingest_eval eval_comment)
TARGETS=("${@:-${ALL_TARGETS[@]}}")
[[ $# == 0 ]] && TARGETS=("${ALL_TARGETS[@]}")
BUILD=build/fuzz
FIXTURES=tests/fixtures
FUZZ_NICE="${FUZZ_NICE:-10}"

# ---- build: clang with -fsanitize=fuzzer,address,undefined (MATERIALIST_FUZZ) ----
if ! CC=clang CXX=clang++ cmake -S . -B "${BUILD}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1" \
  -DMATERIALIST_FUZZ=ON -DMATERIALIST_TESTS=OFF \
  "-DMATERIALIST_UNITY=$([[ "${UNITY:-1}" == 0 ]] && echo OFF || echo ON)" > "${BUILD}.configure.log" 2>&1 ||
  ! cmake --build "${BUILD}" -j"${JOBS:-2}" --target fuzz_targets > "${BUILD}.build.log" 2>&1; then
  tail -n 30 "${BUILD}.configure.log" "${BUILD}.build.log" 2> /dev/null
  echo "fuzz: the targets did not build"
  echo "0 passed, ${#TARGETS[@]} failed"
  exit 1
fi

# ---- seeds: small inputs cut from the fixtures, plus tests/fuzz/seeds/<target> ----
SEEDS="${BUILD}/seeds"
rm -rf "${SEEDS}"
mkdir -p "${SEEDS}"
for target in "${ALL_TARGETS[@]}"; do
  mkdir -p "${SEEDS}/${target}"
  [[ -d "tests/fuzz/seeds/${target}" ]] && cp "tests/fuzz/seeds/${target}/"* "${SEEDS}/${target}/"
done
# One file per game: every game of lichess-100.pgn, the first 60 of OpenRating.pgn.
split_games() { # FILE MAX_GAMES OUT_PREFIX
  awk -v max="$2" -v out="$3" '
    /^\[/ && !in_tags { if (++n > max) exit; in_tags = 1 }
    !/^\[/ && NF { in_tags = 0 }
    n { print > (out n ".pgn") }' "$1"
}
split_games "${FIXTURES}/pgn/lichess-100.pgn" 100 "${SEEDS}/pgn_chunking/lichess-"
split_games "${FIXTURES}/pgn/OpenRating.pgn" 60 "${SEEDS}/pgn_chunking/openrating-"
cp "${SEEDS}/pgn_chunking/"* "${SEEDS}/ingest/"
# The evaluation target's ingest: annotated games of the lichess sample (its 41st is the first).
awk -v out="${SEEDS}/ingest_eval/eval-" '
  /^\[Event / { n++ } n >= 41 && n < 61 { print > (out n ".pgn") }' \
  "${FIXTURES}/pgn/lichess-2021-10-first999.pgn"
sed -E 's/ *;.*//' "${FIXTURES}/perft/standard.epd" "${FIXTURES}/perft/chess960.epd" |
  awk -v out="${SEEDS}/fen/epd-" 'NF { printf "%s", $0 > (out NR ".fen") }'
for start in 1 201 401 601 801; do
  sed -n "${start},$((start + 39))p" "${FIXTURES}/learn/OpenRating.article.mat" \
    > "${SEEDS}/mat_import/article-${start}.mat"
done
# Small archives of two games, whole and cut short.
game="${SEEDS}/pgn_chunking/lichess-1.pgn"
cat "${game}" "${SEEDS}/pgn_chunking/lichess-2.pgn" > "${SEEDS}/two.pgn"
zstd -q -c "${SEEDS}/two.pgn" > "${SEEDS}/archive_zstd/two.pgn.zst"
{ zstd -q -c "${game}"; zstd -q -c "${game}"; } > "${SEEDS}/archive_zstd/two-frames.zst"
gzip -c "${SEEDS}/two.pgn" > "${SEEDS}/archive_gzip/two.pgn.gz"
{ gzip -c "${game}"; gzip -c "${game}"; } > "${SEEDS}/archive_gzip/two-members.gz"
bzip2 -1 -c "${SEEDS}/two.pgn" > "${SEEDS}/archive_bzip2/two.pgn.bz2"
for archive in "${SEEDS}"/archive_*/*; do
  head -c $(($(stat -c %s "${archive}") * 2 / 3)) "${archive}" > "${archive}.cut"
done
(cd "${SEEDS}" && cp two.pgn games.pgn && printf 'notes' > notes.txt &&
  zip -q archive_zip/stored.zip -0 games.pgn notes.txt && zip -q archive_zip/deflated.zip games.pgn &&
  zip -q - games.pgn < /dev/null > /dev/null 2>&1; cat games.pgn | zip -q > archive_zip/streamed.zip)
rm -f "${SEEDS}/two.pgn" "${SEEDS}/games.pgn" "${SEEDS}/notes.txt"
# play_text: a value set line, then a book, EPD lines or games.
printf 'mine:100,289,346,480,1078\n' > "${SEEDS}/play_text/values.txt"
{ printf 'classic\n'; head -n 20 src/play/default_book.inc | tail -n 18; } > "${SEEDS}/play_text/book.txt"
{ printf '100,300,300,500,900\n'; sed -E 's/ *;.*//' "${FIXTURES}/perft/standard.epd" | head -n 6; } \
  > "${SEEDS}/play_text/epd.txt"
{ printf 'kaufman\n'; cat "${SEEDS}/pgn_chunking/lichess-1.pgn"; } > "${SEEDS}/play_text/pgn.txt"
printf 'x\n{"values": {"P": 100, "N": 300, "B": 310, "R": 500, "Q": 900}}' > "${SEEDS}/play_text/fit.txt"

# A target's own libFuzzer options: its dictionary; san's inputs at most 256 bytes (a game of up to
# 254 plies: random play has stripped the board long before, and each ply costs a move generation).
options_for() {
  case "$1" in
    pgn_chunking | ingest | ingest_eval | eval_comment) echo "-dict=tests/fuzz/pgn.dict" ;;
    settings) echo "-dict=tests/fuzz/settings.dict" ;;
    san) echo "-max_len=256" ;;
  esac
}

# ---- run ----
# Findings in a folder: libFuzzer's crash-, leak-, timeout- and oom- files (not slow-unit- ones).
count_findings() {
  find "$1" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) |
    wc -l
}
# One target's run: its report line, and its verdict and failure lines in logs/<target>.result.
run_target() {
  local target="$1"
  local binary="${BUILD}/tests/fuzz/fuzz_${target}" corpus="${BUILD}/corpus/${target}"
  local findings="${BUILD}/findings/${target}" log="${BUILD}/logs/${target}.log"
  local result="${BUILD}/logs/${target}.result" before limits status executions found units line
  mkdir -p "${corpus}" "${findings}" "${BUILD}/logs"
  before="$(count_findings "${findings}")"
  limits=(-max_total_time="${SECONDS_EACH}")
  [[ "${SECONDS_EACH}" == 0 ]] && limits=()
  [[ -n "${FUZZ_RUNS:-}" ]] && limits+=(-runs="${FUZZ_RUNS}")
  # -timeout: a slow input is a finding too; -rss_limit_mb: zstd may allocate a frame's 2 GiB
  # window (decoder.h), which is the decoder's documented behaviour, not a leak.
  # shellcheck disable=SC2046 # the target's options are one word or none
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    nice -n "${FUZZ_NICE}" "${binary}" "${limits[@]}" -timeout=30 -rss_limit_mb=3072 \
    -malloc_limit_mb=3072 -print_final_stats=1 \
    -artifact_prefix="${findings}/" $(options_for "${target}") \
    "${corpus}" "${SEEDS}/${target}" > "${log}" 2>&1
  status=$?
  executions="$(grep -E '^stat::number_of_executed_units:' "${log}" | tail -1 | awk '{print $2}')"
  found=$(($(count_findings "${findings}") - before))
  [[ ${status} != 0 && ${found} == 0 ]] && found=1 # died without an artifact: still a finding
  units="$(find "${corpus}" -type f | wc -l)"
  line="$(printf '%-14s %12s executions  %d findings  (corpus %d; log %s)' \
    "${target}" "${executions:-?}" "${found}" "${units}" "${log}")"
  if [[ ${found} == 0 && -n "${executions}" ]]; then
    echo "pass ${line}" > "${result}"
  else
    { echo "fail ${line}"; grep -E "ERROR|property broken|SUMMARY|artifact" "${log}" | head -5 | sed 's/^/    /'; } > "${result}"
  fi
}

# FUZZ_PARALLEL targets at a time (default 2: one per core), reported in their order.
running=0
for target in "${TARGETS[@]}"; do
  rm -f "${BUILD}/logs/${target}.result"
  if ((running >= ${FUZZ_PARALLEL:-2})); then
    wait -n
    running=$((running - 1))
  fi
  run_target "${target}" &
  running=$((running + 1))
done
wait
passed=0
failed=0
report=()
for target in "${TARGETS[@]}"; do
  result="${BUILD}/logs/${target}.result"
  read -r verdict line < "${result}" 2> /dev/null || { verdict=fail; line="${target}: no result"; }
  echo "fuzz: ${line}"
  report+=("${line}")
  if [[ ${verdict} == pass ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    tail -n +2 "${result}" 2> /dev/null
  fi
done

echo
echo "==== fuzz: ${SECONDS_EACH} s per target ===="
printf '  %s\n' "${report[@]}"
echo "${passed} passed, ${failed} failed"
[[ ${failed} == 0 ]]
