#!/usr/bin/env bash
# Builds cubex (Release) and runs every test. Installs missing packages first, like setup.sh,
# including CBC and CaDiCaL: CI builds the MILP/SAT baselines (-DCUBEX_BASELINES=ON) and runs their
# tests (tests/test_baselines.cpp) with the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh --deps-only --test --baselines
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCUBEX_BASELINES=ON >/dev/null
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
