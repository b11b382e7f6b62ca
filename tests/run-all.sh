#!/usr/bin/env bash
# The test command: sets up the toolchain, then builds and runs every suite.
#   native  doctest suite, Release (build/native; also builds the CLI build/native/materialist)
#   crosscheck  scikit-learn refits the sample's exported rows; θ must agree with the CLI's;
#               statsmodels' game-clustered errors must agree with the CLI's; scripts/dask_fit.py
#               on a Dask LocalCluster of 2 workers must print one fit's output (tests/dask);
#               numpy/scipy re-derive `materialist elo`'s match statistics (match_stats_crosscheck.py)
#               the evaluation target: an independent Python replay of the lichess sample with
#               numpy (1e-6) and statsmodels (1e-3) (eval_crosscheck.py); scikit-learn refits the
#               squares model on the training games' EPD lines (squares_crosscheck.py, 1e-4)
#   typecheck  TypeScript checks the browser app's JavaScript (// @ts-check + JSDoc, web/types.d.ts;
#              tsconfig.json: one project per realm); nothing is emitted
#   asan    the same suite under AddressSanitizer + UndefinedBehaviorSanitizer (build/asan)
#   wasm    the same suite compiled with em++ (with the engine's profile, web/wasm-profile.sh),
#           run under Node (build/wasm)
#   e2e     browser end-to-end tests in headless Chromium (tests/e2e/run.mjs, on dist/)
#   fuzz    every libFuzzer target (ASan + UBSan, build/fuzz) for FUZZ_SECONDS (default 5) each:
#           a smoke run of tests/fuzz/run.sh; a target passes with no finding (tests/nightly.sh:
#           FUZZ_SECONDS=300)
#   differential  the replay checked against chessops on every game of tests/fixtures/pgn and of
#           DIFFERENTIAL_GAMES (default 3000) generated random legal games (tests/differential)
#   sanlong the SAN fast path against the full generator along about 36 000 random legal games,
#           two processes of SAN_GAMES (default 20000) each (tests/chess/test_san_fast_path.cpp;
#           tests/nightly.sh: 150000 each, about 270 000 games)
#   hostile the CLI on a 1 GB line, 10^6 one-ply games, nested variations, zip and zstd bombs,
#           games then binary data: clear messages, no game lost, bounded memory (tests/hostile)
#   services  the CLI's --lichess / --chesscom against the local stand-in of the services
#           (tests/e2e/services-stub.mjs): games, months in order, 404, 429, no network
#           (tests/services)
#   uci     the UCI engine (build/native/materialist-uci) driven by node-uci: options, a depth
#           search, go infinite + stop within 50 ms, ponder, bad input, self-play at 10 s + 0.1 s
#           and 1 s + 0.01 s with the client keeping the clocks (every move checked by chessops),
#           two games against Debian's Stockfish at Skill Level 0 (tests/uci/run.mjs)
# The light stages (crosscheck, typecheck, differential, hostile, services) run in the background
# once native has built the CLI, beside asan and wasm; e2e, uci and sanlong wait for them and run
# alone. The longer runs of sanlong and fuzz are tests/nightly.sh's.
# Stage logs go to build/logs/; the summary prints each stage's time (a background stage's own).
# The last line is "N passed, N failed" (test cases summed over stages; a stage that fails before
# reporting counts as one failure). Exit status 0 only if all pass.
# Environment: JOBS (default 2), STAGES (default "native crosscheck typecheck asan wasm e2e fuzz
# differential sanlong hostile services uci"), VERBOSE=1 to stream logs (and no background),
# PARALLEL=0 to run every stage in order, UNITY=0 for file-by-file native, ASan and fuzz builds.
set -uo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${REPO_ROOT}" || exit 1
JOBS="${JOBS:-2}"
STAGES="${STAGES:-native crosscheck typecheck asan wasm e2e fuzz differential sanlong hostile services uci}"
LOG_DIR="${REPO_ROOT}/build/logs"

total_passed=0
total_failed=0
summary=()

setup_start=${SECONDS}
if ! ./emsdk-setup.sh; then
  echo "run-all: emsdk-setup.sh failed; nothing was tested" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
# shellcheck disable=SC1091 # written by emsdk-setup.sh
source build/env.sh
mkdir -p "${LOG_DIR}"
summary+=("$(printf '%-10s %-6s %4ds' setup ok $((SECONDS - setup_start)))")

# Prints "passed failed" from the doctest or e2e summary in a log, or nothing.
counts_from_log() {
  local log="$1" line
  # doctest: "[doctest] test cases: 12 | 11 passed | 1 failed | 0 skipped"
  line="$(grep -E 'test cases: *[0-9]+ \| *[0-9]+ passed \| *[0-9]+ failed' "${log}" | tail -1)"
  if [[ -n "${line}" ]]; then
    sed -E 's/.*\| *([0-9]+) passed \| *([0-9]+) failed.*/\1 \2/' <<< "${line}"
    return
  fi
  # e2e: a line "N passed, N failed", maybe followed by a note on flaky tests
  line="$(grep -E '^[0-9]+ passed, [0-9]+ failed($| \()' "${log}" | tail -1)"
  [[ -n "${line}" ]] && sed -E 's/^([0-9]+) passed, ([0-9]+) failed.*/\1 \2/' <<< "${line}"
}

# run_stage NAME FUNCTION: runs FUNCTION with output to build/logs/NAME.log and records the result.
run_stage() {
  local name="$1" fn="$2" log="${LOG_DIR}/$1.log" start=${SECONDS} status counts passed failed
  echo "run-all: ${name} ..." >&2
  if [[ "${VERBOSE:-0}" == 1 ]]; then
    "${fn}" 2>&1 | tee "${log}"
    status=${PIPESTATUS[0]}
  else
    "${fn}" > "${log}" 2>&1
    status=$?
  fi
  counts="$(counts_from_log "${log}")"
  if [[ -n "${counts}" ]]; then
    read -r passed failed <<< "${counts}"
  else
    passed=0
    failed=0
  fi
  # A failing stage always counts at least one failure (build error, crash, sanitizer report).
  if [[ ${status} != 0 && ${failed} == 0 ]]; then failed=1; fi
  if [[ ${status} == 0 && ${failed} != 0 ]]; then status=1; fi
  local verdict=ok
  if [[ ${status} != 0 ]]; then
    verdict=FAILED
    # The failures first (a long stage's tail can hold only passes), then the log's end.
    if grep -q -E '^FAIL |ERROR:|error:' "${log}"; then
      echo "run-all: ${name} FAILED (exit ${status}); its failures in ${log#"${REPO_ROOT}"/}:" >&2
      grep -E -A 6 '^FAIL |ERROR:|error:' "${log}" | head -n 80 | sed 's/^/    /' >&2
    fi
    echo "run-all: ${name} FAILED (exit ${status}); last lines of ${log#"${REPO_ROOT}"/}:" >&2
    tail -n 40 "${log}" | sed 's/^/    /' >&2
  fi
  # A test that failed once and passed on its second attempt is said, with its first failure.
  local flaky
  flaky="$(grep -c -E '^FLAKY ' "${log}")"
  if [[ ${flaky} != 0 ]]; then
    echo "run-all: ${name}: ${flaky} test(s) failed once and passed on a second attempt:" >&2
    grep -E '^FLAKY ' "${log}" | sed 's/^/    /' >&2
  fi
  # The stage's result, read by record_stage (also from a stage run in the background).
  printf '%d %d %s\n' "${passed}" "${failed}" "$(printf '%-10s %-6s %4ds  %d passed, %d failed%s%s  (log: %s)' \
    "${name}" "${verdict}" $((SECONDS - start)) "${passed}" "${failed}" \
    "$([[ ${flaky} != 0 ]] && echo " (${flaky} flaky)")" "${BESIDE:+ (beside others)}" \
    "${log#"${REPO_ROOT}"/}")" > "${LOG_DIR}/${name}.result"
}

# record_stage NAME: adds a finished stage's counts to the totals and its line to the summary.
declare -A stage_line
record_stage() {
  local passed=0 failed=1 line="$(printf '%-10s %-6s        (no result)' "$1" FAILED)"
  [[ -f "${LOG_DIR}/$1.result" ]] && read -r passed failed line < "${LOG_DIR}/$1.result"
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  stage_line[$1]="${line}"
}

# Light stages run in the background, one after another, beside the foreground's next stages,
# once the native stage has built the CLI they use: they have no clocks and no frame timings and
# take about one core, where the foreground's compile stages (asan, wasm) are CPU-bound anyway.
# The foreground waits for them before a stage that must have the machine to itself (e2e's frame
# gaps, uci's real-time clocks, sanlong's one process per core) or builds in build/native, and at
# the end. PARALLEL=0 (or VERBOSE=1) runs every stage in order in the foreground.
LIGHT_STAGES=" crosscheck typecheck differential hostile services "
ALONE_STAGES=" native e2e uci sanlong "
background_pid=""
background_stages=()
run_light_stages() { # the light stages of STAGES, in the background
  local stage
  for stage in "$@"; do
    BESIDE=1 run_stage "${stage}" "stage_${stage}" 2> "${LOG_DIR}/${stage}.report"
  done
}
wait_light_stages() {
  [[ -n "${background_pid}" ]] || return 0
  wait "${background_pid}"
  local stage
  for stage in "${background_stages[@]}"; do
    cat "${LOG_DIR}/${stage}.report" >&2
    record_stage "${stage}"
  done
  background_pid=""
}

doctest_args=(--no-colors=true --duration=false)

# run_suite NAME COMMAND...: the doctest suite COMMAND as SUITE_SHARDS (default 2) processes, one
# per core: each runs its share of one shuffled order of the test cases (--order-by=rand, the
# same seed in each), so that the shares take about as long. Prints the shares' logs, then one
# doctest summary line summed over them; a share that ran fewer test cases than it was given fails.
run_suite() {
  local name="$1"
  shift
  local shards="${SUITE_SHARDS:-2}" total k first last pids=() status=0 ran=0 failed=0
  total="$("$@" --no-colors=true --count 2>&1 | sed -nE 's/.*passing the current filters: *([0-9]+).*/\1/p')"
  if [[ -z "${total}" ]]; then
    echo "ERROR: ${name}: the suite did not say how many test cases it has"
    return 1
  fi
  for ((k = 0; k < shards; ++k)); do
    first=$((k * total / shards + 1))
    last=$(((k + 1) * total / shards))
    "$@" --no-colors=true --duration=true --order-by=rand --rand-seed=1 --first="${first}" \
      --last="${last}" > "${LOG_DIR}/${name}-${k}.log" 2>&1 &
    pids+=($!)
  done
  trap 'kill "${pids[@]}" 2>/dev/null' INT TERM
  local log given share_ran share_failed
  for ((k = 0; k < shards; ++k)); do
    log="${LOG_DIR}/${name}-${k}.log"
    given=$(((k + 1) * total / shards - k * total / shards))
    wait "${pids[k]}" || status=1
    # Each test case run prints its duration ("0.012 s: name"); doctest's own summary counts
    # every test case of the suite as passed, run or not, so the share's is left out.
    share_ran="$(grep -c -E '^[0-9.]+ s: ' "${log}")"
    share_failed="$(sed -nE 's/^\[doctest\] test cases:.*\| *([0-9]+) failed.*/\1/p' "${log}" | tail -1)"
    share_failed="${share_failed:-1}"
    grep -v -E '^\[doctest\] (test cases|assertions|Status)|^[0-9.]+ s: ' "${log}"
    if [[ ${share_ran} != "${given}" ]]; then
      echo "ERROR: ${name}: share $((k + 1)) of ${shards} ran ${share_ran} of its ${given} test cases (log: ${log})"
      status=1
      share_failed=$((share_failed > 0 ? share_failed : 1))
    fi
    ran=$((ran + share_ran))
    failed=$((failed + share_failed))
  done
  trap - INT TERM
  echo "[doctest] test cases: ${total} | $((ran - failed)) passed | ${failed} failed | 0 skipped (${shards} shares)"
  return "${status}"
}
# build/native's configuration, the same in every stage that builds there. Unity builds
# (MATERIALIST_UNITY: batches of sources compiled as one) halve the compile time of the native and
# ASan builds and cut the WebAssembly build's to a third (web/build-dist.sh and
# web/wasm-profile.sh build in unity batches too); UNITY=0 builds file by file.
UNITY_FLAG="-DMATERIALIST_UNITY=$([[ "${UNITY:-1}" == 0 ]] && echo OFF || echo ON)"
native_config=(-S . -B build/native -DCMAKE_BUILD_TYPE=Release -DMATERIALIST_TESTS=ON "${UNITY_FLAG}")

stage_native() {
  cmake "${native_config[@]}" &&
    cmake --build build/native -j"${JOBS}" --target materialist_tests || return
  local tests_status=0
  run_suite native build/native/materialist_tests || tests_status=$?
  # Everything else native (the CLI build/native/materialist) must build too.
  cmake --build build/native -j"${JOBS}" || return
  return "${tests_status}"
}

# scikit-learn fits the exported rows of the sample (draws left out, and fractional): the
# CLI's Newton fit must agree to 1e-4 in θ. statsmodels refits the rows with their game ids
# (GLM binomial, cov_type="cluster"): the CLI's game-clustered errors must agree to 1e-3
# (relative). eval_crosscheck.py replays the lichess sample itself and refits the evaluation
# target with numpy (1e-6) and statsmodels (1e-3). Debian's python3 is the one with
# python3-sklearn and python3-statsmodels.
stage_crosscheck() {
  local pgn=tests/fixtures/pgn/OpenRating.pgn passed=0 failed=0
  local rows="${LOG_DIR}/crosscheck-OpenRating.mat" ids="${LOG_DIR}/crosscheck-OpenRating.ids"
  if build/native/materialist rows --no-progress "${pgn}" > "${rows}" &&
    /usr/bin/python3 scripts/sklearn_crosscheck.py "${rows}" --cli build/native/materialist; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
  if build/native/materialist rows --game-ids --no-progress "${pgn}" > "${ids}" &&
    /usr/bin/python3 scripts/statsmodels_crosscheck.py "${ids}" --pgn "${pgn}" \
      --cli build/native/materialist; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
  # The evaluation target: rows extracted by an independent Python replay of the lichess
  # sample, fitted with numpy (1e-6) and statsmodels' clustered errors (1e-3).
  if /usr/bin/python3 scripts/eval_crosscheck.py tests/fixtures/pgn/lichess-2021-10-first999.pgn \
    --cli build/native/materialist; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
  # The squares model at one penalty: scikit-learn's Newton-CG on the training games' exported
  # EPD lines, the same generalised ridge (1e-4 in log-odds).
  if /usr/bin/python3 scripts/squares_crosscheck.py "${pgn}" --cli build/native/materialist; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
  if /usr/bin/python3 tests/dask/dask_fit_test.py --cli build/native/materialist; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
  if /usr/bin/python3 scripts/match_stats_crosscheck.py --cli build/native/materialist; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
  echo "${passed} passed, ${failed} failed"
  [[ ${failed} == 0 ]]
}

# TypeScript from node_modules (npm ci in emsdk-setup.sh, pinned in package-lock.json), offline.
# --build --force: every project of tsconfig.json checked afresh (no stale incremental state).
stage_typecheck() {
  local tsc="${REPO_ROOT}/node_modules/.bin/tsc"
  [[ -x "${tsc}" ]] || { echo "typecheck: ${tsc} missing: run ./emsdk-setup.sh (npm ci)"; return 1; }
  "${tsc}" --version
  if "${tsc}" --build tsconfig.json --force --pretty false; then
    echo "1 passed, 0 failed"
  else
    echo "0 passed, 1 failed"
    return 1
  fi
}

stage_asan() {
  # -O1 -g1: half the compile time of -O2 -g, still symbolized stack traces.
  cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DMATERIALIST_SANITIZE=ON -DMATERIALIST_TESTS=ON "${UNITY_FLAG}" &&
    cmake --build build/asan -j"${JOBS}" --target materialist_tests &&
    ASAN_OPTIONS=abort_on_error=0:detect_leaks=1:strict_string_checks=1 \
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      run_suite asan build/asan/materialist_tests
}

stage_wasm() {
  # Compiled as web/build-dist.sh compiles the site (unity batches, the engine's profile when this
  # machine can make one): the code tested is the code shipped, and the e2e stage recompiles only
  # the app.
  local profile
  profile="$(web/wasm-profile.sh)" &&
    emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DMATERIALIST_TESTS=ON \
      "-DMATERIALIST_WASM_PROFILE=${profile}" "${UNITY_FLAG}" &&
    cmake --build build/wasm -j"${JOBS}" --target materialist_tests &&
    run_suite wasm node build/wasm/materialist_tests.js
}

stage_e2e() {
  web/build-dist.sh && node tests/e2e/run.mjs
}

stage_fuzz() {
  tests/fuzz/run.sh "${FUZZ_SECONDS:-5}"
}

# Needs the CLI (`materialist replay`); the native stage builds it, this builds it if missing.
stage_differential() {
  cmake "${native_config[@]}" &&
    cmake --build build/native -j"${JOBS}" --target materialist || return
  # Games the play engine plays (a round robin of three sets, the rules' ends checked too).
  local played="${LOG_DIR}/differential-match.pgn"
  build/native/materialist match --values learned-sample --vs classic --vs article-12.5 \
    --round-robin --pairs 10 --nodes 2000 -j "${JOBS}" --no-progress --pgn "${played}" || return
  node tests/differential/compare.mjs --cli build/native/materialist \
    --generate "${DIFFERENTIAL_GAMES:-3000}" --seed 1 tests/fixtures/pgn/*.pgn "${played}"
}

# The SAN fast path against the full generator along random legal games (standard and Chess960
# starts, special moves chosen half the time they are legal): the native test binary's
# random-games case, longer than in the unit stages, as two processes with different seeds, one
# per core. SAN_GAMES (default 20000) is each process's share; tests/nightly.sh runs 150000.
stage_sanlong() {
  cmake "${native_config[@]}" &&
    cmake --build build/native -j"${JOBS}" --target materialist_tests || return
  local games="${SAN_GAMES:-20000}" seed pids=() passed=0 failed=0 log
  for seed in 1 2; do
    MATERIALIST_SAN_GAMES="${games}" MATERIALIST_SAN_SEED="${seed}" build/native/materialist_tests \
      "${doctest_args[@]}" -tc='san fast path: agrees with the reference along random games' \
      > "${LOG_DIR}/sanlong-${seed}.log" 2>&1 &
    pids+=($!)
  done
  # Interrupted: the two runs stop too.
  trap 'kill "${pids[@]}" 2>/dev/null' INT TERM
  for seed in 1 2; do
    log="${LOG_DIR}/sanlong-${seed}.log"
    # A pass is the process's success and its tally: doctest also succeeds when the filter
    # matches no test case (a renamed one).
    if wait "${pids[seed - 1]}" && grep -q -E "MESSAGE: random games \(seed ${seed}\): " "${log}"; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "ERROR: sanlong seed ${seed}: the run failed or played no random games (log: ${log})"
    fi
    # Each run's tally and failures; its doctest summary line would be read as the stage's.
    grep -v -E 'test cases:|assertions:' "${log}"
  done
  trap - INT TERM
  echo "${passed} passed, ${failed} failed"
  [[ ${failed} == 0 ]]
}

# Needs the CLI; the native stage builds it, this builds it if missing.
stage_hostile() {
  cmake "${native_config[@]}" &&
    cmake --build build/native -j"${JOBS}" --target materialist || return
  /usr/bin/python3 tests/hostile/cli_hostile.py build/native/materialist
}

# Needs the CLI and node; the stand-in runs on a free localhost port.
stage_services() {
  cmake "${native_config[@]}" &&
    cmake --build build/native -j"${JOBS}" --target materialist || return
  /usr/bin/python3 tests/services/cli_services.py build/native/materialist
}

# Needs the CLI (its materialist-uci link), node_modules (node-uci, chessops) and Debian's
# stockfish; about 100 s, most of it the games' clocks.
stage_uci() {
  cmake "${native_config[@]}" &&
    cmake --build build/native -j"${JOBS}" --target materialist || return
  node tests/uci/run.mjs --engine build/native/materialist-uci --stockfish /usr/games/stockfish
}

for stage in ${STAGES}; do
  case "${stage}" in
    native | crosscheck | typecheck | asan | wasm | e2e | fuzz | differential | sanlong | hostile | services | uci) ;;
    *) echo "run-all: unknown stage '${stage}'" >&2; exit 2 ;;
  esac
done
parallel=0
[[ "${PARALLEL:-1}" != 0 && "${VERBOSE:-0}" != 1 ]] && parallel=1
native_done=0
for stage in ${STAGES}; do
  if [[ ${parallel} == 1 && ${native_done} == 1 && "${LIGHT_STAGES}" == *" ${stage} "* ]]; then
    if [[ -z "${background_pid}" ]]; then
      # This light stage and the light stages after it, up to the next stage that runs alone.
      background_stages=()
      collecting=0
      for next in ${STAGES}; do
        [[ "${next}" == "${stage}" ]] && collecting=1
        [[ ${collecting} == 1 ]] || continue
        [[ "${ALONE_STAGES}" == *" ${next} "* ]] && break
        [[ "${LIGHT_STAGES}" == *" ${next} "* && -z "${stage_line[${next}]:-}" ]] &&
          background_stages+=("${next}")
      done
      echo "run-all: ${background_stages[*]} ... (in the background)" >&2
      run_light_stages "${background_stages[@]}" &
      background_pid=$!
      for next in "${background_stages[@]}"; do stage_line[${next}]="(running)"; done
    fi
    continue
  fi
  [[ -n "${stage_line[${stage}]:-}" ]] && continue # run in the background
  [[ "${ALONE_STAGES}" == *" ${stage} "* ]] && wait_light_stages
  if [[ "${stage}" == e2e && ! -f tests/e2e/run.mjs ]]; then
    stage_line[e2e]="$(printf '%-10s %-6s        (tests/e2e/run.mjs not present)' e2e skip)"
    continue
  fi
  run_stage "${stage}" "stage_${stage}"
  record_stage "${stage}"
  [[ "${stage}" == native ]] && native_done=1
done
wait_light_stages
for stage in ${STAGES}; do summary+=("${stage_line[${stage}]}"); done

echo
echo "==== Materialist test summary ===="
printf '  %s\n' "${summary[@]}"
echo "  total time: ${SECONDS}s"
echo "${total_passed} passed, ${total_failed} failed"
[[ ${total_failed} == 0 ]]
