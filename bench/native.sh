#!/usr/bin/env bash
# Native benchmark, run by hand (not by CI): materialist with one and two threads against
# pgn-extract on the same >= 200 MB input built from the repository's sample files, the median of
# RUNS (3) runs each taken in turn; each ratio is the median of the rounds' own ratios. materialist
# is built with profile-guided optimisation (bench/pgo-build.sh); the plain build's one-thread read
# is timed beside it and must give the same output. Prints MB/s, games/s, plies/s, ns per ply and
# peak RSS side by side with the ratios and their targets, then the article's 10 000-step gradient
# descent time and the bootstrap's peak memory. Two -j 1 processes at once, each on half the
# input, give this machine's ceiling for two threads (-j 2 is printed against it too).
#   usage: [RUNS=3] [BIN=build/pgo/materialist] [PLAIN=build/native/materialist] bench/native.sh [SIZE_MB]
#   (SIZE_MB default 256; BIN or PLAIN given: that binary is used as it is)
set -euo pipefail
export LC_NUMERIC=C  # $EPOCHREALTIME with a decimal point
cd "$(dirname "$0")/.."

size_mb=${1:-256}
bin=${BIN:-build/pgo/materialist}
plain=${PLAIN:-build/native/materialist}
fixtures=tests/fixtures/pgn
input=$(bench/mix-input.sh "$size_mb")  # built once

# Always brought up to date unless given: a stale binary would measure old code.
[[ -n ${BIN:-} ]] || bench/pgo-build.sh build/pgo >/dev/null
if [[ -z ${PLAIN:-} ]]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j2 --target materialist >/dev/null
fi
pgn_extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[[ -x $pgn_extract ]] || { echo "pgn-extract missing: run ./emsdk-setup.sh" >&2; exit 1; }

bytes=$(stat -c %s "$input")
# The input's two halves, cut before the first game start past the middle (built once).
half1=${input%.pgn}.half1.pgn
half2=${input%.pgn}.half2.pgn
if [[ ! -f $half2 ]]; then
  python3 - "$input" "$half1" "$half2" <<'PY'
import os, sys
path, first, second = sys.argv[1:]
size = os.path.getsize(path)
with open(path, "rb") as f:
    f.seek(size // 2)
    cut = size // 2 + f.read(1 << 22).index(b"\n[Event ") + 1
    f.seek(0)
    with open(first, "wb") as a:
        a.write(f.read(cut))
    with open(second, "wb") as b:
        b.write(f.read())
PY
fi

# Runs a command under GNU time; prints "seconds peak_kib" and keeps the command's stdout in $1.
# The seconds are bash's clock around it, to the microsecond: GNU time's %e has 10 ms steps, 1.7%
# of a 0.6 s read, as much as the ratios' targets leave.
measure() {
  local out=$1
  shift
  local start=$EPOCHREALTIME
  /usr/bin/time -f '%M' -o bench/data/time.txt "$@" >"$out" 2>/dev/null || true
  local stop=$EPOCHREALTIME
  echo "$(awk -v a="$start" -v b="$stop" 'BEGIN { printf "%.4f", b - a }') $(cat bench/data/time.txt)"
}

# The median of `runs` timings of each tool, taken in turn (A B C A B C ...), so that a slower
# spell of the machine hits every tool alike. Prints "seconds peak_kib" per tool, in order.
runs=${RUNS:-3}
echo "input: $input ($((bytes / 1000000)) MB), $(nproc) cores, $(uname -m), median of $runs runs"
cat "$input" >/dev/null  # warm the page cache so every tool reads from memory
: >bench/data/timings.txt
for ((run = 0; run < runs; ++run)); do
  echo "j1 $(measure bench/data/materialist.json "$bin" fit -j 1 --json --no-progress "$input")" \
    >>bench/data/timings.txt
  echo "j2 $(measure bench/data/materialist-j2.json "$bin" fit -j 2 --json --no-progress "$input")" \
    >>bench/data/timings.txt
  echo "np $(measure bench/data/materialist-plain.json "$plain" fit -j 1 --json --no-progress "$input")" \
    >>bench/data/timings.txt
  echo "pe $(measure bench/data/pgn-extract.out "$pgn_extract" -s -r "$input")" \
    >>bench/data/timings.txt
  echo "hv $(measure /dev/null bash -c "\"\$0\" fit -j 1 --json --no-progress \"\$1\" >/dev/null & \
    \"\$0\" fit -j 1 --json --no-progress \"\$2\" >/dev/null; wait" "$bin" "$half1" "$half2")" \
    >>bench/data/timings.txt
done
median() { awk -v k="$1" '$1 == k { print $2, $3 }' bench/data/timings.txt | sort -n |
  awk '{ s[NR] = $1; m[NR] = $2 } END { i = int((NR + 1) / 2); print s[i], m[i] }'; }
read -r m_sec m_kib < <(median j1)
read -r j2_sec j2_kib < <(median j2)
read -r np_sec np_kib < <(median np)
read -r p_sec p_kib < <(median pe)
read -r hv_sec _ < <(median hv)
read -r a_sec a_kib < <(measure bench/data/article.json \
  "$bin" fit --preset article --json --no-progress "$fixtures/OpenRating.pgn")

# Bootstrap memory: fit --bootstrap 200 on ~64 MB of rated games. Copies of the lichess games
# with both ratings shifted per copy (WhiteElo +7k, BlackElo -3k), so the rating keys differ from
# copy to copy instead of repeating.
rated=bench/data/rated-64mb.pgn
if [[ ! -f $rated ]]; then
  echo "building $rated ..." >&2
  : >"$rated.tmp"
  copy=0
  while (($(stat -c %s "$rated.tmp") < 64 * 1024 * 1024)); do
    awk -v w=$((copy * 7 % 400)) -v b=$((copy * 3 % 400)) '
      /^\[WhiteElo "[0-9]+"\]/ { match($0, /[0-9]+/); $0 = "[WhiteElo \"" substr($0, RSTART, RLENGTH) + w "\"]" }
      /^\[BlackElo "[0-9]+"\]/ { match($0, /[0-9]+/); $0 = "[BlackElo \"" substr($0, RSTART, RLENGTH) - b "\"]" }
      { print }' "$fixtures/lichess-2021-10-first999.pgn" >>"$rated.tmp"
    printf '\n' >>"$rated.tmp"
    copy=$((copy + 1))
  done
  mv "$rated.tmp" "$rated"
fi
# Peak RSS from GNU time -v ("Maximum resident set size", KiB) and wall time; $1 names the run.
bootstrap_rss() {
  local name=$1
  shift
  /usr/bin/time -v -o "bench/data/$name-time.txt" "$bin" fit --bootstrap 200 --json --no-progress \
    "$@" "$rated" >"bench/data/$name.json" 2>/dev/null || true
  awk -F': ' '/Maximum resident set size/ { kib = $2 } /Elapsed \(wall clock\)/ { wall = $2 }
    END { printf "%d MB, wall %s\n", kib / 1024, wall }' "bench/data/$name-time.txt"
}
b_plain=$(bootstrap_rss bootstrap)
b_elo=$(bootstrap_rss bootstrap-elo --elo-offset)  # rating keys kept: the worst case

python3 - "$bytes" "$m_sec" "$m_kib" "$j2_sec" "$j2_kib" "$p_sec" "$p_kib" "$np_sec" "$np_kib" "$hv_sec" <<'PY'
import json, re, sys
size, m_sec, m_kib, j2_sec, j2_kib, p_sec, p_kib, np_sec, np_kib, hv_sec = int(sys.argv[1]), *map(float, sys.argv[2:])
# Ratios are taken round by round (the tools of a round ran one after another) and their median
# printed: this VM's speed drifts by up to 2x from hour to hour, more than it does within a round.
rounds = {}
for line in open("bench/data/timings.txt"):
    key, sec, _ = line.split()
    rounds.setdefault(key, []).append(float(sec))
def ratio(top, bottom):
    values = sorted(t / b for t, b in zip(rounds[top], rounds[bottom]))
    return values[(len(values) - 1) // 2], values[0], values[-1]
def said(r):
    return f"{r[0]:.2f}x (rounds {r[1]:.2f}-{r[2]:.2f})"
m = json.load(open("bench/data/materialist.json"))
m2 = json.load(open("bench/data/materialist-j2.json"))
# The plain build must give the same output bit for bit, timings aside.
timeless = lambda path: re.sub(r'"(parse|fit)?[sS]econds":[0-9.e-]+', "", open(path).read())
assert timeless("bench/data/materialist-plain.json") == timeless("bench/data/materialist.json"), \
    "the plain build's output differs"
a = json.load(open("bench/data/article.json"))
games, plies = m["games"], m.get("plies", 0)
assert (m2["games"], m2.get("plies"), m2["rows"]) == (games, plies, m["rows"]), "-j 2 read other games"
rows = [
    ("materialist fit -j 1 (replay + quiet filter + fit)", m_sec, m_kib, games, plies),
    ("materialist fit -j 2", j2_sec, j2_kib, games, plies),
    ("materialist fit -j 1, plain build (no PGO)", np_sec, np_kib, games, plies),
    ("pgn-extract -s -r (validating pass)", p_sec, p_kib, games, plies),
]
print(f"{'tool':52} {'MB/s':>8} {'games/s':>10} {'plies/s':>12} {'ns/ply':>7} {'peak RSS':>10}")
for name, sec, kib, g, p in rows:
    print(f"{name:52} {size / 1e6 / sec:8.1f} {g / sec:10.0f} {p / sec:12.0f} "
          f"{sec / p * 1e9 if p else 0:7.1f} {kib / 1024:8.1f} MB")
print("ratios, each the median of the rounds' own ratios:")
print(f"ratio -j 1 / pgn-extract: {said(ratio('pe', 'j1'))} (target >= 15x); "
      f"one thread {size / 1e6 / m_sec:.0f} MB/s (target >= 250)")
print(f"ratio -j 2 / -j 1: {said(ratio('j1', 'j2'))} (target >= 1.9x on 2 cores)")
ceiling, reached = ratio('j1', 'hv'), ratio('hv', 'j2')
print(f"two -j 1 processes at once, each on half the input: {said(ceiling)} one "
      f"(this machine's ceiling for two threads; -j 2 reaches {reached[0]:.0%} of it)")
print(f"ratio PGO / plain build, -j 1: {said(ratio('np', 'j1'))} (the same output bit for bit)")
print(f"games {games}, skipped {m['skipped']}, rows {m['rows']}, plies {plies}")
print(f"article preset on OpenRating.pgn: {a['iterations']} gradient-descent iterations in "
      f"{a.get('fitSeconds', float('nan')) * 1000:.1f} ms (article's tool: about 5 s)")
PY
rated_mb=$(($(stat -c %s "$rated") / 1000000))
echo "fit --bootstrap 200 on $rated ($rated_mb MB), peak RSS: $b_plain"
echo "fit --bootstrap 200 --elo-offset on $rated ($rated_mb MB), peak RSS: $b_elo"
