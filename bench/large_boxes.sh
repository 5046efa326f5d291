#!/usr/bin/env bash
# Large boxes of monocubes (issue 35, item 3): a box of X x Y x Z cells filled by one monocube with
# "count": X*Y*Z, solved on one thread and on the default threads. Prints, per box and per
# binary, the search's own line (nodes, seconds) and the whole run's CPU seconds, wall seconds
# and peak memory, the median of RUNS (3) runs taken in turn (binary A, binary B, A, B...).
#   bench/large_boxes.sh [CUBEX_A] [CUBEX_B]      BOXES="100x100x10 100x100x100" RUNS=1 ...
# TIMEOUT (900) ends a run after that many seconds (its line then shows the nodes reached).
# EXTRA adds options to every run (default --symmetry none: the search alone; the symmetry of a
# million-cell box is found before the search, see bench/results/large-boxes.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bins=("${1:-build/cubex}")
[ $# -ge 2 ] && bins+=("$2")
runs=${RUNS:-3}
boxes=${BOXES:-"50x50x50 100x100x10 100x100x100"}
extra=${EXTRA:---symmetry none}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| box | binary | threads | search line | CPU (s) | wall (s) | peak (MB) |"
echo "|---|---|---|---|---|---|---|"
for box in $boxes; do
  IFS=x read -r x y z <<<"$box"
  n=$((x * y * z))
  f="$tmp/mono_$box.json"
  printf '{"name": "monocubes %s", "kind": "voxel", "container": {"box": [%d, %d, %d]}, "pieces": [{"name": "u", "cells": [[0, 0, 0]], "count": %d}]}\n' \
    "$box" "$x" "$y" "$z" "$n" >"$f"
  for threads in 1 default; do
    declare -A cpu=() wall=() mem=() line=()
    for ((r = 0; r < runs; ++r)); do
      for b in "${bins[@]}"; do
        args=(solve "$f" $extra)
        [ "$threads" = 1 ] && args+=(--threads 1)
        /usr/bin/time -f "%U %S %e %M" -o "$tmp/time" timeout "${TIMEOUT:-900}" "$b" "${args[@]}" >"$tmp/out" 2>&1 || true
        read -r u s e m < <(tail -1 "$tmp/time") || true
        cpu[$b]+="$(echo "$u + $s" | bc -l) "
        wall[$b]+="$e "
        mem[$b]+="$((m / 1024)) "
        line[$b]=$(grep -E '^nodes:' "$tmp/out" | tail -1 || echo "(none: $(tail -1 "$tmp/out"))")
      done
    done
    for b in "${bins[@]}"; do
      c=$(tr ' ' '\n' <<<"${cpu[$b]}" | grep . | median)
      w=$(tr ' ' '\n' <<<"${wall[$b]}" | grep . | median)
      mm=$(tr ' ' '\n' <<<"${mem[$b]}" | grep . | median)
      printf "| %s | %s | %s | %s | %.2f | %.2f | %s |\n" "$box" "$b" "$threads" "${line[$b]}" "$c" "$w" "$mm"
    done
    unset cpu wall mem line
  done
done
