#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz_*.cpp) with clang, ASan and UBSan in build-fuzz, and
# runs each one on its seed corpus (tests/fuzz/corpus/TARGET) and then on new inputs for a bounded
# time. A crash, a sanitizer report, a leak or a hang fails the script; the input that did it is
# left in build-fuzz/artifacts/ (add it to a regression test, see tests/test_fuzz_corpus.cpp).
#
#   tools/fuzz.sh             every target, FUZZ_SECONDS (default 8) each
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
status=0
for t in "${targets[@]}"; do
  # New inputs go to a scratch folder; the seed corpus in the repository is only read.
  work="$build/corpus/$t"
  mkdir -p "$work"
  start=$SECONDS
  if "./$build/$t" "$work" "tests/fuzz/corpus/$t" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$t-" >"$build/$t.log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/$t.log" | grep -o '[0-9]*$' || true)
    echo "fuzz.sh: $t clean: ${runs:-?} inputs in $((SECONDS - start)) s"
  else
    echo "fuzz.sh: $t FAILED (log: $build/$t.log):" >&2
    grep -E 'ERROR|SUMMARY|property failed|unexpected exception|Test unit written' \
      "$build/$t.log" | head -20 >&2
    status=1
  fi
done
exit $status
