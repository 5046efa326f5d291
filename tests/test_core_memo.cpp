// The memo counter (cubex/core/memo.hpp): counts of random matrices with secondary items and
// multiplicities against a brute force over every subset of options; the solutions fixed by an
// item permutation against the brute force's solutions mapped by it; what it refuses, its byte
// budget and its stop flag.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <random>
#include <set>

#include "cubex/core/memo.hpp"
#include "cubex/core/solver.hpp"

using cubex::ItemId;
using cubex::OptionId;
using cubex::Problem;
using Solution = std::vector<OptionId>;

namespace {

// Every subset of options judged from the definition: each primary item covered within its
// range, each secondary item at most once.
std::set<Solution> brute_force(const Problem& p) {
  std::set<Solution> out;
  const std::size_t m = p.num_options();
  std::vector<std::uint32_t> times(p.num_items());
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << m); ++mask) {
    std::fill(times.begin(), times.end(), 0);
    Solution s;
    for (OptionId o = 0; o < m; ++o) {
      if (!(mask >> o & 1)) continue;
      s.push_back(o);
      for (ItemId i : p.option(o)) ++times[i];
    }
    bool ok = true;
    for (ItemId i = 0; i < p.num_items() && ok; ++i) {
      const cubex::Item& it = p.item(i);
      ok = it.primary ? times[i] >= it.lo && times[i] <= it.hi : times[i] <= 1;
    }
    if (ok) out.insert(s);
  }
  return out;
}

// A random matrix: `exact` items of range 1..1, two secondary items and two items with a
// multiplicity (0..2 and 1..2); every option covers one to three items of range 1..1 and maybe
// others.
Problem random_problem(std::mt19937& rng, int exact, int options) {
  Problem p;
  std::vector<ItemId> ex, other;
  for (int i = 0; i < exact; ++i) ex.push_back(p.add_primary("e" + std::to_string(i)));
  other.push_back(p.add_secondary("s0"));
  other.push_back(p.add_secondary("s1"));
  other.push_back(p.add_primary("m0", 0, 2));
  other.push_back(p.add_primary("m1", 1, 2));
  std::set<std::vector<ItemId>> seen;
  while (static_cast<int>(p.num_options()) < options) {
    std::vector<ItemId> items;
    const int k = 1 + static_cast<int>(rng() % 3);
    for (int j = 0; j < k; ++j) items.push_back(ex[rng() % ex.size()]);
    for (ItemId o : other)
      if (rng() % 4 == 0) items.push_back(o);
    std::sort(items.begin(), items.end());
    items.erase(std::unique(items.begin(), items.end()), items.end());
    if (!seen.insert(items).second) continue;
    p.add_option(items);
  }
  return p;
}

}  // namespace

// Counts equal the brute force's, with and without an order of items to branch on, and equal
// the solver's.
TEST(Memo, RandomMatricesAgreeWithBruteForce) {
  std::mt19937 rng(17);
  int with_solutions = 0;
  for (int trial = 0; trial < 40; ++trial) {
    SCOPED_TRACE(trial);
    const Problem p = random_problem(rng, 6 + trial % 3, 14);
    const std::size_t want = brute_force(p).size();
    with_solutions += want > 0;
    const cubex::MemoCount c = cubex::memo_count(p);
    ASSERT_TRUE(c.complete) << c.why;
    EXPECT_EQ(c.count, want);
    std::vector<ItemId> order;
    for (ItemId i = 0; i < 6; ++i) order.push_back(5 - i);
    cubex::MemoLimits lim;
    lim.order = order;
    EXPECT_EQ(cubex::memo_count(p, {}, lim).count, want);
    EXPECT_EQ(cubex::Solver(p).count().solutions, want);
  }
  EXPECT_GE(with_solutions, 10);  // the trials are not all empty
}

// A matrix with a symmetry: items 0..2k-1 on a cycle (and a multiplicity item every rotation
// fixes), options the rotations of random options. For every power of the rotation, the
// solutions memo_count says it fixes are the brute force's solutions it maps onto themselves,
// and memo_solve_fixed lists exactly them.
TEST(Memo, SolutionsFixedByAPermutation) {
  std::mt19937 rng(5);
  int fixed_somewhere = 0;
  for (int trial = 0; trial < 30; ++trial) {
    SCOPED_TRACE(trial);
    const int n = trial % 2 ? 6 : 8;         // items on the cycle
    const int step = trial % 4 < 2 ? 1 : 2;  // the rotation by `step`
    Problem p;
    for (int i = 0; i < n; ++i) p.add_primary("c" + std::to_string(i));
    const ItemId piece = p.add_primary("piece", 0, 4);
    std::vector<ItemId> perm(p.num_items());
    for (int i = 0; i < n; ++i) perm[i] = static_cast<ItemId>((i + step) % n);
    perm[piece] = piece;
    std::set<std::vector<ItemId>> seen;
    while (p.num_options() < 14) {
      std::vector<ItemId> items;
      const int k = 1 + static_cast<int>(rng() % 3);
      for (int j = 0; j < k; ++j) items.push_back(static_cast<ItemId>(rng() % n));
      if (rng() % 2) items.push_back(piece);
      std::sort(items.begin(), items.end());
      items.erase(std::unique(items.begin(), items.end()), items.end());
      // The whole orbit of the option under the rotation.
      std::vector<std::vector<ItemId>> orbit;
      for (std::vector<ItemId> x = items;;) {
        if (std::find(orbit.begin(), orbit.end(), x) != orbit.end()) break;
        orbit.push_back(x);
        for (ItemId& i : x) i = perm[i];
        std::sort(x.begin(), x.end());
      }
      if (p.num_options() + orbit.size() > 16) break;
      for (const auto& x : orbit)
        if (seen.insert(x).second) p.add_option(x);
    }
    const std::set<Solution> all = brute_force(p);
    // The option each option maps to.
    std::map<std::vector<ItemId>, OptionId> by_items;
    for (OptionId o = 0; o < p.num_options(); ++o) {
      std::vector<ItemId> x(p.option(o).begin(), p.option(o).end());
      std::sort(x.begin(), x.end());
      by_items[x] = o;
    }
    std::vector<ItemId> power = perm;
    for (int e = 1; e <= n; ++e) {
      std::set<Solution> want;
      for (const Solution& s : all) {
        Solution img;
        for (OptionId o : s) {
          std::vector<ItemId> x;
          for (ItemId i : p.option(o)) x.push_back(power[i]);
          std::sort(x.begin(), x.end());
          img.push_back(by_items.at(x));
        }
        std::sort(img.begin(), img.end());
        if (img == s) want.insert(s);
      }
      fixed_somewhere += e < n && !want.empty();
      const cubex::MemoCount c = cubex::memo_count(p, power);
      ASSERT_TRUE(c.complete) << c.why;
      EXPECT_EQ(c.count, want.size()) << "power " << e;
      std::set<Solution> listed;
      cubex::memo_solve_fixed(p, power, [&](std::span<const OptionId> s) {
        EXPECT_TRUE(listed.emplace(s.begin(), s.end()).second);
        return true;
      });
      EXPECT_EQ(listed, want) << "power " << e;
      std::vector<ItemId> next(power.size());
      for (ItemId i = 0; i < power.size(); ++i) next[i] = perm[power[i]];
      power = next;
    }
  }
  EXPECT_GE(fixed_somewhere, 5);  // some solutions are symmetric
}

TEST(Memo, RefusesWhatItCannotCount) {
  Problem coloured;
  const ItemId a = coloured.add_primary("a");
  const ItemId x = coloured.add_secondary("x");
  const cubex::ColourId red = coloured.add_colour("red");
  const ItemId ax[] = {a, x};
  const cubex::ColourId cols[] = {0, red};
  coloured.add_option(ax, cols);
  EXPECT_EQ(cubex::memo_applies(coloured), "");  // colours are counted too
  EXPECT_EQ(cubex::memo_count(coloured).count, 1u);

  Problem ranged;
  const ItemId b = ranged.add_primary("b");
  const ItemId m = ranged.add_primary("m", 0, 3);
  ranged.add_option({b, m});
  ranged.add_option({m});
  EXPECT_EQ(cubex::memo_applies(ranged), "option 1 covers no primary item of range 1..1");

  Problem p;
  const ItemId c = p.add_primary("c"), d = p.add_primary("d"), e = p.add_primary("e");
  p.add_option({c, d});
  p.add_option({e});
  EXPECT_EQ(cubex::memo_applies(p), "");
  const ItemId swap_ce[] = {e, d, c};  // maps {c, d} onto {e, d}: no option
  EXPECT_THROW(cubex::memo_count(p, swap_ce), cubex::ProblemError);
  const ItemId not_perm[] = {c, c, e};
  EXPECT_THROW(cubex::memo_count(p, not_perm), cubex::ProblemError);
}

// A table that outgrows its budget, and the stop flag, end the count as incomplete with the
// reason (the stop flag also while the tables are built).
TEST(Memo, BudgetAndStop) {
  // Exact cover of a row of 24 cells by monominoes and dominoes: 46,368 tilings, a state per
  // prefix.
  Problem p;
  std::vector<ItemId> cells;
  for (int i = 0; i < 24; ++i) cells.push_back(p.add_primary("x" + std::to_string(i)));
  for (int i = 0; i < 24; ++i) {
    p.add_option({cells[i]});
    if (i + 1 < 24) p.add_option({cells[i], cells[i + 1]});
  }
  const cubex::MemoCount full = cubex::memo_count(p);
  ASSERT_TRUE(full.complete);
  EXPECT_EQ(full.count, 75'025u);  // Fibonacci F(25): tilings of a row of 24
  EXPECT_LE(full.states, 50u);     // one state per prefix, not one per tiling

  // Perfect matchings of 20 points: 19!! = 654,729,075, in some thousands of states.
  Problem wide;
  std::vector<ItemId> w;
  for (int i = 0; i < 20; ++i) w.push_back(wide.add_primary("w" + std::to_string(i)));
  for (int i = 0; i < 20; ++i)
    for (int j = i + 1; j < 20; ++j) wide.add_option({w[i], w[j]});
  const cubex::MemoCount all = cubex::memo_count(wide);
  ASSERT_TRUE(all.complete);
  EXPECT_EQ(all.count, 654'729'075u);
  EXPECT_GT(all.states, 4'096u);

  cubex::MemoLimits small;
  small.max_bytes = 64;
  const cubex::MemoCount cut = cubex::memo_count(wide, {}, small);
  EXPECT_FALSE(cut.complete);
  EXPECT_NE(cut.why.find("budget"), std::string::npos) << cut.why;

  std::atomic<bool> stop{true};
  cubex::MemoLimits stopped;
  stopped.stop = &stop;
  const cubex::MemoCount s = cubex::memo_count(wide, {}, stopped);
  EXPECT_FALSE(s.complete);
  EXPECT_EQ(s.why, "stopped");
  EXPECT_EQ(s.states, 0u);  // stopped while its tables were built, before any state
}
