// Knuth's colours (XCC): options that give a secondary item the same colour may share it.
// Checked on Knuth's example, against a brute force on random coloured matrices (both backends,
// node for node), through the reader and writer, check_solution and the symmetry layer.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "brute_force.hpp"
#include "core/engine.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/symmetry.hpp"

using cubex::Backend;
using cubex::ColourId;
using cubex::ItemId;
using cubex::OptionId;
using cubex::Problem;
using cubex::Solver;
using Solution = std::vector<OptionId>;
using cubex::test::brute_force;

namespace {

// Solutions in the order the backend visits them (each sorted).
std::vector<Solution> visit_all(const Problem& p, Backend backend,
                                const cubex::EngineTuning& tu = {}) {
  std::vector<Solution> out;
  Solver(p, backend, tu).solve([&](std::span<const OptionId> s) {
    Solution v(s.begin(), s.end());
    std::sort(v.begin(), v.end());
    out.push_back(v);
    return true;
  });
  return out;
}

// The bitset backend's tuning with the MRV mode `m`.
cubex::EngineTuning mrv_mode(cubex::BitsetMrv m) {
  cubex::EngineTuning tu;
  tu.mrv = m;
  return tu;
}

// A random coloured matrix: np primary items, ns secondary items, no options; a secondary item
// in an option gets one of `colours` colours (or none) at random.
Problem random_problem(std::mt19937& rng, int np, int ns, int no, int colours, bool mult) {
  Problem p;
  std::vector<ItemId> prim, sec;
  for (int i = 0; i < np; ++i) {
    std::uint32_t lo = 1, hi = 1;
    if (mult && rng() % 4 == 0) lo = rng() % 2, hi = lo + 1 + rng() % 2;
    prim.push_back(p.add_primary("p" + std::to_string(i), lo, hi));
  }
  for (int i = 0; i < ns; ++i) sec.push_back(p.add_secondary("s" + std::to_string(i)));
  std::vector<ColourId> ids;
  for (int c = 0; c < colours; ++c) ids.push_back(p.add_colour(std::string(1, char('A' + c))));
  for (int o = 0; o < no; ++o) {
    std::vector<ItemId> items{prim[rng() % prim.size()]};
    std::vector<ColourId> col{0};
    for (ItemId i : prim)
      if (i != items[0] && rng() % 3 == 0) items.push_back(i), col.push_back(0);
    for (ItemId i : sec) {
      if (rng() % 2) continue;
      items.push_back(i);
      col.push_back(rng() % 4 == 0 ? 0 : ids[rng() % ids.size()]);
    }
    p.add_option(items, col);
  }
  return p;
}

}  // namespace

TEST(Colours, KnuthsExampleHasExactlyOneSolution) {
  // TAOCP 7.2.2.1: items p q r | x y.
  auto f = cubex::parse_knuth("p q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n", "xcc");
  ASSERT_TRUE(f.problem.has_colours());
  EXPECT_EQ(f.problem.num_colours(), 2u);
  for (Backend b : {Backend::kLinks, Backend::kBitset}) {
    auto sols = visit_all(f.problem, b);
    ASSERT_EQ(sols.size(), 1u);
    EXPECT_EQ(sols[0], (Solution{1, 3}));  // p r x:A y  and  q x:A: x shared in colour A
  }
  EXPECT_EQ(brute_force(f.problem), (std::set<Solution>{{1, 3}}));
  EXPECT_EQ(cubex::check_solution(f.problem, Solution{1, 3}), "");
  EXPECT_NE(cubex::check_solution(f.problem, Solution{0, 4}), "");  // y: A and B
}

TEST(Colours, UncolouredUseExcludesColouredOnes) {
  Problem p;
  const ItemId a = p.add_primary("a"), b = p.add_primary("b"), x = p.add_secondary("x");
  const ColourId red = p.add_colour("red");
  EXPECT_EQ(p.add_colour("red"), red);
  p.add_option(std::vector<ItemId>{a, x}, std::vector<ColourId>{0, red});  // 0
  p.add_option(std::vector<ItemId>{b, x}, std::vector<ColourId>{0, 0});    // 1
  p.add_option(std::vector<ItemId>{b, x}, std::vector<ColourId>{0, red});  // 2
  for (Backend be : {Backend::kLinks, Backend::kBitset})
    EXPECT_EQ(visit_all(p, be), (std::vector<Solution>{{0, 2}}));
  EXPECT_NE(cubex::check_solution(p, Solution{0, 1}).find("same colour"), std::string::npos);
  EXPECT_THROW(p.add_option(std::vector<ItemId>{a}, std::vector<ColourId>{red}),
               cubex::ProblemError);
  EXPECT_THROW(p.add_option(std::vector<ItemId>{a, x}, std::vector<ColourId>{0, 7}),
               cubex::ProblemError);
  EXPECT_THROW(p.add_option(std::vector<ItemId>{a, x}, std::vector<ColourId>{0}),
               cubex::ProblemError);
}

TEST(Colours, AgreeWithBruteForceOnRandomMatricesNodeForNode) {
  std::mt19937 rng(17);
  int with_solutions = 0, with_sharing = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const bool mult = trial % 3 == 0;
    Problem p =
        random_problem(rng, 1 + rng() % 5, 1 + rng() % 3, 1 + rng() % 13, 1 + rng() % 3, mult);
    const auto want = brute_force(p);
    const auto links = visit_all(p, Backend::kLinks);
    ASSERT_EQ(std::set<Solution>(links.begin(), links.end()), want) << "trial " << trial << "\n"
                                                                    << cubex::to_knuth(p);
    ASSERT_EQ(links.size(), want.size()) << "a solution was visited twice";
    for (const Solution& s : links) EXPECT_EQ(cubex::check_solution(p, s), "");
    const auto st_links = Solver(p, Backend::kLinks).count();
    EXPECT_EQ(st_links.solutions, want.size());
    if (!p.has_multiplicities()) {
      for (auto mrv : {cubex::BitsetMrv::kScan, cubex::BitsetMrv::kCounts}) {
        const auto bits = visit_all(p, Backend::kBitset, mrv_mode(mrv));
        ASSERT_EQ(std::set<Solution>(bits.begin(), bits.end()), want) << "trial " << trial << "\n"
                                                                      << cubex::to_knuth(p);
        EXPECT_EQ(bits, links) << "the same solutions in the same order, trial " << trial;
        const auto st = Solver(p, Backend::kBitset, mrv_mode(mrv)).count();
        EXPECT_EQ(st.nodes, st_links.nodes) << "trial " << trial << "\n" << cubex::to_knuth(p);
      }
    }
    with_solutions += !want.empty();
    // A solution in which some secondary item is covered twice (only colours allow that).
    for (const Solution& s : want) {
      std::vector<int> uses(p.num_items(), 0);
      bool twice = false;
      for (OptionId o : s)
        for (ItemId i : p.option(o)) twice |= ++uses[i] > 1 && !p.item(i).primary;
      if (twice) {
        ++with_sharing;
        break;
      }
    }
  }
  EXPECT_GT(with_solutions, 150);
  EXPECT_GT(with_sharing, 50);
}

// Larger matrices (several 64-bit words of options): both backends walk the same tree.
TEST(Colours, BackendsWalkTheSameTreeOnLargerMatrices) {
  std::mt19937 rng(2026);
  int with_solutions = 0;
  for (int trial = 0; trial < 6; ++trial) {
    Problem p = random_problem(rng, 14, 6, 300, 3, false);
    const auto links = Solver(p, Backend::kLinks).count();
    with_solutions += links.solutions > 0;
    const auto links_sols = visit_all(p, Backend::kLinks);
    for (const Solution& s : links_sols) ASSERT_EQ(cubex::check_solution(p, s), "");
    for (auto mrv : {cubex::BitsetMrv::kScan, cubex::BitsetMrv::kCounts}) {
      const auto bits = Solver(p, Backend::kBitset, mrv_mode(mrv)).count();
      EXPECT_EQ(bits.solutions, links.solutions) << "trial " << trial;
      EXPECT_EQ(bits.nodes, links.nodes) << "trial " << trial;
      EXPECT_EQ(visit_all(p, Backend::kBitset, mrv_mode(mrv)), links_sols);  // in the same order
    }
  }
  EXPECT_GT(with_solutions, 3);
}

TEST(Colours, KnuthFormatRoundTripsColours) {
  const std::string text = "p q r | x y\np q x y:A\np r x:A y\np x:Blue\nq x:A\nr y:Blue\n";
  auto f = cubex::parse_knuth(text, "xcc");
  EXPECT_EQ(cubex::to_knuth(f.problem), text);
  auto g = cubex::parse_knuth(cubex::to_knuth(f.problem), "again");
  ASSERT_EQ(g.problem.num_options(), 5u);
  for (OptionId o = 0; o < 5; ++o) {
    auto a = f.problem.option_colours(o), b = g.problem.option_colours(o);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end()));
  }
}

TEST(Colours, ReaderRejectsBadColours) {
  auto message = [](const std::string& text) {
    try {
      cubex::parse_knuth(text, "bad.xc");
    } catch (const cubex::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("p | x\np:A x\n").find("secondary item only"), std::string::npos);
  EXPECT_NE(message("p | x\np x:\n").find("non-empty colour"), std::string::npos);
  EXPECT_NE(message("p | x\np x:A:B\n").find("non-empty colour"), std::string::npos);
  EXPECT_NE(message("p | x\np z:A\n").find("'z'"), std::string::npos);
}

// The symmetry layer maps an option to the option with the image items and the same colours.
TEST(Colours, SymmetryRespectsColours) {
  // a b | x: swapping a and b maps {a x:R} to {b x:R} (an option) - counted once up to symmetry.
  Problem p;
  const ItemId a = p.add_primary("a"), b = p.add_primary("b"), x = p.add_secondary("x");
  const ColourId r = p.add_colour("R"), g = p.add_colour("G");
  p.add_option(std::vector<ItemId>{a, x}, std::vector<ColourId>{0, r});
  p.add_option(std::vector<ItemId>{b, x}, std::vector<ColourId>{0, r});
  p.add_option(std::vector<ItemId>{a, x}, std::vector<ColourId>{0, g});
  p.add_option(std::vector<ItemId>{b, x}, std::vector<ColourId>{0, g});
  cubex::ItemGroup swap{{{0, 1, 2}, {1, 0, 2}}};
  cubex::SymmetricSolver s(p, swap);
  const auto st = s.solve(nullptr, {});
  EXPECT_EQ(st.total, Solver(p).count().solutions);  // {0,1}, {2,3}
  EXPECT_EQ(st.total, 2u);
  EXPECT_EQ(st.unique, 2u);  // each is symmetric under the swap

  // Swapping a and b maps {a x:R} to {b x:G}: no option with the same colours, refused.
  Problem u;
  const ItemId ua = u.add_primary("a"), ub = u.add_primary("b"), ux = u.add_secondary("x");
  const ColourId ur = u.add_colour("R"), ug = u.add_colour("G");
  u.add_option(std::vector<ItemId>{ua, ux}, std::vector<ColourId>{0, ur});
  u.add_option(std::vector<ItemId>{ub, ux}, std::vector<ColourId>{0, ug});
  EXPECT_THROW(cubex::SymmetricSolver(u, swap), cubex::ProblemError);
}
