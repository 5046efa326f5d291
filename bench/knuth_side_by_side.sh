#!/bin/bash
# Issue 16's table: cubex beside Knuth's dlx1, dlx3 and ssxcc, run side by side on this machine.
#
#   bench/knuth_side_by_side.sh [options] [KNUTH_SOURCES]
#     KNUTH_SOURCES    a folder holding dlx1.w, dlx3.w, ssxcc.w and gb_flip.w (Knuth's CWEB
#                      sources), or a git directory whose HEAD has them; also $KNUTH_SRC.
#                      Without one, only cubex's column is printed.
#     --build DIR      cubex's build folder (default: build)
#     --reps N         runs of each program per file, median taken (default 3)
#     --quick          leave out the long rows (pent6x10.dlx, bedlam_sym.dlx)
#     --keep           keep the scratch folder with Knuth's programs (its path is printed)
#
# Knuth's programs are tangled (ctangle) and compiled (cc -O3 -march=native) in a scratch folder
# outside the repository (mktemp -d), deleted at the end; nothing of theirs is committed. Each
# file is run REPS times by every program in turn (cubex, dlx1 or dlx3, ssxcc, cubex, ...), and
# the median CPU time (user + sys, reading the file included) is reported, with one thread
# (`cubex solve FILE --threads 1 --quiet`). Node counts are each program's own: cubex counts the
# nodes of dlx1's tree, or of its pruned tree where it prunes (from 1024 options, and y25);
# ssxcc does not count a child that would leave an item with no option (docs/speed.md). The solution counts of all programs are compared and a mismatch
# stops the script. Timings depend on what else runs: the load is printed before and after.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=build
reps=3
quick=
keep=
src=${KNUTH_SRC:-}
while (($#)); do
  case $1 in
    --build) build=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --keep) keep=1; shift ;;
    -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "knuth_side_by_side.sh: unknown option $1" >&2; exit 2 ;;
    *) src=$1; shift ;;
  esac
done
cubex=$build/cubex
[[ -x $cubex ]] || { echo "knuth_side_by_side.sh: no $cubex (build it first)" >&2; exit 2; }
dlxdir=$here/puzzles/dlx

# ---- Knuth's programs, when their sources are at hand ----
knuth=
if [[ -n $src ]]; then
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/cubex-knuth.XXXXXX")
  if [[ -z $keep ]]; then trap 'rm -rf "$scratch"' EXIT; fi
  for w in dlx1 dlx3 ssxcc gb_flip; do
    if [[ -f $src/$w.w ]]; then
      cp "$src/$w.w" "$scratch/"
    elif git --git-dir="$src" cat-file -e "HEAD:$w.w" 2>/dev/null; then
      git --git-dir="$src" show "HEAD:$w.w" >"$scratch/$w.w"
    else
      echo "knuth_side_by_side.sh: no $w.w in $src" >&2
      exit 2
    fi
  done
  (
    cd "$scratch"
    for w in dlx1 dlx3 ssxcc gb_flip; do ctangle "./$w.w" >/dev/null; done
    for p in dlx1 dlx3 ssxcc; do ${CC:-cc} -O3 -march=native -w -o "$p" "$p.c" gb_flip.c; done
  ) || { echo "knuth_side_by_side.sh: could not build Knuth's programs in $scratch" >&2; exit 2; }
  knuth=$scratch
  [[ -n $keep ]] && echo "Knuth's programs: $scratch" >&2
fi

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# run PROG FILE -> "cpu solutions nodes" of one run
run() {
  local prog=$1 file=$2 out tf t TIMEFORMAT='%3U %3S'  # bash's time: milliseconds
  out=$(mktemp)
  tf=$(mktemp)
  if [[ $prog == cubex ]]; then
    { time "$cubex" solve "$file" --threads 1 --quiet >"$out" 2>&1; } 2>"$tf"
    t=$(awk '{print $1 + $2}' "$tf")
    echo "$t $(awk '/^solutions:/ {gsub(",", "", $2); print $2} /^nodes:/ {gsub(",", "", $2); print $2}' "$out" | paste -sd' ')"
  else
    { time "$knuth/$prog" <"$file" >/dev/null 2>"$out"; } 2>"$tf"
    t=$(awk '{print $1 + $2}' "$tf")
    echo "$t $(sed -n 's/^Altogether \([0-9]*\) solutions\{0,1\},.* \([0-9]*\) nodes.*/\1 \2/p' "$out")"
  fi
  rm -f "$out" "$tf"
}

# row NAME "PROGS" FILES... : median CPU seconds over the files summed, solutions, nodes
declare -A cpu sols nodes
row() {
  local name=$1 progs=$2
  shift 2
  local p f k r
  declare -A times
  for p in $progs; do times[$p]=; sols[$p]=0; nodes[$p]=0; done
  for ((k = 0; k < reps; k++)); do
    for p in $progs; do
      local tsum=0 s=0 n=0
      for f in "$@"; do
        r=$(run "$p" "$f")
        read -r t1 s1 n1 <<<"$r"
        tsum=$(awk -v a="$tsum" -v b="$t1" 'BEGIN {print a + b}')
        s=$((s + s1)); n=$((n + n1))
      done
      times[$p]+="$tsum "
      sols[$p]=$s; nodes[$p]=$n
    done
  done
  for p in $progs; do
    cpu[$p]=$(printf '%s\n' ${times[$p]} | median)
    if [[ ${sols[$p]} != "${sols[cubex]}" ]]; then
      echo "knuth_side_by_side.sh: $name: $p counts ${sols[$p]} solutions, cubex ${sols[cubex]}" >&2
      exit 1
    fi
  done
  local d1=- d3=- ss=- ratio=- nd="${nodes[cubex]}"
  [[ $progs == *dlx1* ]] && d1=${cpu[dlx1]}
  [[ $progs == *dlx3* ]] && d3=${cpu[dlx3]}
  [[ $progs == *ssxcc* ]] && ss=${cpu[ssxcc]}
  if [[ $progs == *ssxcc* ]]; then
    ratio=$(awk -v c="${cpu[cubex]}" -v s="$ss" 'BEGIN {printf (s > 0 ? "%.2f" : "-"), c / s}')
    nd="$nd / ${nodes[dlx1]} / ${nodes[ssxcc]}"
  elif [[ $progs == *dlx3* ]]; then
    ratio=$(awk -v c="${cpu[cubex]}" -v s="$d3" 'BEGIN {printf (s > 0 ? "%.2f of dlx3" : "-"), c / s}')
    nd="$nd / dlx3 ${nodes[dlx3]}"
  fi
  echo "| $name | ${sols[cubex]} | ${cpu[cubex]} | $d1 | $d3 | $ss | $ratio | $nd |"
}

# The CPU and which of cubex's vector loops it runs (the AVX-512 ones need AVX-512 BW, VL, VBMI,
# VBMI2 and VPOPCNTDQ; docs/design/bitset-engine.md): the same files take up to 1.6x longer without them.
cpu=$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
simd=AVX2
if grep -qw avx512_vbmi2 /proc/cpuinfo 2>/dev/null && grep -qw avx512_vpopcntdq /proc/cpuinfo; then
  simd=AVX-512
fi
echo "cubex $("$cubex" --version | cut -d' ' -f2), $(nproc) cores, $(uname -m) (${cpu:-unknown CPU}; cubex's ${simd} loops), ${reps} runs each (median), $(date -u +%Y-%m-%d)"
built=
[[ -n $knuth ]] && built="; dlx1, dlx3, ssxcc built with ${CC:-cc} -O3 -march=native"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)$built"
echo
echo "| file | solutions | cubex (s) | dlx1 (s) | dlx3 (s) | ssxcc (s) | cubex / ssxcc | nodes cubex / dlx1 / ssxcc |"
echo "|---|---|---|---|---|---|---|---|"
plain="cubex"
mult="cubex"
if [[ -n $knuth ]]; then plain="cubex dlx1 ssxcc"; mult="cubex dlx3"; fi
row soma.dlx "$plain" "$dlxdir/soma.dlx"
row pent6x10_sym.dlx "$plain" "$dlxdir/pent6x10_sym.dlx"
[[ -z $quick ]] && row pent6x10.dlx "$plain" "$dlxdir/pent6x10.dlx"
row "y25_o0+o1+o2" "$plain" "$dlxdir/y25_o0.dlx" "$dlxdir/y25_o1.dlx" "$dlxdir/y25_o2.dlx"
[[ -z $quick ]] && row bedlam_sym.dlx "$plain" "$dlxdir/bedlam_sym.dlx"
row "conway_mult.dlx (multiplicities)" "$mult" "$dlxdir/conway_mult.dlx"
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
