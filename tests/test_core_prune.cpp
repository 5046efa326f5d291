// The bitset backend's pruning (engine.hpp, BitsetEngine::prune_choose): an option that conflicts
// with every live option of some item is removed before the item is chosen. Checked against the
// brute force on random matrices (secondary items and colours included), against dancing links on
// wider ones, on the y25 files against the plain tree, and for the rule that says where it applies.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "brute_force.hpp"
#include "core/engine.hpp"
#include "cubex/core/job.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/knuth/format.hpp"
#include "job_support.hpp"
#include "test_util.hpp"
#include "sanitized.hpp"

using cubex::Backend;
using cubex::ColourId;
using cubex::ItemId;
using cubex::OptionId;
using cubex::Problem;
using cubex::Solver;
using Solution = std::vector<OptionId>;
using cubex::BitsetPrune;
using cubex::EngineTuning;

namespace {

// The tuning (cubex/core/tuning.hpp) of `tu` with pruning set to `m`.
EngineTuning pruning(BitsetPrune m, EngineTuning tu = {}) {
  tu.prune = m;
  return tu;
}

// The tuning of `tu` with the compaction threshold set (tables of at least `words` words are
// renumbered below a node whose live options fit in half of them).
EngineTuning compact_from(std::uint32_t words, EngineTuning tu) {
  tu.compact_words = words;
  return tu;
}

// The kinds of loop of the bitset engines: 0 the AVX-512 loops (where the CPU has them;
// pruning's whole fixpoint in registers, its test listing an item's options bit by bit), 1 the
// AVX2 loops with rows in registers, 2 the word-by-word loops that longer rows take, 3 the
// AVX-512 loops with pruning's test listing by vpcompressb, as rows of over 32 words do, 4 the
// AVX-512 loops with the fixpoint's general loop (EngineTuning::prune_fix off).
constexpr int kLoopKinds[] = {0, 1, 2, 3, 4};
EngineTuning loops_of(int kind, EngineTuning tu) {
  tu.avx512 = kind == 0 || kind >= 3;
  tu.avx2_rows = kind <= 1 || kind >= 3;
  tu.list_bits = kind != 3;
  tu.prune_fix = kind != 4;
  return tu;
}

// Tiny tables on or off (EngineTuning::tiny).
EngineTuning tiny_of(bool on, EngineTuning tu) {
  tu.tiny = on;
  return tu;
}

// The solutions in the order the engine visits them, options sorted within each.
std::vector<Solution> in_order(const Problem& p, cubex::SolveStats* st,
                               const EngineTuning& tu = {}) {
  std::vector<Solution> out;
  *st = Solver(p, Backend::kBitset, tu).solve([&](std::span<const OptionId> s) {
    Solution v(s.begin(), s.end());
    std::sort(v.begin(), v.end());
    out.push_back(v);
    return true;
  });
  return out;
}

std::set<Solution> solutions(const Problem& p, Backend b, std::uint64_t* nodes = nullptr,
                             const EngineTuning& tu = {}) {
  std::set<Solution> out;
  std::size_t visits = 0;
  const auto st = Solver(p, b, tu).solve([&](std::span<const OptionId> s) {
    Solution v(s.begin(), s.end());
    std::sort(v.begin(), v.end());
    out.insert(v);
    ++visits;
    return true;
  });
  EXPECT_EQ(visits, out.size()) << "a solution was visited twice";
  if (nodes) *nodes = st.nodes;
  return out;
}

// A random matrix: np primary items, a few secondary ones (coloured in some options when
// `colours`), options of one primary item plus others at random.
Problem random_matrix(std::mt19937& rng, bool colours, int max_options) {
  Problem p;
  const int np = 3 + rng() % 7, ns = rng() % 4, no = 6 + rng() % (max_options - 5);
  std::vector<ItemId> prim, sec;
  for (int i = 0; i < np; ++i) prim.push_back(p.add_primary("p" + std::to_string(i)));
  for (int i = 0; i < ns; ++i) sec.push_back(p.add_secondary("s" + std::to_string(i)));
  std::vector<ColourId> palette;
  if (colours)
    for (const char* c : {"red", "blue"}) palette.push_back(p.add_colour(c));
  for (int o = 0; o < no; ++o) {
    std::vector<ItemId> items{prim[rng() % prim.size()]};
    for (ItemId i : prim)
      if (i != items[0] && rng() % 4 == 0) items.push_back(i);
    std::vector<ColourId> cs(items.size(), 0);
    for (ItemId i : sec) {
      if (rng() % 3 != 0) continue;
      items.push_back(i);
      cs.push_back(palette.empty() || rng() % 3 == 0 ? 0 : palette[rng() % palette.size()]);
    }
    p.add_option(items, cs);
  }
  return p;
}

// The pruned tree written the slow, obvious way (the engine's twin, for node-for-node checks):
// at each node, every open item with at most `limit` live options removes the live options that
// conflict with all of its own, until nothing changes; a node with an open item left without
// options is a dead end; else the first item with the fewest options is branched on. Counts the
// nodes and returns the solutions.
struct ReferencePruned {
  const Problem& p;
  std::uint32_t limit;
  std::vector<std::vector<bool>> conflict;  // between options
  std::uint64_t nodes = 0;
  std::set<Solution> found;

  ReferencePruned(const Problem& prob, std::uint32_t t) : p(prob), limit(t) {
    const std::size_t m = p.num_options();
    conflict.assign(m, std::vector<bool>(m, false));
    for (OptionId a = 0; a < m; ++a)
      for (OptionId b = 0; b < m; ++b) {
        const auto ia = p.option(a), ib = p.option(b);
        const auto ca = p.option_colours(a), cb = p.option_colours(b);
        for (std::size_t x = 0; x < ia.size(); ++x)
          for (std::size_t y = 0; y < ib.size(); ++y)
            if (ia[x] == ib[y] && (ca[x] == 0 || ca[x] != cb[y])) conflict[a][b] = true;
      }
  }
  bool has(OptionId o, ItemId i) const {
    const auto items = p.option(o);
    return std::find(items.begin(), items.end(), i) != items.end();
  }
  void search(std::vector<bool> live, std::vector<bool> open, Solution& chosen) {
    ++nodes;
    if (std::find(open.begin(), open.end(), true) == open.end()) {
      Solution s = chosen;
      std::sort(s.begin(), s.end());
      found.insert(s);
      return;
    }
    const std::size_t m = p.num_options();
    auto options_of = [&](ItemId i) {
      std::vector<OptionId> v;
      for (OptionId o = 0; o < m; ++o)
        if (live[o] && has(o, i)) v.push_back(o);
      return v;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (ItemId i = 0; i < p.num_items(); ++i) {
        if (!open[i]) continue;
        const auto mine = options_of(i);
        if (mine.empty()) return;
        if (mine.size() > limit) continue;
        for (OptionId o = 0; o < m; ++o) {
          if (!live[o] || has(o, i)) continue;
          if (std::all_of(mine.begin(), mine.end(), [&](OptionId x) { return conflict[x][o]; })) {
            live[o] = false;
            changed = true;
          }
        }
      }
    }
    ItemId best = 0;
    std::size_t fewest = SIZE_MAX;
    for (ItemId i = 0; i < p.num_items(); ++i)
      if (open[i] && options_of(i).size() < fewest) fewest = options_of(i).size(), best = i;
    for (OptionId x : options_of(best)) {
      std::vector<bool> l2 = live, o2 = open;
      for (OptionId o = 0; o < m; ++o)
        if (conflict[x][o]) l2[o] = false;
      for (ItemId i : p.option(x)) o2[i] = false;
      chosen.push_back(x);
      search(l2, o2, chosen);
      chosen.pop_back();
    }
  }
  void run() {
    std::vector<bool> open(p.num_items(), false);
    for (ItemId i = 0; i < p.num_items(); ++i) open[i] = p.item(i).primary;
    Solution chosen;
    search(std::vector<bool>(p.num_options(), true), open, chosen);
  }
};

}  // namespace

// Small random matrices, pruning forced on: the brute force's solutions, each once, in fewer nodes
// than the plain tree overall (not at every matrix: pruning can make MRV choose another item, whose
// subtree may be larger); with pruning off, the plain tree of dancing links.
TEST(Prune, KeepsEverySolutionOfRandomMatrices) {
  std::mt19937 rng(2026);
  int with_solutions = 0, smaller = 0, trials = 0;
  std::uint64_t sum_plain = 0, sum_pruned = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Problem p = random_matrix(rng, trial % 2 == 1, 18);
    if (cubex::detail::resolve_backend(p, Backend::kAuto) != Backend::kBitset) continue;
    const auto want = cubex::test::brute_force(p);
    std::uint64_t links = 0, plain = 0, pruned = 0;
    ASSERT_EQ(solutions(p, Backend::kLinks, &links), want) << "trial " << trial;
    ASSERT_EQ(solutions(p, Backend::kBitset, &plain, pruning(BitsetPrune::kOff)), want)
        << "trial " << trial;
    const EngineTuning on = pruning(BitsetPrune::kOn);
    ASSERT_GT(cubex::detail::bitset_prune_limit(p, on), 0u);
    ASSERT_EQ(solutions(p, Backend::kBitset, &pruned, on), want) << "trial " << trial << "\n"
                                                                 << cubex::to_knuth(p);
    EXPECT_EQ(plain, links) << "trial " << trial;
    sum_plain += plain;
    sum_pruned += pruned;
    with_solutions += !want.empty();
    smaller += pruned < plain;
    ++trials;
  }
  // The generator must exercise the interesting cases.
  EXPECT_GT(trials, 350);
  EXPECT_GT(with_solutions, 100);
  EXPECT_GT(smaller, 50);
  EXPECT_LT(sum_pruned, sum_plain);
}

// The engine's pruned tree is the reference's node for node (the fixpoint does not depend on the
// order the engine checks items in, nor on its shortcuts), with each kind of loop.
TEST(Prune, TreeIsTheReferenceNodeForNode) {
  std::mt19937 rng(77);
  int trials = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Problem p = random_matrix(rng, trial % 2 == 1, trial < 150 ? 18 : 90);
    if (cubex::detail::resolve_backend(p, Backend::kAuto) != Backend::kBitset) continue;
    const EngineTuning on = pruning(BitsetPrune::kOn);
    const std::uint32_t t = cubex::detail::bitset_prune_limit(p, on);
    ASSERT_GT(t, 0u);
    ReferencePruned ref(p, t);
    ref.run();
    for (const int loops : kLoopKinds) {  // each kind of loop (loops_of)
      std::uint64_t nodes = 0;
      const auto got = solutions(p, Backend::kBitset, &nodes, loops_of(loops, on));
      ASSERT_EQ(got, ref.found) << "trial " << trial << ", loops " << loops << "\n"
                                << cubex::to_knuth(p);
      EXPECT_EQ(nodes, ref.nodes) << "trial " << trial << ", loops " << loops << "\n"
                                  << cubex::to_knuth(p);
    }
    ++trials;
  }
  EXPECT_GT(trials, 250);
}

// Wider: the pentominoes (32 words of options, pruning forced on) give the same tree with the
// AVX-512 loops (the fixpoint in registers or not), the AVX2 ones and the word-by-word ones, and
// the published count (2339, shared/data/KNOWN_COUNTS.md).
TEST(Prune, PentominoTreeIsTheSameWithAndWithoutAvx512) {
  const auto p = cubex::read_knuth_file(cubex::test::xc_file("pent6x10_sym.dlx")).problem;
  const EngineTuning on = pruning(BitsetPrune::kOn);
  ASSERT_GT(cubex::detail::bitset_prune_limit(p, on), 0u);
  const auto fast = Solver(p, Backend::kBitset, on).count();
  EngineTuning tu = on;
  tu.prune_fix = false;  // the fixpoint's general loop
  const auto general = Solver(p, Backend::kBitset, tu).count();
  tu = on;
  tu.list_bits = false;  // the test's other AVX-512 listing
  const auto compress = Solver(p, Backend::kBitset, tu).count();
  EXPECT_EQ(general.solutions, 2339u);
  EXPECT_EQ(fast.nodes, general.nodes);
  EXPECT_EQ(compress.solutions, 2339u);
  EXPECT_EQ(fast.nodes, compress.nodes);
  tu = on;
  tu.avx512 = false;
  const auto avx2 = Solver(p, Backend::kBitset, tu).count();
  tu.avx2_rows = false;
  const auto words = Solver(p, Backend::kBitset, tu).count();
  EXPECT_EQ(fast.solutions, 2339u);
  EXPECT_EQ(avx2.solutions, 2339u);
  EXPECT_EQ(words.solutions, 2339u);
  EXPECT_EQ(fast.nodes, avx2.nodes);
  EXPECT_EQ(fast.nodes, words.nodes);
}

// Wider matrices (several 64-bit words of options, too many for the brute force): blocks of
// cells that can be tiled several ways, joined by options across two blocks through a secondary
// item. Pruning keeps dancing links' solutions.
TEST(Prune, WideMatricesKeepDancingLinksSolutions) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 6;) {
    Problem p;
    std::vector<ItemId> cell;
    for (int c = 0; c < 30; ++c) cell.push_back(p.add_primary("c" + std::to_string(c)));
    const ItemId s = p.add_secondary("s");
    for (int o = 0; o < 90; ++o) {  // pieces of 2 to 5 consecutive cells of a ring
      const int a = rng() % 30, len = 2 + rng() % 4;
      std::vector<ItemId> items;
      for (int k = 0; k < len; ++k) items.push_back(cell[(a + k) % 30]);
      if (rng() % 8 == 0) items.push_back(s);
      p.add_option(items);
    }
    cubex::SolveLimits lim;
    lim.max_nodes = 200000;  // keep the sets small
    const auto st = Solver(p, Backend::kLinks).solve([](auto) { return true; }, lim);
    if (!st.complete || st.solutions == 0 || st.solutions > 20000) continue;
    ++trial;
    std::uint64_t plain = 0, pruned = 0;
    const auto want = solutions(p, Backend::kLinks, &plain);
    ASSERT_FALSE(want.empty()) << "trial " << trial;
    EXPECT_EQ(solutions(p, Backend::kBitset, &pruned, pruning(BitsetPrune::kOn)), want)
        << "trial " << trial;
    EXPECT_LT(pruned, plain) << "trial " << trial;
  }
}

// Where it applies: short columns (cells without piece items) and matrices of 1024 options or
// more prune; a small matrix with long piece columns (Soma, 688 options) does not. The rule is
// part of the tree's identity, so a checkpoint of one tree is refused by the other.
// Rows of several vectors, most with a partial last one (4 to 13 words: 200 to 776 options):
// pieces of P different lengths around a ring of N cells, each at every position, half of the
// options also taking a secondary item. The pruned tree is the same node for node with each kind
// of loop, and counts dancing links' solutions.
TEST(Prune, RowsOfSeveralVectorsGiveOneTreeWithEachKindOfLoop) {
  std::mt19937 rng(5);
  for (const auto& [pieces, cells] : {std::pair{5, 40}, {6, 55}, {7, 74}, {8, 97}}) {
    Problem p;
    std::vector<ItemId> piece, cell;
    for (int k = 0; k < pieces; ++k) piece.push_back(p.add_primary("p" + std::to_string(k)));
    for (int c = 0; c < cells; ++c) cell.push_back(p.add_primary("c" + std::to_string(c)));
    const ItemId s = p.add_secondary("s");
    std::vector<int> len(pieces, cells / pieces);  // lengths adding up to `cells`, all different
    for (int k = 0; k < pieces; ++k) len[k] += k - pieces / 2;
    len.back() += cells - std::accumulate(len.begin(), len.end(), 0);
    for (int k = 0; k < pieces; ++k)
      for (int a = 0; a < cells; ++a) {
        std::vector<ItemId> items{piece[k]};
        for (int c = 0; c < len[k]; ++c) items.push_back(cell[(a + c) % cells]);
        if (rng() % 2) items.push_back(s);
        p.add_option(items);
      }
    ASSERT_EQ(p.num_options(), static_cast<std::size_t>(pieces * cells));
    const auto links = Solver(p, Backend::kLinks).count();
    ASSERT_GT(links.solutions, 0u) << pieces << " pieces";
    const EngineTuning on = pruning(BitsetPrune::kOn);
    std::uint64_t first = 0;
    for (const int loops : kLoopKinds) {  // each kind of loop (loops_of)
      const auto got = Solver(p, Backend::kBitset, loops_of(loops, on)).count();
      EXPECT_EQ(got.solutions, links.solutions) << pieces << " pieces, loops " << loops;
      if (loops == 0) first = got.nodes;
      EXPECT_EQ(got.nodes, first) << pieces << " pieces, loops " << loops;
      EXPECT_LT(got.nodes, links.nodes) << pieces << " pieces, loops " << loops;
    }
  }
}

// Renumbering a node's live options into narrower tables (BitsetEngine::compact) leaves the tree
// as it is: on random matrices of three or four words of options (129 to 200), compaction forced
// on from one word (so rows are packed across word boundaries, and narrowed again below), the
// tree of the engine without compaction node for node (which TreeIsTheReferenceNodeForNode
// checks against the reference) and its solutions in the same order, with each kind of loop.
// The words the search touched (`updates`) show that compaction ran. Every other trial counts
// items met by more than 6 options in 16-bit lanes (EngineTuning::short_max, 254 by default): the
// narrower tables move those with at most 6 live options to byte lanes, with their counts and
// last checks (BitsetEngine::relane). Every kind of loop walks the same tree as the first (the
// fixpoint in registers with 16-bit lanes against the other loops).
TEST(Prune, CompactedTablesWalkTheSameTree) {
  std::mt19937 rng(41);
  int trials = 0, fewer_updates = 0;
  for (int trial = 0; trials < cubex::test::scaled(40, 6) && trial < 2000; ++trial) {
    const Problem p = random_matrix(rng, trial % 2 == 1, 200);
    if (p.num_options() <= 128) continue;
    if (cubex::detail::resolve_backend(p, Backend::kAuto) != Backend::kBitset) continue;
    EngineTuning on = pruning(BitsetPrune::kOn);
    on.short_max = trials % 2 ? 6 : 254;
    std::vector<Solution> first;  // the first kind of loop's solutions and nodes
    std::uint64_t first_nodes = 0;
    for (const int loops : kLoopKinds) {  // each kind of loop (loops_of)
      // Tiny tables (at most 64 items: bitset.cpp, narrow_tiny) off, then on below narrowed
      // tables; the updates tell that compaction ran with them off.
      for (const bool tiny : {false, true}) {
        const EngineTuning tu = tiny_of(tiny, loops_of(loops, on));
        cubex::SolveStats wide, narrow;
        const std::vector<Solution> want = in_order(p, &wide, compact_from(UINT32_MAX, tu));
        const std::vector<Solution> got = in_order(p, &narrow, compact_from(1, tu));
        ASSERT_EQ(got, want) << "trial " << trial << ", loops " << loops << ", tiny " << tiny
                             << "\n"
                             << cubex::to_knuth(p);
        EXPECT_EQ(narrow.nodes, wide.nodes) << "trial " << trial << ", loops " << loops;
        if (!tiny) fewer_updates += narrow.updates < wide.updates;
        // Every kind of loop walks the first kind's tree (16-bit lanes too, every other trial).
        if (loops == kLoopKinds[0] && !tiny) {
          first = want;
          first_nodes = wide.nodes;
        }
        EXPECT_EQ(want, first) << "trial " << trial << ", loops " << loops << ", tiny " << tiny;
        EXPECT_EQ(wide.nodes, first_nodes) << "trial " << trial << ", loops " << loops;
      }
    }
    ++trials;
  }
  EXPECT_EQ(trials, cubex::test::scaled(40, 6));
  EXPECT_GT(fewer_updates, trials * 2);  // compaction ran in most of them
}

// A real puzzle whose tables are compacted by default (pent6x10_sym: 30 words of options): the
// tree of the engine without compaction (2339 solutions, shared/data/KNOWN_COUNTS.md), in one
// search and in spans of static cuts that start inside compacted subtrees, and in a job of four
// threads that hands subtrees to each other.
TEST(Prune, CompactedPentominoTreeInSpansAndThreads) {
  const auto p = cubex::read_knuth_file(cubex::test::xc_file("pent6x10_sym.dlx")).problem;
  ASSERT_GE((p.num_options() + 63) / 64, EngineTuning{}.compact_words);
  const cubex::SolveStats wide =
      Solver(p, Backend::kBitset, compact_from(UINT32_MAX, EngineTuning{})).count();
  const auto narrow = Solver(p, Backend::kBitset).count();
  EXPECT_EQ(narrow.solutions, 2339u);
  EXPECT_EQ(wide.solutions, 2339u);
  EXPECT_EQ(narrow.nodes, wide.nodes);
  EXPECT_LT(narrow.updates, wide.updates);  // compacted
  cubex::test::expect_spans_and_threads_count(p, 2339u, narrow.nodes);
}

// The progress estimate's engine makes many short runs (listings of a depth, samples of one
// subtree each) and does not narrow its tables (Engine::for_short_runs): narrowing cost pent6x10
// 18 us per sample, a third of a depth-4 sample. It walks the same tree: the same frontier, and
// the same nodes and solutions below each of its nodes, and in the whole tree, without the
// narrowed tables' savings.
TEST(Prune, ShortRunEnginesWalkTheSameTreeWithoutNarrowing) {
  const auto p = cubex::read_knuth_file(cubex::test::xc_file("pent6x10_sym.dlx")).problem;
  ASSERT_GE((p.num_options() + 63) / 64, EngineTuning{}.compact_words);
  const auto narrow = cubex::detail::make_engine(p, Backend::kBitset);
  const auto wide = narrow->clone();
  wide->for_short_runs();
  struct Paths {
    std::vector<cubex::TreePath> v;
    static void add(void* ctx, cubex::TreePath&& path) {
      static_cast<Paths*>(ctx)->v.push_back(std::move(path));
    }
  };
  auto frontier = [](cubex::detail::Engine& e, std::uint32_t depth) {
    Paths paths;
    std::atomic<std::uint32_t> signal{0};
    cubex::detail::Control ctl;
    ctl.signal = &signal;
    ctl.ctx = &paths;
    ctl.frontier = &Paths::add;
    e.run(cubex::TreeSpan{}, depth, nullptr, {}, &ctl);
    return paths.v;
  };
  const auto listed = frontier(*narrow, 3);
  ASSERT_GT(listed.size(), 100u);
  EXPECT_EQ(frontier(*wide, 3), listed);
  for (std::size_t k = 0; k < listed.size(); k += 7) {
    cubex::TreeSpan s;
    s.begin = s.end = listed[k];
    ++s.end.back();
    s.to_end = false;
    const auto a = narrow->run(s, 0, nullptr, {}, nullptr).st;
    const auto b = wide->run(s, 0, nullptr, {}, nullptr).st;
    EXPECT_EQ(a.nodes, b.nodes) << "frontier node " << k;
    EXPECT_EQ(a.solutions, b.solutions) << "frontier node " << k;
  }
  const auto a = narrow->run(cubex::TreeSpan{}, 0, nullptr, {}, nullptr).st;
  const auto b = wide->run(cubex::TreeSpan{}, 0, nullptr, {}, nullptr).st;
  EXPECT_EQ(a.solutions, 2339u);
  EXPECT_EQ(b.solutions, 2339u);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_LT(a.updates, b.updates);  // only the problem's engine narrowed
}

TEST(Prune, AppliesWhereItPaysAndNamesItsTree) {
  const auto y25 = cubex::read_knuth_file(cubex::test::xc_file("y25_o1.dlx")).problem;
  const auto pent = cubex::read_knuth_file(cubex::test::xc_file("pent6x10_sym.dlx")).problem;
  const auto soma = cubex::read_knuth_file(cubex::test::xc_file("soma.dlx")).problem;
  EXPECT_EQ(cubex::detail::bitset_prune_limit(y25), 16u);
  EXPECT_EQ(cubex::detail::bitset_prune_limit(pent), 16u);
  EXPECT_EQ(cubex::detail::bitset_prune_limit(soma), 0u);
  EXPECT_EQ(cubex::detail::choice_rule(y25, Backend::kAuto), "mrv-first+prune16/1");
  EXPECT_EQ(cubex::detail::choice_rule(pent, Backend::kAuto), "mrv-first+prune16/1");
  EXPECT_EQ(cubex::detail::choice_rule(y25, Backend::kLinks), "mrv-first/1");
  EXPECT_EQ(cubex::detail::choice_rule(soma, Backend::kAuto), "mrv-first/1");
  const cubex::SearchJob bits(y25, nullptr, Backend::kBitset), links(y25, nullptr, Backend::kLinks);
  const std::string diff = bits.identity().difference(links.identity());
  EXPECT_NE(diff.find("choice rule"), std::string::npos) << diff;
}

// A real puzzle: y25_o1 (666 solutions, shared/data/KNOWN_COUNTS.md) on the pruned tree and on
// the plain one, in one thread and in a three-thread job that splits the pruned tree.
TEST(Prune, Y25CountsEqualThePlainTreeInFewerNodes) {
  const auto p = cubex::read_knuth_file(cubex::test::xc_file("y25_o1.dlx")).problem;
  const auto pruned = Solver(p).count();
  const cubex::SolveStats plain = Solver(p, Backend::kAuto, pruning(BitsetPrune::kOff)).count();
  EXPECT_EQ(plain.solutions, 666u);
  EXPECT_EQ(pruned.solutions, 666u);
  EXPECT_LT(pruned.nodes * 10, plain.nodes);
  {
    // Two vectors of byte lanes (150 items): the fixpoint in registers and its general loop walk
    // the same tree and find the solutions in the same order.
    cubex::SolveStats fix_st, general_st;
    const auto fix = in_order(p, &fix_st);
    EngineTuning general_loop;
    general_loop.prune_fix = false;
    const auto general = in_order(p, &general_st, general_loop);
    EXPECT_EQ(fix, general);
    EXPECT_EQ(fix_st.nodes, general_st.nodes);
    EXPECT_EQ(fix_st.nodes, pruned.nodes);
  }
  cubex::SearchJob job(p, nullptr, Backend::kAuto);
  cubex::JobOptions opt;
  opt.threads = 3;
  const auto r = job.run(opt);
  EXPECT_EQ(r.counts.total, 666u);
  EXPECT_EQ(r.counts.nodes, pruned.nodes);
}
