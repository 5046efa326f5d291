// Happy Cube structures from more plates than faces (spare plates), the hole items, the counting
// reasons for "no solution", and unique counts: against the face-by-face brute force of
// happycube_support.hpp and orbits computed here from its solutions.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "cubex/core/solver.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/util/files.hpp"
#include "happycube_support.hpp"

namespace hc = cubex::happycube;
using cubex::Vec3;
using hc::Spec;
using hc::Tile;

namespace {

const std::vector<Vec3> kCube = {{0, 0, 0}};
const std::vector<Vec3> kBox = {{0, 0, 0}, {1, 0, 0}};
const std::vector<Vec3> kEll = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};

std::uint64_t engine_count(const Spec& spec, bool holes = false) {
  const hc::Model m = hc::compile(spec, holes);
  cubex::Solver solver(m.problem);
  return solver.count().solutions;
}

// A plate with a random border (solid centre).
Tile random_plate(int n, std::mt19937& rng) {
  Tile t(n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) t.set(r, c, t.in_centre(r, c) || rng() % 2);
  return t;
}

// The plates of two cuts of the same structure, the second set's names prefixed with "b/"
// (cut_shell names them 1, 2, ...), less `drop` plates of the second set: a solvable puzzle
// with spare plates.
Spec two_cuts(const std::vector<Vec3>& structure, unsigned seed, std::size_t drop) {
  Spec a = hc_test::cut_shell(5, structure, seed);
  const Spec b = hc_test::cut_shell(5, structure, seed + 1000);
  for (std::size_t k = 0; k + drop < b.pieces.size(); ++k) {
    hc::PieceSpec p = b.pieces[k];
    p.name = "b/" + p.name;
    a.pieces.push_back(p);
  }
  a.name = "two-cuts-" + std::to_string(seed);
  return a;
}

// Orbits of the brute force's solutions under the symmetries of the shell (rotations, and
// reflections too in kAuto when every plate may be turned over): unique and symmetric counts
// computed without the engine's group.
struct Orbits {
  std::size_t total = 0, unique = 0, symmetric = 0, group = 0;
};

Orbits orbits(const Spec& spec, cubex::SymmetryMode mode) {
  hc_test::BruteForce bf(spec);
  bf.count();
  const auto sols = bf.labelled();
  const hc::Model m = hc::compile(spec);
  const std::set<Vec3> shell(m.shell.begin(), m.shell.end());
  bool all_flip = true;
  for (const auto& p : spec.pieces) all_flip = all_flip && p.may_flip;
  const int last = mode == cubex::SymmetryMode::kNone                     ? 1
                   : mode == cubex::SymmetryMode::kRotations || !all_flip ? 24
                                                                          : 48;
  // Each symmetry M with the shift that carries the shell's lowest corner onto itself.
  std::vector<std::pair<cubex::Mat3, Vec3>> group;
  for (int k = 0; k < last; ++k) {
    const cubex::Mat3& a = cubex::cube_symmetries()[k];
    Vec3 lo = *shell.begin(), lo_img = a * lo;
    for (const Vec3& p : shell) {
      const Vec3 q = a * p;
      lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
      lo_img = {std::min(lo_img.x, q.x), std::min(lo_img.y, q.y), std::min(lo_img.z, q.z)};
    }
    const Vec3 shift = lo - lo_img;
    const bool onto = std::all_of(shell.begin(), shell.end(),
                                  [&](const Vec3& p) { return shell.count(a * p + shift) > 0; });
    if (onto) group.push_back({a, shift});
  }
  Orbits o;
  o.group = group.size();
  std::set<std::vector<std::pair<Vec3, int>>> canon, sym;
  for (const auto& s : sols) {
    ++o.total;
    auto best = s;
    bool fixed = false;
    for (const auto& [a, shift] : group) {
      std::vector<std::pair<Vec3, int>> img;
      for (const auto& [p, kind] : s) img.push_back({a * p + shift, kind});
      std::sort(img.begin(), img.end());
      best = std::min(best, img);
      const bool moves = std::any_of(
          s.begin(), s.end(),
          [&, &a = a, &shift = shift](const auto& pk) { return a * pk.first + shift != pk.first; });
      fixed = fixed || (moves && img == s);
    }
    canon.insert(best);
    if (fixed) sym.insert(best);
  }
  o.unique = canon.size();
  o.symmetric = sym.size();
  return o;
}

struct Case {
  const char* name;
  std::vector<Vec3> structure;
  unsigned seed;
  std::size_t drop;  // plates of the second cut left out
};

std::string case_name(const testing::TestParamInfo<Case>& info) {
  return info.param.name;
}

class HappyCubeSpare : public testing::TestWithParam<Case> {};

}  // namespace

// Two cuts of a structure: 2F plates (less `drop`) for F faces. The engine, with and without hole
// items, counts what the brute force counts; every solution verifies, uses each face once and
// lists exactly the plates it leaves over.
TEST_P(HappyCubeSpare, CountsAgreeWithBruteForce) {
  const Case& c = GetParam();
  const Spec spec = two_cuts(c.structure, c.seed, c.drop);
  auto pz = hc::make_puzzle(spec);
  const hc::Model& m = *hc::model_of(*pz);
  ASSERT_TRUE(m.spare());
  EXPECT_EQ(m.infeasible, "");
  const std::size_t brute = hc_test::BruteForce(spec).count();
  EXPECT_GE(brute, 2u);  // each cut solves it
  EXPECT_EQ(engine_count(spec, true), brute);
  EXPECT_EQ(engine_count(spec, false), brute);
  ASSERT_EQ(pz->notes().size(), 1u);
  EXPECT_EQ(pz->notes()[0], std::to_string(m.plates) + " plates for " +
                                std::to_string(m.faces.size()) +
                                " faces: " + std::to_string(m.plates - m.faces.size()) +
                                " plates stay unused in each solution (listed with it)");
  cubex::Solver solver(pz->problem());
  std::size_t seen = 0;
  solver.solve([&](std::span<const cubex::OptionId> s) {
    const nlohmann::json j = pz->solution_json(s);
    EXPECT_EQ(pz->verify_solution(j), "");
    EXPECT_EQ(j["placements"].size(), m.faces.size());
    EXPECT_EQ(j["unused"].size() + j["placements"].size(), m.plates);
    std::multiset<std::string> names;
    for (const auto& p : j["placements"]) names.insert(p["piece"].get<std::string>());
    for (const auto& u : j["unused"]) names.insert(u.get<std::string>());
    std::multiset<std::string> all;
    for (const auto& p : spec.pieces) all.insert(p.name);
    EXPECT_EQ(names, all);
    if (seen++ == 0) {
      auto wrong = j;
      wrong["unused"].push_back(spec.pieces[0].name);
      EXPECT_EQ(pz->verify_solution(wrong),
                "unused: not the plates that the placements leave over");
      const std::string text = pz->solution_text(s);
      EXPECT_NE(text.find("\nUnused: "), std::string::npos) << text;
    }
    return true;
  });
  EXPECT_EQ(seen, brute);
}

// Unique and symmetric counts of the symmetric search equal the orbits of the brute force's
// solutions, in every symmetry mode.
TEST_P(HappyCubeSpare, UniqueCountsInEverySymmetryMode) {
  const Case& c = GetParam();
  const Spec spec = two_cuts(c.structure, c.seed, c.drop);
  auto pz = hc::make_puzzle(spec);
  for (auto mode :
       {cubex::SymmetryMode::kNone, cubex::SymmetryMode::kRotations, cubex::SymmetryMode::kAuto}) {
    SCOPED_TRACE(static_cast<int>(mode));
    const Orbits want = orbits(spec, mode);
    const cubex::CubeGroup g = pz->symmetry_group(mode);
    const cubex::SymmetryStats got = cubex::SymmetricSolver(pz->problem(), g.group).count();
    EXPECT_EQ(g.group.order(), want.group);
    EXPECT_EQ(got.total, want.total);
    EXPECT_EQ(got.unique, want.unique);
    EXPECT_EQ(got.symmetric, want.symmetric);
    // The same with the hole items (their own items, hence their own group).
    const hc::Model holes = hc::compile(spec, true);
    const cubex::SymmetryStats with_holes =
        cubex::SymmetricSolver(holes.problem, hc::symmetry_group(holes, mode).group).count();
    EXPECT_EQ(with_holes.total, want.total);
    EXPECT_EQ(with_holes.unique, want.unique);
    EXPECT_EQ(with_holes.symmetric, want.symmetric);
  }
}

// Counting by memo (count_classes_by_memo, with the faces' order, as `cubex solve` counts): the
// total, unique and symmetric counts of the brute force's orbits, in every symmetry mode, and
// the total of the hole-item model too.
TEST_P(HappyCubeSpare, MemoCountsEqualTheBruteForceOrbits) {
  const Case& c = GetParam();
  const Spec spec = two_cuts(c.structure, c.seed, c.drop);
  auto pz = hc::make_puzzle(spec);
  const std::vector<cubex::ItemId> order = pz->memo_order();
  ASSERT_EQ(order.size(), hc::model_of(*pz)->faces.size());
  cubex::MemoLimits lim;
  lim.order = order;
  for (auto mode :
       {cubex::SymmetryMode::kNone, cubex::SymmetryMode::kRotations, cubex::SymmetryMode::kAuto}) {
    SCOPED_TRACE(static_cast<int>(mode));
    const Orbits want = orbits(spec, mode);
    const cubex::SymmetricSolver sym(pz->problem(), pz->symmetry_group(mode).group);
    const cubex::MemoClasses got = cubex::count_classes_by_memo(sym, lim);
    ASSERT_TRUE(got.complete) << got.why;
    EXPECT_EQ(got.stats.total, want.total);
    EXPECT_EQ(got.stats.unique, want.unique);
    EXPECT_EQ(got.stats.symmetric, want.symmetric);
    // The symmetric classes counted (Möbius over the subgroups) rather than listed.
    const cubex::MemoClasses counted = cubex::count_classes_by_memo(sym, lim, 0);
    ASSERT_TRUE(counted.complete) << counted.why;
    EXPECT_EQ(counted.stats.unique, want.unique);
    EXPECT_EQ(counted.stats.symmetric, want.symmetric);
  }
  const hc::Model holes = hc::compile(spec, true);
  EXPECT_EQ(cubex::memo_count(holes.problem).count, orbits(spec, cubex::SymmetryMode::kNone).total);
}

INSTANTIATE_TEST_SUITE_P(Structures, HappyCubeSpare,
                         testing::Values(Case{"CubeTwelvePlates", kCube, 1, 0},
                                         Case{"CubeNinePlates", kCube, 2, 3},
                                         Case{"BoxFourteenPlates", kBox, 3, 6},
                                         Case{"EllSeventeenPlates", kEll, 4, 11}),
                         case_name);

// A symmetric structure whose plates come in equal pairs (cut invariant under the half turn)
// plus spares: identical plates are one type used up to its copies, and the symmetric classes
// are counted right.
TEST(HappyCubeSpareSymmetric, HalfTurnCutWithSparePlates) {
  for (unsigned seed = 11; seed <= 12; ++seed) {
    SCOPED_TRACE(seed);
    Spec spec = hc_test::cut_shell(5, kBox, seed, true, true);
    std::mt19937 rng(seed);
    for (int k = 0; k < 2; ++k)
      spec.pieces.push_back({"x" + std::to_string(k), random_plate(5, rng)});
    const std::size_t brute = hc_test::BruteForce(spec).count();
    EXPECT_GE(brute, 1u);
    EXPECT_EQ(engine_count(spec), brute);
    auto pz = hc::make_puzzle(spec);
    for (auto mode : {cubex::SymmetryMode::kRotations, cubex::SymmetryMode::kAuto}) {
      const Orbits want = orbits(spec, mode);
      cubex::SymmetricSolver sym(pz->problem(), pz->symmetry_group(mode).group);
      const cubex::SymmetryStats got = sym.count();
      EXPECT_EQ(got.total, want.total);
      EXPECT_EQ(got.unique, want.unique);
      EXPECT_EQ(got.symmetric, want.symmetric);
      const std::vector<cubex::ItemId> order = pz->memo_order();
      cubex::MemoLimits lim;
      lim.order = order;
      const cubex::MemoClasses memo = cubex::count_classes_by_memo(sym, lim);
      EXPECT_EQ(memo.stats.total, want.total);
      EXPECT_EQ(memo.stats.unique, want.unique);
      EXPECT_EQ(memo.stats.symmetric, want.symmetric);
    }
  }
}

// The hole items (compile(spec, true)): each border point is covered once as a point or a hole by
// every face through it; a cube has 12 x 3 edge points (1 hole each) and 8 corners (2 holes each).
TEST(HappyCubeHoles, ItemsOfACube) {
  const Spec spec = hc_test::cut_shell(5, kCube, 7);
  const hc::Model m = hc::compile(spec, true);
  std::size_t edge = 0, corner = 0;
  for (std::size_t s = 0; s < m.shell.size(); ++s) {
    ASSERT_EQ(m.point_items[s].has_value(), m.hole_items[s].has_value());
    if (!m.hole_items[s]) continue;
    const auto& it = m.problem.item(*m.hole_items[s]);
    EXPECT_EQ(it.lo, it.hi);
    (it.lo == 1 ? edge : corner) += 1;
    if (it.lo != 1) {
      EXPECT_EQ(it.lo, 2u);
    }
  }
  EXPECT_EQ(edge, 36u);
  EXPECT_EQ(corner, 8u);
  for (cubex::OptionId o = 0; o < m.problem.num_options(); ++o) {
    EXPECT_EQ(m.problem.option(o).size(), 2u + 16u);  // type, face, 16 border points
  }
}

// Too few plates, and bumps that cannot add up: reported before searching, and the brute force
// finds nothing either.
TEST(HappyCubeInfeasible, TooFewPlates) {
  Spec spec = hc_test::cut_shell(5, kBox, 21);
  spec.pieces.pop_back();
  const hc::Model m = hc::compile(spec);
  EXPECT_EQ(m.infeasible, "too few plates: the structure has 10 faces and there are 9 plates");
  EXPECT_EQ(hc_test::BruteForce(spec).count(), 0u);
  EXPECT_EQ(engine_count(spec), 0u);
}

TEST(HappyCubeInfeasible, OneBumpTooMany) {
  Spec spec = hc_test::cut_shell(5, kCube, 22);
  // Fill an empty middle cell of an edge of some plate: 37 bumps for 36 edge points.
  bool done = false;
  for (auto& p : spec.pieces) {
    for (int c = 1; c < 4 && !done; ++c) {
      if (!p.tile.at(0, c)) {
        p.tile.set(0, c, true);
        done = true;
      }
    }
  }
  ASSERT_TRUE(done);
  const hc::Model m = hc::compile(spec);
  EXPECT_EQ(m.infeasible,
            "the bumps of the plates cannot fill the edges and corners: the cube has 36 points "
            "along its edges and 8 corner points, each filled by exactly one plate, and the 6 "
            "plates have 37 bumps along their edges and 8 on their corners");
  EXPECT_EQ(hc_test::BruteForce(spec).count(), 0u);
  EXPECT_EQ(engine_count(spec), 0u);
}

TEST(HappyCubeInfeasible, NoChoiceOfPlatesAddsUp) {
  // Nine plates for a cube, every one with all four corners filled: any six have 24 corner
  // bumps for 8 corners.
  Spec spec;
  spec.name = "corners";
  spec.size = 5;
  spec.structure = kCube;
  std::mt19937 rng(5);
  for (int k = 0; k < 9; ++k) {
    Tile t = random_plate(5, rng);
    for (int r : {0, 4})
      for (int c : {0, 4}) t.set(r, c, true);
    spec.pieces.push_back({std::to_string(k + 1), t});
  }
  const hc::Model m = hc::compile(spec);
  EXPECT_EQ(m.infeasible,
            "the bumps of the plates cannot fill the edges and corners: the cube has 36 points "
            "along its edges and 8 corner points, each filled by exactly one plate, and no 6 of "
            "the 9 plates have together 36 bumps along their edges and 8 on their corners");
  EXPECT_EQ(hc_test::BruteForce(spec).count(), 0u);
}

// The counting argument is sound: on random plate sets for a cube (most without a solution),
// whenever it gives a reason the brute force finds no solution; and the two agree on which sets
// a count alone rules out when a solution exists.
TEST(HappyCubeInfeasible, ReasonsOnlyForSetsWithoutSolutions) {
  std::mt19937 rng(77);
  int reasons = 0, solvable = 0;
  for (int trial = 0; trial < 60; ++trial) {
    Spec spec = trial % 3 == 0 ? hc_test::cut_shell(5, kCube, 100 + trial) : Spec{};
    spec.name = "r";
    spec.size = 5;
    spec.structure = kCube;
    const int extra = trial % 4;
    if (trial % 3 != 0) {
      for (int k = 0; k < 6; ++k)
        spec.pieces.push_back({"p" + std::to_string(k), random_plate(5, rng)});
    }
    for (int k = 0; k < extra; ++k)
      spec.pieces.push_back({"s" + std::to_string(k), random_plate(5, rng)});
    const hc::Model m = hc::compile(spec);
    const std::size_t brute = hc_test::BruteForce(spec).count();
    if (!m.infeasible.empty()) {
      ++reasons;
      EXPECT_EQ(brute, 0u) << m.infeasible;
    }
    solvable += brute > 0;
    EXPECT_EQ(engine_count(spec), brute);
  }
  EXPECT_GE(reasons, 20);
  EXPECT_GE(solvable, 15);
}

// The shipped structures. The two-set box has spare plates and solutions that verify (its
// counts are those of the code path the random two-cut puzzles check against the brute force).
// The row of four from three sets has no solution, and the corner count says so: its 18 plates
// have 24 filled corners, counted here from the drawings, for the 20 corner points of the row
// (8 of the bounding box, 12 where the cubes meet along the long edges).
TEST(HappyCubeSpareSamples, ShippedStructures) {
  const std::string dir = std::string(CUBEX_SOURCE_DIR) + "/puzzles/happycube/";
  auto read = [&](const std::string& f) {
    return hc::parse_json(nlohmann::json::parse(cubex::read_file(dir + f)), f);
  };
  const Spec two = read("confusius_rubens_2x1x1.json");
  EXPECT_EQ(two.pieces.size(), 12u);
  auto pz = hc::make_puzzle(two);
  const hc::Model& m = *hc::model_of(*pz);
  EXPECT_EQ(m.faces.size(), 10u);
  EXPECT_TRUE(m.spare());
  EXPECT_EQ(m.infeasible, "");
  cubex::Solver solver(pz->problem());
  const auto first = solver.first();
  ASSERT_TRUE(first.has_value());
  const nlohmann::json j = pz->solution_json(*first);
  EXPECT_EQ(pz->verify_solution(j), "");
  EXPECT_EQ(j["unused"].size(), 2u);

  const Spec row_spec = read("row4_three_sets.json");
  int corners = 0;
  for (const auto& p : row_spec.pieces)
    for (int r : {0, 4})
      for (int c : {0, 4}) corners += p.tile.at(r, c);
  EXPECT_EQ(corners, 24);
  const hc::Model row = hc::compile(row_spec);
  EXPECT_EQ(row.faces.size(), 18u);
  EXPECT_EQ(row.plates, 18u);
  EXPECT_NE(row.infeasible.find("the structure has 108 points along its edges and 20 corner "
                                "points, each filled by exactly one plate, and the 18 plates "
                                "have 108 bumps along their edges and 24 on their corners"),
            std::string::npos)
      << row.infeasible;
  const hc::Model ell = hc::compile(read("l3_three_sets.json"));
  EXPECT_EQ(ell.faces.size(), 14u);
  EXPECT_EQ(ell.plates, 18u);
  EXPECT_EQ(ell.infeasible, "");
}

// The plates of the shipped L from three sets on a single cube (18 plates, 6 faces): counting by
// memo gives the counts of the symmetric search, in every symmetry mode (48 elements, and
// symmetric classes among them).
TEST(HappyCubeMemo, ThreeSetsOnACubeAgreeWithTheSearch) {
  const std::string dir = std::string(CUBEX_SOURCE_DIR) + "/puzzles/happycube/";
  Spec spec = hc::parse_json(nlohmann::json::parse(cubex::read_file(dir + "l3_three_sets.json")),
                             "l3_three_sets.json");
  spec.structure = kCube;
  auto pz = hc::make_puzzle(spec);
  const std::vector<cubex::ItemId> order = pz->memo_order();
  cubex::MemoLimits lim;
  lim.order = order;
  std::uint64_t symmetric = 0;
  for (auto mode :
       {cubex::SymmetryMode::kNone, cubex::SymmetryMode::kRotations, cubex::SymmetryMode::kAuto}) {
    SCOPED_TRACE(static_cast<int>(mode));
    cubex::SymmetricSolver sym(pz->problem(), pz->symmetry_group(mode).group);
    const cubex::SymmetryStats want = sym.count();
    const cubex::MemoClasses got = cubex::count_classes_by_memo(sym, lim);
    ASSERT_TRUE(got.complete) << got.why;
    EXPECT_EQ(got.stats.total, want.total);
    EXPECT_EQ(got.stats.unique, want.unique);
    EXPECT_EQ(got.stats.symmetric, want.symmetric);
    EXPECT_GT(want.total, 1000u);
    symmetric += want.symmetric;
  }
  EXPECT_GT(symmetric, 0u);
}
