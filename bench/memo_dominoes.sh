#!/bin/bash
# Issue 37's table: counting by memo (docs/memo.md) on the domino tilings of 8x8 .. 16x16 (voxel
# JSON and Knuth files) and the other puzzles of puzzles/memo/, with the count, the sub-problems,
# the table's bytes, wall and CPU seconds (user + sys) and peak memory (/usr/bin/time -v), on one
# thread unless --threads says otherwise (docs/memo.md#threads-checkpoints-shards).
#
#   bench/memo_dominoes.sh [--build DIR] [--symmetry MODE] [--threads N] [--puzzle FILE]... [--dlx6 PATH]
#
# --puzzle (repeatable) counts these files (paths under puzzles/, e.g. happycube/l3_three_sets.json)
# instead of those of puzzles/memo/.
#
# With --dlx6 (Knuth's DLX6, built from its CWEB source outside the repository: `ctangle
# dlx6.w; ctangle gb_flip.w; gcc -O3 -o dlx6 dlx6.c gb_flip.c`), a second table sets cubex
# against it on the n x n domino tilings in Knuth's format (generated here: cells rRcC row by
# row, one option per domino), the same files for both, CPU seconds and peak memory.
#
# Every row is counted with the default --count-by auto (Knuth files included: auto tries both
# ways); the last column says what was chosen.
# Knuth's dlx6 figures for reference (issue 37, measured on this machine class): 10x10 0.01 s,
# 12x12 0.06 s, 14x14 0.43 s and 1.0 GB, 16x16 2.9 s and 4.1 GB, and wrong counts (mod 2^64) at
# 14x14 and 16x16.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=build
symmetry=none
threads=1
dlx6=
files=()
while (($#)); do
  case $1 in
    --build) build=$2; shift 2 ;;
    --symmetry) symmetry=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --puzzle) files+=("$2"); shift 2 ;;
    --dlx6) dlx6=$2; shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--symmetry none|rotations|auto] [--threads N] [--puzzle FILE]... [--dlx6 PATH]" >&2; exit 2 ;;
  esac
done
if ((${#files[@]} == 0)); then
  for f in dominoes-8x8.json dominoes-10x10.json dominoes-10x10.dlx dominoes-12x12.json \
           dominoes-14x14.json dominoes-16x16.json dominoes-16x16.dlx trominoes-3x30.json \
           dominoes-2x2x20.json; do
    files+=("memo/$f")
  done
fi
cubex="$here/$build/cubex"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); --symmetry $symmetry --threads $threads"
echo "| puzzle | total | unique | states | table MiB | threads | wall s | CPU s | peak MiB | chosen |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for f in "${files[@]}"; do
  how=auto  # Knuth files too: auto tries both ways (docs/memo.md)
  /usr/bin/time -v "$cubex" solve "$here/puzzles/$f" --symmetry "$symmetry" --threads "$threads" \
    --count-by "$how" --json "$scratch/out.json" -q >/dev/null 2>"$scratch/time.txt"
  python3 - "$f" "$scratch/out.json" "$scratch/time.txt" <<'PY'
import json, re, sys
name, out, tm = sys.argv[1:]
d = json.load(open(out))
t = open(tm).read()
cpu = float(re.search(r"User time \(seconds\): ([\d.]+)", t).group(1)) + \
      float(re.search(r"System time \(seconds\): ([\d.]+)", t).group(1))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
wall = 0.0
for part in re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", t).group(1).split(":"):
    wall = wall * 60 + float(part)
s = d["search"]
print(f"| {name} | {d['counts']['total']} | {d['counts']['unique']} | {s.get('states', '-')} | "
      f"{s.get('table_bytes', 0) / 2**20:.0f} | {s['threads']} | {wall:.2f} | {cpu:.2f} | {rss:.0f} | "
      f"{s['backend']}: {s.get('chosen', '')} |")
PY
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "$dlx6" ] || exit 0

# CPU seconds (user + sys) and peak MiB of a command reading stdin from $1; its output in $scratch/out.
measure() {
  local input=$1
  shift
  /usr/bin/time -f "%U %S %M" -o "$scratch/t" "$@" <"$input" >"$scratch/out" 2>&1 || true
  awk '{printf "%.2f | %.0f", $1 + $2, $3 / 1024}' "$scratch/t"
}
echo
echo "| n x n | dlx6 count | dlx6 CPU s | dlx6 peak MiB | cubex count | cubex CPU s | cubex peak MiB |"
echo "|---|---|---|---|---|---|---|"
for n in 8 10 12 14 16; do
  f="$scratch/dominoes-$n.dlx"
  python3 - "$n" >"$f" <<'PY'
import sys
n = int(sys.argv[1])
print(" ".join(f"r{r}c{c}" for r in range(n) for c in range(n)))
for r in range(n):
    for c in range(n):
        if c + 1 < n: print(f"r{r}c{c} r{r}c{c+1}")
        if r + 1 < n: print(f"r{r}c{c} r{r+1}c{c}")
PY
  d=$(measure "$f" "$dlx6")
  dcount=$(grep -o 'Altogether [0-9]* solutions' "$scratch/out" | awk '{print $2}')
  grep -q overflowed "$scratch/out" && dcount="$dcount (overflowed)"
  c=$(measure /dev/null "$cubex" solve "$f" --symmetry none --threads 1 --json "$scratch/c.json" -q)
  ccount=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['counts']['total'])" "$scratch/c.json")
  echo "| $n | $dcount | ${d% | *} | ${d#* | } | $ccount | ${c% | *} | ${c#* | } |"
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
