#!/usr/bin/env bash
# CPU and wall time of `cubex solve FILE` with the default threads (all cores) against
# --threads 1, for every shipped puzzle (or the files given), median of RUNS (3) runs taken in
# turn. The default must never cost more than 1.25x the CPU of one thread.
#   bench/threads_cpu.sh [CUBEX] [FILE...]        RUNS=5 bench/threads_cpu.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cubex=${1:-build/cubex}
shift || true
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=(puzzles/dlx/*.dlx puzzles/voxel/*.json puzzles/voxel/*.txt puzzles/happycube/*)
fi
runs=${RUNS:-3}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| file | CPU 1 thread (s) | CPU default (s) | ratio | wall 1 thread (s) | wall default (s) |"
echo "|---|---|---|---|---|---|"
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  c1=(); cd_=(); w1=(); wd=()
  for ((r = 0; r < runs; ++r)); do
    for mode in one all; do
      args=(solve "$f")
      [ "$mode" = one ] && args+=(--threads 1)
      t=$( { /usr/bin/time -f "%U %S %e" "$cubex" "${args[@]}" >/dev/null 2>/dev/null; } 2>&1 | tail -1)
      read -r u s e <<<"$t"
      cpu=$(echo "$u + $s" | bc -l)
      if [ "$mode" = one ]; then c1+=("$cpu"); w1+=("$e"); else cd_+=("$cpu"); wd+=("$e"); fi
    done
  done
  m1=$(printf '%s\n' "${c1[@]}" | median); md=$(printf '%s\n' "${cd_[@]}" | median)
  mw1=$(printf '%s\n' "${w1[@]}" | median); mwd=$(printf '%s\n' "${wd[@]}" | median)
  ratio=$(echo "if ($m1 > 0) $md / $m1 else 1" | bc -l)
  printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n" "$(basename "$f")" "$m1" "$md" "$ratio" "$mw1" "$mwd"
done
