// Counting up to symmetry (issue 5): the unique count of each big puzzle through the anchored
// search, as `cubex solve FILE` does by default.
//
//   ./build/cubex_bench --benchmark_filter=Symmetry
//   CUBEX_BENCH_LONG=1 ./build/cubex_bench --benchmark_filter=Symmetry/bedlam
// Y-pentacubes (1,264 of 60,672) take about 2 s; Bedlam (19,186 of 460,464) about 10 s, so it
// is registered only with CUBEX_BENCH_LONG=1. Counters: total, unique, group order, nodes.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "cubex/puzzle.hpp"
#include "cubex/symmetry.hpp"

namespace {

void unique(benchmark::State& state, const std::string& file) {
  auto puzzle = cubex::load_puzzle(std::string(CUBEX_SOURCE_DIR) + "/puzzles/" + file);
  const cubex::CubeGroup group = puzzle->symmetry_group(cubex::SymmetryMode::kAuto);
  cubex::SymmetryStats st;
  for (auto _ : state) {
    cubex::SymmetricSolver solver(puzzle->problem(), group.group);
    st = solver.count();
  }
  state.counters["total"] = double(st.total);
  state.counters["unique"] = double(st.unique);
  state.counters["group"] = double(st.group_order);
  state.counters["nodes"] = double(st.search.nodes);
}

const bool registered = [] {
  const bool long_runs = std::getenv("CUBEX_BENCH_LONG") != nullptr;
  const struct {
    const char* name;
    const char* file;
    bool slow;
  } all[] = {{"soma", "voxel/soma.json", false},
             {"l-tricubes", "voxel/l-tricubes.json", false},
             {"pentominoes-6x10", "voxel/pentominoes-6x10.json", false},
             {"conway", "voxel/conway.json", false},
             {"rubens_box_2x1x1", "happycube/rubens_box_2x1x1.json", false},
             {"y-pentacubes", "voxel/y-pentacubes.json", false},
             {"bedlam", "voxel/bedlam.json", true}};
  for (const auto& b : all) {
    if (b.slow && !long_runs) continue;
    auto* r = benchmark::RegisterBenchmark((std::string("Symmetry/") + b.name).c_str(), unique,
                                           std::string(b.file))
                  ->Unit(benchmark::kMillisecond);
    if (std::string(b.name) == "y-pentacubes" || b.slow) r->Iterations(1)->Repetitions(3);
  }
  return true;
}();

}  // namespace
