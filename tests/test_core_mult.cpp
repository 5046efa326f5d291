// Multiplicities on the bitset backend (src/core/bitset_mult.cpp): Algorithm M on bitsets must
// walk the links backend's tree node for node (same item choices, same children in the same
// order, same solutions in the same order), agree with a brute force written here, and cut into
// spans, stop and resume like the links backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <random>
#include <set>

#include "core/engine.hpp"
#include "cubex/core/job.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/knuth/format.hpp"
#include "job_support.hpp"
#include "test_util.hpp"

using cubex::Backend;
using cubex::ColourId;
using cubex::ItemId;
using cubex::OptionId;
using cubex::Problem;
using cubex::Solver;
using cubex::TreePath;
using cubex::TreeSpan;
using Solution = std::vector<OptionId>;

namespace {

bool bitset_here() {
  return __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("avx2") &&
         __builtin_cpu_supports("bmi2");
}

// Solutions in the order the backend visits them (each sorted).
std::vector<Solution> visit_all(const Problem& p, Backend backend) {
  std::vector<Solution> out;
  Solver(p, backend).solve([&](std::span<const OptionId> s) {
    Solution v(s.begin(), s.end());
    std::sort(v.begin(), v.end());
    out.push_back(v);
    return true;
  });
  return out;
}

// Every subset of the options, judged from the definition: a primary item covered lo..hi times;
// a secondary item at most once, or any number of times all with one non-zero colour.
std::set<Solution> brute_force(const Problem& p) {
  const std::size_t m = p.num_options();
  std::set<Solution> out;
  std::vector<std::uint32_t> uses(p.num_items());
  std::vector<ColourId> colour(p.num_items());
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << m); ++mask) {
    std::fill(uses.begin(), uses.end(), 0);
    bool ok = true;
    for (std::size_t o = 0; o < m && ok; ++o) {
      if (!(mask >> o & 1)) continue;
      const auto items = p.option(static_cast<OptionId>(o));
      const auto colours = p.option_colours(static_cast<OptionId>(o));
      for (std::size_t k = 0; k < items.size(); ++k) {
        const ItemId i = items[k];
        if (!p.item(i).primary) {
          if (uses[i] > 0 && (colours[k] == 0 || colour[i] != colours[k])) ok = false;
          colour[i] = colours[k];
        }
        ++uses[i];
      }
    }
    for (ItemId i = 0; i < p.num_items() && ok; ++i)
      if (p.item(i).primary) ok = uses[i] >= p.item(i).lo && uses[i] <= p.item(i).hi;
    if (!ok) continue;
    Solution s;
    for (std::size_t o = 0; o < m; ++o)
      if (mask >> o & 1) s.push_back(static_cast<OptionId>(o));
    out.insert(s);
  }
  return out;
}

// The kind of random matrix a case draws.
struct Shape {
  const char* name;
  int primaries;    // 1..primaries primary items (large shapes: from half the bound up)
  int secondaries;  // 0..secondaries-1 secondary items
  int colours;      // colours a secondary entry may take (0: none)
  int options;      // 1..options options (large shapes: from half the bound up)
  bool brute;       // small enough for the brute force
};
void PrintTo(const Shape& s, std::ostream* os) {
  *os << s.name;
}

// A seed from the case's name (FNV-1a), the same on every platform.
unsigned seed_of(const char* name) {
  std::uint32_t h = 2166136261u;
  for (const char* c = name; *c; ++c) h = (h ^ static_cast<unsigned char>(*c)) * 16777619u;
  return h;
}

// A random matrix whose primary items take ranges lo..hi with lo in 0..2 and hi up to 4
// (sometimes 0..0), at least one of them other than 1..1.
Problem random_problem(std::mt19937& rng, const Shape& s) {
  for (;;) {
    Problem p;
    const int np = s.brute ? 1 + static_cast<int>(rng() % s.primaries)
                           : s.primaries / 2 + static_cast<int>(rng() % (s.primaries / 2));
    const int ns = s.secondaries ? static_cast<int>(rng() % s.secondaries) : 0;
    const int no = s.brute ? 1 + static_cast<int>(rng() % s.options)
                           : s.options / 2 + static_cast<int>(rng() % (s.options / 2));
    std::vector<ItemId> prim, sec;
    for (int i = 0; i < np; ++i) {
      std::uint32_t lo = 1, hi = 1;
      switch (rng() % (s.brute ? 8 : 24)) {  // (large shapes: fewer ranges, smaller trees)
        case 0:
          lo = 0, hi = 1 + rng() % 3;
          break;
        case 1:
          lo = 1 + rng() % 2, hi = lo + rng() % 3;
          break;
        case 2:
          lo = hi = 2 + rng() % 2;
          break;
        case 3:
          if (rng() % 4 == 0) lo = hi = 0;
          break;
        default:
          break;
      }
      prim.push_back(p.add_primary("p" + std::to_string(i), lo, hi));
    }
    for (int i = 0; i < ns; ++i) sec.push_back(p.add_secondary("s" + std::to_string(i)));
    std::vector<ColourId> ids;
    for (int c = 0; c < s.colours; ++c) ids.push_back(p.add_colour(std::string(1, char('A' + c))));
    // Options touch few items so that items are covered several times.
    const unsigned spread = std::max(2, np / 2);
    for (int o = 0; o < no; ++o) {
      std::vector<ItemId> items{prim[rng() % prim.size()]};
      std::vector<ColourId> col{0};
      for (ItemId i : prim)
        if (i != items[0] && rng() % (spread + 1) == 0) items.push_back(i), col.push_back(0);
      for (ItemId i : sec) {
        if (rng() % 3) continue;
        items.push_back(i);
        col.push_back(ids.empty() || rng() % 4 == 0 ? 0 : ids[rng() % ids.size()]);
      }
      p.add_option(items, col);
    }
    if (p.has_multiplicities()) return p;
  }
}

class MultBitset : public testing::TestWithParam<Shape> {};

// The bitset backend visits the links backend's solutions in its order, over the same number of
// nodes, and (when small) exactly the brute force's solutions.
TEST_P(MultBitset, WalksTheLinksTreeNodeForNode) {
  if (!bitset_here()) GTEST_SKIP() << "no bitset backend on this CPU";
  const Shape& shape = GetParam();
  std::mt19937 rng(seed_of(shape.name));
  const int trials = shape.brute ? 300 : 40;
  int with_solutions = 0, deep = 0, skipped = 0, multiword = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const Problem p = random_problem(rng, shape);
    ASSERT_EQ(cubex::detail::resolve_backend(p, Backend::kBitset), Backend::kBitset);
    cubex::SolveLimits small;
    small.max_nodes = 100000;
    if (!Solver(p, Backend::kLinks).count(small).complete) {  // keep the test fast
      ++skipped;
      continue;
    }
    const auto links = visit_all(p, Backend::kLinks);
    const auto bits = visit_all(p, Backend::kBitset);
    ASSERT_EQ(bits, links) << "trial " << trial << "\n" << cubex::to_knuth(p);
    if (shape.brute) {
      ASSERT_EQ(std::set<Solution>(bits.begin(), bits.end()), brute_force(p))
          << "trial " << trial << "\n"
          << cubex::to_knuth(p);
      ASSERT_EQ(std::set<Solution>(bits.begin(), bits.end()).size(), bits.size())
          << "a solution was visited twice";
    }
    for (const Solution& s : bits) ASSERT_EQ(cubex::check_solution(p, s), "");
    const auto st_l = Solver(p, Backend::kLinks).count();
    const auto st_b = Solver(p, Backend::kBitset).count();
    EXPECT_EQ(st_b.solutions, st_l.solutions);
    ASSERT_EQ(st_b.nodes, st_l.nodes) << "trial " << trial << "\n" << cubex::to_knuth(p);
    with_solutions += !bits.empty();
    deep += st_l.nodes > 20;
    multiword += p.num_options() > 64;
  }
  // The generator must reach solutions and trees of some size, not only dead ends.
  EXPECT_GT(with_solutions, trials / 4);
  EXPECT_GT(deep, trials / 5);
  EXPECT_LT(skipped, trials / 4);
  if (!shape.brute) {
    EXPECT_GT(multiword, trials / 4);
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, MultBitset,
                         testing::Values(Shape{"ranges", 5, 0, 0, 13, true},
                                         Shape{"secondaries", 5, 4, 0, 13, true},
                                         Shape{"colours", 4, 4, 3, 13, true},
                                         Shape{"several_words", 24, 3, 2, 120, false}),
                         [](const auto& info) { return std::string(info.param.name); });

// `cells` cells in blocks of 6, each block one option, one in `odds` also cut in ways that use
// items with ranges (T: 2..6 times, U: 0..3 times): the bitset backend counts and visits what
// links does, over the same nodes.
void expect_blocks_as_links(int cells, unsigned odds, unsigned seed) {
  std::mt19937 rng(seed);
  for (int trial = 0; trial < 3; ++trial) {
    Problem p;
    std::vector<ItemId> cell;
    for (int c = 0; c < cells; ++c) cell.push_back(p.add_primary("c" + std::to_string(c)));
    const ItemId T = p.add_primary("T", 2, 6), U = p.add_primary("U", 0, 3);
    const ItemId s = p.add_secondary("s");
    for (int b = 0; b < cells / 6; ++b) {
      const ItemId* x = &cell[6 * static_cast<std::size_t>(b)];
      p.add_option({x[0], x[1], x[2], x[3], x[4], x[5]});
      if (rng() % odds == 0) {
        p.add_option({x[0], x[1], x[2], T});
        p.add_option({x[3], x[4], x[5], T});
        p.add_option({x[0], x[1], x[2], x[3], U});
        p.add_option({x[4], x[5]});
        p.add_option({x[4], x[5], s});
      }
    }
    const auto links = Solver(p, Backend::kLinks).count();
    const auto bits = Solver(p, Backend::kBitset).count();
    EXPECT_GT(links.solutions, 1u) << cells << " cells, trial " << trial;
    EXPECT_EQ(bits.solutions, links.solutions) << cells << " cells, trial " << trial;
    EXPECT_EQ(bits.nodes, links.nodes) << cells << " cells, trial " << trial;
    EXPECT_EQ(visit_all(p, Backend::kBitset), visit_all(p, Backend::kLinks))
        << cells << " cells, trial " << trial;
  }
}

// More than 256 primary items: the keys are kept in memory, one count at a time, instead of in
// registers.
TEST(MultBitsetWide, OverTwoHundredFiftySixPrimaryItems) {
  if (!bitset_here()) GTEST_SKIP() << "no bitset backend on this CPU";
  expect_blocks_as_links(300, 6, 11);
}

// 50 to 254 primary items: the killed options' counts are summed in 2-bit fields of one vector
// of 32 bytes per 128 items (see subtract_killed in bitset_mult.cpp; the engine has no AVX-512
// loop), here with 2, 3, 5, 7 and 8 of the 32-item vectors of 8-bit sums, one and two packed
// vectors.
TEST(MultBitsetWide, TwoBitCountsOfOneOrTwoVectors) {
  if (!bitset_here()) GTEST_SKIP() << "no bitset backend on this CPU";
  for (const int cells : {48, 84, 132, 198, 252})
    expect_blocks_as_links(cells, std::max(2u, static_cast<unsigned>(cells) / 30), 12);
}

// All node paths down to `depth`, from the links backend's frontier callback.
std::vector<TreePath> paths_to(const Problem& p, std::uint32_t depth) {
  std::vector<TreePath> out;
  auto engine = cubex::detail::make_engine(p, Backend::kLinks);
  cubex::detail::Control ctl;
  ctl.ctx = &out;
  ctl.frontier = [](void* ctx, TreePath&& path) {
    static_cast<std::vector<TreePath>*>(ctx)->push_back(std::move(path));
  };
  std::atomic<std::uint32_t> signal{0};
  ctl.signal = &signal;
  for (std::uint32_t d = 1; d <= depth; ++d)
    engine->run(TreeSpan{}, d, nullptr, cubex::SolveLimits{}, &ctl);
  return out;
}

// A tree cut at random paths (real nodes, and indices past the last child) into consecutive
// spans: each span has the same nodes and solutions on both backends, and they add up to the
// whole tree. Each span is also searched in pieces of a few nodes (stopped by max_nodes and
// resumed from RunResult::rest), which must add up to the span.
TEST(MultBitsetSpans, RandomCutsAndResumesAddUp) {
  if (!bitset_here()) GTEST_SKIP() << "no bitset backend on this CPU";
  std::mt19937 rng(4242);
  const Shape shape{"spans", 6, 3, 2, 24, false};
  int cut_trees = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const Problem p = random_problem(rng, shape);
    const auto whole = Solver(p, Backend::kLinks).count();
    std::vector<TreePath> paths = paths_to(p, 4);
    if (paths.size() < 3) continue;
    ++cut_trees;
    for (TreePath& q : paths)
      if (rng() % 5 == 0) q.back() += 1 + rng() % 3;  // maybe past the last child
    std::shuffle(paths.begin(), paths.end(), rng);
    paths.resize(std::min<std::size_t>(paths.size(), 1 + rng() % 8));
    std::sort(paths.begin(), paths.end());
    paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    paths.insert(paths.begin(), TreePath{});
    auto el = cubex::detail::make_engine(p, Backend::kLinks);
    auto eb = cubex::detail::make_engine(p, Backend::kBitset);
    std::uint64_t sol = 0, nodes = 0;
    for (std::size_t k = 0; k < paths.size(); ++k) {
      TreeSpan s;
      s.begin = paths[k];
      if (k + 1 < paths.size()) s.end = paths[k + 1], s.to_end = false;
      const auto rl = el->run(s, 0, nullptr, {}, nullptr);
      const auto rb = eb->run(s, 0, nullptr, {}, nullptr);
      ASSERT_EQ(rb.st.nodes, rl.st.nodes) << "trial " << trial << " span " << k << "\n"
                                          << cubex::to_knuth(p);
      ASSERT_EQ(rb.st.solutions, rl.st.solutions) << "trial " << trial << " span " << k;
      sol += rb.st.solutions;
      nodes += rb.st.nodes;
      // The same span in pieces of 1..7 nodes.
      const auto pieces = cubex::test::search_in_pieces(*eb, s, rng);
      ASSERT_TRUE(pieces.resumable) << "trial " << trial << " span " << k;
      EXPECT_EQ(pieces.solutions, rb.st.solutions) << "trial " << trial << " span " << k;
      EXPECT_EQ(pieces.nodes, rb.st.nodes) << "trial " << trial << " span " << k;
    }
    EXPECT_EQ(sol, whole.solutions) << "trial " << trial;
    EXPECT_EQ(nodes, whole.nodes) << "trial " << trial;
  }
  EXPECT_GT(cut_trees, 60);
}

// Several threads (spans handed to idle threads on demand), on both backends: the one-thread
// counts and nodes, and the ordered output of the one-thread run.
TEST(MultBitsetSpans, ThreadsGiveTheOneThreadCountsAndOrder) {
  if (!bitset_here()) GTEST_SKIP() << "no bitset backend on this CPU";
  std::mt19937 rng(77);
  const Shape shape{"threads", 7, 3, 2, 40, false};
  for (int trial = 0; trial < 40; ++trial) {
    const Problem p = random_problem(rng, shape);
    const auto one = Solver(p, Backend::kLinks).count();
    const auto order = visit_all(p, Backend::kLinks);
    for (unsigned t : {2u, 4u}) {
      cubex::SearchJob job(p, nullptr, Backend::kBitset);
      cubex::JobOptions opt;
      opt.threads = t;
      opt.ordered = true;
      opt.order_buffer = trial % 2 ? 1 : 1 << 20;
      std::vector<Solution> got;
      auto each = [&](std::span<const OptionId> s, std::uint64_t) {
        Solution v(s.begin(), s.end());
        std::sort(v.begin(), v.end());
        got.push_back(v);
        return true;
      };
      cubex::ClassVisitor v(each);
      const auto r = job.run(opt, &v);
      EXPECT_TRUE(r.complete);
      EXPECT_EQ(r.counts.total, one.solutions) << "trial " << trial << ", " << t << " threads";
      EXPECT_EQ(r.counts.nodes, one.nodes) << "trial " << trial << ", " << t << " threads";
      EXPECT_EQ(got, order) << "trial " << trial << ", " << t << " threads";
    }
  }
}

// Conway's 5x5x5 puzzle (13 identical 1x2x4 pieces; the 1x1x3 rods one item of multiplicity 3):
// the subtree of the root's fifth child (the first with solutions) is the same on both backends,
// whole and stopped after 100,000 nodes. (The whole count, the published 27,456, is KnownCounts
// in test_core.cpp, on both backends.)
TEST(MultBitsetConway, ASubtreeIsTheLinksTree) {
  if (!bitset_here()) GTEST_SKIP() << "no bitset backend on this CPU";
  const auto f = cubex::read_knuth_file(cubex::test::xc_file("conway_mult.dlx"));
  ASSERT_TRUE(f.problem.has_multiplicities());
  EXPECT_EQ(Solver(f.problem).backend(), Backend::kBitset);  // chosen automatically
  TreeSpan s;
  s.begin = TreePath{4};
  s.end = TreePath{5};
  s.to_end = false;
  auto el = cubex::detail::make_engine(f.problem, Backend::kLinks);
  auto eb = cubex::detail::make_engine(f.problem, Backend::kBitset);
  const auto rl = el->run(s, 0, nullptr, {}, nullptr);
  const auto rb = eb->run(s, 0, nullptr, {}, nullptr);
  EXPECT_GT(rl.st.solutions, 0u);
  EXPECT_EQ(rb.st.solutions, rl.st.solutions);
  EXPECT_EQ(rb.st.nodes, rl.st.nodes);
  cubex::SolveLimits lim;
  lim.max_nodes = 100000;
  const auto pl = el->run(s, 0, nullptr, lim, nullptr);
  const auto pb = eb->run(s, 0, nullptr, lim, nullptr);
  EXPECT_EQ(pb.st.solutions, pl.st.solutions);
  ASSERT_TRUE(pb.has_rest);
  EXPECT_EQ(pb.rest, pl.rest);
}

}  // namespace
