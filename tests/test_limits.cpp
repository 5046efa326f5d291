// The library's limits: multiplicities up to 2^31-1, the matrix's node count as the solver lays
// it out, a Solver that cannot outlive its Problem, and SolveLimits::max_nodes stopping both
// backends at the same node of the same tree.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <type_traits>

#include "cubex/core/problem.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/limits.hpp"
#include "cubex/symmetry.hpp"
#include "test_util.hpp"

namespace cubex {
namespace {

TEST(LibraryLimits, MultiplicitiesBeyondInt32AreRefused) {
  {
    Problem p;
    EXPECT_THROW(p.add_primary("a", 4294967295u, 4294967295u), ProblemError);
    EXPECT_THROW(p.add_primary("b", 1u << 31, 1u << 31), ProblemError);
    EXPECT_THROW(p.add_primary("c", 3, 2), ProblemError);
    EXPECT_EQ(p.num_items(), 0u);
  }
  // The largest multiplicity taken: three options {a} cannot cover a 2^31-1 times.
  Problem p;
  const ItemId a = p.add_primary("a", kMaxMultiplicity, kMaxMultiplicity);
  for (int k = 0; k < 3; ++k) p.add_option({a});
  Solver s(p);
  const SolveStats st = s.count();
  EXPECT_EQ(st.solutions, 0u);
  EXPECT_TRUE(st.complete);
  // And 0..2^31-1 of three options: every subset, 8 (brute force: 2^3).
  Problem r;
  const ItemId b = r.add_primary("b", 0, kMaxMultiplicity);
  for (int k = 0; k < 3; ++k) r.add_option({b});
  Solver t(r);
  EXPECT_EQ(t.count().solutions, 8u);
}

TEST(LibraryLimits, MatrixNodesAreCountedAsTheSolverLaysThemOut) {
  Problem p;
  const ItemId a = p.add_primary("a"), b = p.add_primary("b"), c = p.add_secondary("c");
  p.add_option({a, c});
  p.add_option({b});
  EXPECT_EQ(matrix_nodes(p), 3u + 2 + 3 + 2);
  EXPECT_EQ(kMaxMatrixNodes, std::uint64_t(std::numeric_limits<std::int32_t>::max()));
}

// Solver s(make_problem()) would keep a reference to a destroyed Problem: it does not compile.
static_assert(std::is_constructible_v<Solver, const Problem&>);
static_assert(!std::is_constructible_v<Solver, Problem&&>);
static_assert(!std::is_constructible_v<Solver, Problem>);
static_assert(!std::is_constructible_v<Solver, Problem&&, Backend>);
static_assert(std::is_constructible_v<SymmetricSolver, const Problem&, ItemGroup>);
static_assert(!std::is_constructible_v<SymmetricSolver, Problem&&, ItemGroup>);

// SolveLimits::max_nodes: a run enters at most that many nodes, and is complete exactly when the
// whole tree fits; both backends stop at the same place of the same tree.
TEST(LibraryLimits, MaxNodesStopsBothBackendsAtTheSameNode) {
  const KnuthFile f = read_knuth_file(test::xc_file("l9.dlx"));
  for (const Backend b : {Backend::kLinks, Backend::kBitset}) {
    SCOPED_TRACE(b == Backend::kLinks ? "links" : "bitset");
    std::unique_ptr<Solver> s;
    try {
      s = std::make_unique<Solver>(f.problem, b);
    } catch (const std::invalid_argument&) {
      continue;  // no AVX2 here
    }
    const SolveStats full = s->count();
    ASSERT_TRUE(full.complete);
    ASSERT_GT(full.nodes, 10u);
    for (std::uint64_t m : {std::uint64_t{1}, full.nodes / 2, full.nodes - 1, full.nodes}) {
      SolveLimits lim;
      lim.max_nodes = m;
      const SolveStats st = s->count(lim);
      EXPECT_EQ(st.nodes, m);
      EXPECT_EQ(st.complete, m == full.nodes);
      EXPECT_LE(st.solutions, full.solutions);
    }
    SolveLimits lim;
    lim.max_nodes = full.nodes + 1;
    EXPECT_TRUE(s->count(lim).complete);
  }
}

}  // namespace
}  // namespace cubex
