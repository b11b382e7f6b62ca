#!/usr/bin/env bash
# Installs what Materialist needs to build and test; safe to run again (silent when all is there).
#
#   ./emsdk-setup.sh            everything: compilers, test tools, archive libraries, Dear ImGui,
#                               zstd, zlib and bzip2 sources, npm packages
#   ./emsdk-setup.sh --web      only what web/build-dist.sh needs (emscripten, cmake, the sources)
#
# On Debian/Ubuntu it installs missing packages with apt-get (as root, or through sudo), among
# them Emscripten (bookworm: 3.1.6). When EMSDK points at an official emsdk (a laptop, GitHub
# Actions: `./emsdk install 3.1.6 && ./emsdk activate 3.1.6`, then export EMSDK=<emsdk dir>), that
# emsdk is used instead of Debian's emscripten. Without apt-get nothing is installed: missing
# tools are reported. Downloads come only from Debian's archive (packages; the source tarballs
# of Dear ImGui, zstd, zlib and bzip2, sha256-pinned) and the npm registry (`npm ci`, versions and hashes in package-lock.json).
#
# It writes build/env.sh, the environment the build needs (the scripts source it):
#   Debian's emscripten: NODE_PATH=/usr/share/nodejs (else em++ cannot find 'acorn');
#   official emsdk:      source "$EMSDK/emsdk_env.sh".
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly REPO_ROOT
# Dear ImGui from Debian bookworm's source package; the tarball's sha256 is pinned.
readonly IMGUI_DEBIAN_VERSION="1.86+ds-1"
readonly IMGUI_ORIG_TARBALL="imgui_1.86+ds.orig.tar.xz"
readonly IMGUI_ORIG_SHA256="0dace0e8e57d298eb6e93af12dc19420cb96330832f6495c733b90aeeef11f64"
readonly IMGUI_DIR="${REPO_ROOT}/third_party/imgui"
# The archive decoders' C sources for WebAssembly (natively the -dev packages are linked), from
# the same Debian bookworm source packages as those libraries: name|version|tarball|sha256|dir|
# files that must be in it. cmake/web.cmake builds them (src/archive reads zstd, gzip, bzip2).
readonly ARCHIVE_SOURCES=(
  "libzstd|1.5.4+dfsg2-5|libzstd_1.5.4+dfsg2.orig.tar.xz|8cf4bbb65e77ec348d052c8d6230eba66d435bddf64c8b5be2fcb16880c19953|zstd|lib/zstd.h lib/decompress/zstd_decompress.c lib/common/zstd_common.c"
  "zlib|1:1.2.13.dfsg-1|zlib_1.2.13.dfsg.orig.tar.bz2|71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1|zlib|zlib.h inflate.c inftrees.c inffast.c adler32.c crc32.c zutil.c"
  "bzip2|1.0.8-5|bzip2_1.0.8.orig.tar.gz|ab5a03176ee106d3f0fa90e381da478ddae405918153cca248e682cd0c4a2269|bzip2|bzlib.h bzlib.c decompress.c huffman.c crctable.c randtable.c blocksort.c compress.c"
)
readonly ENV_FILE="${REPO_ROOT}/build/env.sh"

WEB_ONLY=0
for arg in "$@"; do
  case "${arg}" in
    --web) WEB_ONLY=1 ;;
    -h | --help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "emsdk-setup.sh: unknown option '${arg}' (try --help)" >&2; exit 2 ;;
  esac
done

TEMP_DIRS=()
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() { [[ ${#TEMP_DIRS[@]} == 0 ]] || rm -rf "${TEMP_DIRS[@]}"; }
trap cleanup EXIT

DID_WORK=0
say() {
  DID_WORK=1
  echo "emsdk-setup: $*" >&2
}
die() { echo "emsdk-setup: ERROR: $*" >&2; exit 1; }

sha256_of() {
  if command -v sha256sum > /dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

have_apt() { command -v apt-get > /dev/null && command -v dpkg-query > /dev/null; }

# The official emsdk wins over Debian's emscripten when it is set up.
use_emsdk() { [[ -n "${EMSDK:-}" && -f "${EMSDK}/emsdk_env.sh" ]]; }

as_root() {
  if [[ "$(id -u)" == 0 ]]; then
    "$@"
  elif command -v sudo > /dev/null; then
    sudo "$@"
  else
    die "need root to run '$*': run this script as root or install sudo"
  fi
}

# ---- 1. packages ----
# package:probe pairs; a package is installed when its probe (a command or a file) is missing.
packages_wanted() {
  use_emsdk || echo "emscripten:em++"
  echo "cmake:cmake"
  echo "make:make" # only recommended by cmake
  echo "python3:python3"
  echo "xz-utils:xz"
  echo "bzip2:bzip2" # unpacks the zlib sources
  # web/wasm-profile.sh (the engine's profile-guided optimisation): a native clang 14 with its
  # profile runtime and llvm-profdata, and the libraries the native tool links (the full set-up
  # below has them all). With --web they are wanted from apt-get only: elsewhere the site is
  # built without the profile.
  if [[ "${WEB_ONLY}" == 1 ]] && have_apt; then
    echo "clang:clang"
    echo "llvm-14:llvm-profdata-14"
    echo "libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.profile-x86_64.a"
    echo "libzstd-dev:/usr/include/zstd.h"
    echo "zlib1g-dev:/usr/include/zlib.h"
    echo "libbz2-dev:/usr/include/bzlib.h"
    echo "libcurl4-openssl-dev:curl-config"
  fi
  if [[ "${WEB_ONLY}" == 0 ]]; then
    echo "g++:g++"
    # The archive libraries the native build links (src/archive), and the tools that make the
    # archive fixtures (tests/fixtures/archive).
    echo "libzstd-dev:/usr/include/zstd.h"
    echo "zlib1g-dev:/usr/include/zlib.h"
    echo "libbz2-dev:/usr/include/bzlib.h"
    echo "zstd:zstd"
    echo "zip:zip"
    echo "doctest-dev:/usr/include/doctest/doctest.h"
    # HTTPS for the CLI's --lichess / --chesscom (src/cli/http_input.cpp); native only.
    echo "libcurl4-openssl-dev:curl-config"
    # libFuzzer targets (tests/fuzz): clang, its fuzzer runtime and the sanitizers' runtimes.
    echo "clang:clang"
    echo "libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a"
    echo "libfuzzer-14-dev:/usr/lib/llvm-14/lib/libFuzzer.a"
    echo "llvm-14:llvm-profdata-14" # web/wasm-profile.sh (a dependency of Debian's emscripten)
    echo "chromium:chromium"
    echo "pgn-extract:/usr/games/pgn-extract" # outside the default PATH
    echo "stockfish:/usr/games/stockfish"     # the uci stage's opponent (tests/uci)
    echo "python3-sklearn:/usr/lib/python3/dist-packages/sklearn/__init__.py"
    echo "python3-statsmodels:/usr/lib/python3/dist-packages/statsmodels/__init__.py"
    echo "python3-distributed:/usr/lib/python3/dist-packages/distributed/__init__.py" # scripts/dask_fit.py
    echo "nodejs:node"
    echo "npm:npm"
  fi
}

probe_ok() {
  if [[ "$1" == /* ]]; then [[ -e "$1" ]]; else command -v "$1" > /dev/null; fi
}

install_packages() {
  local missing=() entry pkg probe
  while read -r entry; do
    pkg="${entry%%:*}"
    probe="${entry#*:}"
    probe_ok "${probe}" || missing+=("${pkg}")
  done < <(packages_wanted)
  [[ ${#missing[@]} == 0 ]] && return 0
  if ! have_apt; then
    die "missing: ${missing[*]}. Install them with your package manager" \
      "(for emscripten: the official emsdk, 'emsdk install 3.1.6 && emsdk activate 3.1.6'," \
      "then export EMSDK). For doctest, placing doctest.h in third_party/include/doctest/ also works."
  fi
  # nodesource's nodejs already bundles npm; Debian's npm would conflict with it.
  if [[ " ${missing[*]} " == *" npm "* ]] && command -v node > /dev/null && ! dpkg-query -W -f='${Status}' npm 2> /dev/null | grep -q "ok installed"; then
    if [[ "$(dpkg-query -W -f='${Version}' nodejs 2> /dev/null)" == *nodesource* ]]; then
      die "node comes from nodesource but npm is missing: reinstall nodejs from nodesource"
    fi
  fi
  say "installing with apt-get: ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
    die "apt-get update failed (is Debian's archive reachable?)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null ||
    die "apt-get install ${missing[*]} failed"
  for entry in $(packages_wanted); do
    probe_ok "${entry#*:}" || die "package ${entry%%:*} installed but ${entry#*:} is still missing"
  done
}

# ---- 2. Dear ImGui sources ----
# The Debian archive this machine's apt already uses (its first non-security deb source), so
# the sources come from the same mirror as the packages.
debian_archive_uri() {
  local uri
  uri="$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2> /dev/null | grep -v security |
    head -1 | awk '{print $2}')"
  [[ -n "${uri}" ]] || uri="$(grep -hE '^deb +(\[[^]]*\] +)?[a-z]+://' /etc/apt/sources.list 2> /dev/null |
    grep -v security | head -1 | sed -E 's/^deb +(\[[^]]*\] +)?//' | awk '{print $1}')"
  [[ -n "${uri}" ]] && echo "${uri}"
}

# Downloads Debian bookworm's source package "$2=$3" into $1 (without unpacking it); true when
# $4, its original tarball, is there.
fetch_source_with_apt() {
  local work="$1" package="$2" version="$3" tarball="$4" uri
  uri="$(debian_archive_uri)" || return 1
  mkdir -p "${work}/lists/partial"
  cat > "${work}/bookworm-src.sources" << EOF
Types: deb-src
URIs: ${uri}
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  [[ -f /usr/share/keyrings/debian-archive-keyring.gpg ]] || return 1
  local opts=(-o "Dir::Etc::SourceList=${work}/bookworm-src.sources" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=${work}/lists" -o APT::Sandbox::User=root -qq)
  apt-get "${opts[@]}" update > /dev/null 2>&1 || return 1
  (cd "${work}" && apt-get "${opts[@]}" source --download-only "${package}=${version}" > /dev/null 2>&1) || return 1
  [[ -f "${work}/${tarball}" ]]
}

install_imgui() {
  local stamp="${IMGUI_DIR}/.materialist-source"
  if [[ -f "${stamp}" && "$(cat "${stamp}")" == "${IMGUI_ORIG_SHA256}" && -f "${IMGUI_DIR}/imgui.cpp" ]]; then
    return 0
  fi
  local work
  work="$(mktemp -d)"
  TEMP_DIRS+=("${work}")
  say "fetching Dear ImGui ${IMGUI_DEBIAN_VERSION} sources"
  if [[ -n "${IMGUI_TARBALL:-}" ]]; then
    cp "${IMGUI_TARBALL}" "${work}/${IMGUI_ORIG_TARBALL}" # a pre-downloaded copy (offline machines)
  elif ! { have_apt && fetch_source_with_apt "${work}" imgui "${IMGUI_DEBIAN_VERSION}" "${IMGUI_ORIG_TARBALL}"; }; then
    die "could not download ${IMGUI_ORIG_TARBALL} from Debian's archive" \
      "(set IMGUI_TARBALL=/path/to/${IMGUI_ORIG_TARBALL} to use a local copy)"
  fi
  local actual
  actual="$(sha256_of "${work}/${IMGUI_ORIG_TARBALL}")"
  [[ "${actual}" == "${IMGUI_ORIG_SHA256}" ]] ||
    die "${IMGUI_ORIG_TARBALL}: sha256 ${actual}, expected ${IMGUI_ORIG_SHA256}"
  mkdir -p "${work}/unpacked"
  tar -xJf "${work}/${IMGUI_ORIG_TARBALL}" -C "${work}/unpacked" --strip-components=1
  local required
  for required in imgui.cpp imgui_draw.cpp imgui_tables.cpp imgui_widgets.cpp \
    backends/imgui_impl_glfw.cpp backends/imgui_impl_opengl3.cpp; do
    [[ -f "${work}/unpacked/${required}" ]] || die "${IMGUI_ORIG_TARBALL} lacks ${required}"
  done
  echo "${IMGUI_ORIG_SHA256}" > "${work}/unpacked/.materialist-source"
  rm -rf "${IMGUI_DIR}"
  mkdir -p "$(dirname "${IMGUI_DIR}")"
  mv "${work}/unpacked" "${IMGUI_DIR}"
}

# ---- 3. zstd, zlib and bzip2 sources (the WebAssembly build compiles them) ----
install_archive_source() {
  local package version tarball sha dir files
  IFS='|' read -r package version tarball sha dir files <<< "$1"
  local target="${REPO_ROOT}/third_party/${dir}" stamp
  stamp="${target}/.materialist-source"
  if [[ -f "${stamp}" && "$(cat "${stamp}")" == "${sha}" ]]; then
    return 0
  fi
  local work
  work="$(mktemp -d)"
  TEMP_DIRS+=("${work}")
  say "fetching ${package} ${version} sources"
  # ARCHIVE_TARBALLS=/dir holding pre-downloaded tarballs (offline machines).
  if [[ -n "${ARCHIVE_TARBALLS:-}" && -f "${ARCHIVE_TARBALLS}/${tarball}" ]]; then
    cp "${ARCHIVE_TARBALLS}/${tarball}" "${work}/${tarball}"
  elif ! { have_apt && fetch_source_with_apt "${work}" "${package}" "${version}" "${tarball}"; }; then
    die "could not download ${tarball} from Debian's archive" \
      "(set ARCHIVE_TARBALLS=/dir/holding/${tarball} to use a local copy)"
  fi
  local actual
  actual="$(sha256_of "${work}/${tarball}")"
  [[ "${actual}" == "${sha}" ]] || die "${tarball}: sha256 ${actual}, expected ${sha}"
  mkdir -p "${work}/unpacked"
  tar -xf "${work}/${tarball}" -C "${work}/unpacked" --strip-components=1
  local required
  for required in ${files}; do
    [[ -f "${work}/unpacked/${required}" ]] || die "${tarball} lacks ${required}"
  done
  echo "${sha}" > "${work}/unpacked/.materialist-source"
  rm -rf "${target}"
  mkdir -p "$(dirname "${target}")"
  mv "${work}/unpacked" "${target}"
}

install_archive_sources() {
  local entry
  for entry in "${ARCHIVE_SOURCES[@]}"; do install_archive_source "${entry}"; done
}

# ---- 4. npm packages (exact versions and integrity hashes in package-lock.json) ----
install_npm_packages() {
  [[ -f "${REPO_ROOT}/package-lock.json" ]] || return 0
  local stamp="${REPO_ROOT}/node_modules/.materialist-lock-sha256" lock_sha
  lock_sha="$(sha256_of "${REPO_ROOT}/package-lock.json")"
  [[ -f "${stamp}" && "$(cat "${stamp}")" == "${lock_sha}" ]] && return 0
  say "npm ci"
  (cd "${REPO_ROOT}" && npm ci --no-audit --no-fund --loglevel=error > /dev/null) || die "npm ci failed"
  echo "${lock_sha}" > "${stamp}"
}

# ---- 5. the build environment ----
write_env() {
  local content
  if use_emsdk; then
    # emsdk_env.sh is not written for `set -u` callers: relax it while sourcing.
    content="# Generated by emsdk-setup.sh: the official emsdk.
export EMSDK='${EMSDK}'
case \$- in
  *u*) set +u; source \"\${EMSDK}/emsdk_env.sh\" > /dev/null 2>&1; set -u ;;
  *) source \"\${EMSDK}/emsdk_env.sh\" > /dev/null 2>&1 ;;
esac"
  else
    content="# Generated by emsdk-setup.sh: Debian's emscripten finds its node modules (acorn) here.
export NODE_PATH=\"/usr/share/nodejs\${NODE_PATH:+:\${NODE_PATH}}\""
  fi
  mkdir -p "$(dirname "${ENV_FILE}")"
  if [[ ! -f "${ENV_FILE}" || "$(cat "${ENV_FILE}")" != "${content}" ]]; then
    echo "${content}" > "${ENV_FILE}"
  fi
}

check_emscripten() {
  # shellcheck disable=SC1090
  source "${ENV_FILE}"
  command -v em++ > /dev/null || die "em++ not found after setup"
  local version
  version="$(em++ --version 2>&1)" || die "em++ does not run: ${version}"
  [[ "${version}" == *emcc* ]] || die "unexpected 'em++ --version' output: ${version}"
}

install_packages
install_imgui
install_archive_sources
write_env
check_emscripten
[[ "${WEB_ONLY}" == 0 ]] && install_npm_packages
if [[ "${DID_WORK}" == 1 ]]; then
  echo "emsdk-setup: done. For em++/emcmake by hand: source build/env.sh" >&2
fi
exit 0
