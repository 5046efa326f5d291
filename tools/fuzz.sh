#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz_*.cpp) with clang, ASan and UBSan in build-fuzz, and
# runs each one on its seed corpus (tests/fuzz/corpus/TARGET) and then on new inputs for a bounded
# time. A crash, a sanitizer report, a leak or a hang fails the script; the input that did it is
# left in build-fuzz/artifacts/ (add it to a regression test, see tests/test_fuzz_corpus.cpp).
#
#   tools/fuzz.sh             every target, FUZZ_SECONDS (default 8) each, JOBS (default 2) at a time
#   tools/fuzz.sh fuzz_knuth  only the targets named
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-8}"
jobs="${JOBS:-2}"
# FUZZ_BUILD_DIR: an existing build with -DCUBEX_FUZZ=ON to use (tools/test.sh passes
# build-asan, whose sanitizer suite was built by clang with the fuzzers); else build-fuzz.
build="${FUZZ_BUILD_DIR:-build-fuzz}"

if ! command -v clang++ >/dev/null; then
  echo "fuzz.sh: clang++ not found (Debian: apt-get install clang libclang-rt-dev)" >&2
  exit 2
fi
if [ -z "${FUZZ_BUILD_DIR:-}" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUBEX_FUZZ=ON \
    -DCUBEX_TESTS=OFF -DCUBEX_BENCH=OFF >/dev/null
fi
targets=("$@")
if ((${#targets[@]} == 0)); then
  for src in tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$src" .cpp)"); done
fi
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

mkdir -p "$build/artifacts"
# fuzz_one TARGET: FUZZ_SECONDS of TARGET; says how it went, and leaves its exit status in
# $build/TARGET.status.
fuzz_one() {
  local t=$1 work="$build/corpus/$1" start=$SECONDS runs exe="$build/$1"
  [[ $exe == /* ]] || exe="./$exe"
  # New inputs go to a scratch folder; the seed corpus in the repository is only read.
  mkdir -p "$work"
  if "$exe" "$work" "tests/fuzz/corpus/$t" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$t-" >"$build/$t.log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/$t.log" | grep -o '[0-9]*$' || true)
    echo "fuzz.sh: $t clean: ${runs:-?} inputs in $((SECONDS - start)) s"
    echo 0 >"$build/$t.status"
  else
    { echo "fuzz.sh: $t FAILED (log: $build/$t.log):"
      grep -E 'ERROR|SUMMARY|property failed|unexpected exception|Test unit written' \
        "$build/$t.log" | head -20 || true; } >&2
    echo 1 >"$build/$t.status"
  fi
}
# JOBS targets at a time, each a single process: every target still gets FUZZ_SECONDS of a core.
for t in "${targets[@]}"; do
  rm -f "$build/$t.status"
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  fuzz_one "$t" &
done
wait
status=0
for t in "${targets[@]}"; do
  [ "$(cat "$build/$t.status" 2>/dev/null)" = 0 ] || status=1
done
exit $status
