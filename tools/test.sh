#!/usr/bin/env bash
# Builds cubex and runs every test, installing missing packages first (like setup.sh):
#   1. the Release suite (build/), with the MILP/SAT baselines (-DCUBEX_BASELINES=ON: CBC and
#      CaDiCaL are installed), BurrTools files (-DCUBEX_BURRTOOLS=ON: zlib and pugixml are
#      installed, and admesh for the STL test) and the headless-Chromium viewer test (chromium is
#      installed) and the MPI mode (-DCUBEX_MPI=ON: Open MPI is installed; its tests run the CLI
#      under mpirun, as root too), then the Python module's tests and the JSON schema checks (pytest,
#      tests/python; the module is built with -DCUBEX_PYTHON=ON; test_install.py also runs
#      `pip install --no-build-isolation .` into a fresh venv, reusing build/);
#   1b. the CMake package: `cmake --install build` into build/stage, then the consumer project
#      examples/count built against it (every installed header compiled alone too) and run;
#   2. the same suite under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/,
#      -DCUBEX_SANITIZE=ON): any memory error, undefined behaviour or leak fails it. It is built
#      by clang together with the libFuzzer targets (-DCUBEX_FUZZ=ON), so the library is
#      compiled once for both;
#   3. the fuzzers, FUZZ_SECONDS (8) each, about a minute in all (tools/fuzz.sh);
#   4. the parallel tests (the search job, the CLI's threads, checkpoints, shards and merge) under
#      ThreadSanitizer (build-tsan/, clang, -DCUBEX_TSAN=ON): any data race fails it.
# CUBEX_SHARED_DIR, when set, names the shared data folder (default: ../shared/data).
#
#   tools/test.sh           all four
#   tools/test.sh --quick   the Release suite and the package check only
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done
jobs="$(nproc)"
step() { echo; echo "== test.sh: $* ($((SECONDS / 60)) min $((SECONDS % 60)) s so far)"; }

if ((quick)); then
  tools/setup.sh --deps-only --test --baselines --burrtools --python --mpi
else
  tools/setup.sh --deps-only --test --baselines --burrtools --python --mpi --fuzz
fi

shared=()
if [ -n "${CUBEX_SHARED_DIR:-}" ]; then shared=(-DCUBEX_SHARED_DIR="$CUBEX_SHARED_DIR"); fi

# Debian's interpreter, the one python3-pybind11/pytest/numpy serve (not a python3 earlier on PATH).
python=/usr/bin/python3
[ -x "$python" ] || python="$(command -v python3)"

step "Release build and suite"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCUBEX_BASELINES=ON -DCUBEX_BURRTOOLS=ON \
  -DCUBEX_MPI=ON -DCUBEX_PYTHON=ON -DPython_EXECUTABLE="$python" "${shared[@]}" >/dev/null
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure --no-tests=error -j "$jobs"

step "Python module and JSON schemas (pytest)"
# pytest's exit status 5 (no tests collected) fails this step like any other failure.
PYTHONPATH="$PWD/build/python" CUBEX_EXE="$PWD/build/cubex" "$python" -m pytest -q tests/python

step "CMake package: install into build/stage, build examples/count against it"
rm -rf build/stage build/examples-count
cmake --install build --prefix build/stage >/dev/null
cmake -S examples/count -B build/examples-count -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PWD/build/stage" -DCHECK_HEADERS=ON >/dev/null
cmake --build build/examples-count -j "$jobs"
expect() {  # expect WANTED COMMAND...: the command's output must be WANTED exactly
  local want=$1 got
  shift
  got=$("$@")
  if [ "$got" != "$want" ]; then
    echo "test.sh: $* printed '$got', expected '$want'" >&2
    exit 1
  fi
  echo "$got"
}
# The published counts (KNOWN_COUNTS.md): Soma 11,520 solutions, 240 up to the cube's 48
# symmetries; Knuth's example 1 solution; soma.dlx 11,520.
expect "Soma cube: 11520 solutions, 240 up to 48 symmetries" \
  build/examples-count/count_puzzle puzzles/voxel/soma.json
# The L of three cubes from three Happy Cube sets (counted by memo, as `cubex solve` does).
expect "L of three cubes from three Profi sets: 39098316 solutions, 9774579 up to 4 symmetries" \
  timeout 60 build/examples-count/count_puzzle puzzles/happycube/l3_three_sets.json
expect "puzzles/dlx/soma.dlx: 11520 solutions" build/examples-count/count_xc puzzles/dlx/soma.dlx
expect "puzzles/dlx/knuth-example.dlx: 1 solutions" \
  build/examples-count/count_xc puzzles/dlx/knuth-example.dlx
rm -f build/examples-count/soma.ck
expect "11520 solutions, 240 up to symmetry" \
  build/examples-count/job_checkpoint puzzles/voxel/soma.json build/examples-count/soma.ck
expect "11520 solutions, 240 up to symmetry" \
  build/examples-count/job_checkpoint puzzles/voxel/soma.json build/examples-count/soma.ck
test -x build/stage/bin/cubex && test -f build/stage/share/man/man1/cubex.1 \
  && test -f build/stage/share/doc/cubex/LICENSE || { echo "test.sh: install incomplete" >&2; exit 1; }
((quick)) && exit 0

step "ASan + UBSan build (clang, with the fuzzers) and suite"
# (Without MPI: Open MPI's own allocations would read as leaks; the MPI tests run in stage 1.)
CC=clang CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release -DCUBEX_SANITIZE=ON \
  -DCUBEX_FUZZ=ON -DCUBEX_BENCH=OFF -DCUBEX_BURRTOOLS=ON -DCUBEX_MPI=OFF "${shared[@]}" >/dev/null
cmake --build build-asan -j "$jobs"
# halt_on_error: the first report fails the test (UBSan is built with -fno-sanitize-recover too).
ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs"

step "fuzzers"
FUZZ_BUILD_DIR=build-asan FUZZ_SECONDS="${FUZZ_SECONDS:-8}" JOBS="$jobs" tools/fuzz.sh

step "ThreadSanitizer build (clang) and the parallel tests"
# (cubex_tests of the three files that hold the parallel tests only: the rest is not run here.)
CC=clang CXX=clang++ cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Release -DCUBEX_TSAN=ON -DCUBEX_MPI=OFF \
  -DCUBEX_BENCH=OFF -DCUBEX_TEST_FILES="test_core_job;test_core_cli_search;test_memo_threads" "${shared[@]}" >/dev/null
cmake --build build-tsan -j "$jobs" --target cubex cubex_tests
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --test-dir build-tsan --output-on-failure --no-tests=error -j "$jobs" \
  -R '^(MemoThreads\.|Job\.(Ordered|StopAndResume|Limit|Throwing|Foreign|Degenerate|Exchange|HeldJobs)|SearchCli\.(ThreadCounts|Shards|Tampered|LimitIs|ShardCheckpoints|SolutionsCome))'
step "all passed"
