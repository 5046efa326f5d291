// Large puzzles stay practical (issue 35, item 3): on dancing links, a node whose items are forced
// (one option left) costs what it touches, not a scan of every item, and a dead end anywhere in
// the item list is seen without a scan; on threads, a long forced path is not walked again at
// each donation. The problems are a box of N cells filled by monocubes: N items, each with one
// option, plus (with multiplicities) the piece's item, to be covered N times. The trees are the
// ones a full scan gives (the bitset backend for multiplicities, which scans every item, walks
// the same tree where it applies); with the old per-node scan of every item the large cases
// would take minutes (N^2 / 2 item visits), so these tests would not end in ctest's time.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cubex/core/job.hpp"
#include "cubex/core/problem.hpp"
#include "cubex/core/solver.hpp"
#include "sanitized.hpp"

namespace {

using cubex::test::kSanitized;

// The large size: 200,000 cells (a quarter under sanitizers, where everything is 5-20x slower;
// the old scan would still take over a billion item visits there).
constexpr std::uint32_t kLarge = kSanitized ? 50000 : 200000;

using cubex::Backend;
using cubex::ItemId;
using cubex::Problem;
using cubex::Solver;

// N cells, each covered by one option; with `piece`, every option also covers the piece's item
// (lo = hi = N), listed first or last among the items.
Problem monocubes(std::uint32_t n, bool piece, bool piece_first) {
  Problem p;
  ItemId u = 0;
  if (piece && piece_first) u = p.add_primary("u", n, n);
  std::vector<ItemId> cells;
  cells.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) cells.push_back(p.add_primary("c" + std::to_string(i)));
  if (piece && !piece_first) u = p.add_primary("u", n, n);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (piece) {
      p.add_option({u, cells[i]});
    } else {
      p.add_option({cells[i]});
    }
  }
  return p;
}

TEST(LargeForced, PlainForcedPathHasOneNodePerItem) {
  const Problem p = monocubes(kLarge, false, false);
  const auto st = Solver(p, Backend::kLinks).count();
  EXPECT_EQ(st.solutions, 1u);
  EXPECT_EQ(st.nodes, kLarge + 1);  // the root, then one node per cell covered
  EXPECT_TRUE(st.complete);
}

TEST(LargeForced, MultiplicityForcedPathWalksTheScanningTree) {
  // Small enough for the bitset backend for multiplicities (its tables grow with items times
  // options), which computes every item's count at every node: both backends walk the same tree.
  for (const bool first : {true, false}) {
    const Problem small = monocubes(1000, true, first);
    const auto links = Solver(small, Backend::kLinks).count();
    const auto bits = Solver(small, Backend::kBitset).count();
    EXPECT_EQ(links.solutions, 1u);
    EXPECT_EQ(links.nodes, bits.nodes) << (first ? "piece first" : "piece last");
    EXPECT_EQ(links.solutions, bits.solutions);
    // The same shape at kLarge cells: one node more per cell.
    const Problem big = monocubes(kLarge, true, first);
    const auto st = Solver(big, Backend::kLinks).count();
    EXPECT_EQ(st.solutions, 1u);
    EXPECT_EQ(st.nodes, links.nodes + (kLarge - 1000)) << (first ? "piece first" : "piece last");
  }
}

TEST(LargeForced, DeadEndFarDownTheListEndsTheBranch) {
  // Cells 0 and N-1 share the item x (0..1): choosing cell 0's option covers x, which takes cell
  // N-1's only option away. Cell N-1 is last in the list, and the node below the root is a dead
  // end: the whole tree is those two nodes (the root branches on cell 0, the first item with one
  // option). The bitset backend, which counts every item at every node, agrees where it applies.
  for (const std::uint32_t n : {1000u, kLarge}) {
    Problem p;
    const ItemId x = p.add_primary("x", 0, 1);
    std::vector<ItemId> cells;
    for (std::uint32_t i = 0; i < n; ++i) cells.push_back(p.add_primary("c" + std::to_string(i)));
    p.add_option({cells[0], x});
    for (std::uint32_t i = 1; i + 1 < n; ++i) p.add_option({cells[i]});
    p.add_option({cells[n - 1], x});
    const auto st = Solver(p, Backend::kLinks).count();
    EXPECT_EQ(st.solutions, 0u) << n;
    EXPECT_EQ(st.nodes, 2u) << n;
    if (n == 1000) {
      EXPECT_EQ(Solver(p, Backend::kBitset).count().nodes, 2u);
    }
  }
}

TEST(LargeForced, ThreadsOnALongForcedPathCountTheSameTree) {
  const Problem p = monocubes(kLarge, true, false);
  const auto one = Solver(p, Backend::kLinks).count();
  cubex::SearchJob job(p, nullptr, Backend::kLinks);
  cubex::JobOptions opt;
  opt.threads = 4;
  const auto r = job.run(opt);
  EXPECT_EQ(r.counts.total, 1u);
  EXPECT_EQ(r.counts.nodes, one.nodes);
}

}  // namespace
