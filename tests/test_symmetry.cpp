// Counting up to symmetry: the anchored fast path against brute-force canonical counting
// (enumerate every solution, map it by every group element, count distinct canonical forms).
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "cubex/geometry.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/symmetry.hpp"
#include "test_util.hpp"

using namespace cubex;

namespace {

// A small packing built here, independently of any front end: cells of an a x b x c box as
// primary items, one item per piece kind (multiplicity = its count), all placements in the
// given orientations; the group is the box's symmetries among `mats` acting on the cells.
struct Packing {
  Problem problem;
  ItemGroup group;
};

Packing make_packing(Vec3 box, const std::vector<std::pair<std::vector<Vec3>, int>>& pieces,
                     bool mirror) {
  Packing pk;
  std::map<Vec3, ItemId> cell;
  for (int z = 0; z < box.z; ++z)
    for (int y = 0; y < box.y; ++y)
      for (int x = 0; x < box.x; ++x)
        cell[{x, y, z}] =
            pk.problem.add_primary("c" + std::to_string(x) + std::to_string(y) + std::to_string(z));
  const int nmats = mirror ? 48 : 24;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const auto& [shape, count] = pieces[k];
    ItemId piece = pk.problem.add_primary("p" + std::to_string(k), count, count);
    std::set<std::vector<Vec3>> orients;
    for (int m = 0; m < nmats; ++m) {
      std::vector<Vec3> t;
      for (const Vec3& v : shape) t.push_back(cube_symmetries()[m] * v);
      orients.insert(normalize(t));
    }
    for (const auto& o : orients)
      for (int z = 0; z < box.z; ++z)
        for (int y = 0; y < box.y; ++y)
          for (int x = 0; x < box.x; ++x) {
            std::vector<ItemId> items{piece};
            bool inside = true;
            for (const Vec3& v : o) {
              auto it = cell.find(v + Vec3{x, y, z});
              if (it == cell.end()) {
                inside = false;
                break;
              }
              items.push_back(it->second);
            }
            if (inside) pk.problem.add_option(items);
          }
  }
  // The box's symmetries: matrices that map the box onto itself (after translation).
  for (int m = 0; m < nmats; ++m) {
    const Mat3& a = cube_symmetries()[m];
    Vec3 ext = a * Vec3{box.x - 1, box.y - 1, box.z - 1};
    if (std::abs(ext.x) != box.x - 1 || std::abs(ext.y) != box.y - 1 ||
        std::abs(ext.z) != box.z - 1)
      continue;
    std::vector<ItemId> perm(pk.problem.num_items());
    for (ItemId i = 0; i < perm.size(); ++i) perm[i] = i;
    for (const auto& [v, id] : cell) {
      Vec3 w = a * v;
      Vec3 shift{ext.x < 0 ? -ext.x : 0, ext.y < 0 ? -ext.y : 0, ext.z < 0 ? -ext.z : 0};
      perm[id] = cell.at(w + shift);
    }
    pk.group.perm.push_back(perm);
  }
  return pk;
}

struct Brute {
  std::uint64_t total = 0, unique = 0, symmetric = 0;
};

Brute brute_force(const Packing& pk) {
  SymmetricSolver images(pk.problem, pk.group);  // only for option images
  std::set<std::vector<OptionId>> canon;
  std::set<std::vector<OptionId>> sym;
  Brute b;
  // "Symmetric" counts elements that move an item: a flat box's mid-plane mirror moves nothing.
  std::vector<bool> moves(pk.group.order(), false);
  for (std::size_t g = 0; g < pk.group.order(); ++g)
    for (ItemId i = 0; i < pk.problem.num_items(); ++i)
      moves[g] = moves[g] || pk.group.perm[g][i] != i;
  Solver(pk.problem).solve([&](std::span<const OptionId> s) {
    ++b.total;
    std::vector<OptionId> best;
    int fixers = 0;
    std::vector<OptionId> me(s.begin(), s.end());
    std::sort(me.begin(), me.end());
    for (std::size_t g = 0; g < pk.group.order(); ++g) {
      std::vector<OptionId> img;
      for (OptionId o : me) img.push_back(images.image(g, o));
      std::sort(img.begin(), img.end());
      if (best.empty() || img < best) best = img;
      fixers += moves[g] && img == me;
    }
    canon.insert(best);
    if (fixers > 0) sym.insert(best);
    return true;
  });
  b.unique = canon.size();
  b.symmetric = sym.size();
  return b;
}

const std::vector<Vec3> kMono{{0, 0, 0}}, kDomino{{0, 0, 0}, {1, 0, 0}},
    kI3{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, kL3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
    kT4{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 1, 0}},
    kS4{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {2, 1, 0}},
    kScrew{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}};

}  // namespace

TEST(Symmetry, DominoesInACubeOfTwo) {
  // 2x2x2 from four identical dominoes: 9 tilings, in 3 classes up to the 48 symmetries.
  auto pk = make_packing({2, 2, 2}, {{kDomino, 4}}, true);
  ASSERT_EQ(pk.group.order(), 48u);
  auto st = SymmetricSolver(pk.problem, pk.group).count();
  EXPECT_EQ(st.total, 9u);
  Brute b = brute_force(pk);
  EXPECT_EQ(b.total, 9u);
  EXPECT_EQ(st.unique, b.unique);
  EXPECT_EQ(st.symmetric, b.symmetric);
  EXPECT_GT(st.symmetric, 0u);  // e.g. all four parallel
}

TEST(Symmetry, FastPathAgreesWithBruteForceOnRandomPackings) {
  std::mt19937 rng(7);
  const std::vector<std::vector<Vec3>> library{kMono, kDomino, kI3, kL3, kT4, kS4, kScrew};
  const std::vector<Vec3> boxes{{2, 2, 2}, {2, 2, 3}, {1, 3, 4}, {2, 3, 3}, {3, 3, 1}, {1, 4, 4}};
  int anchored = 0, with_symmetric = 0, checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    Vec3 box = boxes[rng() % boxes.size()];
    int left = box.x * box.y * box.z;
    std::vector<std::pair<std::vector<Vec3>, int>> pieces;
    std::vector<int> used(library.size(), 0);
    while (left > 0) {
      std::size_t k = rng() % library.size();
      if (static_cast<int>(library[k].size()) > left) k = 0;  // monomino fills the rest
      ++used[k];
      left -= static_cast<int>(library[k].size());
    }
    for (std::size_t k = 0; k < library.size(); ++k)
      if (used[k]) pieces.push_back({library[k], used[k]});
    const bool mirror = rng() % 2;
    auto pk = make_packing(box, pieces, mirror);
    Brute b = brute_force(pk);
    if (b.total > 20000) continue;
    auto st = SymmetricSolver(pk.problem, pk.group).count();
    EXPECT_EQ(st.total, b.total) << "trial " << trial;
    EXPECT_EQ(st.unique, b.unique) << "trial " << trial;
    EXPECT_EQ(st.symmetric, b.symmetric) << "trial " << trial;
    anchored += st.anchored;
    with_symmetric += b.symmetric > 0;
    ++checked;
  }
  EXPECT_GT(checked, 40);
  EXPECT_GT(anchored, 10);
  EXPECT_GT(with_symmetric, 5);
}

TEST(Symmetry, RejectsAGroupThatDoesNotPreserveTheOptions) {
  Problem p;
  ItemId a = p.add_primary("a"), b = p.add_primary("b");
  p.add_option({a});
  p.add_option({a, b});
  ItemGroup g{{{0, 1}, {1, 0}}};  // swapping a and b maps {a} to {b}, which is no option
  EXPECT_THROW(SymmetricSolver(p, g), ProblemError);
}

namespace {

// The group of a 3x3x3 Knuth-format instance whose cells are named "xyz": each symmetry about
// the centre acts on the cell names; `swap` lists piece items that trade places under mirrors.
ItemGroup cube3_group(const Problem& p, int elements,
                      std::vector<std::pair<std::string, std::string>> swap) {
  ItemGroup g;
  for (int m = 0; m < elements; ++m) {
    const Mat3& a = cube_symmetries()[m];
    std::vector<ItemId> perm(p.num_items());
    for (ItemId i = 0; i < p.num_items(); ++i) {
      const std::string& n = p.item(i).name;
      perm[i] = i;
      if (n.size() == 3 && std::isdigit(static_cast<unsigned char>(n[0]))) {
        Vec3 w = a * Vec3{n[0] - '1', n[1] - '1', n[2] - '1'};
        std::string img{static_cast<char>('1' + w.x), static_cast<char>('1' + w.y),
                        static_cast<char>('1' + w.z)};
        perm[i] = *p.find(img);
      }
    }
    if (m >= 24)
      for (const auto& [x, y] : swap) std::swap(perm[*p.find(x)], perm[*p.find(y)]);
    g.perm.push_back(perm);
  }
  return g;
}

}  // namespace

TEST(Symmetry, KnownUniqueCountsOfTheSharedInstances) {
  // KNOWN_COUNTS.md: L-tricubes 5,328 / 111 and Soma 11,520 / 240 under 48 symmetries.
  auto l9 = read_knuth_file(cubex::test::xc_file("l9.dlx"));
  auto st = SymmetricSolver(l9.problem, cube3_group(l9.problem, 48, {})).count();
  EXPECT_TRUE(st.anchored);  // the centre cell
  EXPECT_EQ(st.total, 5328u);
  EXPECT_EQ(st.unique, 111u);

  auto soma = read_knuth_file(cubex::test::xc_file("soma.dlx"));
  st = SymmetricSolver(soma.problem, cube3_group(soma.problem, 48, {{"A", "B"}})).count();
  EXPECT_EQ(st.total, 11520u);
  EXPECT_EQ(st.unique, 240u);
  EXPECT_EQ(st.symmetric, 0u);
  st = SymmetricSolver(soma.problem, cube3_group(soma.problem, 24, {})).count();
  EXPECT_EQ(st.total, 11520u);
  EXPECT_EQ(st.unique, 480u);
}
