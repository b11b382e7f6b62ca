#!/usr/bin/env bash
# Writes docs/CLI.md's reference section anew from the option table (src/cli/option_table.cpp),
# with the CLI built at build/native/materialist (or $1). The docs doctest fails until it is run
# after a change to the table.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cli="${1:-build/native/materialist}"
begin='<!-- reference: made by `materialist help --reference` -->'
end='<!-- end of reference -->'
reference="$(mktemp)"
trap 'rm -f "${reference}"' EXIT
"${cli}" help --reference > "${reference}"
awk -v begin="${begin}" -v end="${end}" -v file="${reference}" '
  $0 == begin { print; while ((getline line < file) > 0) print line; skipping = 1; next }
  $0 == end { skipping = 0 }
  !skipping { print }
' docs/CLI.md > docs/CLI.md.new
mv docs/CLI.md.new docs/CLI.md
