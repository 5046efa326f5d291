// Counting by memo reports its progress (issue 35, item 9): MemoLimits::on_progress is called
// every 4,096 sub-problems with the states counted so far (never fewer than the last report,
// never more than the final count's) and a share of the tree done that stays in 0..1 and never
// falls. The problem: the perfect matchings of the complete graph on 22 vertices (items the
// vertices, options the 231 edges), 21!! = 13,749,310,575 of them, counted through 28,657
// sub-problems (which vertices are matched), so 6 reports.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cubex/core/memo.hpp"
#include "cubex/core/problem.hpp"

namespace {

TEST(MemoProgress, ReportsStatesAndAShareThatNeverFalls) {
  const int N = 22;
  cubex::Problem p;
  std::vector<cubex::ItemId> v;
  for (int i = 0; i < N; ++i) v.push_back(p.add_primary("v" + std::to_string(i)));
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j) p.add_option({v[i], v[j]});
  std::vector<cubex::MemoProgress> seen;
  cubex::MemoLimits limits;
  limits.on_progress = [&](const cubex::MemoProgress& m) { seen.push_back(m); };
  const cubex::MemoCount c = cubex::memo_count(p, {}, limits);
  ASSERT_TRUE(c.complete) << c.why;
  EXPECT_EQ(c.count, 13749310575u);
  ASSERT_EQ(seen.size(), c.states / 4096) << c.states << " states";
  ASSERT_GE(seen.size(), 2u);
  for (std::size_t k = 0; k < seen.size(); ++k) {
    EXPECT_EQ(seen[k].states, 4096 * (k + 1));
    EXPECT_GE(seen[k].fraction, 0.0);
    EXPECT_LE(seen[k].fraction, 1.0);
    if (k > 0) {
      EXPECT_GE(seen[k].fraction, seen[k - 1].fraction);
    }
  }
  EXPECT_GT(seen.back().fraction, 0.0);
  // Without a callback the same count.
  EXPECT_EQ(cubex::memo_count(p).count, 13749310575u);
}

}  // namespace
