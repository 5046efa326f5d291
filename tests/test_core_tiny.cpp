// The plain tree of problems with at most 64 items and no colours: the tiny tables (bitset.cpp,
// BitsetEngine::narrow_tiny: below a node with at most 64 live options, the options renumbered
// into one word, each a mask of its items) and the mask lists that take their place where the
// option numbers fit above the items' bits (each level's live options as a list of masks). The
// tree must not change: the same nodes and the same solutions in the same order as dancing
// links and as the engine without them, with AVX-512 and without, in one run, in spans, in
// pieces, on several threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "cubex/core/job.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/knuth/format.hpp"
#include "job_support.hpp"
#include "test_util.hpp"
#include "sanitized.hpp"

using cubex::Backend;
using cubex::EngineTuning;
using cubex::ItemId;
using cubex::OptionId;
using cubex::Problem;
using cubex::Solver;

namespace {

// Tiny tables on or off, the AVX-512 loops on or off, the own loop of the tiny tables and of the
// mask lists (BitsetEngine::tiny_run, list_run) on or off, and mask lists on or off (off unless
// asked: they take the place of the tiny tables). The random matrices below have short columns,
// where the bitset backend would prune (a smaller tree than dancing links'): pruning is off, so
// that the plain tree is compared.
EngineTuning mode(bool tiny, bool avx512, bool run = true, bool lists = false) {
  EngineTuning tu;
  tu.tiny = tiny;
  tu.avx512 = avx512;
  tu.tiny_run = run;
  tu.lists = lists;
  tu.prune = cubex::BitsetPrune::kOff;
  return tu;
}

// What a mode is called in a failure's message.
std::string mode_name(bool avx512, bool run, bool lists) {
  return std::string(lists ? " lists" : " tiny") + (avx512 ? " avx512" : " scalar") +
         (run ? " own loop" : " search loop");
}

struct Walk {
  std::vector<std::vector<OptionId>> solutions;  // in the order visited, as the path gives them
  cubex::SolveStats st;
};

Walk walk(const Problem& p, Backend b, const EngineTuning& tu = {}) {
  Walk w;
  w.st = Solver(p, b, tu).solve([&](std::span<const OptionId> s) {
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
  for (int trial = 0; trial < cubex::test::scaled(200, 40); ++trial) {
    const Problem p = random_problem(rng);
    ASSERT_GT(p.num_options(), 64u);
    const Walk links = walk(p, Backend::kLinks);
    const Walk plain = walk(p, Backend::kBitset, mode(false, true));
    EXPECT_EQ(plain.solutions, links.solutions) << "trial " << trial;
    EXPECT_EQ(plain.st.nodes, links.st.nodes) << "trial " << trial;
    for (const bool lists : {false, true}) {
      for (const bool avx512 : {true, false}) {
        for (const bool run : {true, false}) {
          const Walk tiny = walk(p, Backend::kBitset, mode(true, avx512, run, lists));
          const std::string mode = mode_name(avx512, run, lists);
          EXPECT_EQ(tiny.solutions, links.solutions) << "trial " << trial << mode;
          EXPECT_EQ(tiny.st.nodes, links.st.nodes) << "trial " << trial << mode;
          // A narrowed node's children cost one word each: fewer words rewritten.
          if (!lists && avx512 && run && tiny.st.updates < plain.st.updates) ++narrowed;
        }
      }
    }
    // The MRV choice by popcounts (the matrices above keep counts: short columns).
    {
      EngineTuning scan = mode(true, true);
      scan.mrv = cubex::BitsetMrv::kScan;
      const Walk tiny = walk(p, Backend::kBitset, scan);
      EXPECT_EQ(tiny.solutions, links.solutions) << "trial " << trial << " scan";
      EXPECT_EQ(tiny.st.nodes, links.st.nodes) << "trial " << trial << " scan";
    }
  }
  EXPECT_GT(narrowed, cubex::test::scaled(150, 30));  // (a matrix whose root has a dead end never narrows)
}

// Mask lists of more than 255 options count in 16-bit lanes (list_choose): few items, each met by
// hundreds of options. The first solutions (a visitor stops the run) and the nodes to reach
// them are those of dancing links, with AVX-512 and without.
TEST(Tiny, LongMaskListsCountInWideLanes) {
  std::mt19937 rng(1611);
  for (int trial = 0; trial < 30; ++trial) {
    Problem p;
    const int n1 = 6 + static_cast<int>(rng() % 11);
    std::vector<ItemId> prim;
    for (int i = 0; i < n1; ++i) prim.push_back(p.add_primary("p" + std::to_string(i)));
    const int m = 300 + static_cast<int>(rng() % 1200);
    for (int o = 0; o < m; ++o) {
      std::vector<ItemId> opt;
      for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
        const ItemId i = prim[rng() % prim.size()];
        if (std::find(opt.begin(), opt.end(), i) == opt.end()) opt.push_back(i);
      }
      p.add_option(opt);
    }
    auto first = [&](Backend b, const EngineTuning& tu) {
      Walk w;
      w.st = Solver(p, b, tu).solve([&](std::span<const OptionId> s) {
        w.solutions.emplace_back(s.begin(), s.end());
        return w.solutions.size() < 300;
      });
      return w;
    };
    const Walk links = first(Backend::kLinks, {});
    ASSERT_EQ(links.solutions.size(), 300u) << "trial " << trial;
    for (const bool avx512 : {true, false}) {
      const Walk lists = first(Backend::kBitset, mode(true, avx512, true, true));
      EXPECT_EQ(lists.solutions, links.solutions)
          << "trial " << trial << mode_name(avx512, true, true);
      EXPECT_EQ(lists.st.nodes, links.st.nodes)
          << "trial " << trial << mode_name(avx512, true, true);
    }
  }
}

// Pruned trees (bitset.cpp, prune_tiny): the fixpoint and the choice on tiny tables are those of
// the wide ones, node for node and solution for solution.
TEST(Tiny, PrunedTreesAreTheSame) {
  std::mt19937 rng(1127);
  int narrowed = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const Problem p = random_problem(rng);
    auto pruned = [](EngineTuning tu) {
      tu.prune = cubex::BitsetPrune::kOn;
      return tu;
    };
    const Walk wide = walk(p, Backend::kBitset, pruned(mode(false, true)));
    for (const bool avx512 : {true, false}) {
      const Walk tiny = walk(p, Backend::kBitset, pruned(mode(true, avx512)));
      EXPECT_EQ(tiny.solutions, wide.solutions) << "trial " << trial << " avx512 " << avx512;
      EXPECT_EQ(tiny.st.nodes, wide.st.nodes) << "trial " << trial << " avx512 " << avx512;
      if (avx512 && tiny.st.updates < wide.st.updates) ++narrowed;
    }
    EXPECT_EQ(wide.solutions.size(), walk(p, Backend::kLinks).solutions.size()) << trial;
  }
  EXPECT_GT(narrowed, 100);
}

namespace {

// The paths of the nodes at depth 1..depth of p's tree (the frontier of depth-limited runs).
std::vector<cubex::TreePath> paths_to(const Problem& p, std::uint32_t depth) {
  std::vector<cubex::TreePath> out;
  auto engine = cubex::detail::make_engine(p, Backend::kLinks);
  cubex::detail::Control ctl;
  ctl.ctx = &out;
  ctl.frontier = [](void* ctx, cubex::TreePath&& path) {
    static_cast<std::vector<cubex::TreePath>*>(ctx)->push_back(std::move(path));
  };
  std::atomic<std::uint32_t> signal{0};
  ctl.signal = &signal;
  for (std::uint32_t d = 1; d <= depth; ++d)
    engine->run(cubex::TreeSpan{}, d, nullptr, cubex::SolveLimits{}, &ctl);
  return out;
}

// A run that gives work away at every chance (kHungry set again after each gift) and searches
// what it gave the same way: its counts and those of everything given, with the spans given.
struct Giving {
  std::vector<cubex::TreeSpan> given;
  std::atomic<std::uint32_t> signal{cubex::detail::Control::kHungry};
};

cubex::SolveStats run_giving(cubex::detail::Engine& e, const cubex::TreeSpan& span,
                             std::uint64_t& gifts) {
  Giving g;
  cubex::detail::Control ctl;
  ctl.signal = &g.signal;
  ctl.ctx = &g;
  ctl.give = [](void* ctx, cubex::TreeSpan&& s) {
    auto* gv = static_cast<Giving*>(ctx);
    gv->given.push_back(std::move(s));
    gv->signal.store(cubex::detail::Control::kHungry);
    return true;
  };
  cubex::SolveStats st = e.run(span, 0, nullptr, {}, &ctl).st;
  gifts += g.given.size();
  for (const cubex::TreeSpan& s : g.given) {
    const cubex::SolveStats d = run_giving(e, s, gifts);
    st.solutions += d.solutions;
    st.nodes += d.nodes;
  }
  return st;
}

}  // namespace

// The tiny tables' own loop (tiny_run) stops, resumes and gives work away as the general loop
// does: spans cut at random paths, each searched whole, in pieces of 1 to 7 nodes (stopped by
// max_nodes and resumed from RunResult::rest) and by a run that gives work away at every 64th
// node, all count the nodes and solutions of the general loop, and the spans add up to the tree.
TEST(Tiny, TheTinyLoopStopsResumesAndGivesWorkAway) {
  std::mt19937 rng(2711);
  std::uint64_t deep_stops = 0, gifts = 0;
  for (int trial = 0; trial < cubex::test::scaled(80, 20); ++trial) {
    const bool lists = trial % 2 == 1;  // (the mask lists' own loop, list_run, every other trial)
    const Problem p = random_problem(rng);
    const auto whole = Solver(p, Backend::kLinks).count();
    std::vector<cubex::TreePath> paths = paths_to(p, 5);
    std::shuffle(paths.begin(), paths.end(), rng);
    paths.resize(std::min<std::size_t>(paths.size(), 1 + rng() % 6));
    std::sort(paths.begin(), paths.end());
    paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    paths.insert(paths.begin(), cubex::TreePath{});
    std::uint64_t sol = 0, nodes = 0;
    for (std::size_t k = 0; k < paths.size(); ++k) {
      cubex::TreeSpan s;
      s.begin = paths[k];
      if (k + 1 < paths.size()) s.end = paths[k + 1], s.to_end = false;
      const cubex::SolveStats general =
          cubex::detail::make_engine(p, Backend::kBitset, mode(true, true, false, lists))
              ->run(s, 0, nullptr, {}, nullptr)
              .st;
      auto e = cubex::detail::make_engine(p, Backend::kBitset, mode(true, true, true, lists));
      const auto st = e->run(s, 0, nullptr, {}, nullptr).st;
      ASSERT_EQ(st.nodes, general.nodes) << "trial " << trial << " span " << k;
      ASSERT_EQ(st.solutions, general.solutions) << "trial " << trial << " span " << k;
      sol += st.solutions;
      nodes += st.nodes;
      const auto pieces = cubex::test::search_in_pieces(*e, s, rng);
      ASSERT_TRUE(pieces.resumable) << "trial " << trial << " span " << k;
      deep_stops += pieces.deep_stops;  // (below the root's wide tables, mostly)
      EXPECT_EQ(pieces.solutions, st.solutions) << "trial " << trial << " span " << k;
      EXPECT_EQ(pieces.nodes, st.nodes) << "trial " << trial << " span " << k;
      const auto g = run_giving(*e, s, gifts);
      EXPECT_EQ(g.solutions, st.solutions) << "trial " << trial << " span " << k;
      EXPECT_EQ(g.nodes, st.nodes) << "trial " << trial << " span " << k;
    }
    EXPECT_EQ(sol, whole.solutions) << "trial " << trial;
    EXPECT_EQ(nodes, whole.nodes) << "trial " << trial;
  }
  EXPECT_GT(deep_stops, std::uint64_t(cubex::test::scaled(1000, 250)));
  EXPECT_GT(gifts, std::uint64_t(cubex::test::scaled(100, 25)));
}

TEST(Tiny, SomaInSpansAndThreads) {
  const auto p = cubex::read_knuth_file(cubex::test::xc_file("soma.dlx")).problem;
  const cubex::SolveStats plain = Solver(p, Backend::kBitset, mode(false, true)).count();
  EXPECT_EQ(plain.solutions, 11520u);
  for (const bool lists : {false, true}) {
    const EngineTuning on = mode(true, true, true, lists);
    const auto tiny = Solver(p, Backend::kBitset, on).count();
    EXPECT_EQ(tiny.solutions, 11520u) << mode_name(true, true, lists);
    EXPECT_EQ(tiny.nodes, plain.nodes) << mode_name(true, true, lists);
    if (!lists) {  // (a list rewrites more words: one per option)
      EXPECT_LT(tiny.updates, plain.updates);
    }
    cubex::test::expect_spans_and_threads_count(p, 11520u, tiny.nodes, on);
  }
}

// A visitor that stops, and a limit on the solutions, stop inside tiny tables and mask lists as
// elsewhere.
TEST(Tiny, StopsWhereTheVisitorOrALimitSays) {
  const auto p = cubex::read_knuth_file(cubex::test::xc_file("soma.dlx")).problem;
  std::vector<std::vector<OptionId>> first;
  Solver(p, Backend::kBitset, mode(false, true)).solve([&](std::span<const OptionId> s) {
    first.emplace_back(s.begin(), s.end());
    return first.size() < 100;
  });
  for (const bool lists : {false, true}) {
    const EngineTuning on = mode(true, true, true, lists);
    std::vector<std::vector<OptionId>> seen;
    const auto st = Solver(p, Backend::kBitset, on).solve([&](std::span<const OptionId> s) {
      seen.emplace_back(s.begin(), s.end());
      return seen.size() < 100;
    });
    EXPECT_FALSE(st.complete);
    EXPECT_EQ(seen, first) << mode_name(true, true, lists);
    cubex::SolveLimits lim;
    lim.max_solutions = 37;
    const auto capped =
        Solver(p, Backend::kBitset, on).solve([&](std::span<const OptionId>) { return true; }, lim);
    EXPECT_EQ(capped.solutions, 37u);
    EXPECT_FALSE(capped.complete);
  }
}
