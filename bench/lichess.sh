#!/usr/bin/env bash
# Lichess-scale benchmark, run by hand (not by CI; issue 9). In one run:
#  1. builds, once, a lichess-like .pgn.zst of SIZE_MB MB of PGN text and a 64 MB one from the
#     same generator (bench/lichess-gen.py: the repository's games, every copy with its own Site
#     and ratings), cached in bench/data/ (git-ignored), `zstd -T0 -3` as a pipe (nothing whole
#     in memory);
#  2. times the CLI (fit --json --no-progress) on both files for the default model, the
#     article preset, --elo-offset and --bootstrap 200, with -j 1 and -j $(nproc) when the CLI
#     has -j: wall time, MB/s of compressed and of PGN bytes, peak RSS (GNU time %M) against the
#     issue's targets (<= 32 MB without bootstrap, <= 128 MB with --bootstrap 200): printed,
#     not asserted;
#  3. reads the file in headless Chromium (bench/browser/lichess.mjs) with ?readers=1 and 2,
#     estimates on and off: time to the first live estimate, MB/s, estimate cost, memory.
# Prints tables; writes bench/data/lichess-summary.json.
#   usage: bench/lichess.sh
#   env:   SIZE_MB (2200) PGN MB of the large input; SMALL_MB (64) the small one;
#          BROWSER_MB (SIZE_MB) PGN MB read in the browser (a file of that size, same generator);
#          NO_BROWSER=1 skips the browser; DIST (dist) the built site, built by
#          web/build-dist.sh if missing; READERS (1,2); ESTIMATES (on,off); MODELS (all four,
#          e.g. "default bootstrap-200"); TIMEOUT_MIN (60) per browser read; REBUILD=1 builds
#          build/native/materialist again (else only when missing); MATERIALIST another binary.
set -euo pipefail
cd "$(dirname "$0")/.."

size_mb=${SIZE_MB:-2200}
small_mb=${SMALL_MB:-64}
browser_mb=${BROWSER_MB:-$size_mb}
no_browser=${NO_BROWSER:-0}
dist=${DIST:-dist}
readers=${READERS:-1,2}
estimates=${ESTIMATES:-on,off}
read -r -a models <<<"${MODELS:-default article elo-offset bootstrap-200}"
bin=${MATERIALIST:-build/native/materialist}
data=bench/data
cli_records=$data/lichess-cli.jsonl
browser_json=$data/lichess-browser.json
summary=$data/lichess-summary.json
mkdir -p "$data"

# ---- 1. the inputs ----

# Prints the path of the .pgn.zst of $1 MB of PGN, building it first if missing (its PGN size and
# game count are in the .json beside it: the stream's zstd frame does not record its size).
input_of() {
  local mb=$1
  local out=$data/lichess-v1-${mb}mb.pgn.zst
  if [[ ! -f $out || ! -f $out.json ]]; then
    echo "building $out (${mb} MB of PGN, zstd -3) ..." >&2
    python3 bench/lichess-gen.py "$mb" "$out.json.tmp" | zstd -q -f -T0 -3 -o "$out.tmp"
    mv "$out.tmp" "$out"
    mv "$out.json.tmp" "$out.json"
  fi
  printf '%s\n' "$out"
}
json_field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

big=$(input_of "$size_mb")
small=$(input_of "$small_mb")

# ---- 2. the CLI ----

if [[ ! -x $bin || ${REBUILD:-0} == 1 ]]; then
  echo "building $bin ..." >&2
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DMATERIALIST_TESTS=ON >/dev/null
  cmake --build build/native -j2 --target materialist >/dev/null
fi
if (($(stat -c %Y "$bin") < $(git log -1 --format=%ct -- src CMakeLists.txt cmake))); then
  echo "warning: $bin is older than the last commit to src/: REBUILD=1 builds it again" >&2
fi
# -j N (parallel reading) is newer than this script: measured when the CLI lists it.
if "$bin" --help 2>&1 | grep -qE '(^|[[:space:]])-j([[:space:],=]|$)'; then
  jobs_list=(1 "$(nproc)")
else
  echo "note: $bin has no -j option: each model runs once, without -j" >&2
  jobs_list=(-)
fi

model_args() {
  case $1 in
    default) ;;
    article) echo --preset article ;;
    elo-offset) echo --elo-offset ;;
    bootstrap-200) echo --bootstrap 200 ;;
    *) echo "unknown model $1" >&2; return 1 ;;
  esac
}
model_target_mb() { if [[ $1 == bootstrap-* ]]; then echo 128; else echo 32; fi; }

# One CLI run: appends a JSON record (timing, peak RSS, the fit's counts) to $cli_records.
cli_run() {
  local file=$1 model=$2 jobs=$3
  local -a margs jargs=()
  read -r -a margs <<<"$(model_args "$model")"
  [[ $jobs == - ]] || jargs=(-j "$jobs")
  local status=0
  /usr/bin/time -f '%e %M' -o "$data/lichess-time.txt" \
    "$bin" fit --json --no-progress ${jargs[@]+"${jargs[@]}"} ${margs[@]+"${margs[@]}"} "$file" \
    >"$data/lichess-cli.json" 2>"$data/lichess-cli.err" || status=$?
  python3 - "$file" "$model" "$jobs" "$(model_target_mb "$model")" "$status" \
    "$(tail -n 1 "$data/lichess-time.txt")" "$data/lichess-cli.json" >>"$cli_records" <<'PY'
import json, os, sys
file, model, jobs, target, status, timing, out = sys.argv[1:]
seconds, kib = map(float, timing.split())
meta = json.load(open(file + ".json"))
try:
    fit = json.load(open(out))
except ValueError:
    fit = {}
error = fit.get("error")
print(json.dumps({
    "file": file, "fileBytes": os.path.getsize(file), "pgnBytes": meta["pgnBytes"], "model": model,
    "jobs": None if jobs == "-" else int(jobs), "seconds": seconds, "peakKiB": kib,
    "targetMB": int(target), "exit": int(status), "games": fit.get("games"),
    "error": error.get("message") if isinstance(error, dict) else error}))
PY
}

: >"$cli_records"
cli_version=$("$bin" --version 2>&1 | head -n 1 || true)
echo "CLI: $bin ($cli_version) on $small and $big ($(nproc) cores)" >&2
for file in "$small" "$big"; do
  cat "$file" >/dev/null  # into the page cache: every run reads from memory
  for model in "${models[@]}"; do
    for jobs in "${jobs_list[@]}"; do
      echo "  fit $model -j $jobs $(basename "$file") ..." >&2
      cli_run "$file" "$model" "$jobs"
    done
  done
done

python3 - "$cli_records" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print("\nCLI: materialist fit --json --no-progress (one run each; MB = 10^6 bytes, MiB = 2^20)")
head = f"{'input':30} {'model':14} {'-j':>3} {'wall s':>8} {'MB/s zst':>9} {'MB/s PGN':>9} {'peak MiB':>9} {'target':>7} {'':6} {'games':>9}"
print(head)
print("-" * len(head))
for r in rows:
    peak = r["peakKiB"] / 1024
    verdict = "PASS" if peak <= r["targetMB"] and r["exit"] == 0 else ("over" if r["exit"] == 0 else "FAILED")
    name = f"{r['pgnBytes'] / 1e6:.0f} MB PGN ({r['fileBytes'] / 1e6:.0f} zst)"
    s = max(r["seconds"], 0.01)
    print(f"{name:30} {r['model']:14} {r['jobs'] if r['jobs'] is not None else '-':>3} {r['seconds']:8.2f} "
          f"{r['fileBytes'] / 1e6 / s:9.1f} {r['pgnBytes'] / 1e6 / s:9.1f} {peak:9.1f} {r['targetMB']:>5} MB "
          f"{verdict:6} {r['games'] if r['games'] is not None else '-':>9}")
    if r["error"]:
        print(f"    error: {r['error']}")
PY

# ---- 3. the browser ----

rm -f "$browser_json"
if [[ $no_browser == 1 ]]; then
  echo "browser: skipped (NO_BROWSER=1)" >&2
else
  if [[ ! -f $dist/index.html ]]; then
    echo "building the site into $dist (web/build-dist.sh) ..." >&2
    DIST_DIR=$dist web/build-dist.sh
  fi
  if ((browser_mb >= size_mb)); then browser_file=$big; else browser_file=$(input_of "$browser_mb"); fi
  echo "" >&2
  node bench/browser/lichess.mjs --dist "$dist" --file "$browser_file" \
    --pgn-bytes "$(json_field "$browser_file.json" pgnBytes)" --readers "$readers" \
    --estimates "$estimates" --timeout-min "${TIMEOUT_MIN:-60}" --out "$browser_json"
fi

# ---- the summary ----

python3 - "$cli_records" "$browser_json" "$summary" "$big" "$small" "$cli_version" <<'PY'
import datetime, json, os, platform, sys
records, browser, summary, big, small, version = sys.argv[1:]
inputs = {}
for path in (small, big):
    meta = json.load(open(path + ".json"))
    inputs[path] = {"fileBytes": os.path.getsize(path), "pgnBytes": meta["pgnBytes"], "games": meta["games"],
                    "generator": meta["generator"]}
json.dump({
    "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    "cores": os.cpu_count(), "machine": platform.machine(), "cliVersion": version, "inputs": inputs,
    "cli": [json.loads(line) for line in open(records)],
    "browser": json.load(open(browser)) if os.path.exists(browser) else None,
}, open(summary, "w"), indent=2)
print(f"\nsummary: {summary}")
PY
