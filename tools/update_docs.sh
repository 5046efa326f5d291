#!/usr/bin/env bash
# Writes the table of solve's options (src/solve/options.cpp, printed by `cubex options`) into
# docs/cli.md and docs/cubex.1, between their "BEGIN options table" and "END options table"
# lines. tests/test_options_table.cpp fails when the docs differ from the table.
#   tools/update_docs.sh [CUBEX]      (default: build/cubex)
set -euo pipefail
cd "$(dirname "$0")/.."
cubex=${1:-build/cubex}
splice() {  # splice FILE CONTENT: replace the lines between the markers of FILE by CONTENT
  local file=$1 content=$2 tmp
  tmp=$(mktemp)
  CONTENT="$content" awk '
    /BEGIN options table/ { print; printf "%s", ENVIRON["CONTENT"]; skip = 1; next }
    /END options table/ { skip = 0 }
    !skip { print }' "$file" >"$tmp"
  grep -q "BEGIN options table" "$file" || { echo "update_docs.sh: $file has no markers" >&2; exit 1; }
  mv "$tmp" "$file"
}
splice docs/cli.md "$("$cubex" options --markdown)
"
splice docs/cubex.1 "$("$cubex" options --man)
"
echo "update_docs.sh: docs/cli.md and docs/cubex.1 hold the options table"
