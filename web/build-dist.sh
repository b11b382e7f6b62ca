#!/usr/bin/env bash
# Builds the static web app into dist/ (no server): used by web/serve.sh, the e2e tests and CI.
#   dist/ = the static files of web/ (everything but *.sh and *.md, sub-folders included, e.g. the
#           bundled sample) + the JavaScript/WebAssembly outputs of the Emscripten build (build/wasm).
# WASM targets: cmake/web.cmake's `materialist_web` target when it defines one (it should depend on
# the app and the worker), else every target except the test binary.
# Options: --web-setup  run emsdk-setup.sh --web (only the build tools) and skip the test
#                       binary (what the Pages workflow uses). Env: JOBS, BUILD_DIR, DIST_DIR.
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

emcmake cmake -S . -B "${BUILD_DIR}" -DCMAKE_BUILD_TYPE=Release ${cmake_args[@]+"${cmake_args[@]}"} > /dev/null
if cmake --build "${BUILD_DIR}" --target help | grep -qw materialist_web; then
  cmake --build "${BUILD_DIR}" -j"${JOBS}" --target materialist_web
else
  cmake --build "${BUILD_DIR}" -j"${JOBS}"
fi

# Rebuild dist/ from scratch so that no stale file is ever published.
rm -rf "${DIST_DIR}"
mkdir -p "${DIST_DIR}"
(cd web && tar -cf - --exclude='*.sh' --exclude='*.md' .) | (cd "${DIST_DIR}" && tar -xf -)
shopt -s nullglob
outputs=()
for file in "${BUILD_DIR}"/*.js "${BUILD_DIR}"/*.wasm "${BUILD_DIR}"/*.data "${BUILD_DIR}"/*.worker.js; do
  [[ "$(basename "${file}")" == materialist_tests.* ]] && continue
  outputs+=("${file}")
done
[[ ${#outputs[@]} -gt 0 ]] && cp "${outputs[@]}" "${DIST_DIR}/"
[[ -f "${DIST_DIR}/index.html" ]] || echo "build-dist: warning: ${DIST_DIR}/index.html is missing (web/index.html?)" >&2
echo "build-dist: ${DIST_DIR}/ holds $(find "${DIST_DIR}" -type f | wc -l) files ($(du -sh "${DIST_DIR}" | cut -f1))" >&2
