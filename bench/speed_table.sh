#!/bin/bash
# The speed table of issue 6: this engine beside Knuth's dlx1 and ssxcc (their CPU seconds from
# ../shared/data/KNOWN_COUNTS.md, measured on this machine class), and the speed-up of threads.
#
#   bench/speed_table.sh [BUILD_DIR] [REPEATS]          soma, pent6x10_sym, y25 (o0+o1+o2)
#   CUBEX_BENCH_LONG=1 bench/speed_table.sh ...         also bedlam_sym (about a minute a run)
#
# "1 thread" is the CPU time (user + sys) of `cubex solve FILE --threads 1` (reading the file
# included), the median of REPEATS runs (default 3). "N threads" is the wall-clock time with
# --threads N for N = the number of cores, and "speed-up" the 1-thread wall time over it.
# Timings depend on what else runs on the machine: report the load with them.
set -euo pipefail
build=${1:-build}
reps=${2:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
dlx=$here/puzzles/dlx
cubex=$build/cubex
cores=$(nproc)

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# time_run THREADS FILES... -> "cpu wall" summed over the files, one run each
time_run() {
  local t=$1 cpu=0 wall=0 f out
  shift
  for f in "$@"; do
    out=$( { /usr/bin/time -f "%U %S %e" "$cubex" solve "$dlx/$f" --threads "$t" >/dev/null; } 2>&1 | tail -1)
    cpu=$(awk -v a="$cpu" -v u="$(echo "$out" | cut -d' ' -f1)" -v s="$(echo "$out" | cut -d' ' -f2)" 'BEGIN{print a+u+s}')
    wall=$(awk -v a="$wall" -v e="$(echo "$out" | cut -d' ' -f3)" 'BEGIN{print a+e}')
  done
  echo "$cpu $wall"
}

row() {  # row NAME DLX1 SSXCC TARGET FILES...
  local name=$1 d1=$2 ss=$3 target=$4
  shift 4
  local cpus=() walls1=() wallsn=() r
  for ((k = 0; k < reps; k++)); do
    r=$(time_run 1 "$@"); cpus+=("${r% *}"); walls1+=("${r#* }")
    r=$(time_run "$cores" "$@"); wallsn+=("${r#* }")
  done
  local cpu w1 wn
  cpu=$(printf '%s\n' "${cpus[@]}" | median)
  w1=$(printf '%s\n' "${walls1[@]}" | median)
  wn=$(printf '%s\n' "${wallsn[@]}" | median)
  awk -v n="$name" -v d1="$d1" -v ss="$ss" -v t="$target" -v c="$cpu" -v w1="$w1" -v wn="$wn" \
    -v cores="$cores" 'BEGIN {
      printf "| %s | %s | %s | %s | %.3f | %.2fx | %.3f | %.3f | %.2fx |\n",
             n, d1, ss, t, c, ss / c, w1, wn, (wn > 0 ? w1 / wn : 0) }'
}

echo "cubex $("$cubex" --version | cut -d' ' -f2), $cores cores, $reps runs each (median), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| file | dlx1 (s) | ssxcc (s) | target (s) | cubex 1 thread, CPU (s) | vs ssxcc | 1 thread, wall (s) | $cores threads, wall (s) | speed-up |"
echo "|---|---|---|---|---|---|---|---|---|"
row soma.dlx 0.24 0.23 0.045 soma.dlx
row pent6x10_sym.dlx 2.4 1.7 0.35 pent6x10_sym.dlx
row "y25_o0 + o1 + o2" 14.9 11.8 2.4 y25_o0.dlx y25_o1.dlx y25_o2.dlx
if [[ -n "${CUBEX_BENCH_LONG:-}" ]]; then
  row bedlam_sym.dlx 165 130 26 bedlam_sym.dlx
fi
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
