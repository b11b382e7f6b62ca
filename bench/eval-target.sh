#!/usr/bin/env bash
# The evaluation target's benchmark (issue 40), run by hand (not by CI), one thread (-j 1):
#   1. the result target on the benchmark mix (bench/mix-input.sh), this tree against BASE (the
#      tree before the evaluation target), each the median of RUNS runs taken in turn, and the
#      ratio (target: >= 0.97, "within 3% of today's throughput"); their values must be equal;
#   2. the same on a file where every game is annotated (the lichess sample's 96 games with
#      [%eval], repeated to ANNOTATED_MB): the result target before and after (>= 0.97);
#   3. on that file, the evaluation target against the result target of this tree (target:
#      >= 0.80 of its throughput).
# Both binaries are plain Release builds (build/bench-eval/{base,head}; BASE is checked out in a
# temporary git worktree). Prints MB/s per run kind and the ratios with their targets.
#   usage: [RUNS=5] [BASE=e0ff4cd] [ANNOTATED_MB=64] bench/eval-target.sh [SIZE_MB]
set -euo pipefail
export LC_NUMERIC=C
cd "$(dirname "$0")/.."

size_mb=${1:-256}
runs=${RUNS:-5}
base=${BASE:-e0ff4cd}
annotated_mb=${ANNOTATED_MB:-64}
out=build/bench-eval
mkdir -p "$out" bench/data

# ---- binaries: this tree and BASE, the same flags ----
cmake -S . -B "$out/head" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$out/head" -j2 --target materialist >/dev/null
if [[ ! -x $out/base/materialist ]]; then
  rm -rf "$out/base-src"
  git worktree add --detach "$out/base-src" "$base" >/dev/null 2>&1
  # The base tree reads third_party/ as this one does (the archive libraries are found there).
  [[ -e $out/base-src/third_party ]] || ln -s "$(pwd)/third_party" "$out/base-src/third_party"
  cmake -S "$out/base-src" -B "$out/base" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$out/base" -j2 --target materialist >/dev/null
  git worktree remove --force "$out/base-src" >/dev/null 2>&1 || true
fi
head_bin=$out/head/materialist
base_bin=$out/base/materialist

# ---- inputs: the mix, and a file of annotated games only ----
mix=$(bench/mix-input.sh "$size_mb")
annotated=bench/data/annotated-${annotated_mb}mb.pgn
if [[ ! -f $annotated ]]; then
  python3 - tests/fixtures/pgn/lichess-2021-10-first999.pgn "$annotated" "$annotated_mb" <<'PY'
import re, sys
source, target, megabytes = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(source, encoding="utf-8").read()
games = [g if g.endswith("\n") else g + "\n" for g in re.split(r"\n(?=\[Event )", text)]
annotated = [g for g in games if "[%eval" in g]
with open(target, "w", encoding="utf-8") as out:
    size = 0
    while size < megabytes * 1024 * 1024:
        for game in annotated:
            out.write(game + "\n")
            size += len(game.encode()) + 1
PY
fi

measure() {  # prints seconds; the command's stdout goes to $1
  local file=$1
  shift
  local start=$EPOCHREALTIME
  "$@" >"$file" 2>/dev/null
  local stop=$EPOCHREALTIME
  awk -v a="$start" -v b="$stop" 'BEGIN { printf "%.4f", b - a }'
}

: >bench/data/eval-timings.txt
cat "$mix" "$annotated" >/dev/null  # warm the page cache
for ((run = 0; run < runs; ++run)); do
  echo "mix-base $(measure bench/data/eval-mix-base.json "$base_bin" fit -j 1 --json --no-progress "$mix")" \
    >>bench/data/eval-timings.txt
  echo "mix-head $(measure bench/data/eval-mix-head.json "$head_bin" fit -j 1 --json --no-progress "$mix")" \
    >>bench/data/eval-timings.txt
  echo "ann-base $(measure bench/data/eval-ann-base.json "$base_bin" fit -j 1 --json --no-progress "$annotated")" \
    >>bench/data/eval-timings.txt
  echo "ann-head $(measure bench/data/eval-ann-head.json "$head_bin" fit -j 1 --json --no-progress "$annotated")" \
    >>bench/data/eval-timings.txt
  echo "ann-eval $(measure bench/data/eval-ann-eval.json "$head_bin" fit -j 1 --target eval --json --no-progress "$annotated")" \
    >>bench/data/eval-timings.txt
done

python3 - "$mix" "$annotated" <<'PY'
import json, os, statistics, sys
mix, annotated = sys.argv[1:]
times = {}
for line in open("bench/data/eval-timings.txt"):
    kind, seconds = line.split()
    times.setdefault(kind, []).append(float(seconds))
size = {"mix": os.path.getsize(mix), "ann": os.path.getsize(annotated)}

def speed(kind):  # MB/s of the median run
    return size[kind[:3]] / 1e6 / statistics.median(times[kind])

def ratio(top, bottom):  # the median of the runs' own ratios (taken in turn)
    return statistics.median(b / t for t, b in zip(times[top], times[bottom]))

for kind in ("mix-base", "mix-head", "ann-base", "ann-head", "ann-eval"):
    print(f"{kind}: {speed(kind):8.1f} MB/s  (median of {len(times[kind])})")

def values(name):
    report = json.load(open(f"bench/data/eval-{name}.json"))
    return report["theta"], report["rows"]

same = values("mix-base") == values("mix-head") and values("ann-base") == values("ann-head")
print(f"result target's values and rows, before and after: {'the same' if same else 'DIFFERENT'}")
checks = [
    ("result target on the mix, after / before", ratio("mix-head", "mix-base"), 0.97),
    ("result target on the annotated file, after / before", ratio("ann-head", "ann-base"), 0.97),
    ("eval target / result target on the annotated file", ratio("ann-eval", "ann-head"), 0.80),
]
ok = same
for name, value, target in checks:
    met = value >= target
    ok = ok and met
    print(f"{name}: {value:.3f} (target >= {target:.2f}) {'met' if met else 'NOT MET'}")
sys.exit(0 if ok else 1)
PY
