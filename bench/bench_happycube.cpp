// Happy Cube: compiling the model and counting, for a seed cube and the 2x1x1 box.
#include <benchmark/benchmark.h>

#include "cubex/core/solver.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/io/files.hpp"

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

}  // namespace
