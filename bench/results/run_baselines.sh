#!/usr/bin/env bash
# Regenerates bench/results/baselines.{md,json,svg} (needs a build with -DCUBEX_BASELINES=ON).
# About 3 minutes on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
./build/cubex-baselines --time-limit 30 --all-time-limit 8 \
  --json bench/results/baselines.json --svg bench/results/baselines.svg \
  puzzles/dlx/knuth-example.dlx \
  puzzles/happycube/HC_BQ_01.hcq puzzles/happycube/HC_BQ_02.hcq puzzles/happycube/HC_BQ_03.hcq \
  puzzles/happycube/rubens_box_2x1x1.json \
  puzzles/voxel/l-tricubes.json puzzles/voxel/soma.json puzzles/voxel/pentominoes-6x10.json \
  puzzles/voxel/y-pentacubes.json puzzles/voxel/conway.json \
  | tee bench/results/baselines.md
