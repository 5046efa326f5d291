// Disassembly against BurrTools (issue 36): the seven cube-grid examples of BurrTools' repository
// (github.com/burr-tools/burr-tools, examples/), each assembly class taken apart; the number that
// come apart and their levels must be burrTxt's. The files are not part of cubex: the test reads
// them from the folder named by CUBEX_BURRTOOLS_EXAMPLES and skips, saying so, without it.
//
// The expected figures were measured with burrTxt built from BurrTools' sources (HEAD b72a71d,
// `burrTxt -d FILE`: "N assemblies and M solutions found", one "level: ..." line per solution).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "cubex/burrtools/xmpuzzle.hpp"
#include "cubex/disassembly/disassembler.hpp"
#include "cubex/voxel/assembly.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/symmetry.hpp"

namespace {

namespace dis = cubex::disassembly;

struct Expected {
  const char* file;
  std::uint64_t assemblies;  // burrTxt's assemblies: cubex's classes
  std::uint64_t solutions;   // burrTxt's solutions: classes that come apart
  std::map<std::string, int> levels;
};

struct Found {
  std::uint64_t classes = 0, apart = 0, cut = 0;
  std::map<std::string, int> levels;
  std::string replay_error;
};

Found take_apart(const std::string& path) {
  const auto puzzle = cubex::load_puzzle(path);
  const cubex::voxel::Model model = cubex::burrtools::load_xmpuzzle_model(path, {});
  const cubex::CubeGroup g = puzzle->symmetry_group(cubex::SymmetryMode::kAuto);
  cubex::SymmetricSolver sym(puzzle->problem(), g.group);
  Found f;
  auto visit = [&](std::span<const cubex::OptionId> s, std::uint64_t) {
    ++f.classes;
    const nlohmann::json j = puzzle->solution_json(s);
    const dis::Input in = dis::voxel_input(model, j.at("placements"));
    const dis::Result r = dis::disassemble(in);
    if (r.status == dis::Status::kCut) ++f.cut;
    if (r.status != dis::Status::kApart) return true;
    ++f.apart;
    ++f.levels[r.level_text()];
    if (f.replay_error.empty()) f.replay_error = dis::replay(in, *r.tree);
    return true;
  };
  cubex::OrbitVisitor v(visit);
  sym.solve(&v);
  return f;
}

class BurrToolsExamples : public ::testing::TestWithParam<Expected> {};

TEST_P(BurrToolsExamples, CountsAndLevelsAreBurrTxts) {
  const char* dir = std::getenv("CUBEX_BURRTOOLS_EXAMPLES");
  if (!dir) GTEST_SKIP() << "set CUBEX_BURRTOOLS_EXAMPLES to BurrTools' examples/ folder";
  const std::string path = std::string(dir) + "/" + GetParam().file + ".xmpuzzle";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is missing";
  const Found f = take_apart(path);
  EXPECT_EQ(f.classes, GetParam().assemblies);
  EXPECT_EQ(f.cut, 0u);
  EXPECT_EQ(f.apart, GetParam().solutions);
  EXPECT_EQ(f.levels, GetParam().levels);
  EXPECT_EQ(f.replay_error, "");
}

INSTANTIATE_TEST_SUITE_P(
    Disassembly, BurrToolsExamples,
    ::testing::Values(
        Expected{"AlPackino", 1, 1, {{"1.1.1.1.1.2.1.3.1.2.1.2", 1}}},
        Expected{"CubeInCage", 96, 1, {{"4.9.3", 1}}},
        Expected{"DemoMirrorParadox", 1, 1, {{"1", 1}}},
        Expected{"DemoPieceGenerator", 928, 927, {{"1", 927}}},
        Expected{"DraculasDentalDesaster", 84, 1, {{"3.5.16.6.4", 1}}},
        Expected{"PelikanBurr", 12, 1, {{"98.2.4.2", 1}}},
        Expected{"SolidSixPieceBurrs", 588, 179, {{"1", 148}, {"1.2", 31}}}),
    [](const auto& info) { return std::string(info.param.file); });

}  // namespace
