// Counting by memo for every kind (cubex/core/memo.hpp, `--count-by memo`), exact beyond 2^64
// (cubex/core/bigcount.hpp): the count type's arithmetic and JSON; memo counts equal the
// search's and a brute force's on random matrices with secondary items, colours and
// multiplicities, in every branching mode; domino tilings by memo against a transfer-matrix
// count written here (not taken from cubex), past 2^64; random voxel puzzles by memo and by
// search, in every symmetry mode; the automatic choice and the budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "brute_force.hpp"
#include "cubex/core/bigcount.hpp"
#include "cubex/core/memo.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/solve.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/voxel/model.hpp"
#include "cubex/voxel/read.hpp"
#include "memo_support.hpp"
#include "sanitized.hpp"
#include "test_util.hpp"

using cubex::BigCount;
using cubex::ItemId;
using cubex::OptionId;
using cubex::Problem;
using cubex::test::domino_tilings;
using cubex::test::dominoes;
using cubex::test::kSanitized;
using cubex::test::random_problem;

namespace {

// 2^k exactly, by doubling.
BigCount power_of_two(int k) {
  BigCount r = 1;
  for (int i = 0; i < k; ++i) r *= 2u;
  return r;
}

// The same by the simplest recursion (cell by cell, memo on the whole board), for small boards:
// the transfer matrix is checked against it.
BigCount domino_tilings_slow(int rows, int cols) {
  std::map<std::vector<bool>, BigCount> memo;
  std::vector<bool> board(static_cast<std::size_t>(rows * cols), false);
  auto go = [&](auto& self) -> BigCount {
    const auto it = std::find(board.begin(), board.end(), false);
    if (it == board.end()) return 1;
    if (const auto m = memo.find(board); m != memo.end()) return m->second;
    const std::size_t k = static_cast<std::size_t>(it - board.begin());
    const int r = static_cast<int>(k) / cols, c = static_cast<int>(k) % cols;
    BigCount n;
    const std::vector<bool> saved = board;
    if (c + 1 < cols && !board[k + 1]) {
      board[k] = board[k + 1] = true;
      n += self(self);
      board = saved;
    }
    if (r + 1 < rows && !board[k + static_cast<std::size_t>(cols)]) {
      board[k] = board[k + static_cast<std::size_t>(cols)] = true;
      n += self(self);
      board = saved;
    }
    memo[saved] = n;
    return n;
  };
  return go(go);
}

}  // namespace

// ---- the count type ---------------------------------------------------------------------------

TEST(BigCount, AddsMultipliesAndPrintsPast64Bits) {
  BigCount n = ~std::uint64_t{0};
  n += 1u;
  EXPECT_EQ(n.to_string(), "18446744073709551616");
  EXPECT_FALSE(n.fits_u64());
  EXPECT_EQ(n, power_of_two(64));
  EXPECT_EQ(n.bit_width(), 65u);
  std::ostringstream os;
  os << power_of_two(100);
  EXPECT_EQ(os.str(), "1267650600228229401496703205376");
  BigCount f = 1;  // 30! = 265252859812191058636308480000000
  for (std::uint64_t k = 2; k <= 30; ++k) f *= k;
  EXPECT_EQ(f.to_string(), "265252859812191058636308480000000");
  BigCount g = f;
  for (std::uint64_t k = 30; k >= 2; --k) EXPECT_EQ(g.divide(k), 0u);
  EXPECT_EQ(g, 1u);
  EXPECT_EQ(BigCount(0).to_string(), "0");
  EXPECT_EQ(BigCount(10'000'000'000'000'000'000ULL).to_string(), "10000000000000000000");
  EXPECT_EQ((power_of_two(64) * 10u).to_string(), "184467440737095516160");
}

TEST(BigCount, SubtractsWithBorrowsAndRefusesToGoBelowZero) {
  BigCount a = power_of_two(128);
  ASSERT_TRUE(a.subtract(BigCount(1)));
  EXPECT_EQ(a.to_string(), "340282366920938463463374607431768211455");  // 2^128 - 1
  EXPECT_EQ(a.bit_width(), 128u);
  BigCount b = power_of_two(64);
  ASSERT_TRUE(b.subtract(power_of_two(64)));
  EXPECT_TRUE(b.is_zero());
  BigCount c(5);
  EXPECT_FALSE(c.subtract(BigCount(6)));
  EXPECT_EQ(c, 5u);
  BigCount d = power_of_two(65) + BigCount(3);
  ASSERT_TRUE(d.subtract(power_of_two(64)));
  EXPECT_EQ(d, power_of_two(64) + BigCount(3));
}

TEST(BigCount, ComparesAndParses) {
  EXPECT_LT(BigCount(5), power_of_two(64));
  EXPECT_GT(power_of_two(65), power_of_two(64));
  EXPECT_EQ(BigCount(7), 7);
  EXPECT_NE(BigCount(7), -7);
  EXPECT_GT(BigCount(0), -1);
  const std::string big = "2444888770250892795802079170816";
  const auto v = BigCount::parse(big);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->to_string(), big);
  EXPECT_FALSE(BigCount::parse("").has_value());
  EXPECT_FALSE(BigCount::parse("12a").has_value());
  EXPECT_FALSE(BigCount::parse("-1").has_value());
}

TEST(BigCount, JsonHoldsNumbersBelow2To53AndStringsAbove) {
  nlohmann::json j = BigCount((std::uint64_t{1} << 53) - 1);
  EXPECT_TRUE(j.is_number_unsigned());
  j = BigCount(std::uint64_t{1} << 53);
  ASSERT_TRUE(j.is_string());
  EXPECT_EQ(j.get<std::string>(), "9007199254740992");
  EXPECT_EQ(j.get<BigCount>(), std::uint64_t{1} << 53);
  EXPECT_EQ(nlohmann::json(12).get<BigCount>(), 12u);
  EXPECT_THROW(nlohmann::json("x1").get<BigCount>(), nlohmann::json::exception);
  EXPECT_THROW(nlohmann::json(-3).get<BigCount>(), nlohmann::json::exception);
}

// ---- memo counts against search and brute force ------------------------------------------------

// Hundreds of random matrices: the memo's count equals the brute force's and the search's,
// with no order (fewest options first), a partial order and a full order (the sweep).
TEST(MemoEveryKind, RandomMatricesWithColoursAgreeWithSearchAndBruteForce) {
  std::mt19937 rng(2027);
  const int trials = kSanitized ? 60 : 300;
  int with_solutions = 0, coloured = 0;
  for (int trial = 0; trial < trials; ++trial) {
    SCOPED_TRACE(trial);
    const int exact = 5 + trial % 4;
    const Problem p = random_problem(rng, exact, 13);
    const std::size_t want = cubex::test::brute_force(p).size();
    with_solutions += want > 0;
    coloured += p.has_colours();
    ASSERT_EQ(cubex::Solver(p).count().solutions, want);
    const cubex::MemoCount plain = cubex::memo_count(p);
    ASSERT_TRUE(plain.complete) << plain.why;
    EXPECT_EQ(plain.count, want);
    std::vector<ItemId> order;
    for (ItemId i = 0; i < static_cast<ItemId>(exact); ++i) order.push_back(i);
    std::shuffle(order.begin(), order.end(), rng);
    cubex::MemoLimits full;
    full.order = order;  // every item of range 1..1: the sweep
    EXPECT_EQ(cubex::memo_count(p, {}, full).count, want);
    cubex::MemoLimits part;
    part.order = std::span<const ItemId>(order).first(2);
    EXPECT_EQ(cubex::memo_count(p, {}, part).count, want);
    // The solutions the memo's search lists are the brute force's.
    std::set<std::vector<OptionId>> listed;
    cubex::memo_solve_fixed(
        p, {},
        [&](std::span<const OptionId> s) {
          listed.emplace(s.begin(), s.end());
          return true;
        },
        0, order);
    EXPECT_EQ(listed, cubex::test::brute_force(p));
  }
  EXPECT_GE(with_solutions, trials / 5);
  EXPECT_EQ(coloured, trials);
}

// The same matrices through the solve layer: `--count-by memo` equals `--count-by search`.
TEST(MemoEveryKind, KnuthFilesCountTheSameByMemoAndBySearch) {
  std::mt19937 rng(31);
  const int trials = kSanitized ? 20 : 80;
  for (int trial = 0; trial < trials; ++trial) {
    SCOPED_TRACE(trial);
    const Problem p = random_problem(rng, 6, 12);
    const std::string text = cubex::to_knuth(p);
    const std::unique_ptr<cubex::Puzzle> puzzle =
        cubex::make_exact_cover(cubex::parse_knuth(text, "random.dlx"), "random");
    cubex::Options memo, search;
    memo.count_by = cubex::CountBy::memo;
    search.count_by = cubex::CountBy::search;
    search.threads = 1;
    const cubex::Result a = cubex::solve(*puzzle, memo);
    const cubex::Result b = cubex::solve(*puzzle, search);
    EXPECT_EQ(a.method, "memo");
    EXPECT_EQ(a.counts.total, b.counts.total);
    EXPECT_EQ(a.counts.unique, b.counts.unique);
  }
}

// ---- domino tilings ---------------------------------------------------------------------------

namespace {

cubex::Result count_by_memo(const cubex::Puzzle& p, cubex::Symmetry symmetry) {
  cubex::Options o;
  o.count_by = cubex::CountBy::memo;
  o.symmetry = symmetry;
  return cubex::solve(p, o);
}

}  // namespace

// The transfer matrix agrees with the plain recursion and with the published counts it is
// checked on (OEIS A004003: 1, 2, 36, 6728, 12988816 for 0x0 .. 8x8).
TEST(MemoDominoes, TheTransferMatrixIsRight) {
  for (int r = 1; r <= 4; ++r) {
    for (int c = 1; c <= 5; ++c)
      EXPECT_EQ(domino_tilings(r, c), domino_tilings_slow(r, c)) << r << "x" << c;
  }
  EXPECT_EQ(domino_tilings(2, 2), 2u);
  EXPECT_EQ(domino_tilings(4, 4), 36u);
  EXPECT_EQ(domino_tilings(6, 6), 6728u);
  EXPECT_EQ(domino_tilings(8, 8), 12988816u);
}

// Rectangles from voxel JSON, counted by memo, equal the transfer matrix; 8x8 also by search.
TEST(MemoDominoes, RectanglesByMemoEqualTheTransferMatrix) {
  for (auto [r, c] : {std::pair{2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 6}, {4, 9}, {8, 8}, {6, 11}}) {
    SCOPED_TRACE(std::to_string(r) + "x" + std::to_string(c));
    const auto p = dominoes(r, c);
    const cubex::Result m = count_by_memo(*p, cubex::Symmetry::none);
    EXPECT_EQ(m.method, "memo");
    EXPECT_EQ(m.counts.total, domino_tilings(r, c));
    EXPECT_TRUE(m.counts.complete);
  }
  if (!kSanitized) {
    cubex::Options s;
    s.count_by = cubex::CountBy::search;
    s.symmetry = cubex::Symmetry::none;
    s.threads = 2;
    EXPECT_EQ(cubex::solve(*dominoes(6, 7), s).counts.total, domino_tilings(6, 7));
  }
}

// Long strips pass 2^64 (4 x 44 has about 3.8 * 10^19 tilings; 6 x 30 about 10^23): the memo's
// counts are exact, JSON writes them as strings.
TEST(MemoDominoes, CountsPast2To64AreExact) {
  for (auto [r, c] : {std::pair{4, 44}, {6, 30}, {5, 40}}) {
    SCOPED_TRACE(std::to_string(r) + "x" + std::to_string(c));
    const BigCount want = domino_tilings(r, c);
    ASSERT_FALSE(want.fits_u64());
    const auto p = dominoes(r, c);
    const cubex::Result m = count_by_memo(*p, cubex::Symmetry::none);
    EXPECT_EQ(m.counts.total, want);
    cubex::Options o;
    o.count_by = cubex::CountBy::memo;
    o.symmetry = cubex::Symmetry::none;
    cubex::Plan plan(*p, o);
    const cubex::Result r2 = plan.run();
    const nlohmann::json j = cubex::footer_json(plan, r2);
    EXPECT_EQ(j["counts"]["total"], want.to_string());
  }
}

// Up to the rectangle's symmetries by Burnside through the quotient problems: every class
// counted once (checked against the search's classes on small boards).
TEST(MemoDominoes, UniqueCountsEqualTheSearchs) {
  for (auto [r, c] : {std::pair{4, 4}, {4, 6}, {6, 6}, {3, 8}}) {
    SCOPED_TRACE(std::to_string(r) + "x" + std::to_string(c));
    const auto p = dominoes(r, c);
    const cubex::Result m = count_by_memo(*p, cubex::Symmetry::automatic);
    cubex::Options s;
    s.count_by = cubex::CountBy::search;
    s.threads = 1;
    const cubex::Result b = cubex::solve(*p, s);
    EXPECT_EQ(m.method, "memo");
    EXPECT_EQ(m.counts.total, b.counts.total);
    EXPECT_EQ(m.counts.unique, b.counts.unique);
    EXPECT_EQ(m.counts.symmetric, b.counts.symmetric);
  }
}

// The symmetric classes of count_classes_by_memo listed (few solutions fixed) and counted by
// Möbius inversion over the subgroups (max_fixed 0) agree, on boards whose group has
// non-cyclic subgroups (the square's: two of order 4 with three reflections or half-turns).
TEST(MemoDominoes, SymmetricClassesCountedEqualThoseListed) {
  for (auto [r, c] : {std::pair{4, 4}, {6, 6}, {4, 6}, {2, 8}, {8, 8}}) {
    SCOPED_TRACE(std::to_string(r) + "x" + std::to_string(c));
    const auto p = dominoes(r, c);
    const std::vector<cubex::ItemId> order = p->memo_order();
    cubex::MemoLimits lim;
    lim.order = order;
    const cubex::SymmetricSolver sym(p->problem(),
                                     p->symmetry_group(cubex::SymmetryMode::kAuto).group);
    const cubex::MemoClasses listed = cubex::count_classes_by_memo(sym, lim, 1'000'000'000);
    const cubex::MemoClasses counted = cubex::count_classes_by_memo(sym, lim, 0);
    ASSERT_TRUE(listed.complete) << listed.why;
    ASSERT_TRUE(counted.complete) << counted.why;
    EXPECT_EQ(listed.total, domino_tilings(r, c));
    EXPECT_EQ(counted.total, listed.total);
    EXPECT_EQ(counted.unique, listed.unique);
    EXPECT_EQ(counted.stats.symmetric, listed.stats.symmetric);
    EXPECT_GT(listed.stats.symmetric, 0u);
  }
}

// ---- random voxel puzzles ---------------------------------------------------------------------

// Random boxes filled with random multisets of small pieces (some cells optional, sometimes
// mirrors allowed): by memo and by search, the same total, unique and symmetric counts in every
// symmetry mode.
TEST(MemoEveryKind, RandomVoxelPuzzlesCountTheSameByMemoAndBySearch) {
  using cubex::Vec3;
  const std::vector<std::vector<Vec3>> library{{{0, 0, 0}},
                                               {{0, 0, 0}, {1, 0, 0}},
                                               {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}},
                                               {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
                                               {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 1, 0}},
                                               {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}}};
  const std::vector<Vec3> boxes{{2, 2, 2}, {2, 2, 3}, {1, 3, 4}, {2, 3, 3}, {3, 3, 1}, {1, 4, 4}};
  std::mt19937 rng(99);
  const int trials = kSanitized ? 12 : 60;
  int checked = 0;
  for (int trial = 0; trial < trials; ++trial) {
    SCOPED_TRACE(trial);
    cubex::voxel::Model m;
    const Vec3 box = boxes[rng() % boxes.size()];
    for (int x = 0; x < box.x; ++x)
      for (int y = 0; y < box.y; ++y)
        for (int z = 0; z < box.z; ++z) m.cells.push_back({x, y, z});
    m.optional.assign(m.cells.size(), 0);
    int spare = 0;
    if (rng() % 3 == 0) {
      m.optional[0] = 1;
      spare = 1;
    }
    m.mirror = rng() % 3 == 0;
    int left = static_cast<int>(m.cells.size()) - static_cast<int>(rng() % (spare + 1));
    std::vector<int> used(library.size(), 0);
    while (left > 0) {
      std::size_t k = rng() % library.size();
      if (static_cast<int>(library[k].size()) > left) k = 0;
      ++used[k];
      left -= static_cast<int>(library[k].size());
    }
    for (std::size_t k = 0; k < library.size(); ++k) {
      if (used[k]) m.pieces.push_back({"p" + std::to_string(k), library[k], used[k]});
    }
    cubex::voxel::canonicalize(m);
    std::unique_ptr<cubex::Puzzle> p;
    try {
      p = cubex::voxel::make_puzzle(m, "random.json");
    } catch (const std::exception&) {
      continue;
    }
    // Optional cells without a bound on the holes are secondary items: options may cover none
    // of range 1..1, which the memo does not count (--count-by memo refuses them).
    if (!cubex::memo_applies(p->problem()).empty()) continue;
    for (cubex::Symmetry mode :
         {cubex::Symmetry::none, cubex::Symmetry::rotations, cubex::Symmetry::automatic}) {
      SCOPED_TRACE(cubex::symmetry_name(mode));
      cubex::Options memo, search;
      memo.count_by = cubex::CountBy::memo;
      memo.symmetry = search.symmetry = mode;
      search.count_by = cubex::CountBy::search;
      search.threads = 1;
      const cubex::Result a = cubex::solve(*p, memo);
      const cubex::Result b = cubex::solve(*p, search);
      if (b.method == "checks") continue;
      EXPECT_EQ(a.method, "memo");
      EXPECT_EQ(a.counts.total, b.counts.total);
      EXPECT_EQ(a.counts.unique, b.counts.unique);
      EXPECT_EQ(a.counts.symmetric, b.counts.symmetric);
      ++checked;
    }
  }
  EXPECT_GE(checked, trials);
}

// ---- the automatic choice and the budget --------------------------------------------------------

// `auto` counts dominoes by memo (states are met again and again) and says why; the pentominoes
// of 6x10 by search (a trial finds few states met again).
TEST(MemoEveryKind, AutoPicksTheMemoWhereItPays) {
  const auto p = dominoes(8, 8);
  cubex::Options o;
  o.symmetry = cubex::Symmetry::none;
  const cubex::Result r = cubex::solve(*p, o);
  EXPECT_EQ(r.method, "memo");
  EXPECT_EQ(r.counts.total, 12'988'816u);
  EXPECT_EQ(r.search["backend"], "memo");
  EXPECT_FALSE(r.memo_why.empty());
}

// ... and by search the puzzles whose kind does not ask for the memo (the pentominoes of 6x10 as
// a Knuth file), and tilings whose search is small (dominoes of 4x4: 133 nodes).
TEST(MemoEveryKind, AutoKeepsTheSearchWhereTheMemoDoesNotPay) {
  const std::unique_ptr<cubex::Puzzle> p =
      cubex::load(std::string(CUBEX_SOURCE_DIR) + "/puzzles/dlx/pent6x10.dlx");
  cubex::Options o;
  o.threads = 1;
  const cubex::Result r = cubex::solve(*p, o);
  EXPECT_EQ(r.method, "search");
  EXPECT_EQ(r.counts.total, 9356u);
  const auto small = dominoes(4, 4);
  EXPECT_EQ(small->memo_hint(), cubex::Puzzle::MemoHint::kTrial);
  const cubex::Result s = cubex::solve(*small, o);
  EXPECT_EQ(s.method, "search");
  EXPECT_EQ(s.counts.total, 36u);
}

// A budget too small for the table: the count is made by search instead, with a note; and
// --memo-budget reads sizes with units.
TEST(MemoEveryKind, ATableOverBudgetFallsBackToTheSearch) {
  const auto p = dominoes(6, 8);
  cubex::Options o;
  o.count_by = cubex::CountBy::memo;
  o.symmetry = cubex::Symmetry::none;
  o.memo_budget = 4096;
  o.threads = 1;
  const cubex::Result r = cubex::solve(*p, o);
  EXPECT_EQ(r.method, "search");
  EXPECT_EQ(r.counts.total, domino_tilings(6, 8));
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.back().find("budget"), std::string::npos) << r.notes.back();
  cubex::Options sized;
  cubex::set_option(sized, "memo-budget", "3G");
  EXPECT_EQ(sized.memo_budget, std::uint64_t{3} << 30);
  cubex::set_option(sized, "memo-budget", "512k");
  EXPECT_EQ(sized.memo_budget, std::uint64_t{512} << 10);
  EXPECT_THROW(cubex::set_option(sized, "memo-budget", "lots"), cubex::Error);
  EXPECT_THROW(cubex::set_option(sized, "memo-budget", "9999999999T"), cubex::Error);
}
