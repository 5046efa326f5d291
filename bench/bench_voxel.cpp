// Voxel puzzles: compile time and solve time per shipped puzzle.
//
//   ./build/cubex_bench --benchmark_filter=Voxel
// VoxelCompile reads, checks and compiles the file (load_puzzle); VoxelCount counts every
// solution; VoxelFirst finds one. The full counts of the Y-pentacube cube (60,672) and Bedlam
// (460,464) take minutes to hours here: they are registered only with CUBEX_BENCH_LONG=1.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "cubex/core/solver.hpp"
#include "cubex/puzzle.hpp"

namespace {

std::string shipped(const std::string& file) {
  return std::string(CUBEX_SOURCE_DIR) + "/puzzles/voxel/" + file;
}

void compile(benchmark::State& state, const std::string& file) {
  for (auto _ : state) {
    auto puzzle = cubex::load_puzzle(shipped(file));
    benchmark::DoNotOptimize(puzzle->problem().num_options());
  }
}

void count(benchmark::State& state, const std::string& file) {
  auto puzzle = cubex::load_puzzle(shipped(file));
  std::uint64_t solutions = 0, nodes = 0;
  for (auto _ : state) {
    cubex::Solver solver(puzzle->problem());
    const auto st = solver.count();
    solutions = st.solutions;
    nodes = st.nodes;
  }
  state.counters["solutions"] = double(solutions);
  state.counters["nodes"] = double(nodes);
}

void first(benchmark::State& state, const std::string& file) {
  auto puzzle = cubex::load_puzzle(shipped(file));
  for (auto _ : state) {
    cubex::Solver solver(puzzle->problem());
    benchmark::DoNotOptimize(solver.first());
  }
}

const bool registered = [] {
  const char* all[] = {"l-tricubes.json",   "soma.json",          "slothouber-graatsma.json",
                       "wooden-cube-6.txt", "wooden-cube-7.json", "pentominoes-6x10.json",
                       "conway.json",       "y-pentacubes.json",  "bedlam.json"};
  const bool long_runs = std::getenv("CUBEX_BENCH_LONG") != nullptr;
  for (const char* f : all) {
    const std::string file = f;
    benchmark::RegisterBenchmark(("VoxelCompile/" + file).c_str(), compile, file)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("VoxelFirst/" + file).c_str(), first, file)
        ->Unit(benchmark::kMillisecond);
    const bool slow = file == "y-pentacubes.json" || file == "bedlam.json";
    const bool seconds = slow || file == "pentominoes-6x10.json" || file == "conway.json";
    if (slow && !long_runs) continue;
    auto* b = benchmark::RegisterBenchmark(("VoxelCount/" + file).c_str(), count, file)
                  ->Unit(benchmark::kMillisecond);
    if (seconds) b->Iterations(1);
  }
  return true;
}();

}  // namespace
