// The exact-cover core: Knuth's example, secondary items, multiplicities, limits, and agreement
// with a brute-force subset enumerator on random matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <random>
#include <set>
#include <stdexcept>

#include "brute_force.hpp"
#include "core/engine.hpp"
#include "cubex/core/job.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/knuth/format.hpp"
#include "test_util.hpp"
#include "sanitized.hpp"

using cubex::ItemId;
using cubex::OptionId;
using cubex::Problem;
using cubex::Solver;
using Solution = std::vector<OptionId>;
using cubex::test::brute_force;

namespace {

std::set<Solution> all_solutions(const Problem& p, cubex::Backend backend = cubex::Backend::kAuto,
                                 const cubex::EngineTuning& tu = {}) {
  std::set<Solution> out;
  std::size_t visits = 0;
  Solver(p, backend, tu).solve([&](std::span<const OptionId> s) {
    Solution v(s.begin(), s.end());
    std::sort(v.begin(), v.end());
    out.insert(v);
    ++visits;
    return true;
  });
  EXPECT_EQ(visits, out.size()) << "a solution was visited twice";
  return out;
}

// The bitset backend's tuning with the MRV mode `m` (and pruning off, as any mode but kAuto
// has it) and the AVX-512 loops on or off.
cubex::EngineTuning mrv_mode(cubex::BitsetMrv m, bool avx512 = true) {
  cubex::EngineTuning tu;
  tu.mrv = m;
  tu.avx512 = avx512;
  return tu;
}

}  // namespace

TEST(Core, KnuthsExampleHasItsUniqueSolution) {
  // "Dancing Links", eq. (3): the unique solution is {A D}, {E F C}, {B G}.
  auto f = cubex::parse_knuth(
      "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n", "ex");
  auto sols = all_solutions(f.problem);
  ASSERT_EQ(sols.size(), 1u);
  EXPECT_EQ(*sols.begin(), (Solution{0, 3, 4}));
  auto first = Solver(f.problem).first();
  ASSERT_TRUE(first);
  std::sort(first->begin(), first->end());
  EXPECT_EQ(*first, (Solution{0, 3, 4}));
}

TEST(Core, SecondaryItemsAreCoveredAtMostOnce) {
  Problem p;
  ItemId a = p.add_primary("A"), b = p.add_primary("B"), x = p.add_secondary("X");
  p.add_option({a, x});  // 0
  p.add_option({b, x});  // 1
  p.add_option({a});     // 2
  p.add_option({b});     // 3
  // {0,1} would cover X twice; X may also stay uncovered.
  EXPECT_EQ(all_solutions(p), (std::set<Solution>{{0, 3}, {1, 2}, {2, 3}}));
}

TEST(Core, MultiplicityChoosesEachSetOnce) {
  Problem p;
  ItemId a = p.add_primary("A", 2, 2);
  for (int k = 0; k < 4; ++k) p.add_option({a});
  EXPECT_EQ(Solver(p).count().solutions, 6u);  // C(4,2)

  Problem q;
  ItemId c = q.add_primary("C", 0, 2);
  for (int k = 0; k < 3; ++k) q.add_option({c});
  EXPECT_EQ(Solver(q).count().solutions, 7u);  // 1 + 3 + 3
}

TEST(Core, MultiplicityPrunesWhenTooFewOptionsRemain) {
  Problem p;
  ItemId a = p.add_primary("A", 3, 3), b = p.add_primary("B");
  p.add_option({a, b});
  p.add_option({a});
  EXPECT_EQ(Solver(p).count().solutions, 0u);
}

TEST(Core, ZeroUpperBoundTakesItsOptionsOutOfPlay) {
  Problem p;
  ItemId a = p.add_primary("A"), z = p.add_primary("Z", 0, 0);
  p.add_option({a, z});
  p.add_option({a});
  EXPECT_EQ(all_solutions(p), (std::set<Solution>{{1}}));
}

TEST(Core, AgreesWithBruteForceOnRandomMatrices) {
  std::mt19937 rng(20261122);
  int with_solutions = 0, with_mult = 0, with_bitset = 0;
  for (int trial = 0; trial < 600; ++trial) {
    Problem p;
    const int np = 1 + rng() % 5, ns = rng() % 3, no = 1 + rng() % 13;
    std::vector<ItemId> prim, all;
    for (int i = 0; i < np; ++i) {
      std::uint32_t lo = 1, hi = 1;
      switch (rng() % 6) {
        case 0:
          lo = rng() % 2, hi = lo + 1 + rng() % 2;
          break;
        case 1:
          lo = hi = 2;
          break;
        default:
          break;
      }
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
    auto want = brute_force(p);
    // Dancing links always; the bitset backend where it applies. Both must give the brute
    // force's solutions, and walk the same tree (same nodes, same order of solutions).
    auto got = all_solutions(p, cubex::Backend::kLinks);
    ASSERT_EQ(got, want) << "trial " << trial << "\n" << cubex::to_knuth(p);
    const auto links = Solver(p, cubex::Backend::kLinks).count();
    EXPECT_EQ(links.solutions, want.size());
    for (const Solution& s : got) EXPECT_EQ(cubex::check_solution(p, s), "");
    if (!p.has_multiplicities()) {
      // Both ways of finding the item with the fewest options (engine.hpp).
      // (popcounts with AVX-512 VPOPCNTQ and without)
      for (auto mrv : {cubex::BitsetMrv::kScan, cubex::BitsetMrv::kCounts}) {
        for (const bool avx512 : {true, false}) {
          const cubex::EngineTuning tu = mrv_mode(mrv, avx512);
          const auto got_bits = all_solutions(p, cubex::Backend::kBitset, tu);
          const auto bits = Solver(p, cubex::Backend::kBitset, tu).count();
          ASSERT_EQ(got_bits, want) << "trial " << trial << ", avx512 " << avx512 << "\n"
                                    << cubex::to_knuth(p);
          EXPECT_EQ(bits.solutions, want.size());
          EXPECT_EQ(bits.nodes, links.nodes) << "trial " << trial << ", avx512 " << avx512;
        }
      }
      // The counts mode's other lanes: 16-bit lanes for every column longer than one option, and
      // the AVX2 loop where the CPU would take the AVX-512 one.
      for (const bool avx512 : {true, false}) {
        cubex::EngineTuning tu = mrv_mode(cubex::BitsetMrv::kCounts, avx512);
        tu.short_max = 1;
        const auto got_lanes = all_solutions(p, cubex::Backend::kBitset, tu);
        const auto bits = Solver(p, cubex::Backend::kBitset, tu).count();
        ASSERT_EQ(got_lanes, want) << "trial " << trial << ", avx512 " << avx512;
        EXPECT_EQ(bits.nodes, links.nodes) << "trial " << trial << ", avx512 " << avx512;
      }
      {
        const auto bits =
            Solver(p, cubex::Backend::kBitset, mrv_mode(cubex::BitsetMrv::kCounts, false))
                .count();
        EXPECT_EQ(bits.nodes, links.nodes) << "trial " << trial << ", AVX2 byte lanes";
        EXPECT_EQ(bits.solutions, want.size());
      }
      // The child's live options word by word (as for rows over 64 words) instead of in AVX2
      // registers.
      for (auto mrv : {cubex::BitsetMrv::kScan, cubex::BitsetMrv::kCounts}) {
        cubex::EngineTuning tu = mrv_mode(mrv, false);
        tu.avx2_rows = false;
        const auto got_words = all_solutions(p, cubex::Backend::kBitset, tu);
        const auto bits = Solver(p, cubex::Backend::kBitset, tu).count();
        ASSERT_EQ(got_words, want) << "trial " << trial << ", word loops";
        EXPECT_EQ(bits.nodes, links.nodes) << "trial " << trial << ", word loops";
      }
      with_bitset += 1;
    } else {  // the bitset engine of Algorithm M (bitset_mult.cpp; test_core_mult.cpp)
      ASSERT_EQ(all_solutions(p, cubex::Backend::kBitset), want) << "trial " << trial << "\n"
                                                                 << cubex::to_knuth(p);
      const auto bits = Solver(p, cubex::Backend::kBitset).count();
      EXPECT_EQ(bits.solutions, want.size());
      EXPECT_EQ(bits.nodes, links.nodes) << "trial " << trial;
      with_bitset += 1;
    }
    with_solutions += !want.empty();
    with_mult += p.has_multiplicities();
  }
  // The generator must exercise the interesting cases, not only empty answers.
  EXPECT_GT(with_solutions, 200);
  EXPECT_GT(with_mult, 200);
  EXPECT_GT(with_bitset, 500);
}

// Both backends find the same solutions by walking the same tree (the bitset backend orders
// the children of a node differently, so the order of the solutions differs).
TEST(Core, BackendsVisitTheSameSolutionsOnTheSameTree) {
  auto f = cubex::read_knuth_file(cubex::test::xc_file("soma_sym.dlx"));
  Solver sl(f.problem, cubex::Backend::kLinks), sb(f.problem, cubex::Backend::kBitset);
  EXPECT_EQ(sb.backend(), cubex::Backend::kBitset);
  std::set<Solution> a, b;
  auto collect = [](std::set<Solution>& out) {
    return [&out](std::span<const OptionId> s) {
      Solution v(s.begin(), s.end());
      std::sort(v.begin(), v.end());
      EXPECT_TRUE(out.insert(v).second);
      return true;
    };
  };
  const auto stl = sl.solve(collect(a)), stb = sb.solve(collect(b));
  ASSERT_EQ(a.size(), 480u);
  EXPECT_EQ(a, b);
  EXPECT_EQ(stl.nodes, stb.nodes);
  for (auto mrv : {cubex::BitsetMrv::kScan, cubex::BitsetMrv::kCounts}) {
    std::set<Solution> c;
    const auto st = Solver(f.problem, cubex::Backend::kBitset, mrv_mode(mrv)).solve(collect(c));
    EXPECT_EQ(c, a);
    EXPECT_EQ(st.nodes, stl.nodes);
  }
  EXPECT_EQ(Solver(f.problem).backend(), cubex::Backend::kBitset);  // chosen automatically
}

// More than 256 primary items: the bitset backend's counts mode keeps its counts in memory
// instead of registers. 50 blocks of 6 cells; some blocks can be cut three ways, and options
// spanning two blocks through a secondary item add solutions the blocks alone do not have.
TEST(Core, BackendsAgreeWithMoreThan256PrimaryItems) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 3; ++trial) {
    Problem p;
    std::vector<ItemId> cell;
    for (int c = 0; c < 300; ++c) cell.push_back(p.add_primary("c" + std::to_string(c)));
    const ItemId s = p.add_secondary("s");
    for (int b = 0; b < 50; ++b) {
      const ItemId* x = &cell[6 * b];
      p.add_option({x[0], x[1], x[2], x[3], x[4], x[5]});
      if (rng() % 10 == 0) {
        p.add_option({x[0], x[1], x[2]});
        p.add_option({x[3], x[4], x[5]});
        p.add_option({x[0], x[1]});
        p.add_option({x[2], x[3]});
        p.add_option({x[4], x[5]});
      }
      if (b > 0 && rng() % 12 == 0) {  // the last three cells of b-1 and the first three of b
        p.add_option({x[-3], x[-2], x[-1], x[0], x[1], x[2], s});
        p.add_option({x[-6], x[-5], x[-4], s});
        p.add_option({x[3], x[4], x[5]});
      }
    }
    const auto links = Solver(p, cubex::Backend::kLinks).count();
    ASSERT_GT(links.solutions, 1u);
    for (auto mrv : {cubex::BitsetMrv::kScan, cubex::BitsetMrv::kCounts}) {
      const auto bits = Solver(p, cubex::Backend::kBitset, mrv_mode(mrv)).count();
      EXPECT_EQ(bits.solutions, links.solutions) << "trial " << trial;
      EXPECT_EQ(bits.nodes, links.nodes) << "trial " << trial;
    }
  }
}

class CoreBackend : public testing::TestWithParam<cubex::Backend> {};
INSTANTIATE_TEST_SUITE_P(Backends, CoreBackend,
                         testing::Values(cubex::Backend::kLinks, cubex::Backend::kBitset),
                         [](const auto& info) {
                           return info.param == cubex::Backend::kLinks ? "links" : "bitset";
                         });

TEST_P(CoreBackend, LimitsVisitorAndStopFlagEndTheSearchEarly) {
  auto f = cubex::read_knuth_file(cubex::test::xc_file("l9.dlx"));
  Solver s(f.problem, GetParam());
  cubex::SolveLimits lim;
  lim.max_solutions = 10;
  auto st = s.count(lim);
  EXPECT_EQ(st.solutions, 10u);
  EXPECT_FALSE(st.complete);

  int seen = 0;
  st = s.solve([&](std::span<const OptionId>) { return ++seen < 3; });
  EXPECT_EQ(seen, 3);
  EXPECT_FALSE(st.complete);

  std::atomic<bool> stop{true};
  lim = {};
  lim.stop = &stop;
  st = s.count(lim);
  EXPECT_FALSE(st.complete);
  EXPECT_LT(st.solutions, 5328u);

  st = s.count();  // a fresh run after a stopped one is complete again
  EXPECT_TRUE(st.complete);
  EXPECT_EQ(st.solutions, 5328u);
  EXPECT_GT(st.nodes, 0u);
  EXPECT_GT(st.updates, 0u);
}

// No quadratic corner (issue 16): a node with a great many children costs about linear work in
// them, not (children x live options). Item b has two options, {b} and {b s}; item a has m
// options, {a s} for every tenth, else {a}. The root branches on b, each child on a, whose m
// (or 9m/10) children are all solutions. Counted in updates (links: link removals; bitset:
// live words rewritten), which were m x m/64 per child of b in the bitset backend before.
TEST_P(CoreBackend, ManyChildrenCostLinearUpdates) {
  constexpr std::uint64_t m = 100000;
  Problem p;
  const ItemId a = p.add_primary("a"), b = p.add_primary("b"), s = p.add_secondary("s");
  for (std::uint64_t o = 0; o < m; ++o) {
    if (o % 10 == 0) {
      p.add_option({a, s});
    } else {
      p.add_option({a});
    }
  }
  p.add_option({b});
  p.add_option({s, b});
  const auto st = Solver(p, GetParam()).count();
  EXPECT_EQ(st.solutions, m + (m - m / 10));  // {b} with any a-option; {b s} with an {a} one
  EXPECT_EQ(st.nodes, 1 + 2 + st.solutions);
  EXPECT_LE(st.updates, 2 * m);
  // A single item: every option is a solution, each child of the root.
  Problem q;
  const ItemId c = q.add_primary("c");
  for (std::uint64_t o = 0; o < m; ++o) q.add_option({c});
  const auto sq = Solver(q, GetParam()).count();
  EXPECT_EQ(sq.solutions, m);
  EXPECT_EQ(sq.nodes, m + 1);
  EXPECT_LE(sq.updates, 2 * m);
}

TEST(Core, CheckSolutionFindsWhatIsWrong) {
  Problem p;
  ItemId a = p.add_primary("A"), b = p.add_primary("B"), x = p.add_secondary("X");
  p.add_option({a, x});
  p.add_option({b, x});
  p.add_option({b});
  EXPECT_EQ(cubex::check_solution(p, std::vector<OptionId>{0, 2}), "");
  EXPECT_NE(cubex::check_solution(p, std::vector<OptionId>{0, 1}).find("'X'"), std::string::npos);
  EXPECT_NE(cubex::check_solution(p, std::vector<OptionId>{0}).find("'B' is covered 0"),
            std::string::npos);
  EXPECT_NE(cubex::check_solution(p, std::vector<OptionId>{0, 2, 2}).find("twice"),
            std::string::npos);
}

TEST(Core, ProblemRejectsMalformedInput) {
  Problem p;
  ItemId a = p.add_primary("A");
  ItemId x = p.add_secondary("X");
  EXPECT_THROW(p.add_primary("A"), cubex::ProblemError);
  EXPECT_THROW(p.add_primary("B", 2, 1), cubex::ProblemError);
  EXPECT_THROW(p.add_option({a, a}), cubex::ProblemError);
  EXPECT_THROW(p.add_option({x}), cubex::ProblemError);
  EXPECT_THROW(p.add_option({a, 7}), cubex::ProblemError);
  EXPECT_THROW(p.add_option(std::span<const ItemId>{}), cubex::ProblemError);
}

// A random problem of `items` items (every fifth secondary, some with colours) and `options`
// options of 1 to `width` distinct items, written in a random order.
Problem random_problem(std::mt19937& rng, std::size_t items, std::size_t options,
                       std::size_t width, bool colours) {
  Problem p;
  std::vector<ItemId> secondary;
  for (std::size_t i = 0; i < items; ++i) {
    if (i % 5 == 4) {
      secondary.push_back(p.add_secondary("s" + std::to_string(i)));
    } else {
      p.add_primary("p" + std::to_string(i));
    }
  }
  if (colours) p.add_colour("red"), p.add_colour("blue");
  std::vector<ItemId> all(items);
  for (std::size_t i = 0; i < items; ++i) all[i] = static_cast<ItemId>(i);
  for (std::size_t o = 0; o < options; ++o) {
    std::shuffle(all.begin(), all.end(), rng);
    std::size_t n = 1 + rng() % width;
    std::vector<ItemId> opt(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
    if (std::none_of(opt.begin(), opt.end(), [&](ItemId i) { return p.item(i).primary; }))
      opt[0] = 0;  // (item 0 is primary)
    std::sort(opt.begin(), opt.end());
    opt.erase(std::unique(opt.begin(), opt.end()), opt.end());
    std::shuffle(opt.begin(), opt.end(), rng);
    std::vector<cubex::ColourId> col(opt.size(), 0);
    if (colours)
      for (std::size_t k = 0; k < opt.size(); ++k)
        if (!p.item(opt[k]).primary) col[k] = static_cast<cubex::ColourId>(rng() % 3);
    p.add_option(opt, col);
  }
  return p;
}

TEST(Core, SearchOrderSortsTheOptionsByTheirSortedItems) {
  // The order every engine walks: options by their items as the engines number them (primary
  // items first), sorted, compared as sequences; equal ones keep their order. Narrow options
  // over many items and wide ones over few take the two ways of sorting an option's items.
  std::mt19937 rng(36);
  for (const auto& [items, width] : std::vector<std::pair<std::size_t, std::size_t>>{
           {300, 3}, {40, 30}, {9, 9}, {130, 70}}) {
    for (int round = 0; round < 5; ++round) {
      const Problem p = random_problem(rng, items, 200, width, false);
      std::vector<std::uint32_t> internal(p.num_items());
      std::uint32_t n = 0;
      for (ItemId i = 0; i < p.num_items(); ++i)
        if (p.item(i).primary) internal[i] = n++;
      for (ItemId i = 0; i < p.num_items(); ++i)
        if (!p.item(i).primary) internal[i] = n++;
      std::vector<std::vector<std::uint32_t>> key(p.num_options());
      for (OptionId o = 0; o < p.num_options(); ++o) {
        for (ItemId i : p.option(o)) key[o].push_back(internal[i]);
        std::sort(key[o].begin(), key[o].end());
      }
      std::vector<OptionId> want(p.num_options());
      for (OptionId o = 0; o < want.size(); ++o) want[o] = o;
      std::stable_sort(want.begin(), want.end(),
                       [&](OptionId a, OptionId b) { return key[a] < key[b]; });
      EXPECT_EQ(cubex::detail::search_order(p), want) << items << " items, width " << width;
    }
  }
}

TEST(Core, KeepOptionsDropsTheOthersAndKeepsTheirColours) {
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    const Problem p = random_problem(rng, 30, 40, 6, true);
    std::vector<bool> keep(p.num_options());
    for (std::size_t o = 0; o < keep.size(); ++o) keep[o] = rng() % 3 != 0;
    Problem q = p;
    q.keep_options(keep);
    OptionId k = 0;
    bool coloured = false;
    for (OptionId o = 0; o < p.num_options(); ++o) {
      if (!keep[o]) continue;
      ASSERT_LT(k, q.num_options());
      EXPECT_TRUE(std::ranges::equal(q.option(k), p.option(o)));
      EXPECT_TRUE(std::ranges::equal(q.option_colours(k), p.option_colours(o)));
      for (auto c : p.option_colours(o)) coloured = coloured || c != 0;
      ++k;
    }
    EXPECT_EQ(q.num_options(), k);
    EXPECT_EQ(q.has_colours(), coloured);
    EXPECT_EQ(q.num_items(), p.num_items());
  }
  // Dropping the one coloured option leaves a problem without colours.
  Problem p;
  const ItemId a = p.add_primary("A");
  const ItemId x = p.add_secondary("X");
  const auto red = p.add_colour("red");
  p.add_option({a});
  p.add_option(std::vector<ItemId>{a, x}, std::vector<cubex::ColourId>{0, red});
  EXPECT_TRUE(p.has_colours());
  Problem q = p;
  q.keep_options({true, false});
  EXPECT_FALSE(q.has_colours());
  EXPECT_EQ(q.num_options(), 1u);
  EXPECT_EQ(q.option_colours(0).size(), 1u);
  EXPECT_THROW(q.keep_options({true, true}), cubex::ProblemError);
}

TEST(Core, OptionsWithoutColoursReadAsZeros) {
  // Colours are stored from the first option that has one: the options before it, and those
  // added without colours after it, read as zeros of their length.
  Problem p;
  const ItemId a = p.add_primary("A"), b = p.add_primary("B");
  const ItemId x = p.add_secondary("X"), y = p.add_secondary("Y");
  const auto red = p.add_colour("red");
  p.add_option({a});
  p.add_option({a, b, x, y});
  EXPECT_FALSE(p.has_colours());
  EXPECT_TRUE(std::ranges::equal(p.option_colours(1), std::vector<cubex::ColourId>{0, 0, 0, 0}));
  p.add_option(std::vector<ItemId>{b, y}, std::vector<cubex::ColourId>{0, red});
  p.add_option({b, x});
  EXPECT_TRUE(p.has_colours());
  EXPECT_EQ(p.option_colours(0).size(), 1u);
  EXPECT_TRUE(std::ranges::equal(p.option_colours(1), std::vector<cubex::ColourId>{0, 0, 0, 0}));
  EXPECT_TRUE(std::ranges::equal(p.option_colours(2), std::vector<cubex::ColourId>{0, red}));
  EXPECT_TRUE(std::ranges::equal(p.option_colours(3), std::vector<cubex::ColourId>{0, 0}));
  // A first option with a colour keeps it.
  Problem q;
  const ItemId c = q.add_primary("C");
  const ItemId z = q.add_secondary("Z");
  const auto blue = q.add_colour("blue");
  q.add_option(std::vector<ItemId>{c, z}, std::vector<cubex::ColourId>{0, blue});
  q.add_option({c});
  EXPECT_TRUE(q.has_colours());
  EXPECT_TRUE(std::ranges::equal(q.option_colours(0), std::vector<cubex::ColourId>{0, blue}));
  EXPECT_TRUE(std::ranges::equal(q.option_colours(1), std::vector<cubex::ColourId>{0}));
}

TEST(Core, FingerprintIsFnv1aOverTheBytesOfEveryValue) {
  // Checkpoints name their problem by this hash: it must stay what it always was, whatever the
  // size of the values (item numbers over 2^16 included).
  auto reference = [](const Problem& pb) {
    std::uint64_t h = 1469598103934665603ULL;
    auto mix = [&](std::uint64_t v) {
      for (int k = 0; k < 8; ++k) {
        h ^= (v >> (8 * k)) & 0xFF;
        h *= 1099511628211ULL;
      }
    };
    mix(pb.num_items());
    for (const cubex::Item& it : pb.items()) {
      for (char c : it.name) mix(static_cast<unsigned char>(c));
      mix(it.primary);
      mix(it.lo);
      mix(it.hi);
    }
    mix(pb.num_options());
    for (OptionId o = 0; o < pb.num_options(); ++o) {
      mix(pb.option(o).size());
      for (ItemId i : pb.option(o)) mix(i);
    }
    if (pb.has_colours()) {
      for (cubex::ColourId c = 1; c <= pb.num_colours(); ++c)
        for (char ch : pb.colour_name(c)) mix(static_cast<unsigned char>(ch));
      for (OptionId o = 0; o < pb.num_options(); ++o)
        for (cubex::ColourId c : pb.option_colours(o)) mix(c);
    }
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return std::string(buf);
  };
  std::mt19937 rng(11);
  for (bool colours : {false, true}) {
    const Problem p = random_problem(rng, 60, 50, 8, colours);
    EXPECT_EQ(cubex::problem_fingerprint(p), reference(p));
  }
  const std::size_t big = cubex::test::kSanitized ? 70'000 : 140'000;
  Problem wide = random_problem(rng, big, 20, 3, false);
  EXPECT_EQ(cubex::problem_fingerprint(wide), reference(wide));
}

// The shared instances with their published counts (KNOWN_COUNTS.md) that run in seconds.
struct Known {
  const char* file;
  std::uint64_t solutions;
  cubex::Backend backend;
};
class KnownCounts : public testing::TestWithParam<Known> {};

TEST_P(KnownCounts, MatchesPublishedCount) {
  if (cubex::test::kSanitized && std::string(GetParam().file) == "conway_mult.dlx" &&
      GetParam().backend == cubex::Backend::kLinks) {
    GTEST_SKIP() << "under a sanitizer Conway's count on dancing links takes half a minute; the "
                    "Release build checks it, and the bitset backend's run covers this file here";
  }
  auto f = cubex::read_knuth_file(cubex::test::xc_file(GetParam().file));
  Solver solver(f.problem, GetParam().backend);
  auto st = solver.count();
  EXPECT_TRUE(st.complete);
  EXPECT_EQ(st.solutions, GetParam().solutions);
}

constexpr auto kLinks = cubex::Backend::kLinks;
constexpr auto kBitset = cubex::Backend::kBitset;
INSTANTIATE_TEST_SUITE_P(
    SharedXc, KnownCounts,
    testing::Values(Known{"l9.dlx", 5328, kLinks}, Known{"soma.dlx", 11520, kLinks},
                    Known{"soma_sym.dlx", 480, kLinks}, Known{"pent6x10_sym.dlx", 2339, kLinks},
                    Known{"y25_o1.dlx", 666, kLinks}, Known{"conway_mult.dlx", 27456, kLinks},
                    Known{"l9.dlx", 5328, kBitset}, Known{"soma.dlx", 11520, kBitset},
                    Known{"soma_sym.dlx", 480, kBitset}, Known{"pent6x10_sym.dlx", 2339, kBitset},
                    Known{"pent6x10.dlx", 9356, kBitset}, Known{"y25_o1.dlx", 666, kBitset},
                    Known{"conway_mult.dlx", 27456, kBitset}),
    [](const auto& info) {
      std::string n = info.param.file;
      return n.substr(0, n.find('.')) +
             (info.param.backend == cubex::Backend::kLinks ? "_links" : "_bitset");
    });
