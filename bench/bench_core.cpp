// The exact-cover core on Knuth-format instances: time per full count, nodes/s and updates/s.
//   ./build/cubex_bench --benchmark_filter=Core
// Each benchmark repeats 3 times and reports the median (CPU time). Core/<file> uses the backend
// chosen automatically (the bitset one on all of these), Core/<file>/links forces dancing links.
// y25_o1, y25_o2 and bedlam_sym (minutes with links) run only with CUBEX_BENCH_LONG=1, and so does
// Core/conway_mult/links (Core/conway_mult: multiplicities, on the bitset engine of Algorithm M).
// Core/one_item_1M: a million options of one item (a million solutions, each a child of the
// root): the corner that was quadratic in the bitset backend (issue 16); target under 1 s.
// Core/<file>/plain: the bitset backend without pruning (the plain tree, dancing links' own),
// beside Core/<file>, which prunes where the rule says so (docs/design/pruning.md).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <string>
#include <utility>

#include "core/engine.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/knuth/format.hpp"

namespace {

const cubex::Problem& instance(const std::string& name) {
  static std::map<std::string, cubex::KnuthFile> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    it = cache.emplace(name, cubex::read_knuth_file(CUBEX_SOURCE_DIR "/puzzles/dlx/" + name)).first;
  }
  return it->second.problem;
}

void BM_CoreCount(benchmark::State& state, const std::string& file, cubex::Backend backend,
                  bool plain) {
  const cubex::Problem& p = instance(file);
  cubex::EngineTuning tuning;
  tuning.prune = plain ? cubex::BitsetPrune::kOff : cubex::BitsetPrune::kAuto;
  cubex::Solver solver(p, backend, tuning);
  cubex::SolveStats st;
  for (auto _ : state) {
    st = solver.count();
    benchmark::DoNotOptimize(st.solutions);
  }
  state.counters["solutions"] = static_cast<double>(st.solutions);
  state.counters["nodes"] = static_cast<double>(st.nodes);
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(st.nodes),
                                                 benchmark::Counter::kIsIterationInvariantRate);
  state.counters["updates/s"] = benchmark::Counter(static_cast<double>(st.updates),
                                                   benchmark::Counter::kIsIterationInvariantRate);
}

// One primary item and `m` options, each of that item alone.
void BM_OneItem(benchmark::State& state, cubex::Backend backend) {
  const auto m = static_cast<std::uint32_t>(state.range(0));
  cubex::Problem p;
  const cubex::ItemId a = p.add_primary("a");
  for (std::uint32_t o = 0; o < m; ++o) p.add_option({a});
  cubex::Solver solver(p, backend);
  cubex::SolveStats st;
  for (auto _ : state) {
    st = solver.count();
    benchmark::DoNotOptimize(st.solutions);
  }
  state.counters["solutions"] = static_cast<double>(st.solutions);
  state.counters["updates"] = static_cast<double>(st.updates);
}

void core(const std::string& name, const char* file, cubex::Backend backend = cubex::Backend::kAuto,
          bool plain = false) {
  benchmark::RegisterBenchmark(name.c_str(), BM_CoreCount, std::string(file), backend, plain)
      ->Unit(benchmark::kMillisecond)
      ->Repetitions(3)
      ->ReportAggregatesOnly(true);
}

const bool registered = [] {
  const bool long_runs = std::getenv("CUBEX_BENCH_LONG") != nullptr;
  core("Core/soma", "soma.dlx");
  core("Core/pent6x10_sym", "pent6x10_sym.dlx");
  core("Core/y25_o0", "y25_o0.dlx");
  core("Core/conway_mult", "conway_mult.dlx");  // multiplicities: the bitset engine of Algorithm M
  core("Core/pent6x10_sym/plain", "pent6x10_sym.dlx", cubex::Backend::kAuto, true);
  core("Core/y25_o0/plain", "y25_o0.dlx", cubex::Backend::kAuto, true);
  core("Core/soma/links", "soma.dlx", cubex::Backend::kLinks);
  core("Core/pent6x10_sym/links", "pent6x10_sym.dlx", cubex::Backend::kLinks);
  for (auto [name, backend] : {std::pair{"Core/one_item_1M", cubex::Backend::kBitset},
                               std::pair{"Core/one_item_1M/links", cubex::Backend::kLinks}}) {
    benchmark::RegisterBenchmark(name, BM_OneItem, backend)
        ->Arg(1000000)
        ->Unit(benchmark::kMillisecond)
        ->Repetitions(3)
        ->ReportAggregatesOnly(true);
  }
  if (long_runs) {
    core("Core/y25_o1", "y25_o1.dlx");
    core("Core/y25_o2", "y25_o2.dlx");
    core("Core/bedlam_sym", "bedlam_sym.dlx");
    core("Core/bedlam_sym/plain", "bedlam_sym.dlx", cubex::Backend::kAuto, true);
    core("Core/y25_o0/links", "y25_o0.dlx", cubex::Backend::kLinks);
    core("Core/conway_mult/links", "conway_mult.dlx", cubex::Backend::kLinks);
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
