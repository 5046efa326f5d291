// Work units, threads, shards, resume and progress (parallel.hpp), on both backends.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "cubex/core/parallel.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/io/knuth.hpp"
#include "test_util.hpp"

using cubex::Backend;
using cubex::ItemId;
using cubex::OptionId;
using cubex::ParallelOptions;
using cubex::ParallelSolver;
using cubex::Problem;
using Solution = std::vector<OptionId>;

namespace {

// A random problem like test_core's, multiplicities included when `mult`.
Problem random_problem(std::mt19937& rng, bool mult) {
  Problem p;
  const int np = 2 + rng() % 5, ns = rng() % 3, no = 4 + rng() % 14;
  std::vector<ItemId> prim, all;
  for (int i = 0; i < np; ++i) {
    std::uint32_t lo = 1, hi = 1;
    if (mult && rng() % 3 == 0) lo = rng() % 2, hi = lo + 1 + rng() % 2;
    prim.push_back(p.add_primary("p" + std::to_string(i), lo, hi));
    all.push_back(prim.back());
  }
  for (int i = 0; i < ns; ++i) all.push_back(p.add_secondary("s" + std::to_string(i)));
  for (int o = 0; o < no; ++o) {
    std::vector<ItemId> items{prim[rng() % prim.size()]};
    for (ItemId i : all)
      if (i != items[0] && rng() % 3 == 0) items.push_back(i);
    std::shuffle(items.begin(), items.end(), rng);
    p.add_option(items);
  }
  return p;
}

std::set<Solution> solutions_of(const Problem& p) {
  std::set<Solution> out;
  cubex::Solver(p, Backend::kLinks).solve([&](std::span<const OptionId> s) {
    Solution v(s.begin(), s.end());
    std::sort(v.begin(), v.end());
    out.insert(v);
    return true;
  });
  return out;
}

const Problem& xc(const std::string& name) {
  static std::map<std::string, cubex::KnuthFile> cache;
  auto it = cache.find(name);
  if (it == cache.end())
    it = cache.emplace(name, cubex::read_knuth_file(cubex::test::xc_file(name))).first;
  return it->second.problem;
}

}  // namespace

// Every solution lies under exactly one unit, whatever the cut, on both backends, with
// multiplicities (the replay of Algorithm M's branches) and secondary items.
TEST(Parallel, UnitsPartitionTheSolutionsOfRandomProblems) {
  std::mt19937 rng(61);
  int split = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const bool mult = trial % 2 == 0;
    const Problem p = random_problem(rng, mult);
    const std::set<Solution> want = solutions_of(p);
    std::vector<Backend> backends{Backend::kLinks};
    if (!p.has_multiplicities()) backends.push_back(Backend::kBitset);
    for (Backend b : backends) {
      for (std::size_t target : {1, 3, 8, 40}) {
        ParallelSolver ps(p, b, target);
        double weight = 0;
        std::set<Solution> got;
        std::uint64_t visits = 0;
        for (std::size_t u = 0; u < ps.units().size(); ++u) {
          weight += ps.units()[u].weight;
          std::uint64_t in_unit = 0;
          auto visit = [&](std::size_t unit, std::span<const OptionId> s) {
            EXPECT_EQ(unit, u);
            Solution v(s.begin(), s.end());
            std::sort(v.begin(), v.end());
            got.insert(v);
            ++visits;
            ++in_unit;
            return true;
          };
          cubex::UnitVisitor uv(visit);
          EXPECT_EQ(ps.solve_unit(u, &uv).solutions, in_unit);
        }
        ASSERT_EQ(got, want) << "trial " << trial << " target " << target << "\n"
                             << cubex::to_knuth(p);
        EXPECT_EQ(visits, want.size()) << "a solution was found under two units";
        EXPECT_NEAR(weight, 1.0, 1e-9);
        split += ps.units().size() > 1;
      }
    }
  }
  EXPECT_GT(split, 500);  // the cut happened, not only the root as one unit
}

TEST(Parallel, TheCutIsDeterministicAndInTreeOrder) {
  const Problem& p = xc("pent6x10_sym.dlx");
  ParallelSolver a(p), b(p);
  ASSERT_GE(a.units().size(), ParallelSolver::kDefaultUnits);
  ASSERT_EQ(a.units().size(), b.units().size());
  for (std::size_t u = 0; u < a.units().size(); ++u) {
    EXPECT_EQ(a.units()[u].path, b.units()[u].path);
    if (u) {
      EXPECT_LT(a.units()[u - 1].path, a.units()[u].path);
    }
  }
}

class ParallelBackend : public testing::TestWithParam<Backend> {};
INSTANTIATE_TEST_SUITE_P(Backends, ParallelBackend,
                         testing::Values(Backend::kLinks, Backend::kBitset), [](const auto& info) {
                           return info.param == Backend::kLinks ? "links" : "bitset";
                         });

TEST_P(ParallelBackend, CountsAreTheSameFor1And2And4Threads) {
  const Problem& p = xc(GetParam() == Backend::kLinks ? "soma.dlx" : "pent6x10_sym.dlx");
  const std::uint64_t want = GetParam() == Backend::kLinks ? 11520 : 2339;
  ParallelSolver ps(p, GetParam(), 1000);
  for (unsigned threads : {1u, 2u, 4u}) {
    ParallelOptions opt;
    opt.threads = threads;
    const auto r = ps.solve(nullptr, opt);
    EXPECT_EQ(r.st.solutions, want) << threads << " threads";
    EXPECT_TRUE(r.st.complete);
    EXPECT_EQ(r.units_done, ps.units().size());
    EXPECT_EQ(r.threads, threads);
  }
}

// The visitor is called one at a time with the unit of each solution; on_unit_done follows the
// unit's last solution with the unit's count.
TEST_P(ParallelBackend, VisitorIsSerialisedAndToldTheUnit) {
  const Problem& p = xc("soma_sym.dlx");
  ParallelSolver ps(p, GetParam(), 200);
  std::vector<std::uint64_t> per_unit(ps.units().size(), 0), done(ps.units().size(), 0);
  std::vector<bool> finished(ps.units().size(), false);
  std::set<Solution> all;
  int inside = 0;
  auto visit = [&](std::size_t unit, std::span<const OptionId> s) {
    EXPECT_EQ(++inside, 1);  // never two calls at once
    EXPECT_FALSE(finished[unit]);
    ++per_unit[unit];
    Solution v(s.begin(), s.end());
    std::sort(v.begin(), v.end());
    all.insert(v);
    --inside;
    return true;
  };
  cubex::UnitVisitor uv(visit);
  ParallelOptions opt;
  opt.threads = 4;
  opt.on_unit_done = [&](std::size_t unit, const cubex::UnitResult& r) {
    finished[unit] = true;
    done[unit] = r.solutions;
    return true;
  };
  const auto r = ps.solve(&uv, opt);
  EXPECT_EQ(r.st.solutions, 480u);
  EXPECT_EQ(all.size(), 480u);
  EXPECT_EQ(per_unit, done);
  EXPECT_EQ(std::count(finished.begin(), finished.end(), true),
            static_cast<long>(ps.units().size()));
}

TEST_P(ParallelBackend, ShardsAddUpToTheWhole) {
  const Problem& p = xc("soma.dlx");
  ParallelSolver ps(p, GetParam(), 500);
  std::uint64_t total = 0;
  std::size_t units = 0;
  for (std::uint32_t k = 0; k < 3; ++k) {
    ParallelOptions opt;
    opt.threads = 2;
    opt.shard_index = k;
    opt.shard_count = 3;
    const auto r = ps.solve(nullptr, opt);
    EXPECT_TRUE(r.st.complete);
    EXPECT_GT(r.st.solutions, 0u);
    total += r.st.solutions;
    units += r.units_total;
  }
  EXPECT_EQ(total, 11520u);
  EXPECT_EQ(units, ps.units().size());
}

// Stop part-way, keep what on_unit_done reported, resume with those units skipped.
TEST_P(ParallelBackend, StoppedRunResumesToTheFullCount) {
  const Problem& p = xc("soma.dlx");
  ParallelSolver ps(p, GetParam());
  std::vector<bool> done(ps.units().size(), false);
  cubex::UnitResult saved;
  std::atomic<bool> stop{false};
  std::size_t finished = 0;
  ParallelOptions opt;
  opt.threads = 2;
  opt.limits.stop = &stop;
  opt.on_unit_done = [&](std::size_t unit, const cubex::UnitResult& r) {
    done[unit] = true;
    saved.solutions += r.solutions;
    saved.nodes += r.nodes;
    if (++finished == ps.units().size() / 3) stop = true;
    return true;
  };
  const auto first = ps.solve(nullptr, opt);
  EXPECT_FALSE(first.st.complete);
  EXPECT_LT(saved.solutions, 11520u);
  EXPECT_GE(finished, ps.units().size() / 3);
  EXPECT_LT(finished, ps.units().size());

  ParallelOptions again;
  again.threads = 2;
  again.skip = &done;
  again.skipped_counts = saved;
  std::vector<double> fractions;
  again.on_tick = [&](const cubex::Progress& pr) { fractions.push_back(pr.fraction); };
  const auto second = ps.solve(nullptr, again);
  EXPECT_TRUE(second.st.complete);
  EXPECT_EQ(second.st.solutions, 11520u);
  EXPECT_EQ(second.units_done + finished, ps.units().size());
  ASSERT_FALSE(fractions.empty());
  EXPECT_GT(fractions.front(), 0.0);  // the resumed units count from the start
  EXPECT_EQ(fractions.back(), 1.0);
}

TEST(Parallel, ProgressIsMonotoneAndEndsAtOne) {
  const Problem& p = xc("pent6x10_sym.dlx");
  ParallelSolver ps(p);
  std::vector<cubex::Progress> seen;
  ParallelOptions opt;
  opt.threads = 2;
  opt.tick_seconds = 0.002;
  opt.on_tick = [&](const cubex::Progress& pr) { seen.push_back(pr); };
  const auto r = ps.solve(nullptr, opt);
  EXPECT_EQ(r.st.solutions, 2339u);
  ASSERT_GE(seen.size(), 3u);
  for (std::size_t k = 1; k < seen.size(); ++k) {
    EXPECT_GE(seen[k].fraction, seen[k - 1].fraction);
    EXPECT_GE(seen[k].units_done, seen[k - 1].units_done);
    EXPECT_GE(seen[k].solutions, seen[k - 1].solutions);
  }
  EXPECT_EQ(seen.back().fraction, 1.0);
  EXPECT_EQ(seen.back().units_done, ps.units().size());
  EXPECT_EQ(seen.back().solutions, 2339u);
  EXPECT_EQ(seen.back().eta, 0.0);
}

TEST(Parallel, SolutionLimitHoldsAcrossThreads) {
  const Problem& p = xc("soma.dlx");
  ParallelSolver ps(p);
  std::uint64_t visited = 0;
  auto visit = [&](std::size_t, std::span<const OptionId>) { return ++visited, true; };
  cubex::UnitVisitor uv(visit);
  ParallelOptions opt;
  opt.threads = 4;
  opt.limits.max_solutions = 100;
  const auto r = ps.solve(&uv, opt);
  EXPECT_EQ(visited, 100u);
  EXPECT_EQ(r.st.solutions, 100u);
  EXPECT_FALSE(r.st.complete);
}
