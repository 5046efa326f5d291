// The 2x2x2 cube: building the distance table, and solving once it exists (microseconds).
#include <benchmark/benchmark.h>

#include <random>

#include "cubex/pocket/cube.hpp"
#include "cubex/pocket/table.hpp"

namespace pk = cubex::pocket;

namespace {

const pk::DistanceTable& table(pk::Metric m) {
  static const pk::DistanceTable htm = pk::DistanceTable::build(pk::Metric::kHalfTurn);
  static const pk::DistanceTable qtm = pk::DistanceTable::build(pk::Metric::kQuarterTurn);
  return m == pk::Metric::kHalfTurn ? htm : qtm;
}

// 1,000 random states (uniform over all 3,674,160).
const std::vector<std::uint32_t>& random_states() {
  static const std::vector<std::uint32_t> states = [] {
    std::mt19937 rng(42);
    std::vector<std::uint32_t> v(1000);
    for (auto& s : v) s = rng() % pk::kNumStates;
    return v;
  }();
  return states;
}

void BM_PocketTableBuild(benchmark::State& st) {
  const auto metric = static_cast<pk::Metric>(st.range(0));
  for (auto _ : st) {
    auto t = pk::DistanceTable::build(metric);
    benchmark::DoNotOptimize(t.distance(0));
  }
  st.SetLabel(std::string(pk::metric_name(metric)));
}
BENCHMARK(BM_PocketTableBuild)->Arg(0)->Arg(1)->Iterations(2)->Unit(benchmark::kMillisecond);

// Table look-ups only: an optimal sequence for a random state.
void BM_PocketSolve(benchmark::State& st) {
  const auto metric = static_cast<pk::Metric>(st.range(0));
  const pk::DistanceTable& t = table(metric);
  const auto& states = random_states();
  std::size_t i = 0, moves = 0;
  for (auto _ : st) {
    const auto sol = t.solve(states[i++ % states.size()]);
    moves += sol.size();
    benchmark::DoNotOptimize(sol.data());
  }
  st.SetLabel(std::string(pk::metric_name(metric)));
  st.counters["moves"] = benchmark::Counter(static_cast<double>(moves) / st.iterations());
}
BENCHMARK(BM_PocketSolve)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// What `cubex pocket solve "SCRAMBLE"` does once the table is loaded: parse, turn the stickers,
// read them back, index, solve.
void BM_PocketSolveScramble(benchmark::State& st) {
  const pk::DistanceTable& t = table(pk::Metric::kHalfTurn);
  const std::string scramble = "R U2 F' R2 U' F R' U2 F2 R U'";
  for (auto _ : st) {
    pk::Facelets f = pk::solved_facelets();
    pk::apply(f, pk::parse_turns(scramble));
    const auto sol = t.solve(pk::encode(pk::from_facelets(pk::to_string(f))));
    benchmark::DoNotOptimize(sol.data());
  }
}
BENCHMARK(BM_PocketSolveScramble)->Unit(benchmark::kMicrosecond);

}  // namespace
