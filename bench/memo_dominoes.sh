#!/bin/bash
# Issue 37's table: counting by memo (docs/memo.md) on the domino tilings of 8x8 .. 16x16 (voxel
# JSON and Knuth files) and the other puzzles of puzzles/memo/, with the count, the sub-problems,
# the table's bytes, CPU seconds (user + sys) and peak memory (/usr/bin/time -v), one thread.
#
#   bench/memo_dominoes.sh [--build DIR] [--symmetry MODE]
#
# Every row is counted with the default --count-by auto; the last column says what auto chose.
# Knuth's dlx6 figures for reference (issue 37, measured on this machine class): 10x10 0.01 s,
# 12x12 0.06 s, 14x14 0.43 s and 1.0 GB, 16x16 2.9 s and 4.1 GB, and wrong counts (mod 2^64) at
# 14x14 and 16x16.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=build
symmetry=none
while (($#)); do
  case $1 in
    --build) build=$2; shift 2 ;;
    --symmetry) symmetry=$2; shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--symmetry none|rotations|auto]" >&2; exit 2 ;;
  esac
done
cubex="$here/$build/cubex"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| puzzle | total | unique | states | table MiB | CPU s | peak MiB | chosen |"
echo "|---|---|---|---|---|---|---|---|"
for f in dominoes-8x8.json dominoes-10x10.json dominoes-10x10.dlx dominoes-12x12.json \
         dominoes-14x14.json dominoes-16x16.json dominoes-16x16.dlx trominoes-3x30.json \
         dominoes-2x2x20.json; do
  /usr/bin/time -v "$cubex" solve "$here/puzzles/memo/$f" --symmetry "$symmetry" --threads 1 \
    --json "$scratch/out.json" -q >/dev/null 2>"$scratch/time.txt"
  python3 - "$f" "$scratch/out.json" "$scratch/time.txt" <<'PY'
import json, re, sys
name, out, tm = sys.argv[1:]
d = json.load(open(out))
t = open(tm).read()
cpu = float(re.search(r"User time \(seconds\): ([\d.]+)", t).group(1)) + \
      float(re.search(r"System time \(seconds\): ([\d.]+)", t).group(1))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
s = d["search"]
print(f"| {name} | {d['counts']['total']} | {d['counts']['unique']} | {s.get('states', '-')} | "
      f"{s.get('table_bytes', 0) / 2**20:.0f} | {cpu:.2f} | {rss:.0f} | "
      f"{s['backend']}: {s.get('chosen', '')} |")
PY
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
