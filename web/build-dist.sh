#!/usr/bin/env bash
# Builds the static web app into dist/ (no server): used by web/serve.sh, the e2e tests and CI.
# The Emscripten build (build/wasm) has a target `materialist_web` (cmake/web.cmake) that builds
# the app and the engine and assembles the site (page, scripts, .wasm, font, bundled sample) in
# MATERIALIST_DIST_DIR; this script copies that folder to dist/, fresh each time.
# Options: --web-setup  run emsdk-setup.sh --web (only the build tools) and skip the test
#                       binary (what the Pages workflow uses). Env: JOBS, BUILD_DIR, DIST_DIR, UNITY.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${REPO_ROOT}"
JOBS="${JOBS:-2}"
BUILD_DIR="${BUILD_DIR:-build/wasm}"
DIST_DIR="${DIST_DIR:-dist}"

setup_args=()
cmake_args=()
if [[ "${1:-}" == "--web-setup" ]]; then
  setup_args=(--web)
  cmake_args=(-DMATERIALIST_TESTS=OFF) # no doctest installed then
fi
./emsdk-setup.sh ${setup_args[@]+"${setup_args[@]}"}
# shellcheck disable=SC1091 # written by emsdk-setup.sh
source build/env.sh

# The profile the engine is optimised with (empty when this machine cannot make one).
profile="$(web/wasm-profile.sh)"
# Unity batches (as the test command's WebAssembly stage builds, so that the site it tests is this
# one): each header parsed once a batch; UNITY=0 builds file by file.
emcmake cmake -S . -B "${BUILD_DIR}" -DCMAKE_BUILD_TYPE=Release "-DMATERIALIST_WASM_PROFILE=${profile}" \
  "-DMATERIALIST_UNITY=$([[ "${UNITY:-1}" == 0 ]] && echo OFF || echo ON)" \
  ${cmake_args[@]+"${cmake_args[@]}"} > /dev/null
targets="$(cmake --build "${BUILD_DIR}" --target help)"
if ! grep -qw materialist_web <<< "${targets}"; then
  echo "build-dist: ERROR: no materialist_web target in ${BUILD_DIR} (see cmake/web.cmake and its warnings)" >&2
  exit 1
fi
cmake --build "${BUILD_DIR}" -j"${JOBS}" --target materialist_web

site_dir="$(sed -n 's/^MATERIALIST_DIST_DIR:[A-Z]*=//p' "${BUILD_DIR}/CMakeCache.txt")"
[[ -f "${site_dir}/index.html" ]] || { echo "build-dist: ERROR: ${site_dir}/index.html was not built" >&2; exit 1; }
# Fresh copy, so that no stale file is ever published.
rm -rf "${DIST_DIR}"
mkdir -p "${DIST_DIR}"
cp -R "${site_dir}/." "${DIST_DIR}/"
echo "build-dist: ${DIST_DIR}/ holds $(find "${DIST_DIR}" -type f | wc -l) files ($(du -sh "${DIST_DIR}" | cut -f1))" >&2
