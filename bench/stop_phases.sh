#!/usr/bin/env bash
# The delay from SIGTERM to the end of a run, sent at several moments of a big box's run (issue
# 35, item 2: every phase stops within about a second, the preparation included). A box of
# X x Y x Z cells filled by one monocube with "count": X*Y*Z (as bench/large_boxes.sh makes it),
# solved with the default options and with --symmetry none; SIGTERM goes out AT seconds after the
# start. Prints one table row per binary, box and mode: per moment, the seconds from the signal
# to the exit and the exit status (130: interrupted; 143: killed by the signal's default action,
# before cubex caught it), or "ended first" when the run was over before the moment.
#   bench/stop_phases.sh [CUBEX_A] [CUBEX_B]     BOXES="100x100x100 100x100x10" AT="0.2 1 2 4"
set -uo pipefail
cd "$(dirname "$0")/.."
bins=("${1:-build/cubex}")
[ $# -ge 2 ] && bins+=("$2")
boxes=${BOXES:-"100x100x100 100x100x10"}
moments=${AT:-"0.2 1 2 4"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
header="| binary | box | options |"
rule="|---|---|---|"
for t in $moments; do
  header+=" SIGTERM at $t s |"
  rule+="---|"
done
echo "$header"
echo "$rule"
for box in $boxes; do
  IFS=x read -r x y z <<<"$box"
  f="$tmp/mono_$box.json"
  printf '{"name": "monocubes %s", "kind": "voxel", "container": {"box": [%d, %d, %d]}, "pieces": [{"name": "u", "cells": [[0, 0, 0]], "count": %d}]}\n' \
    "$box" "$x" "$y" "$z" "$((x * y * z))" >"$f"
  for mode in default none; do
    for b in "${bins[@]}"; do
      row="| $b | $box | $mode |"
      for t in $moments; do
        args=(solve "$f")
        [ "$mode" = none ] && args+=(--symmetry none)
        "$b" "${args[@]}" >"$tmp/out" 2>&1 &
        pid=$!
        sleep "$t"
        sent=$(now)
        if kill -TERM "$pid" 2>/dev/null; then
          wait "$pid"
          rc=$?
          row+=" $(printf '%.2f' "$(echo "$(now) - $sent" | bc -l)") s ($rc) |"
        else
          wait "$pid"
          row+=" ended first |"
        fi
      done
      echo "$row"
    done
  done
done
