// Happy Cube: compiling the model and counting, for a seed cube, the 2x1x1 boxes and the larger
// structures of issue 17 (a row of four cubes and an L of three cubes, each from three sets),
// counted as `cubex solve --threads 1` does by default (up to symmetry), and the searches alone.
#include <benchmark/benchmark.h>

#include "cubex/core/solver.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/util/files.hpp"

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

hc::Spec structure_spec(const std::string& file) {
  const std::string path = kDir + file;
  return hc::parse_json(nlohmann::json::parse(cubex::read_file(path)), path);
}

// What `cubex solve FILE` does: compile, give the reason for no solution when a count shows one,
// else count up to the symmetries (rotations and reflections) by memo (count_classes_by_memo
// with the faces' memo_order). The counters are the counts found (all 0 with a reason) and the
// memo's states.
void solve_structure(benchmark::State& state, const std::string& file) {
  const hc::Spec spec = structure_spec(file);
  cubex::SymmetryStats st;
  bool reason = false;
  for (auto _ : state) {
    const hc::Model m = hc::compile(spec);
    reason = !m.infeasible.empty();
    if (!reason) {
      const cubex::CubeGroup g = hc::symmetry_group(m, cubex::SymmetryMode::kAuto);
      const std::vector<cubex::ItemId> order = hc::memo_order(m);
      cubex::MemoLimits limits;
      limits.order = order;
      const cubex::MemoClasses mc =
          cubex::count_classes_by_memo(cubex::SymmetricSolver(m.problem, g.group), limits);
      if (!mc.complete) state.SkipWithError(mc.why.c_str());
      st = mc.stats;
    }
  }
  state.counters["reason"] = reason;
  state.counters["total"] = static_cast<double>(st.total);
  state.counters["unique"] = static_cast<double>(st.unique);
  state.counters["nodes"] = static_cast<double>(st.search.nodes);
}

// The row of four from three sets (no solution: the corner count says so) and the L of three
// from three sets (39,098,316 solutions, 9,774,579 up to symmetry: about 2 s by memo, minutes by
// search).
void BM_HappyCubeRowOfFourThreeSets(benchmark::State& state) {
  solve_structure(state, "row4_three_sets.json");
}
BENCHMARK(BM_HappyCubeRowOfFourThreeSets)->Unit(benchmark::kMillisecond);

void BM_HappyCubeLOfThreeThreeSets(benchmark::State& state) {
  solve_structure(state, "l3_three_sets.json");
}
BENCHMARK(BM_HappyCubeLOfThreeThreeSets)->Iterations(3)->Unit(benchmark::kSecond);

void BM_HappyCubeBoxConfusiusRubens(benchmark::State& state) {
  solve_structure(state, "confusius_rubens_2x1x1.json");
}
BENCHMARK(BM_HappyCubeBoxConfusiusRubens)->Unit(benchmark::kSecond);

// Counting by search, without the reason check (the row of four: what finding no solution by
// search costs, about a minute) and, with argument 1, with the hole items (compile(spec, true)).
void search_structure(benchmark::State& state, const std::string& file) {
  const hc::Model m = hc::compile(structure_spec(file), state.range(0) != 0);
  const cubex::CubeGroup g = hc::symmetry_group(m, cubex::SymmetryMode::kAuto);
  cubex::SymmetryStats st;
  for (auto _ : state) st = cubex::SymmetricSolver(m.problem, g.group).count();
  state.counters["total"] = static_cast<double>(st.total);
  state.counters["unique"] = static_cast<double>(st.unique);
  state.counters["nodes"] = static_cast<double>(st.search.nodes);
}

void BM_HappyCubeSearchRowOfFour(benchmark::State& state) {
  search_structure(state, "row4_three_sets.json");
}
BENCHMARK(BM_HappyCubeSearchRowOfFour)->Arg(0)->Iterations(1)->Unit(benchmark::kSecond);

void BM_HappyCubeSearchBoxHoleItems(benchmark::State& state) {
  search_structure(state, "confusius_rubens_2x1x1.json");
}
BENCHMARK(BM_HappyCubeSearchBoxHoleItems)->Arg(0)->Arg(1)->Unit(benchmark::kSecond);

}  // namespace
