// Happy Cube: compiling the model and counting, for a seed cube, the 2x1x1 box and the larger
// structures of issue 17 (a row of four cubes and an L of three cubes, each from three sets),
// with and without the hole items (argument 1 / 0), counted as `cubex solve --threads 1` does
// by default: up to symmetry.
#include <benchmark/benchmark.h>

#include "cubex/core/solver.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/io/files.hpp"
#include "cubex/symmetry.hpp"

namespace {

namespace hc = cubex::happycube;

const std::string kDir = std::string(CUBEX_SOURCE_DIR) + "/puzzles/happycube/";

hc::Spec box_spec() {
  const std::string path = kDir + "rubens_box_2x1x1.json";
  return hc::parse_json(nlohmann::json::parse(cubex::read_file(path)), path);
}

void BM_HappyCubeCompileSeed(benchmark::State& state) {
  const hc::Spec spec = hc::read_hcq(kDir + "HC_BQ_01.hcq");
  for (auto _ : state) benchmark::DoNotOptimize(hc::compile(spec).problem.num_options());
}
BENCHMARK(BM_HappyCubeCompileSeed)->Unit(benchmark::kMicrosecond);

void BM_HappyCubeCountSeed(benchmark::State& state) {
  const hc::Model m =
      hc::compile(hc::read_hcq(kDir + "HC_BQ_0" + std::to_string(state.range(0)) + ".hcq"));
  for (auto _ : state) {
    cubex::Solver solver(m.problem);
    benchmark::DoNotOptimize(solver.count().solutions);
  }
}
BENCHMARK(BM_HappyCubeCountSeed)->Arg(1)->Arg(2)->Arg(3)->Unit(benchmark::kMicrosecond);

void BM_HappyCubeCountBox2x1x1(benchmark::State& state) {
  const hc::Model m = hc::compile(box_spec());
  for (auto _ : state) {
    cubex::Solver solver(m.problem);
    benchmark::DoNotOptimize(solver.count().solutions);
  }
}
BENCHMARK(BM_HappyCubeCountBox2x1x1)->Unit(benchmark::kMillisecond);

// A structure from puzzles/happycube counted up to its symmetries (rotations and reflections),
// on one thread, as `cubex solve FILE --threads 1` does; state.range(0) = 1 with the hole items,
// 0 with the point items alone (the matrix before issue 17). The counters are the counts found.
void count_structure(benchmark::State& state, const std::string& file) {
  const std::string path = kDir + file;
  const hc::Spec spec = hc::parse_json(nlohmann::json::parse(cubex::read_file(path)), path);
  const hc::Model m = hc::compile(spec, state.range(0) != 0);
  const cubex::CubeGroup g = hc::symmetry_group(m, cubex::SymmetryMode::kAuto);
  cubex::SymmetryStats st;
  for (auto _ : state) st = cubex::SymmetricSolver(m.problem, g.group).count();
  state.counters["total"] = static_cast<double>(st.total);
  state.counters["unique"] = static_cast<double>(st.unique);
  state.counters["nodes"] = static_cast<double>(st.search.nodes);
}

void BM_HappyCubeRowOfFourThreeSets(benchmark::State& state) {
  count_structure(state, "row4_three_sets.json");
}
BENCHMARK(BM_HappyCubeRowOfFourThreeSets)->Arg(1)->Arg(0)->Iterations(1)->Unit(benchmark::kSecond);

void BM_HappyCubeLOfThreeThreeSets(benchmark::State& state) {
  count_structure(state, "l3_three_sets.json");
}
BENCHMARK(BM_HappyCubeLOfThreeThreeSets)->Arg(1)->Arg(0)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace
