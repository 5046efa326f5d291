// Issue 18: BurrTools files in and out, STL meshes, the compiled matrix out, the format table.
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

// ---- BurrTools ----------------------------------------------------------------------------------
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

struct KnownXm {
  const char* file;
  std::uint64_t total, unique;
};

class InteropBurrKnown : public ::testing::TestWithParam<KnownXm> {};

// Converted to .xmpuzzle by `cubex convert`, the shipped puzzles keep their published counts
// (KNOWN_COUNTS.md: Soma 11,520 / 240, L-tricubes 5,328 / 111), and converting back to JSON too.
TEST_P(InteropBurrKnown, ConvertKeepsPublishedCounts) {
  TempDir dir;
  const std::string xm = dir / "p.xmpuzzle", js = dir / "back.json";
  auto r = run_cubex("convert '" + vxtest::shipped(GetParam().file) + "' '" + xm + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string bytes = cubex::test::slurp(xm);
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);  // gzip
  Counts c = solve_counts(xm);
  EXPECT_EQ(c.total, GetParam().total);
  EXPECT_EQ(c.unique, GetParam().unique);
  r = run_cubex("convert '" + xm + "' '" + js + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  c = solve_counts(js);
  EXPECT_EQ(c.total, GetParam().total);
  EXPECT_EQ(c.unique, GetParam().unique);
}

INSTANTIATE_TEST_SUITE_P(Shipped, InteropBurrKnown,
                         ::testing::Values(KnownXm{"soma.json", 11520, 240},
                                           KnownXm{"l-tricubes.json", 5328, 111}),
                         [](const auto& info) {
                           std::string n = info.param.file;
                           n = n.substr(0, n.find('.'));
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

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

// A file as BurrTools writes it: two problems, a hotspot, a name, groups, saved counts, a
// colour bitmap; `--problem` picks by name or number.
const char* kTwoProblems = R"(<?xml version="1.0"?>
<puzzle version="2">
 <gridType type="0"/>
 <colors/>
 <shapes>
  <voxel x="2" y="2" z="1" type="0" name="V">##_#</voxel>
  <voxel x="3" y="1" z="1" type="0" hx="1" hy="0" hz="0">###</voxel>
  <voxel x="3" y="3" z="1" type="0" name="box">#########</voxel>
  <voxel x="3" y="2" z="1" type="0">######</voxel>
 </shapes>
 <problems>
  <problem name="square" state="2" assemblies="3" solutions="2" time="0">
   <shapes>
    <shape id="1" count="3" group="1"/>
   </shapes>
   <result id="2"/>
   <bitmap/>
  </problem>
  <problem name="rect" state="0">
   <shapes>
    <shape id="0" count="2"/>
   </shapes>
   <result id="3"/>
   <bitmap/>
  </problem>
 </problems>
 <comment>test file</comment>
</puzzle>
)";

TEST(InteropBurr, ProblemsNotesAndRecordedCounts) {
  TempDir dir;
  const std::string f = dir.file("two.xmpuzzle", cubex::burrtools::gzip(kTwoProblems));
  auto r = run_cubex("solve '" + f + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  // Three I-trominoes in a 3x3 square: 2 ways, 1 up to symmetry.
  EXPECT_NE(r.output.find("solutions: 2\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("unique: 1 "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2 \"rect\""), std::string::npos) << r.output;  // the others listed
  EXPECT_NE(r.output.find("assemblies 3, solutions 2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("groups"), std::string::npos) << r.output;
  // Two V-trominoes in a 3x2 rectangle: 2 ways.
  for (const char* pick : {"2", "rect"}) {
    r = run_cubex("solve '" + f + "' --problem " + pick);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("solutions: 2\n"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("recorded"), std::string::npos) << r.output;
  }
  r = run_cubex("solve '" + f + "' --problem 3");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("1 \"square\", 2 \"rect\""), std::string::npos) << r.output;
  // Plain XML is read too.
  const std::string plain = dir.file("plain.xmpuzzle", kTwoProblems);
  EXPECT_EQ(solve_counts(plain).total, 2u);
}

struct BadXm {
  const char* name;
  std::string content;  // XML text (gzipped unless raw)
  bool raw;
  const char* expect;  // in the message
};

std::string replace(std::string s, const std::string& from, const std::string& to) {
  s.replace(s.find(from), from.size(), to);
  return s;
}

class InteropBurrBad : public ::testing::TestWithParam<BadXm> {};

TEST_P(InteropBurrBad, ExitTwoWithThePlace) {
  TempDir dir;
  const BadXm& b = GetParam();
  const std::string f =
      dir.file("bad.xmpuzzle", b.raw ? b.content : cubex::burrtools::gzip(b.content));
  const auto r = run_cubex("solve '" + f + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find(b.expect), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("bad.xmpuzzle"), std::string::npos) << r.output;
}

std::vector<BadXm> bad_files() {
  const std::string good = kTwoProblems;
  const std::string gz = cubex::burrtools::gzip(good);
  return {
      {"other_grid", replace(good, "<gridType type=\"0\"/>", "<gridType type=\"3\"/>"), false,
       ":3:2: expected the cube grid (gridType 0), found gridType 3 (rhombic dodecahedra)"},
      {"truncated_gzip", gz.substr(0, gz.size() / 2), true, "cut off"},
      {"corrupt_gzip", replace(gz, gz.substr(12, 6), "xxxxxx"), true, "corrupt gzip"},
      {"bad_xml", replace(good, "</shapes>\n <problems>", "</shape>\n <problems>"), false,
       "expected well-formed XML"},
      {"unknown_shape", replace(good, "<shape id=\"1\"", "<shape id=\"9\""), false,
       ":14:5: problem 1 \"square\": expected a shape id from 0 to 3"},
      {"bad_voxel_char", replace(good, "##_#", "##x#"), false, ":6:48: shape 0: expected '_'"},
      {"short_voxel", replace(good, "##_#", "##_"), false, "expected 4 cells"},
      {"variable_piece", replace(good, "###<", "#+#<"), false, "variable cell"},
      {"min_above_max", replace(good, "count=\"3\" group", "min=\"3\" max=\"2\" group"), false,
       "min <= max"},
      {"no_puzzle", "<?xml version=\"1.0\"?><other/>", false, "expected a BurrTools <puzzle>"},
  };
}

INSTANTIATE_TEST_SUITE_P(Files, InteropBurrBad, ::testing::ValuesIn(bad_files()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(InteropBurr, MirrorCannotBeWrittenForChiralPieces) {
  TempDir dir;
  cubex::voxel::Model m = vxtest::model(
      R"({"container": {"box": [2,2,2]}, "mirror": true,
          "pieces": [{"name": "A", "cells": [[0,0,0],[0,1,0],[1,0,0],[1,0,1]]},
                     {"name": "B", "cells": [[0,0,0],[0,1,0],[0,1,1],[1,0,0]]}]})");
  EXPECT_THROW(cubex::save_model(m, dir / "m.xmpuzzle"), cubex::InputError);
  EXPECT_FALSE(std::filesystem::exists(dir / "m.xmpuzzle"));
}

#endif  // CUBEX_WITH_BURRTOOLS

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

std::string shell(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

// ---- STL ---------------------------------------------------------------------------------------

// Checks a closed, consistently oriented 2-manifold: every directed edge once, its reverse once.
// Returns the enclosed volume (positive when the normals face out).
double check_mesh(const std::vector<cubex::render::Triangle>& mesh, std::string& why) {
  using P = std::array<double, 3>;
  std::map<std::pair<P, P>, int> directed;
  double volume = 0;
  for (const auto& t : mesh) {
    for (int e = 0; e < 3; ++e) ++directed[{t.v[e], t.v[(e + 1) % 3]}];
    const P &a = t.v[0], &b = t.v[1], &c = t.v[2];
    volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
               a[2] * (b[0] * c[1] - b[1] * c[0])) /
              6;
    // The stored normal agrees with the winding.
    const P u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const P n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    if (n[0] * t.normal[0] + n[1] * t.normal[1] + n[2] * t.normal[2] <= 0)
      why = "normal against winding";
  }
  for (const auto& [e, n] : directed) {
    if (n != 1) why = "a directed edge used twice";
    auto back = directed.find({e.second, e.first});
    if (back == directed.end() || back->second != 1) why = "an edge without its twin";
  }
  return volume;
}

// The volume of the L-infinity erosion of a polycube, counted independently: each cell, each
// face-adjacent pair, each full 2x2 square and each full 2x2x2 block adds its share.
double eroded_volume(const std::vector<Vec3>& cells, double u, double g) {
  std::set<Vec3> s(cells.begin(), cells.end());
  auto has = [&](int x, int y, int z) { return s.count({x, y, z}) > 0; };
  double v = 0;
  const double a = u - g;
  for (const Vec3& c : s) {
    v += a * a * a;
    for (int d = 0; d < 3; ++d) {
      const Vec3 e{d == 0, d == 1, d == 2};
      if (s.count(c + e)) v += a * a * g;
    }
    for (int d = 0; d < 3; ++d) {  // squares in the plane normal to axis d, c as low corner
      const Vec3 e1 = d == 0 ? Vec3{0, 1, 0} : Vec3{1, 0, 0};
      const Vec3 e2 = d == 2 ? Vec3{0, 1, 0} : Vec3{0, 0, 1};
      if (s.count(c + e1) && s.count(c + e2) && s.count(c + e1 + e2)) v += a * g * g;
    }
    bool block = true;
    for (int k = 1; k < 8; ++k)
      block = block && has(c.x + (k & 1), c.y + (k >> 1 & 1), c.z + (k >> 2 & 1));
    if (block) v += g * g * g;
  }
  return v;
}

TEST(InteropStl, MeshesAreClosedManifoldsWithTheRightVolume) {
  const std::vector<std::vector<Vec3>> shapes = {
      {{0, 0, 0}},
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}},
      // Cells meeting only along an edge and at a corner, joined elsewhere.
      {{0, 0, 0}, {0, 0, 1}, {0, 1, 1}, {1, 1, 1}, {1, 1, 0}},
      {{0, 0, 0}, {1, 1, 1}, {1, 0, 0}, {1, 1, 0}},
      // A ring (a hole through the piece).
      {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {2, 1, 0}, {0, 2, 0}, {1, 2, 0}, {2, 2, 0}},
  };
  for (double gap : {0.2, 1.0}) {
    cubex::render::StlOptions opt;
    opt.unit = 10;
    opt.gap = gap;
    for (const auto& cells : shapes) {
      const auto mesh = cubex::render::cells_mesh(cells, opt);
      std::string why;
      const double v = check_mesh(mesh, why);
      EXPECT_EQ(why, "") << cells.size() << " cells";
      EXPECT_NEAR(v, eroded_volume(cells, opt.unit, gap), 1e-6);
      // Within the gap's loss of cells x unit^3: at most half the gap over the surface.
      const double full = double(cells.size()) * 1000;
      EXPECT_LT(v, full);
      EXPECT_GT(v, full - 6 * cells.size() * 100 * gap / 2);
    }
  }
}

TEST(InteropStl, RenderWritesPiecesAndAssembly) {
  TempDir dir;
  const auto r = run_cubex("render '" + vxtest::shipped("soma.json") + "' --stl '" + dir / "stl" +
                           "' --unit 20 --gap 0.5");
  ASSERT_EQ(r.status, 0) << r.output;
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir / "stl")) {
    ++files;
    const std::string data = cubex::test::slurp(e.path().string());
    ASSERT_GE(data.size(), 84u);
    std::uint32_t n = 0;
    for (int k = 0; k < 4; ++k)
      n |= std::uint32_t(static_cast<unsigned char>(data[80 + k])) << (8 * k);
    EXPECT_EQ(data.size(), 84u + 50u * n) << e.path();
    // admesh (Debian) checks the mesh where it is installed: nothing to fix.
    if (std::system("command -v admesh >/dev/null 2>&1") == 0) {
      const std::string out = shell("admesh '" + e.path().string() + "'");
      for (const char* line : {"Edges fixed", "Facets removed", "Facets added", "Facets reversed",
                               "Backwards edges", "Normals fixed", "Degenerate facets"}) {
        const std::size_t at = out.find(line);
        ASSERT_NE(at, std::string::npos) << out;
        const std::size_t colon = out.find(':', at);
        EXPECT_EQ(std::stol(out.substr(colon + 1)), 0) << e.path() << ": " << line << "\n" << out;
      }
      const bool assembly = e.path().filename() == "assembly.stl";
      EXPECT_NE(
          out.find(assembly ? "Number of parts       :     7" : "Number of parts       :     1"),
          std::string::npos)
          << out;
    }
  }
  EXPECT_EQ(files, 8u);  // 7 pieces and the assembly
}

// ---- Bevelled STL ------------------------------------------------------------------------------

struct Box3 {
  std::array<double, 3> lo, hi;
};

// The boxes whose union is a polycube eroded by `e` (L-infinity): for every block of cells
// c + {0,1}^D that the piece fills, the block's hull shrunk by e on every side (a box of
// half-width e < unit/2 touches at most two cells along an axis, so it lies in the piece exactly
// when the block of cells it touches does).
std::vector<Box3> eroded_boxes(const std::vector<Vec3>& cells, double u, double e) {
  std::set<Vec3> s(cells.begin(), cells.end());
  std::vector<Box3> out;
  for (const Vec3& c : s)
    for (int d = 0; d < 8; ++d) {
      bool full = true;
      for (int k = 0; k < 8 && full; ++k)
        if ((k & d) == k) full = s.count({c.x + (k & 1), c.y + (k >> 1 & 1), c.z + (k >> 2 & 1)});
      if (!full) continue;
      Box3 b;
      for (int a = 0; a < 3; ++a) {
        b.lo[std::size_t(a)] = c[a] * u + e;
        b.hi[std::size_t(a)] = (c[a] + 1 + (d >> a & 1)) * u - e;
      }
      out.push_back(b);
    }
  return out;
}

// L1 distance from p to the union of boxes.
double l1_distance(const std::vector<Box3>& boxes, const std::array<double, 3>& p) {
  double best = 1e300;
  for (const Box3& b : boxes) {
    double d = 0;
    for (std::size_t a = 0; a < 3; ++a) d += std::max({0.0, b.lo[a] - p[a], p[a] - b.hi[a]});
    best = std::min(best, d);
  }
  return best;
}

// The winding number of a closed mesh around p (1 inside, 0 outside), by solid angles.
double winding(const std::vector<cubex::render::Triangle>& mesh, const std::array<double, 3>& p) {
  double sum = 0;
  for (const auto& t : mesh) {
    std::array<std::array<double, 3>, 3> r;
    double len[3];
    for (int i = 0; i < 3; ++i) {
      for (int a = 0; a < 3; ++a) r[i][a] = t.v[i][a] - p[a];
      len[i] = std::sqrt(r[i][0] * r[i][0] + r[i][1] * r[i][1] + r[i][2] * r[i][2]);
    }
    auto dot = [](const auto& x, const auto& y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; };
    const double det = r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) -
                       r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0]) +
                       r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
    const double den = len[0] * len[1] * len[2] + dot(r[0], r[1]) * len[2] +
                       dot(r[1], r[2]) * len[0] + dot(r[2], r[0]) * len[1];
    sum += 2 * std::atan2(det, den);
  }
  return sum / (4 * std::acos(-1.0));
}

std::pair<std::array<double, 3>, std::array<double, 3>> bounds(
    const std::vector<cubex::render::Triangle>& mesh) {
  std::array<double, 3> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  for (const auto& t : mesh)
    for (const auto& p : t.v)
      for (std::size_t a = 0; a < 3; ++a)
        lo[a] = std::min(lo[a], p[a]), hi[a] = std::max(hi[a], p[a]);
  return {lo, hi};
}

// A box l1 x l2 x l3 grown by the octahedron of radius b: the box, its six faces pushed out by
// b, twelve edge prisms (right triangles with legs b) and eight corner tetrahedra (b^3 / 6).
double chamfered_box_volume(double l1, double l2, double l3, double b) {
  return l1 * l2 * l3 + 2 * b * (l1 * l2 + l2 * l3 + l1 * l3) + 2 * b * b * (l1 + l2 + l3) +
         4 * b * b * b / 3;
}

TEST(InteropStl, BevelledBoxesHaveTheClosedFormVolume) {
  struct Shape {
    int x, y, z;
  };
  for (const Shape s :
       {Shape{1, 1, 1}, Shape{2, 1, 1}, Shape{3, 1, 1}, Shape{2, 2, 1}, Shape{2, 2, 2}}) {
    std::vector<Vec3> cells;
    for (int x = 0; x < s.x; ++x)
      for (int y = 0; y < s.y; ++y)
        for (int z = 0; z < s.z; ++z) cells.push_back({x, y, z});
    for (double gap : {0.2, 1.0})
      for (double bevel : {0.3, 1.0, 2.5, 4.3}) {
        cubex::render::StlOptions opt;
        opt.unit = 10;
        opt.gap = gap;
        const auto sharp = cubex::render::cells_mesh(cells, opt);
        opt.bevel = bevel;
        const auto mesh = cubex::render::cells_mesh(cells, opt);
        std::string why;
        const double v = check_mesh(mesh, why);
        const std::string what = std::to_string(s.x) + "x" + std::to_string(s.y) + "x" +
                                 std::to_string(s.z) + " gap " + std::to_string(gap) + " bevel " +
                                 std::to_string(bevel);
        EXPECT_EQ(why, "") << what;
        const double a = 10 - gap, b = bevel;
        EXPECT_NEAR(v,
                    chamfered_box_volume(s.x * 10 - gap - 2 * b, s.y * 10 - gap - 2 * b,
                                         s.z * 10 - gap - 2 * b, b),
                    1e-6)
            << what;
        if (s.x * s.y * s.z == 1) {  // the cube less 12 edge prisms and 8 cut corners
          EXPECT_NEAR(v, a * a * a - 12 * (b * b / 2) * (a - 2 * b) - 8 * (b * b * b * 5 / 6),
                      1e-6);
        }
        // A bevel keeps the outer extents.
        EXPECT_EQ(bounds(mesh), bounds(sharp)) << what;
        // Merged as far as a box allows: 6 faces and 12 chamfers (2 triangles each), 8 corners.
        EXPECT_EQ(mesh.size(), 12u + 24u + 8u) << what;
      }
  }
}

// Point by point, the mesh bounds what it should: inside exactly where the core (the cells
// eroded by gap/2 + bevel) is within L1 distance `bevel`, and never outside the sharp solid.
TEST(InteropStl, BevelledMeshIsTheL1NeighbourhoodOfTheCore) {
  const std::vector<std::vector<Vec3>> shapes = {
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},                        // an L: a concave edge
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}},             // a tripod: three meet
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}},  // a 2x2 with a cell on top
      {{0, 0, 0}, {0, 0, 1}, {0, 1, 1}, {1, 1, 1}, {1, 1, 0}},  // cells touching along an edge
      {{0, 0, 0}, {1, 1, 1}, {1, 0, 0}, {1, 1, 0}},             // and at a corner
      {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {2, 1, 0}, {0, 2, 0}, {1, 2, 0}, {2, 2, 0}},
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}},  // 2x2x2 - 1
  };
  std::mt19937 rng(18);
  for (const auto& [gap, bevel] : {std::pair{0.2, 2.0}, std::pair{1.0, 3.5}}) {
    cubex::render::StlOptions opt;
    opt.unit = 10;
    opt.gap = gap;
    opt.bevel = bevel;
    for (const auto& cells : shapes) {
      const std::string what =
          std::to_string(cells.size()) + " cells, bevel " + std::to_string(bevel);
      const auto mesh = cubex::render::cells_mesh(cells, opt);
      std::string why;
      const double v = check_mesh(mesh, why);
      EXPECT_EQ(why, "") << what;
      EXPECT_LT(v, eroded_volume(cells, opt.unit, gap)) << what;
      const auto core = eroded_boxes(cells, opt.unit, gap / 2 + bevel);
      const auto sharp = eroded_boxes(cells, opt.unit, gap / 2);
      const auto [lo, hi] = bounds(mesh);
      int in = 0, mismatches = 0;
      for (int k = 0; k < 1500; ++k) {
        std::array<double, 3> p;
        for (std::size_t a = 0; a < 3; ++a)
          p[a] = std::uniform_real_distribution<double>(lo[a] - 0.5, hi[a] + 0.5)(rng);
        const double d = l1_distance(core, p);
        if (std::abs(d - bevel) < 1e-6) continue;  // on the surface
        const bool inside = winding(mesh, p) > 0.5;
        in += inside;
        mismatches += inside != (d < bevel);
        if (inside) {
          EXPECT_EQ(l1_distance(sharp, p), 0.0) << what;  // never outside the sharp solid
        }
      }
      EXPECT_EQ(mismatches, 0) << what;
      EXPECT_GT(in, 100) << what;
    }
  }
}

// Every piece of every shipped voxel puzzle, bevelled: closed, 2-manifold, outward, the same
// outer extents, less volume than the sharp piece but no more than the edges' strip can take.
TEST(InteropStl, ShippedPiecesBevelledAreClosedManifolds) {
  std::size_t pieces = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(CUBEX_SOURCE_DIR) + "/puzzles/voxel")) {
    if (e.path().extension() != ".json") continue;
    const auto doc = nlohmann::json::parse(cubex::test::slurp(e.path().string()));
    const cubex::voxel::Model m = cubex::voxel::model_from_json(doc, e.path().string());
    for (const cubex::voxel::Piece& piece : m.pieces) {
      cubex::render::StlOptions opt;
      opt.unit = 10;
      opt.gap = 0.3;
      const auto sharp = cubex::render::cells_mesh(piece.cells, opt);
      opt.bevel = 1.5;
      const auto mesh = cubex::render::cells_mesh(piece.cells, opt);
      std::string why;
      const double v = check_mesh(mesh, why), full = eroded_volume(piece.cells, 10, 0.3);
      EXPECT_EQ(why, "") << e.path() << " " << piece.name;
      EXPECT_EQ(bounds(mesh), bounds(sharp)) << e.path() << " " << piece.name;
      EXPECT_LT(v, full);
      // The strips the finer grid cuts are merged again: fewer triangles than a bevelled cube
      // (44) per cell; unmerged, Soma's V had 56 per cell.
      EXPECT_LE(mesh.size(), 44 * piece.cells.size()) << e.path() << " " << piece.name;
      // At most a strip b wide along every cell edge of every cell: 12 x b^2/2 x unit each.
      EXPECT_GT(v, full - double(piece.cells.size()) * 12 * 1.5 * 1.5 / 2 * 10);
      ++pieces;
    }
  }
  EXPECT_GT(pieces, 60u);
}

std::vector<cubex::render::Triangle> read_stl(const std::string& data) {
  std::vector<cubex::render::Triangle> mesh;
  auto f32 = [&](std::size_t at) {
    std::uint32_t x = 0;
    for (int k = 0; k < 4; ++k)
      x |= std::uint32_t(static_cast<unsigned char>(data[at + k])) << (8 * k);
    return double(std::bit_cast<float>(x));
  };
  const std::size_t n = (data.size() - 84) / 50;
  for (std::size_t i = 0; i < n; ++i) {
    cubex::render::Triangle t;
    const std::size_t at = 84 + 50 * i;
    for (std::size_t a = 0; a < 3; ++a) t.normal[a] = f32(at + 4 * a);
    for (std::size_t v = 0; v < 3; ++v)
      for (std::size_t a = 0; a < 3; ++a) t.v[v][a] = f32(at + 12 + 12 * v + 4 * a);
    mesh.push_back(t);
  }
  return mesh;
}

TEST(InteropStl, RenderBevelsVoxelPiecesAndHappyCubePlates) {
  const std::string hc = std::string(CUBEX_SOURCE_DIR) + "/puzzles/happycube/confusius.json";
  struct Case {
    std::string file, args;
    std::size_t files;  // the pieces (or plates) and the assembly
  };
  for (const auto& [file, args, want] :
       {Case{vxtest::shipped("soma.json"), " --unit 20 --gap 0.5 --bevel 2", 8},
        Case{hc, " --unit 6 --gap 0.3 --bevel 0.8", 7}}) {
    TempDir dir;
    const auto r = run_cubex("render '" + file + "' --stl '" + dir / "stl" + "'" + args);
    ASSERT_EQ(r.status, 0) << r.output;
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir / "stl")) {
      ++files;
      const auto mesh = read_stl(cubex::test::slurp(e.path().string()));
      std::string why;
      EXPECT_GT(check_mesh(mesh, why), 0) << e.path();
      EXPECT_EQ(why, "") << e.path();
      if (std::system("command -v admesh >/dev/null 2>&1") == 0) {
        const std::string out = shell("admesh '" + e.path().string() + "'");
        for (const char* line : {"Edges fixed", "Facets removed", "Facets added", "Facets reversed",
                                 "Backwards edges", "Normals fixed"}) {
          const std::size_t at = out.find(line);
          ASSERT_NE(at, std::string::npos) << out;
          EXPECT_EQ(std::stol(out.substr(out.find(':', at) + 1)), 0) << e.path() << ": " << line;
        }
      }
    }
    EXPECT_EQ(files, want) << file;
  }
}

TEST(InteropStl, RenderRefusesABevelOutOfRange) {
  TempDir dir;
  const std::string soma = vxtest::shipped("soma.json");
  for (const std::string args :
       {" --bevel -0.5", " --bevel 4.9", " --bevel 7", " --unit 4 --gap 1 --bevel 1.5",
        " --bevel nan", " --bevel 0.005"}) {
    const auto r = run_cubex("render '" + soma + "' --stl '" + dir / "stl" + "'" + args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("--bevel"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "stl")) << args;
  }
  const auto ok = run_cubex("render '" + soma + "' --stl '" + dir / "stl" + "' --bevel 4.89");
  EXPECT_EQ(ok.status, 0) << ok.output;
}

}  // namespace
