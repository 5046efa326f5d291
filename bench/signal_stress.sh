#!/usr/bin/env bash
# The random-signal stress test, long: SignalStress.* of build/cubex_tests (tests/
# test_signal_stress.cpp) run TIMES (100) times, ROUNDS (12, as in CI) rounds each, every run with
# its own seeds, with the 1 s bound from the signal to the exit (BOUND_S), beside BUSY (2) busy
# processes (`yes >/dev/null`) that load the machine. Prints one line per run and the number
# that passed. A round is a run of pent6x10.dlx and, when it saved a checkpoint, its resume:
# about a second of CPU, so 100 x 12 rounds take some 20 minutes on two cores.
# SEED (1000): the first run's first seed (run t starts at SEED + t * ROUNDS).
#   bench/signal_stress.sh                 TIMES=10 ROUNDS=300 BUSY=0 bench/signal_stress.sh
set -uo pipefail
cd "$(dirname "$0")/.."
times=${TIMES:-100}
rounds=${ROUNDS:-12}
busy=${BUSY:-2}
bound=${BOUND_S:-1}
first_seed=${SEED:-1000}
tests=${TESTS:-build/cubex_tests}
pids=()
for ((b = 0; b < busy; ++b)); do
  yes >/dev/null &
  pids+=($!)
done
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done' EXIT
passed=0
log=$(mktemp)
for ((t = 0; t < times; ++t)); do
  seed=$((first_seed + t * rounds))
  start=$(date +%s.%N)
  if CUBEX_SIGNAL_ROUNDS=$rounds CUBEX_SIGNAL_SEED=$seed CUBEX_SIGNAL_BOUND_S=$bound \
    "$tests" --gtest_filter='SignalStress.*' >"$log" 2>&1; then
    passed=$((passed + 1))
    echo "run $((t + 1)): passed ($rounds rounds from seed $seed, $(echo "$(date +%s.%N) - $start" | bc -l | cut -c1-6) s)"
  else
    echo "run $((t + 1)): FAILED (seed $seed)"
    grep -E "Failure|seed [0-9]+:|still running|Expected|Which is|actual" "$log" | head -20
  fi
done
rm -f "$log"
echo "passed $passed of $times runs ($rounds rounds each, bound ${bound} s, $busy busy processes)"
[ "$passed" -eq "$times" ]
