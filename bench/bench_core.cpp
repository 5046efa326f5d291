// The exact-cover core on Knuth-format instances: time per full count, nodes/s and updates/s.
//   ./build/cubex_bench --benchmark_filter=Core
// Each benchmark repeats 3 times and reports the median (CPU time).
#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "cubex/core/solver.hpp"
#include "cubex/io/knuth.hpp"

namespace {

const cubex::Problem& instance(const std::string& name) {
  static std::map<std::string, cubex::KnuthFile> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    it = cache.emplace(name, cubex::read_knuth_file(CUBEX_SOURCE_DIR "/puzzles/dlx/" + name)).first;
  }
  return it->second.problem;
}

void BM_CoreCount(benchmark::State& state, const std::string& file) {
  const cubex::Problem& p = instance(file);
  cubex::Solver solver(p);
  cubex::SolveStats st;
  for (auto _ : state) {
    st = solver.count();
    benchmark::DoNotOptimize(st.solutions);
  }
  state.counters["solutions"] = static_cast<double>(st.solutions);
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(st.nodes),
                                                 benchmark::Counter::kIsIterationInvariantRate);
  state.counters["updates/s"] = benchmark::Counter(static_cast<double>(st.updates),
                                                   benchmark::Counter::kIsIterationInvariantRate);
}

void core(const char* name, const char* file) {
  benchmark::RegisterBenchmark(name, BM_CoreCount, std::string(file))
      ->Unit(benchmark::kMillisecond)
      ->Repetitions(3)
      ->ReportAggregatesOnly(true);
}

const bool registered = [] {
  core("Core/soma", "soma.dlx");
  core("Core/pent6x10_sym", "pent6x10_sym.dlx");
  core("Core/y25_o0", "y25_o0.dlx");
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
