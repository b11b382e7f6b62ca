#!/usr/bin/env bash
# The profile the WebAssembly build is optimised with (clang's profile-guided optimisation, the
# browser's counterpart of bench/pgo-build.sh). Clang's instrumentation counts source regions, so
# a profile taken natively fits the WebAssembly build of the same sources when both come from the
# same LLVM: the command-line tool, built natively by the clang that em++ runs (or one of the same
# major version) with -fprofile-instr-generate, reads the repository's games; llvm-profdata
# merges the counts. Built in unity batches like the WebAssembly build (UNITY=0: both file by
# file): static functions' counters are named by the batch's base name, the same in both
# (CMakeLists.txt). One browser reader read about 3.5% faster with it (measured on the file-by-file
# build, not again on the unity one); the results are the same
# bit for bit. Used by web/build-dist.sh and the test command's WebAssembly stage.
#   usage: web/wasm-profile.sh    prints the .profdata's path, or nothing (and why, on stderr)
#                                 when this machine cannot make one: the build then goes without
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

dir=build/wasm-profile
profile=$PWD/$dir/engine.profdata
fixtures=tests/fixtures/pgn
training=("$fixtures/OpenRating.pgn" "$fixtures/lichess-2021-10-first999.pgn")

no_profile() {
  echo "wasm-profile: no profile ($*): the WebAssembly build goes without one" >&2
  rm -f "$profile"
  exit 0
}

log=$(mktemp)
raw=$(mktemp -d)
trap 'rm -rf "$log" "$raw"' EXIT
echo 'int main() { return 0; }' > "$raw/probe.cpp" # what each compiler is tried on

# shellcheck disable=SC1091 # written by emsdk-setup.sh
[[ -f build/env.sh ]] && source build/env.sh
command -v em-config > /dev/null || no_profile "em-config not found"
llvm_root=$(em-config LLVM_ROOT)
major_of() { { "$1" --version 2> /dev/null || true; } | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1; }
em_major=$(major_of "$llvm_root/clang")
[[ -n $em_major ]] || no_profile "no clang in $llvm_root"

# A native clang of em++'s major version whose profile runtime links, and its llvm-profdata.
clangxx=""
for candidate in "$llvm_root/clang++" "clang++-$em_major" clang++; do
  command -v "$candidate" > /dev/null || continue
  [[ $(major_of "$candidate") == "$em_major" ]] || continue
  if "$candidate" -fprofile-instr-generate "$raw/probe.cpp" -o "$raw/probe" 2> /dev/null; then
    clangxx=$(command -v "$candidate")
    break
  fi
done
[[ -n $clangxx ]] || no_profile "no native clang++ $em_major with its profile runtime (libclang-rt-$em_major-dev)"
profdata=""
for candidate in "$llvm_root/llvm-profdata" "llvm-profdata-$em_major"; do
  if command -v "$candidate" > /dev/null; then
    profdata=$(command -v "$candidate")
    break
  fi
done
[[ -n $profdata ]] || no_profile "no llvm-profdata $em_major"

step() { "$@" >> "$log" 2>&1 || { tail -n 30 "$log" >&2; no_profile "failed: $*"; }; }
# A build folder configured with another compiler is made again (CMake would reset its cache).
cache=$dir/CMakeCache.txt
if [[ -f $cache ]] && ! grep -qx "CMAKE_CXX_COMPILER:[A-Z]*=$clangxx" "$cache"; then rm -rf "$dir"; fi
step cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DMATERIALIST_TESTS=OFF \
  "-DMATERIALIST_UNITY=$([[ "${UNITY:-1}" == 0 ]] && echo OFF || echo ON)" \
  -DCMAKE_C_COMPILER="${clangxx/clang++/clang}" -DCMAKE_CXX_COMPILER="$clangxx" -DMATERIALIST_CLANG_PROFILE_GENERATE=ON
step cmake --build "$dir" -j"${JOBS:-2}" --target materialist
LLVM_PROFILE_FILE="$raw/%p.profraw" step "$dir/materialist" fit -j 1 --json --no-progress "${training[@]}"
step "$profdata" merge -o "$raw/engine.profdata" "$raw"/*.profraw
# em++'s own clang must read it (an emsdk's LLVM 14 is not Debian's 14.0.6).
step em++ -O2 -fprofile-instr-use="$raw/engine.profdata" -c "$raw/probe.cpp" -o "$raw/probe.o"
# Rewritten only when it changed, so that an unchanged profile leaves the build's files alone.
cmp -s "$raw/engine.profdata" "$profile" || cp "$raw/engine.profdata" "$profile"
echo "$profile"
