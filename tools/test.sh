#!/usr/bin/env bash
# Builds cubex (Release) and runs every test. Installs missing packages first, like setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh --deps-only --test
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
