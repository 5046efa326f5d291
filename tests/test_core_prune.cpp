// The bitset backend's pruning (engine.hpp, BitsetEngine::prune_choose): an option that conflicts
// with every live option of some item is removed before the item is chosen. Checked against the
// brute force on random matrices (secondary items and colours included), against dancing links on
// wider ones, on the y25 files against the plain tree, and for the rule that says where it applies.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "brute_force.hpp"
#include "core/engine.hpp"
#include "cubex/core/job.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/io/knuth.hpp"
#include "test_util.hpp"

using cubex::Backend;
using cubex::ColourId;
using cubex::ItemId;
using cubex::OptionId;
using cubex::Problem;
using cubex::Solver;
using Solution = std::vector<OptionId>;
using cubex::detail::BitsetPrune;

namespace {

// Sets the pruning hook while in scope.
struct PruneMode {
  explicit PruneMode(BitsetPrune m) { cubex::detail::g_bitset_prune = m; }
  ~PruneMode() { cubex::detail::g_bitset_prune = BitsetPrune::kAuto; }
};

std::set<Solution> solutions(const Problem& p, Backend b, std::uint64_t* nodes = nullptr) {
  std::set<Solution> out;
  std::size_t visits = 0;
  const auto st = Solver(p, b).solve([&](std::span<const OptionId> s) {
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
    {
      PruneMode off(BitsetPrune::kOff);
      ASSERT_EQ(solutions(p, Backend::kBitset, &plain), want) << "trial " << trial;
    }
    {
      PruneMode on(BitsetPrune::kOn);
      ASSERT_GT(cubex::detail::bitset_prune_limit(p), 0u);
      ASSERT_EQ(solutions(p, Backend::kBitset, &pruned), want) << "trial " << trial << "\n"
                                                               << cubex::to_knuth(p);
    }
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
    PruneMode on(BitsetPrune::kOn);
    EXPECT_EQ(solutions(p, Backend::kBitset, &pruned), want) << "trial " << trial;
    EXPECT_LT(pruned, plain) << "trial " << trial;
  }
}

// Where it applies: short columns (cells without piece items) prune, long piece columns do not,
// and the rule is part of the tree's identity, so a checkpoint of one tree is refused by the
// other.
TEST(Prune, AppliesWhereColumnsAreShortAndNamesItsTree) {
  const auto y25 = cubex::read_knuth_file(cubex::test::xc_file("y25_o1.dlx")).problem;
  const auto pent = cubex::read_knuth_file(cubex::test::xc_file("pent6x10_sym.dlx")).problem;
  EXPECT_EQ(cubex::detail::bitset_prune_limit(y25), 16u);
  EXPECT_EQ(cubex::detail::bitset_prune_limit(pent), 0u);
  EXPECT_EQ(cubex::detail::choice_rule(y25, Backend::kAuto), "mrv-first+prune16/1");
  EXPECT_EQ(cubex::detail::choice_rule(y25, Backend::kLinks), "mrv-first/1");
  EXPECT_EQ(cubex::detail::choice_rule(pent, Backend::kAuto), "mrv-first/1");
  const cubex::SearchJob bits(y25, nullptr, Backend::kBitset), links(y25, nullptr, Backend::kLinks);
  const std::string diff = bits.identity().difference(links.identity());
  EXPECT_NE(diff.find("choice rule"), std::string::npos) << diff;
}

// A real puzzle: y25_o1 (666 solutions, shared/data/KNOWN_COUNTS.md) on the pruned tree and on
// the plain one, in one thread and in a three-thread job that splits the pruned tree.
TEST(Prune, Y25CountsEqualThePlainTreeInFewerNodes) {
  const auto p = cubex::read_knuth_file(cubex::test::xc_file("y25_o1.dlx")).problem;
  const auto pruned = Solver(p).count();
  cubex::SolveStats plain;
  {
    PruneMode off(BitsetPrune::kOff);
    plain = Solver(p).count();
  }
  EXPECT_EQ(plain.solutions, 666u);
  EXPECT_EQ(pruned.solutions, 666u);
  EXPECT_LT(pruned.nodes * 10, plain.nodes);
  cubex::SearchJob job(p, nullptr, Backend::kAuto);
  cubex::JobOptions opt;
  opt.threads = 3;
  const auto r = job.run(opt);
  EXPECT_EQ(r.counts.total, 666u);
  EXPECT_EQ(r.counts.nodes, pruned.nodes);
}
