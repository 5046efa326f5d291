#!/bin/bash
# Issue 36's table: `cubex solve --disassemble` beside BurrTools' `burrTxt -d`, side by side.
#
#   bench/disassembly_vs_burrtools.sh [options] BURRTXT EXAMPLES
#     BURRTXT        burrTxt built from BurrTools' sources (outside this repository)
#     EXAMPLES       BurrTools' examples/ folder (the seven cube-grid files are read from it)
#     --build DIR    cubex's build folder (default: build)
#     --reps N       runs of each program per file, median taken (default 3)
#     --random N     also N random small puzzles (pieces in a cage with an opening, written as
#                    voxel JSON and converted with `cubex convert`), counts and levels compared
#                    (default 20; 0: none)
#
# Both run with one thread (`cubex solve FILE --disassemble --threads 1`); the time is the CPU
# time (user + sys) of the whole run, reading and assembling included, the median of REPS runs
# (the four programs of a file run in turn, REPS rounds);
# the columns "asm" are the same runs without disassembling (`burrTxt` without -d, cubex without
# --disassemble), so that the difference is the disassembly's. The counts (assemblies, those that
# come apart) and the levels (as a multiset) of both programs are compared; a mismatch is
# printed and the script exits 1 at the end. Timings depend on what else runs: the load is
# printed before and after.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=build
reps=3
random=20
while (($#)); do
  case $1 in
    --build) build=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --random) random=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
(($# == 2)) || { sed -n '2,20p' "$0"; exit 2; }
burrtxt=$1
examples=$2
cubex="$here/$build/cubex"
[[ -x $cubex ]] || { echo "no $cubex: build the cubex target first" >&2; exit 2; }
[[ -x $burrtxt ]] || { echo "no burrTxt at $burrtxt" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cpu CMD...: the CPU seconds (user + sys, from getrusage) of one run; its output is left in
# $tmp/out.
cpu() {
  python3 -c '
import resource, subprocess, sys
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as out:
    subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.STDOUT)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.4f" % (r.ru_utime + r.ru_stime - r0.ru_utime - r0.ru_stime))' "$tmp/out" "$@"
}
# med T...: the median of the times T.
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# burrTxt's "assemblies solutions", and its levels ("LEVELxCOUNT ...", sorted), from $tmp/out.
burr_counts() { { grep -o '[0-9]* assemblies and [0-9]* solutions' "$tmp/out" || echo "? ? ? ?"; } | awk '{print $1, $4}'; }
burr_levels() { { grep '^level: ' "$tmp/out" || true; } | sed 's/^level: //' | sort | uniq -c | awk '{print $2 "x" $1}' | sort | tr '\n' ' ' | sed 's/ $//'; }
cubex_counts() {
  python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["counts"]
print(c["unique"], c["disassemblable_unique"])
levels = sorted(".".join(map(str, l["level"])) + "x" + str(l["classes"]) for l in d["disassembly"]["levels"])
print(" ".join(levels))
EOF
}

failed=0
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| file | assemblies | come apart | levels | burrTxt -d s | burrTxt asm s | cubex s | cubex asm s | cubex / burrTxt |"
echo "|---|---:|---:|---|---:|---:|---:|---:|---:|"
for name in AlPackino CubeInCage DemoMirrorParadox DemoPieceGenerator DraculasDentalDesaster PelikanBurr SolidSixPieceBurrs; do
  f="$examples/$name.xmpuzzle"
  [[ -f $f ]] || { echo "| $name | (missing) |"; continue; }
  # The four programs in turn, REPS rounds, so that a change of load touches them alike.
  t_bt=() t_bta=() t_cx=() t_cxa=()
  for ((r = 0; r < reps; ++r)); do
    t_bt+=("$(cpu "$burrtxt" -d "$f")")
    cp "$tmp/out" "$tmp/burr.out"
    t_bta+=("$(cpu "$burrtxt" "$f")")
    t_cx+=("$(cpu "$cubex" solve "$f" --disassemble --threads 1 --quiet --json "$tmp/c.json")")
    t_cxa+=("$(cpu "$cubex" solve "$f" --threads 1 --quiet)")
  done
  bt=$(med "${t_bt[@]}") bt_asm=$(med "${t_bta[@]}") cx=$(med "${t_cx[@]}") cx_asm=$(med "${t_cxa[@]}")
  cp "$tmp/burr.out" "$tmp/out"
  read -r b_asm b_sol < <(burr_counts)
  b_lev=$(burr_levels)
  "$cubex" solve "$f" --disassemble --threads 1 --quiet --json "$tmp/c.json" >/dev/null 2>&1
  { read -r c_asm c_sol; read -r c_lev; } < <(cubex_counts "$tmp/c.json")
  verdict=same
  if [[ "$b_asm $b_sol" != "$c_asm $c_sol" || "$b_lev" != "$c_lev" ]]; then
    verdict="DIFFER: burrTxt $b_asm/$b_sol [$b_lev] cubex $c_asm/$c_sol [$c_lev]"
    failed=1
  fi
  ratio=$(awk -v a="$cx" -v b="$bt" 'BEGIN {if (b >= 0.005) printf "%.2f", a / b; else print "-"}')
  echo "| $name | $c_asm | $c_sol | $verdict | $bt | $bt_asm | $cx | $cx_asm | $ratio |"
done

if ((random > 0)); then
  echo
  same=0 total_asm=0 total_sol=0 seen=""
  for ((k = 0; k < random; ++k)); do
    python3 - "$k" "$tmp/r.json" <<'EOF'
# A random small puzzle: k pieces of a random dissection of an inner box into k + 1 (one left
# out), in a one-cell shell with openings; the container is the shape they make.
import json, random, sys
import itertools
rng = random.Random(int(sys.argv[1]) * 7919 + 36)

def canon(cells):  # the piece up to rotation (cubex counts congruent pieces as identical)
    best = None
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = [[signs[r] if perm[r] == c else 0 for c in range(3)] for r in range(3)]
            det = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                   + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
            if det != 1: continue
            t = [tuple(sum(m[r][c] * v[c] for c in range(3)) for r in range(3)) for v in cells]
            lo = [min(v[a] for v in t) for a in range(3)]
            t = tuple(sorted(tuple(v[a] - lo[a] for a in range(3)) for v in t))
            best = t if best is None or t < best else best
    return best

while True:  # until the pieces are pairwise not congruent
    W, H, D = rng.choice([(3, 3, 1), (4, 3, 1), (3, 3, 2), (3, 2, 2)])
    k = rng.choice([3, 4])
    cells = [(x, y, z) for x in range(W) for y in range(H) for z in range(D)]
    owner = {c: p for p, c in enumerate(rng.sample(cells, k + 1))}
    nb = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
    while len(owner) < len(cells):
        c = rng.choice(cells)
        if c in owner: continue
        d = rng.choice(nb)
        n = (c[0] + d[0], c[1] + d[1], c[2] + d[2])
        if n in owner: owner[c] = owner[n]
    pieces = [[[x + 1, y + 1, z + 1] for (x, y, z), o in owner.items() if o == p] for p in range(k)]
    if len(set(canon(p) for p in pieces)) == k: break
sx, sy, sz = W + 2, H + 2, D + 2
size = (sx, sy, sz)
holes = []
for h in range(rng.choice([1, 2])):  # one or two openings of one or two cells in side walls
    axis = rng.randrange(2) if D == 1 else rng.randrange(3)
    hole = [0, 0, 0]
    hole[axis] = rng.choice([0, size[axis] - 1])
    for a in range(3):
        if a != axis: hole[a] = rng.randrange(1, size[a] - 1)
    holes.append(list(hole))
    b = (axis + 1) % 3
    if rng.random() < 0.5 and hole[b] + 1 < size[b] - 1:
        hole[b] += 1
        holes.append(hole)
shell = [[x, y, z] for x in range(sx) for y in range(sy) for z in range(sz)
         if (x in (0, sx - 1) or y in (0, sy - 1) or z in (0, sz - 1)) and [x, y, z] not in holes]
# A chiral tag on one corner of the shell: the shape has no symmetry, so that both programs count
# every assembly (BurrTools' quick symmetry check and cubex's classes then agree).
shell += [[sx, 0, 0], [sx, 1, 0], [sx + 1, 1, 0], [sx + 1, 1, 1]]
all_cells = shell + [c for p in pieces for c in p]
doc = {"kind": "voxel", "name": "random %s" % sys.argv[1], "container": {"cells": all_cells},
       "pieces": [{"name": "cage", "cells": shell}] +
                 [{"name": "p%d" % i, "cells": p, "distinct": True} for i, p in enumerate(pieces)]}
json.dump(doc, open(sys.argv[2], "w"))
EOF
    "$cubex" convert "$tmp/r.json" "$tmp/r.xmpuzzle" >/dev/null 2>&1 || { echo "random $k: convert failed"; failed=1; continue; }
    "$burrtxt" -d "$tmp/r.xmpuzzle" >"$tmp/out" 2>&1 || true
    read -r b_asm b_sol < <(burr_counts)
    b_lev=$(burr_levels)
    "$cubex" solve "$tmp/r.xmpuzzle" --disassemble --threads 1 --quiet --json "$tmp/c.json" >/dev/null 2>&1
    { read -r c_asm c_sol; read -r c_lev; } < <(cubex_counts "$tmp/c.json")
    total_asm=$((total_asm + c_asm)) total_sol=$((total_sol + c_sol)) seen="$seen $c_lev"
    if [[ "$b_asm $b_sol" == "$c_asm $c_sol" && "$b_lev" == "$c_lev" ]]; then
      same=$((same + 1))
    else
      echo "random $k: burrTxt $b_asm/$b_sol [$b_lev] cubex $c_asm/$c_sol [$c_lev]"
      cp "$tmp/r.json" "/tmp/disassembly-random-$k.json"
      failed=1
    fi
  done
  echo "random puzzles: $same of $random agree (assemblies, come apart, levels); $total_asm assemblies, $total_sol come apart"
  echo "levels met: $(tr ' ' '\n' <<<"$seen" | sed 's/x[0-9]*$//' | grep . | sort -u | tr '\n' ' ')"
fi
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $failed
