#!/bin/bash
# Peak resident memory of `cubex solve --all --json` and `--jsonl` on a puzzle with over a
# million solutions (issue 19: under 100 MB whatever the number of solutions, since solutions
# are streamed to the output as they are found).
#
#   bench/json_memory.sh [BUILD_DIR] [ROWS COLS]
#
# The puzzle: domino tilings of a ROWS x COLS board (default 7 x 8: 1,292,697 tilings, a
# published count, OEIS A004003 / A187596), written as a Knuth-format file (items = cells,
# options = dominoes). Each run is measured with /usr/bin/time -v (maximum resident set size);
# the output goes to a file (written through the temporary file and renamed, as a user's would;
# deleted afterwards), with --threads 2; CUBEX_BENCH_LONG=1 adds --threads 1 and `--json - | wc -c`.
# Each run takes minutes on a loaded 2-core machine (the JSON of 1.3 million solutions, 1.7 GB).
set -euo pipefail
build=${1:-build}
rows=${2:-7}
cols=${3:-8}
cubex=$(cd "$build" && pwd)/cubex
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dlx=$work/dominoes-${rows}x${cols}.dlx
{
  echo "| domino tilings of a ${rows}x${cols} board"
  for ((r = 0; r < rows; r++)); do for ((c = 0; c < cols; c++)); do printf 'r%dc%d ' $r $c; done; done
  echo
  for ((r = 0; r < rows; r++)); do
    for ((c = 0; c < cols; c++)); do
      ((c + 1 < cols)) && echo "r${r}c${c} r${r}c$((c + 1))"
      ((r + 1 < rows)) && echo "r${r}c${c} r$((r + 1))c${c}"
    done
  done
} >"$dlx"

# measure LABEL ARGS...: one run, prints "LABEL  peak RSS  wall  output size"
measure() {
  local label=$1 out=$work/out rss wall size
  shift
  /usr/bin/time -v "$cubex" solve "$dlx" --all -q "$@" "$out" 2>"$work/time" >/dev/null
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time")
  size=$(stat -c %s "$out")
  printf '%-34s %8.1f MB %10s %10.1f MB\n' "$label" "$(echo "$rss / 1024" | bc -l)" "$wall" \
    "$(echo "$size / 1048576" | bc -l)"
  rm -f "$out"
}

echo "cubex solve dominoes-${rows}x${cols}.dlx --all -q ...   ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
"$cubex" solve "$dlx" --threads 2 | grep "^solutions"
printf '%-34s %11s %10s %13s\n' "flags" "peak RSS" "wall" "output"
measure "--json FILE --threads 2" --threads 2 --json
measure "--jsonl FILE --threads 2" --threads 2 --jsonl
[ -n "${CUBEX_BENCH_LONG:-}" ] || exit 0
measure "--json FILE --threads 1" --threads 1 --json
measure "--jsonl FILE --threads 1" --threads 1 --jsonl
/usr/bin/time -v "$cubex" solve "$dlx" --all -q --threads 2 --json - 2>"$work/time" | wc -c >"$work/bytes"
printf '%-34s %8.1f MB %10s %10.1f MB\n' "--json - --threads 2 | wc -c" \
  "$(echo "$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time") / 1024" | bc -l)" \
  "$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time")" \
  "$(echo "$(cat "$work/bytes") / 1048576" | bc -l)"
