#!/bin/bash
# The puzzle library's slow entries: solves every puzzles/library/*.json whose "expect" says
# "bench": true (the tests solve the others, tests/test_library.cpp) and compares cubex's counts
# with the published ones.
#
#   bench/library_check.sh [BUILD_DIR]            the "bench": true entries
#   bench/library_check.sh [BUILD_DIR] --all      every entry
#   CUBEX_THREADS=N bench/library_check.sh ...    solve with --threads N (default: all cores)
#
# Prints one line per entry: agree/DISAGREE, the counts, the wall-clock seconds. Exit status 1
# when any entry disagrees or fails.
set -euo pipefail
build=${1:-build}
all=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
cubex=$build/cubex
threads=${CUBEX_THREADS:-$(nproc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for f in "$here"/puzzles/library/*.json; do
  id=$(basename "$f" .json)
  bench=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["expect"].get("bench", False))' "$f")
  if [ "$all" != "--all" ] && [ "$bench" != "True" ]; then continue; fi
  start=$(date +%s.%N)
  sym=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["expect"].get("symmetry", "auto"))' "$f")
  if ! "$cubex" solve "$f" --count --quiet --symmetry "$sym" --threads "$threads" --json "$tmp/out.json" >/dev/null 2>"$tmp/err"; then
    echo "FAILED    $id: $(cat "$tmp/err")"
    status=1
    continue
  fi
  end=$(date +%s.%N)
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.2f", b-a}')
  line=$(python3 - "$f" "$tmp/out.json" <<'PY'
import json, sys
want = json.load(open(sys.argv[1]))["expect"]
got = json.load(open(sys.argv[2]))["counts"]
ok = all(got[k] == want[k] for k in ("total", "unique") if k in want)
print(("agree" if ok else "DISAGREE") + " total %s (published %s), unique %s (published %s)" %
      (got["total"], want.get("total", "-"), got["unique"], want.get("unique", "-")))
PY
)
  echo "${line%% *} $id: ${line#* } ${secs} s"
  case $line in DISAGREE*) status=1 ;; esac
done
exit $status
