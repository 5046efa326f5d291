// One-sided pieces (issue 35): the mirror image of a solution is a solution with each chiral piece
// swapped for its twin, so the unique counts follow from the group with that swap. Counts are
// checked against an independent path (every solution listed and sorted into classes by hand, or
// the total with --symmetry none).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cinttypes>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cubex/burrtools/xmpuzzle.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/limits.hpp"
#include "cubex/output/checkpoint.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"
#include "cubex/voxel/model.hpp"
#include "cubex/voxel/read.hpp"
#include "cubex/voxel/write.hpp"
#include "test_util.hpp"
using cubex::test::run_cubex;
using cubex::test::slurp;
using cubex::test::TempDir;
using nlohmann::json;

namespace {

std::string puzzle_path(const std::string& rel) {
  return std::string(CUBEX_SOURCE_DIR) + "/puzzles/" + rel;
}

// The one-sided pentominoes of puzzles/voxel/pentominoes-one-sided.json whose names `keep`
// accepts, in a box x by y.
json one_sided_pentominoes(int x, int y, bool chiral_only) {
  json doc = json::parse(slurp(puzzle_path("voxel/pentominoes-one-sided.json")));
  json pieces = json::array();
  const std::string chiral = "FLNPYZ";
  for (const json& p : doc["pieces"]) {
    const std::string name = p["name"].get<std::string>();
    if (!chiral_only || chiral.find(name[0]) != std::string::npos) pieces.push_back(p);
  }
  doc["pieces"] = pieces;
  doc["container"] = {{"box", {x, y, 1}}};
  doc["name"] = "one-sided pentominoes " + std::to_string(x) + "x" + std::to_string(y);
  return doc;
}

struct Counts {
  std::uint64_t total = 0, unique = 0, classes_by_hand = 0;
  std::size_t order = 0;
};

// The counts with the puzzle's own group (--symmetry auto), and independently: every solution
// listed (no symmetry), drawn as a grid of piece names, and sorted into classes under the
// rectangle's four symmetries in its plane, a mirror swapping each piece X with its twin X'.
Counts count_both_ways(const json& doc) {
  Counts out;
  auto puzzle = cubex::voxel::load_json(doc, "test.json");
  const cubex::CubeGroup group = puzzle->symmetry_group(cubex::SymmetryMode::kAuto);
  cubex::SymmetricSolver sym(puzzle->problem(), group.group);
  const cubex::SymmetryStats st = sym.count();
  out.total = st.total;
  out.unique = st.unique;
  out.order = st.group_order;

  const int w = doc["container"]["box"][0].get<int>(), h = doc["container"]["box"][1].get<int>();
  auto twin = [](std::string n) {
    if (n.size() == 2) return n.substr(0, 1);
    if (std::string("FLNPYZ").find(n[0]) != std::string::npos) return n + "'";
    return n;
  };
  std::set<std::vector<std::string>> classes;
  std::uint64_t listed = 0;
  cubex::Solver solver(puzzle->problem());
  solver.solve([&](std::span<const cubex::OptionId> s) {
    ++listed;
    std::vector<std::string> grid(std::size_t(w * h));
    const json sol = puzzle->solution_json(s);
    for (const json& pl : sol["placements"])
      for (const json& c : pl["cells"])
        grid[std::size_t(c[1].get<int>() * w + c[0].get<int>())] = pl["piece"].get<std::string>();
    std::vector<std::string> best;
    for (int t = 0; t < 4; ++t) {  // identity, turn by 180, mirror in x, mirror in y
      std::vector<std::string> img(grid.size());
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const int tx = (t == 1 || t == 2) ? w - 1 - x : x;
          const int ty = (t == 1 || t == 3) ? h - 1 - y : y;
          const std::string& n = grid[std::size_t(y * w + x)];
          img[std::size_t(ty * w + tx)] = t >= 2 ? twin(n) : n;
        }
      if (best.empty() || img < best) best = img;
    }
    classes.insert(best);
    return true;
  });
  EXPECT_EQ(listed, out.total);
  out.classes_by_hand = classes.size();
  return out;
}

}  // namespace

// ---- one-sided pieces: the mirror image of a solution is a solution with twins swapped ------

TEST(SymmetryOneSided, ChiralPentominoes15x4Give72And18) {
  const Counts c = count_both_ways(one_sided_pentominoes(15, 4, true));
  EXPECT_EQ(c.total, 72u);
  EXPECT_EQ(c.unique, 18u);
  EXPECT_EQ(c.classes_by_hand, 18u);
  EXPECT_EQ(c.order, 4u);  // two turns, two mirrors in the plane (each piece onto its twin)
}

TEST(SymmetryOneSided, EighteenPentominoes3x30Give184And46) {
  const Counts c = count_both_ways(one_sided_pentominoes(30, 3, false));
  EXPECT_EQ(c.total, 184u);
  EXPECT_EQ(c.unique, 46u);  // Knuth, "Dancing Links": 46 ways
  EXPECT_EQ(c.classes_by_hand, 46u);
}

TEST(SymmetryOneSided, TotalsWithoutSymmetryStayTheSame) {
  TempDir dir;
  const std::string f = dir.file("c.json", one_sided_pentominoes(15, 4, true).dump());
  const auto none = run_cubex("solve '" + f + "' --symmetry none");
  ASSERT_EQ(none.status, 0) << none.output;
  EXPECT_NE(none.output.find("solutions: 72\n"), std::string::npos) << none.output;
  const auto with = run_cubex("solve '" + f + "'");
  ASSERT_EQ(with.status, 0) << with.output;
  EXPECT_NE(with.output.find("solutions: 72\n"), std::string::npos) << with.output;
  EXPECT_NE(with.output.find("unique: 18 up to 4 symmetries"), std::string::npos) << with.output;
}

TEST(SymmetryOneSided, ChiralPieceWithoutTwinKeepsTurnsOnly) {
  // Five one-sided chiral pentominoes without their twins, 5x5: no mirror can be a symmetry.
  json doc = one_sided_pentominoes(5, 5, true);
  json pieces = json::array();
  for (const json& p : doc["pieces"])
    if (p["name"].get<std::string>().size() == 1) pieces.push_back(p);
  pieces.erase(pieces.begin() + 5, pieces.end());
  doc["pieces"] = pieces;
  auto puzzle = cubex::voxel::load_json(doc, "t.json");
  const cubex::CubeGroup g = puzzle->symmetry_group(cubex::SymmetryMode::kAuto);
  for (int k : g.symmetry) EXPECT_LT(k, 24) << "a reflection without the mirror pieces";
}
