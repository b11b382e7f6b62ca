#!/usr/bin/env bash
# The serve command: builds the web app into dist/ (web/build-dist.sh) and serves it on
# http://localhost:${PORT:-8000} until interrupted. Python's http.server sends application/wasm.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${REPO_ROOT}"
PORT="${PORT:-8000}"

web/build-dist.sh
echo "Serving dist/ at http://localhost:${PORT}/  (Ctrl+C to stop)"
exec python3 -m http.server "${PORT}" --bind 127.0.0.1 --directory dist
