// The plain tree's tiny tables (bitset.cpp, BitsetEngine::narrow_tiny): below a node with at most
// 64 live options, in a problem with at most 64 items and no colours, the options are renumbered
// into one word and each is a mask of its items. The tree must not change: the same nodes and
// the same solutions in the same order as dancing links and as the engine without tiny tables,
// with AVX-512 and without, in one run, in spans and on several threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "cubex/core/job.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/io/knuth.hpp"
#include "job_support.hpp"
#include "test_util.hpp"

using cubex::Backend;
using cubex::ItemId;
using cubex::OptionId;
using cubex::Problem;
using cubex::Solver;

namespace {

// Tiny tables on or off, and the AVX-512 loops on or off, for the engines built in scope. The
// random matrices below have short columns, where the bitset backend would prune (a smaller
// tree than dancing links'): pruning is off in scope, so that the plain tree is compared.
struct TinyMode {
  TinyMode(bool tiny, bool avx512) {
    cubex::detail::g_bitset_tiny = tiny;
    cubex::detail::g_bitset_avx512 = avx512;
    cubex::detail::g_bitset_prune = cubex::detail::BitsetPrune::kOff;
  }
  ~TinyMode() {
    cubex::detail::g_bitset_tiny = true;
    cubex::detail::g_bitset_avx512 = true;
    cubex::detail::g_bitset_prune = cubex::detail::BitsetPrune::kAuto;
  }
};

struct MrvScan {
  MrvScan() { cubex::detail::g_bitset_mrv = cubex::detail::BitsetMrv::kScan; }
  ~MrvScan() { cubex::detail::g_bitset_mrv = cubex::detail::BitsetMrv::kAuto; }
};

struct Walk {
  std::vector<std::vector<OptionId>> solutions;  // in the order visited, as the path gives them
  cubex::SolveStats st;
};

Walk walk(const Problem& p, Backend b) {
  Walk w;
  w.st = Solver(p, b).solve([&](std::span<const OptionId> s) {
    w.solutions.emplace_back(s.begin(), s.end());
    return true;
  });
  return w;
}

// A random matrix of 65 to 200 options (more than one word) on at most 64 items: a few planted
// exact covers of the primary items (some through secondary items), and random options of one
// to four primary items and up to two secondary ones.
Problem random_problem(std::mt19937& rng) {
  Problem p;
  const int n1 = 8 + static_cast<int>(rng() % 33);
  const int n2 = static_cast<int>(rng() % std::min(13, 65 - n1));
  std::vector<ItemId> prim, sec;
  for (int i = 0; i < n1; ++i) prim.push_back(p.add_primary("p" + std::to_string(i)));
  for (int i = 0; i < n2; ++i) sec.push_back(p.add_secondary("s" + std::to_string(i)));
  const int m = 65 + static_cast<int>(rng() % 136);
  int made = 0;
  for (int plant = 0; plant < 3; ++plant) {
    std::vector<ItemId> order = prim;
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t k = 0; k < order.size();) {
      const std::size_t len = std::min<std::size_t>(2 + rng() % 4, order.size() - k);
      std::vector<ItemId> opt(order.begin() + static_cast<long>(k),
                              order.begin() + static_cast<long>(k + len));
      if (n2 > 0 && rng() % 3 == 0) opt.push_back(sec[rng() % sec.size()]);
      p.add_option(opt);
      ++made;
      k += len;
    }
  }
  for (; made < m; ++made) {
    std::vector<ItemId> opt;
    const int len = 2 + static_cast<int>(rng() % 4);
    for (int k = 0; k < len; ++k) {
      const ItemId i = prim[rng() % prim.size()];
      if (std::find(opt.begin(), opt.end(), i) == opt.end()) opt.push_back(i);
    }
    for (int k = static_cast<int>(rng() % 3); n2 > 0 && k > 0; --k) {
      const ItemId j = sec[rng() % sec.size()];
      if (std::find(opt.begin(), opt.end(), j) == opt.end()) opt.push_back(j);
    }
    p.add_option(opt);
  }
  return p;
}

}  // namespace

TEST(Tiny, RandomMatricesWalkTheLinksTree) {
  std::mt19937 rng(2611);
  int narrowed = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Problem p = random_problem(rng);
    ASSERT_GT(p.num_options(), 64u);
    const Walk links = walk(p, Backend::kLinks);
    Walk plain;
    TinyMode plain_tree(true, true);
    {
      TinyMode off(false, true);
      plain = walk(p, Backend::kBitset);
    }
    EXPECT_EQ(plain.solutions, links.solutions) << "trial " << trial;
    EXPECT_EQ(plain.st.nodes, links.st.nodes) << "trial " << trial;
    for (const bool avx512 : {true, false}) {
      TinyMode on(true, avx512);
      const Walk tiny = walk(p, Backend::kBitset);
      EXPECT_EQ(tiny.solutions, links.solutions) << "trial " << trial << " avx512 " << avx512;
      EXPECT_EQ(tiny.st.nodes, links.st.nodes) << "trial " << trial << " avx512 " << avx512;
      // A narrowed node's children cost one word each: fewer words rewritten.
      if (avx512 && tiny.st.updates < plain.st.updates) ++narrowed;
    }
    // The MRV choice by popcounts (the matrices above keep counts: short columns).
    {
      TinyMode on(true, true);
      MrvScan scan;
      const Walk tiny = walk(p, Backend::kBitset);
      EXPECT_EQ(tiny.solutions, links.solutions) << "trial " << trial << " scan";
      EXPECT_EQ(tiny.st.nodes, links.st.nodes) << "trial " << trial << " scan";
    }
  }
  EXPECT_GT(narrowed, 150);  // (a matrix whose root has a dead end never narrows)
}

// Pruned trees (bitset.cpp, prune_tiny): the fixpoint and the choice on tiny tables are those of
// the wide ones, node for node and solution for solution.
TEST(Tiny, PrunedTreesAreTheSame) {
  std::mt19937 rng(1127);
  int narrowed = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const Problem p = random_problem(rng);
    struct Prune {
      Prune() { cubex::detail::g_bitset_prune = cubex::detail::BitsetPrune::kOn; }
      ~Prune() { cubex::detail::g_bitset_prune = cubex::detail::BitsetPrune::kAuto; }
    };
    Walk wide;
    {
      TinyMode off(false, true);
      Prune on;
      wide = walk(p, Backend::kBitset);
    }
    for (const bool avx512 : {true, false}) {
      TinyMode tiny_on(true, avx512);
      Prune on;
      const Walk tiny = walk(p, Backend::kBitset);
      EXPECT_EQ(tiny.solutions, wide.solutions) << "trial " << trial << " avx512 " << avx512;
      EXPECT_EQ(tiny.st.nodes, wide.st.nodes) << "trial " << trial << " avx512 " << avx512;
      if (avx512 && tiny.st.updates < wide.st.updates) ++narrowed;
    }
    EXPECT_EQ(wide.solutions.size(), walk(p, Backend::kLinks).solutions.size()) << trial;
  }
  EXPECT_GT(narrowed, 100);
}

TEST(Tiny, SomaInSpansAndThreads) {
  const auto p = cubex::read_knuth_file(cubex::test::xc_file("soma.dlx")).problem;
  cubex::SolveStats plain;
  {
    TinyMode off(false, true);
    plain = Solver(p, Backend::kBitset).count();
  }
  const auto tiny = Solver(p, Backend::kBitset).count();
  EXPECT_EQ(plain.solutions, 11520u);
  EXPECT_EQ(tiny.solutions, 11520u);
  EXPECT_EQ(tiny.nodes, plain.nodes);
  EXPECT_LT(tiny.updates, plain.updates);
  cubex::test::expect_spans_and_threads_count(p, 11520u, tiny.nodes);
}

// A visitor that stops, and a limit on the solutions, stop inside tiny tables as elsewhere.
TEST(Tiny, StopsWhereTheVisitorOrALimitSays) {
  const auto p = cubex::read_knuth_file(cubex::test::xc_file("soma.dlx")).problem;
  std::vector<std::vector<OptionId>> first;
  {
    TinyMode off(false, true);
    Solver(p, Backend::kBitset).solve([&](std::span<const OptionId> s) {
      first.emplace_back(s.begin(), s.end());
      return first.size() < 100;
    });
  }
  std::vector<std::vector<OptionId>> seen;
  const auto st = Solver(p, Backend::kBitset).solve([&](std::span<const OptionId> s) {
    seen.emplace_back(s.begin(), s.end());
    return seen.size() < 100;
  });
  EXPECT_FALSE(st.complete);
  EXPECT_EQ(seen, first);
  cubex::SolveLimits lim;
  lim.max_solutions = 37;
  const auto capped =
      Solver(p, Backend::kBitset).solve([&](std::span<const OptionId>) { return true; }, lim);
  EXPECT_EQ(capped.solutions, 37u);
  EXPECT_FALSE(capped.complete);
}
