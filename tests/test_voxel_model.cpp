// The voxel model's ranges, holes and colours against an independent brute-force counter, the
// symmetry group keeping totals, and the round trips through JSON and BurrTools files keeping
// everything.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <nlohmann/json.hpp>
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

// ---- an independent brute-force counter for small puzzles with ranges, holes and colours -----
// Orientations are the closure of the shape under two quarter turns (found by search, not the
// library's table); identical copies are chosen as increasing index combinations.
struct BCell {
  Vec3 p;
  int colour = 0;
  friend auto operator<=>(const BCell&, const BCell&) = default;
};
using BShape = std::vector<BCell>;

BShape bnorm(BShape s) {
  Vec3 lo = s[0].p;
  for (const BCell& c : s)
    lo = {std::min(lo.x, c.p.x), std::min(lo.y, c.p.y), std::min(lo.z, c.p.z)};
  for (BCell& c : s) c.p = c.p - lo;
  std::sort(s.begin(), s.end());
  return s;
}

std::set<BShape> brotations(const BShape& s) {
  std::set<BShape> seen{bnorm(s)};
  std::vector<BShape> todo{bnorm(s)};
  while (!todo.empty()) {
    BShape t = todo.back();
    todo.pop_back();
    BShape a = t, b = t;
    for (BCell& c : a) c.p = {c.p.x, -c.p.z, c.p.y};  // quarter turn about x
    for (BCell& c : b) c.p = {-c.p.y, c.p.x, c.p.z};  // quarter turn about z
    for (BShape n : {bnorm(a), bnorm(b)})
      if (seen.insert(n).second) todo.push_back(n);
  }
  return seen;
}

struct BPuzzle {
  std::map<Vec3, std::pair<bool, int>> cells;  // optional?, colour
  struct Kind {
    BShape shape;
    int lo, hi;
  };
  std::vector<Kind> kinds;
  std::vector<std::pair<int, int>> pairs;  // allowed colour pairs
  bool coloured = false;
  int max_holes = -1;

  bool allowed(int p, int r) const {
    if (!coloured || p == 0 || r == 0) return true;
    return std::find(pairs.begin(), pairs.end(), std::pair{p, r}) != pairs.end();
  }

  std::uint64_t count() const {
    if (!coloured) {  // colours do not count: they tell no orientations apart
      BPuzzle plain = *this;
      plain.coloured = true;
      plain.pairs.clear();
      for (auto& [c, v] : plain.cells) v.second = 0;
      for (Kind& k : plain.kinds)
        for (BCell& c : k.shape) c.colour = 0;
      return plain.count();
    }
    std::vector<std::vector<std::vector<Vec3>>> places(kinds.size());
    Vec3 hi{};
    for (const auto& [c, v] : cells)
      hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
    for (std::size_t k = 0; k < kinds.size(); ++k)
      for (const BShape& o : brotations(kinds[k].shape))
        for (int z = -3; z <= hi.z; ++z)
          for (int y = -3; y <= hi.y; ++y)
            for (int x = -3; x <= hi.x; ++x) {
              std::vector<Vec3> cs;
              bool ok = true;
              for (const BCell& c : o) {
                const Vec3 q = c.p + Vec3{x, y, z};
                auto it = cells.find(q);
                ok = ok && it != cells.end() && allowed(c.colour, it->second.second);
                cs.push_back(q);
              }
              if (ok) places[k].push_back(cs);
            }
    std::set<Vec3> used;
    return go(places, 0, 0, 0, used);
  }

  std::uint64_t go(const std::vector<std::vector<std::vector<Vec3>>>& places, std::size_t k,
                   std::size_t from, int taken, std::set<Vec3>& used) const {
    std::uint64_t n = 0;
    if (k == kinds.size()) {
      int holes = 0;
      for (const auto& [c, v] : cells) {
        if (used.count(c)) continue;
        if (!v.first) return 0;
        ++holes;
      }
      return max_holes < 0 || holes <= max_holes ? 1 : 0;
    }
    if (taken >= kinds[k].lo) n += go(places, k + 1, 0, 0, used);  // no more of this kind
    if (taken == kinds[k].hi) return n;
    for (std::size_t i = from; i < places[k].size(); ++i) {
      const auto& cs = places[k][i];
      if (std::any_of(cs.begin(), cs.end(), [&](const Vec3& c) { return used.count(c) > 0; }))
        continue;
      for (const Vec3& c : cs) used.insert(c);
      n += go(places, k, i + 1, taken + 1, used);
      for (const Vec3& c : cs) used.erase(c);
    }
    return n;
  }
};

// The same puzzle as a voxel model.
cubex::voxel::Model to_model(const BPuzzle& b) {
  cubex::voxel::Model m;
  m.name = "brute";
  for (const auto& [c, v] : b.cells) {
    m.cells.push_back(c);
    m.optional.push_back(v.first);
    m.cell_colour.push_back(std::uint8_t(v.second));
  }
  for (std::size_t k = 0; k < b.kinds.size(); ++k) {
    cubex::voxel::Piece p;
    p.name = "K" + std::to_string(k);
    for (const BCell& c : b.kinds[k].shape) {
      p.cells.push_back(c.p);
      p.colours.push_back(std::uint8_t(c.colour));
    }
    p.count = b.kinds[k].hi;
    p.min_count = b.kinds[k].lo;
    m.pieces.push_back(p);
  }
  m.coloured = b.coloured;
  m.colour_pairs = b.pairs;
  m.max_holes = b.max_holes;
  cubex::voxel::canonicalize(m);
  return m;
}

std::uint64_t engine_count(const cubex::voxel::Model& m) {
  return vxtest::count(m);
}

// Ranges: a 2x2x2 box from up to 4 dominoes, up to 2 L-trominoes and up to 2 single cubes.
BPuzzle ranges_puzzle() {
  BPuzzle b;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) b.cells[{x, y, z}] = {false, 0};
  b.kinds.push_back({{{{0, 0, 0}}, {{1, 0, 0}}}, 0, 4});
  b.kinds.push_back({{{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}}, 1, 2});
  b.kinds.push_back({{{{0, 0, 0}}}, 0, 2});
  return b;
}

// Holes: a 3x3x1 tray of optional cells, L-trominoes 0..3 and dominoes 1..2, at most 2 holes.
BPuzzle holes_puzzle() {
  BPuzzle b;
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) b.cells[{x, y, 0}] = {true, 0};
  b.kinds.push_back({{{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}}, 0, 3});
  b.kinds.push_back({{{{0, 0, 0}}, {{1, 0, 0}}}, 1, 2});
  b.max_holes = 2;
  return b;
}

// Colours: a 4x2 chequered board (colours 1, 2) from four two-coloured dominoes, colour k only
// on colour k, plus a neutral 2x2x1 box on top of which a one-coloured domino may lie anywhere.
BPuzzle colour_puzzle() {
  BPuzzle b;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) b.cells[{x, y, 0}] = {false, 1 + (x + y) % 2};
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x) b.cells[{x, y, 1}] = {false, 0};
  b.kinds.push_back({{{{0, 0, 0}, 1}, {{1, 0, 0}, 2}}, 4, 4});
  b.kinds.push_back({{{{0, 0, 0}, 1}, {{1, 0, 0}, 1}}, 2, 2});
  b.coloured = true;
  b.pairs = {{1, 1}, {2, 2}};
  return b;
}

TEST(InteropModel, RangesMatchBruteForce) {
  const BPuzzle b = ranges_puzzle();
  const std::uint64_t want = b.count();
  EXPECT_GT(want, 10u);
  EXPECT_EQ(engine_count(to_model(b)), want);
}

TEST(InteropModel, HolesMatchBruteForce) {
  BPuzzle b = holes_puzzle();
  const std::uint64_t want = b.count();
  EXPECT_GT(want, 10u);
  EXPECT_EQ(engine_count(to_model(b)), want);
  b.max_holes = -1;  // the limit matters: without it there are more
  EXPECT_GT(b.count(), want);
  EXPECT_EQ(engine_count(to_model(b)), b.count());
}

TEST(InteropModel, ColoursMatchBruteForce) {
  BPuzzle b = colour_puzzle();
  const std::uint64_t want = b.count();
  EXPECT_GT(want, 0u);
  EXPECT_EQ(engine_count(to_model(b)), want);
  b.coloured = false;  // colours ignored: more ways
  EXPECT_GT(b.count(), want);
  EXPECT_EQ(engine_count(to_model(b)), b.count());
}

// The total under the symmetry group (the sum of orbit sizes) equals the plain count: the group
// found for a coloured, ranged or holed puzzle maps solutions to solutions.
void expect_symmetry_consistent(const cubex::voxel::Model& m, std::uint64_t total) {
  auto puzzle = cubex::voxel::make_puzzle(m, "test.json");
  const cubex::CubeGroup g = puzzle->symmetry_group(cubex::SymmetryMode::kAuto);
  cubex::SymmetricSolver sym(puzzle->problem(), g.group);
  const cubex::SymmetryStats st = sym.count();
  EXPECT_EQ(st.total, total);
  EXPECT_LE(st.unique, total);
}

TEST(InteropModel, SymmetryKeepsTotals) {
  for (const BPuzzle& b : {ranges_puzzle(), holes_puzzle(), colour_puzzle()})
    expect_symmetry_consistent(to_model(b), b.count());
}

TEST(InteropModel, JsonRoundTripKeepsEverything) {
  for (const BPuzzle& b : {ranges_puzzle(), holes_puzzle(), colour_puzzle()}) {
    const cubex::voxel::Model m = to_model(b);
    const cubex::voxel::Model back =
        cubex::voxel::model_from_json(cubex::voxel::to_json(m), "round.json");
    EXPECT_EQ(back.cells, m.cells);
    EXPECT_EQ(back.cell_colour, m.cell_colour);
    EXPECT_EQ(back.max_holes, m.max_holes);
    EXPECT_EQ(back.colour_pairs, m.colour_pairs);
    EXPECT_EQ(engine_count(back), b.count());
  }
}

#ifdef CUBEX_WITH_BURRTOOLS

struct Counts {
  std::uint64_t total = 0, unique = 0;
};
Counts solve_counts(const std::string& file, const std::string& extra = "") {
  TempDir dir;
  const auto r = run_cubex("solve '" + file + "' " + extra + " --json '" + dir / "out.json" + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(cubex::test::slurp(dir / "out.json"));
  return {j["counts"]["total"].get<std::uint64_t>(), j["counts"]["unique"].get<std::uint64_t>()};
}

// Ranges, holes and colours written by the library, read back through the CLI: the brute-force
// counts, also after a second round trip through JSON.
TEST(InteropBurr, RangesHolesColoursThroughFiles) {
  TempDir dir;
  int k = 0;
  for (const BPuzzle& b : {ranges_puzzle(), holes_puzzle(), colour_puzzle()}) {
    const std::string xm = dir / ("p" + std::to_string(k) + ".xmpuzzle");
    const std::string js = dir / ("p" + std::to_string(k++) + ".json");
    cubex::save_model(to_model(b), xm);
    const std::uint64_t want = b.count();
    EXPECT_EQ(solve_counts(xm, "--symmetry none").total, want) << xm;
    EXPECT_EQ(solve_counts(xm).total, want) << xm;
    ASSERT_EQ(run_cubex("convert '" + xm + "' '" + js + "'").status, 0);
    EXPECT_EQ(solve_counts(js).total, want) << js;
  }
}

// `convert` to JSON draws the container and the pieces as `layers` (rows over x of '#', '+' for
// an optional cell, '.'), a layer on a line, not as flat lists of cells; coloured cells stay a
// list (layers have no colours). The counts stay the same.
TEST(InteropBurr, ConvertToJsonDrawsLayers) {
  TempDir dir;
  const std::string xm = dir / "h.xmpuzzle", js = dir / "h.json";
  const BPuzzle holes = holes_puzzle();
  cubex::save_model(to_model(holes), xm);
  ASSERT_EQ(run_cubex("convert '" + xm + "' '" + js + "'").status, 0);
  const std::string text = cubex::test::slurp(js);
  const auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["container"], nlohmann::json::parse(R"({"layers": [["+++", "+++", "+++"]]})"))
      << text;
  ASSERT_EQ(j["pieces"].size(), 2u) << text;
  for (const auto& p : j["pieces"]) {
    EXPECT_TRUE(p.contains("layers")) << text;
    EXPECT_FALSE(p.contains("cells")) << text;
  }
  EXPECT_NE(text.find("[\"+++\", \"+++\", \"+++\"]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[\"##\", \"#.\"]\n"), std::string::npos) << text;  // the L tromino
  EXPECT_EQ(solve_counts(js).total, holes.count());
  const BPuzzle colour = colour_puzzle();
  cubex::save_model(to_model(colour), xm);
  ASSERT_EQ(run_cubex("convert '" + xm + "' '" + js + "'").status, 0);
  const auto c = nlohmann::json::parse(cubex::test::slurp(js));
  EXPECT_TRUE(c["container"].contains("cells")) << c;
  EXPECT_TRUE(c["container"].contains("colours")) << c;
  EXPECT_EQ(solve_counts(js).total, colour.count());
}

#endif  // CUBEX_WITH_BURRTOOLS

}  // namespace
