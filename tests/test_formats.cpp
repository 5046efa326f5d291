// The format table (help and errors read it) and the compiled matrix out (`cubex compile --dlx`
// reads back with the same counts).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/formats.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/render/stl.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/voxel/read.hpp"
#include "cubex/voxel/write.hpp"
#include "test_util.hpp"
#include "voxel_helpers.hpp"
#ifdef CUBEX_WITH_BURRTOOLS
#include "cubex/burrtools/xmpuzzle.hpp"
#endif

namespace {

using cubex::Vec3;
using cubex::test::run_cubex;
using cubex::test::TempDir;

// ---- the format table
// ----------------------------------------------------------------------------

TEST(InteropFormats, HelpAndErrorReadTheTable) {
  const auto solve_help = run_cubex("solve --help");
  for (const cubex::PuzzleFormat& f : cubex::puzzle_formats()) {
    EXPECT_NE(solve_help.output.find(std::string(f.extensions)), std::string::npos) << f.extensions;
  }
  TempDir dir;
  const auto bad = run_cubex("solve '" + dir.file("x.abc", "") + "'");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find(cubex::extension_list()), std::string::npos) << bad.output;
}

// ---- the matrix out
// ------------------------------------------------------------------------------

std::uint64_t count_dlx(const std::string& path) {
  cubex::KnuthFile f = cubex::read_knuth_file(path);
  cubex::Solver s(f.problem);
  return s.count().solutions;
}

TEST(InteropCompile, DlxReadsBackWithTheSameCounts) {
  TempDir dir;
  const std::string soma = vxtest::shipped("soma.json");
  auto r = run_cubex("compile '" + soma + "' --dlx '" + dir / "none.dlx" + "' --symmetry none");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(count_dlx(dir / "none.dlx"), 11520u);
  // Every option line follows a comment naming its placement.
  const std::string text = cubex::test::slurp(dir / "none.dlx");
  std::size_t comments = 0, pos = 0;
  while ((pos = text.find("\n| piece ", pos)) != std::string::npos) ++comments, ++pos;
  auto puzzle = cubex::load_puzzle(soma);
  EXPECT_EQ(comments, puzzle->problem().num_options());
  // With the 24 rotations, one piece is fixed in one of its 24 orientations: 11,520 / 24 = 480
  // (KNOWN_COUNTS.md: soma_sym.dlx has 480), and the file is read by `cubex solve`.
  r = run_cubex("compile '" + soma + "' --dlx '" + dir / "rot.dlx" + "' --symmetry rotations");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(count_dlx(dir / "rot.dlx"), 480u);
  const auto solved = run_cubex("solve '" + dir / "rot.dlx" + "'");
  EXPECT_NE(solved.output.find("solutions: 480\n"), std::string::npos) << solved.output;
  // The restricted matrix is the one cubex searches: its solutions judged give the classes.
  const cubex::CubeGroup g = puzzle->symmetry_group(cubex::SymmetryMode::kAuto);
  cubex::SymmetricSolver sym(puzzle->problem(), g.group);
  r = run_cubex("compile '" + soma + "' --dlx '" + dir / "auto.dlx" + "' --symmetry auto");
  ASSERT_EQ(r.status, 0) << r.output;
  // The default is --symmetry none: the matrix of all the solutions.
  r = run_cubex("compile '" + soma + "' --dlx '" + dir / "default.dlx" + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(count_dlx(dir / "default.dlx"), 11520u);
  cubex::KnuthFile f = cubex::read_knuth_file(dir / "auto.dlx");
  ASSERT_EQ(f.problem.num_options(), sym.restricted().num_options());
  std::uint64_t classes = 0, total = 0;
  std::vector<cubex::OptionId> original;
  cubex::Solver(f.problem).solve([&](std::span<const cubex::OptionId> s) {
    const auto v = sym.judge(s, original);
    classes += v.orbit > 0;
    total += v.orbit;
    return true;
  });
  EXPECT_EQ(classes, 240u);
  EXPECT_EQ(total, 11520u);
}

}  // namespace
