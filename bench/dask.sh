#!/usr/bin/env bash
# Dask benchmark, run by hand (not by CI): scripts/dask_fit.py on a LocalCluster of 2 workers
# against the plain CLI on the same input, the >= 256 MB mix bench/native.sh builds from the
# repository's sample files. Prints wall time and MB/s of each, and whether their JSON (timings
# aside) is the same.
#   usage: bench/dask.sh [SIZE_MB] [RANGE_MB]     (defaults 256 and 32; MATERIALIST=path: that binary)
set -euo pipefail
cd "$(dirname "$0")/.."

size_mb=${1:-256}
range_mb=${2:-32}
bin=${MATERIALIST:-build/native/materialist}
input=$(bench/mix-input.sh "$size_mb")  # built once

if [[ -z ${MATERIALIST:-} ]]; then  # built (again when the sources changed)
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j2 --target materialist >/dev/null
fi
/usr/bin/python3 -c 'import distributed' 2>/dev/null ||
  { echo "python3-distributed missing: run ./emsdk-setup.sh" >&2; exit 1; }

bytes=$(stat -c %s "$input")
cat "$input" >/dev/null  # warm the page cache: both read from memory

# Wall seconds of a command, its stdout kept in $1.
wall() {
  local out=$1 start end
  shift
  start=$(date +%s.%N)
  "$@" >"$out"
  end=$(date +%s.%N)
  /usr/bin/python3 -c "print($end - $start)"
}

echo "input: $input ($((bytes / 1000000)) MB), $(nproc) cores, ranges of $range_mb MB"
cli_1=$(wall bench/data/dask-cli-j1.json "$bin" fit --json --no-progress -j 1 "$input")
cli_2=$(wall bench/data/dask-cli-j2.json "$bin" fit --json --no-progress -j 2 "$input")
dask=$(wall bench/data/dask.json /usr/bin/python3 scripts/dask_fit.py --cli "$bin" --workers 2 \
  --range-mb "$range_mb" --json "$input")

row() { printf '%-52s %8.2f s %8.1f MB/s\n' "$1" "$2" "$(/usr/bin/python3 -c "print($bytes / 1e6 / $2)")"; }
row "materialist fit -j 1" "$cli_1"
row "materialist fit -j 2" "$cli_2"
row "scripts/dask_fit.py (LocalCluster, 2 workers)" "$dask"
same=$(/usr/bin/python3 - bench/data/dask.json bench/data/dask-cli-j1.json <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for k in ("parseSeconds", "fitSeconds", "seconds"):
        d.pop(k, None)
print("yes" if a == b else "NO")
PY
)
echo "same JSON as materialist fit (timings aside): $same"
