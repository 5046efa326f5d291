// The MILP (CBC) and SAT (CaDiCaL) baselines agree with dancing links (issue 7). Compiled into
// cubex_tests always, but empty unless CMake ran with -DCUBEX_BASELINES=ON (which defines
// CUBEX_WITH_BASELINES and links CBC and CaDiCaL).
#ifdef CUBEX_WITH_BASELINES

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <set>

#include "baselines.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/puzzle.hpp"
#include "test_util.hpp"

namespace {

namespace bl = cubex::baselines;
using cubex::OptionId;
using cubex::Problem;
using SolutionSet = std::set<bl::Solution>;

constexpr double kLimit = 30;  // far above what any case here needs

SolutionSet collect(const std::function<bl::Run(const bl::Visit&)>& run, bl::Run* out = nullptr,
                    std::size_t stop_after = 0) {
  SolutionSet s;
  const bl::Run r = run([&](const bl::Solution& sol) {
    EXPECT_TRUE(s.insert(sol).second) << "the same solution twice";
    return stop_after == 0 || s.size() < stop_after;
  });
  if (out) *out = r;
  return s;
}

// Every solution valid for the matrix and for the puzzle's own verifier (as `cubex verify`).
void expect_valid(const cubex::Puzzle& p, const bl::Solution& s, const std::string& who) {
  EXPECT_EQ(cubex::check_solution(p.problem(), s), "") << who;
  EXPECT_EQ(p.verify_solution(p.solution_json(s)), "") << who;
}

// First solutions: every solver answers, agrees on solvable, and returns valid solutions.
void expect_first_agree(const cubex::Puzzle& p, bool solvable) {
  const Problem& pb = p.problem();
  struct Case {
    const char* who;
    std::function<bl::Run(const bl::Visit&)> run;
  };
  const Case cases[] = {
      {"dlx", [&](const bl::Visit& v) { return bl::dlx_run(pb, false, kLimit, v); }},
      {"cbc", [&](const bl::Visit& v) { return bl::cbc_run(pb, false, kLimit, v); }},
      {"cadical", [&](const bl::Visit& v) { return bl::cadical_run(pb, false, kLimit, v); }}};
  for (const Case& c : cases) {
    bl::Run r;
    const SolutionSet s = collect(c.run, &r);
    EXPECT_TRUE(r.finished) << c.who;
    EXPECT_EQ(s.size(), solvable ? 1u : 0u) << c.who;
    for (const auto& sol : s) expect_valid(p, sol, c.who);
  }
}

std::string seed(int k) {
  return cubex::test::source_file("puzzles/happycube/HC_BQ_0" + std::to_string(k) + ".hcq");
}

TEST(Baselines, SeedHappyCubesFirstSolutionsAgree) {
  for (int k = 1; k <= 3; ++k) {
    SCOPED_TRACE(seed(k));
    const auto p = cubex::load_puzzle(seed(k));
    expect_first_agree(*p, true);
  }
}

TEST(Baselines, SeedHappyCubesSatEnumerationEqualsDlx) {
  for (int k = 1; k <= 3; ++k) {
    SCOPED_TRACE(seed(k));
    const auto p = cubex::load_puzzle(seed(k));
    const Problem& pb = p->problem();
    bl::Run rd, rs;
    const SolutionSet dlx =
        collect([&](const bl::Visit& v) { return bl::dlx_run(pb, true, kLimit, v); }, &rd);
    const SolutionSet sat =
        collect([&](const bl::Visit& v) { return bl::cadical_run(pb, true, kLimit, v); }, &rs);
    EXPECT_TRUE(rd.finished && rs.finished);
    EXPECT_EQ(dlx.size(), 48u);  // KNOWN_COUNTS.md
    EXPECT_EQ(sat, dlx);
    for (const auto& s : sat) expect_valid(*p, s, "cadical");
  }
}

// The seed's own model: its optimum is a DLX solution, and its cost is the least cost over all
// 48 DLX solutions, each option costed by its cheapest way (flip + half turn) to lay that grid.
TEST(Baselines, HappyCubeSeedModelFindsTheSameSolutions) {
  for (int k = 1; k <= 3; ++k) {
    SCOPED_TRACE(seed(k));
    const auto p = cubex::load_puzzle(seed(k));
    const cubex::happycube::Model* m = cubex::happycube::model_of(*p);
    ASSERT_NE(m, nullptr);
    const SolutionSet dlx =
        collect([&](const bl::Visit& v) { return bl::dlx_run(p->problem(), true, kLimit, v); });
    bl::SeedRun sr;
    const SolutionSet first = collect([&](const bl::Visit& v) {
      sr = bl::happy_seed_run(*m, false, kLimit, v);
      return sr.run;
    });
    EXPECT_EQ(sr.error, "");
    EXPECT_TRUE(sr.run.finished);
    ASSERT_EQ(first.size(), 1u);
    EXPECT_TRUE(dlx.count(*first.begin()));
    expect_valid(*p, *first.begin(), "cbc_seed");
    EXPECT_EQ(sr.variables, 6 * 6 * 8);
    EXPECT_EQ(sr.rows, 6 + 6 + 12 * 3 + 8);  // pieces, places, edge middles, corners

    const auto option_cost = [&](OptionId o) {
      const auto& pl = m->placements[o];
      const auto& type = m->types[pl.type];
      const auto grid = cubex::happycube::orient(type.tile, pl.rotations_ccw, pl.flipped);
      int best = 99;
      for (int f = 0; f < (type.may_flip ? 2 : 1); ++f)
        for (int t = 0; t < 4; ++t)
          if (cubex::happycube::orient(type.tile, t, f == 1) == grid)
            best = std::min(best, f + (t == 2 ? 1 : 0));
      return best;
    };
    int least = 99;
    for (const auto& s : dlx) {
      int c = 0;
      for (OptionId o : s) c += option_cost(o);
      least = std::min(least, c);
    }
    EXPECT_EQ(sr.first_cost, least);
  }
  // A few more of the seed model's solutions (each re-solve takes CBC a while): distinct cubes,
  // all among the DLX solutions.
  const auto p = cubex::load_puzzle(seed(2));
  const SolutionSet dlx =
      collect([&](const bl::Visit& v) { return bl::dlx_run(p->problem(), true, kLimit, v); });
  const SolutionSet some = collect(
      [&](const bl::Visit& v) {
        return bl::happy_seed_run(*cubex::happycube::model_of(*p), true, kLimit, v).run;
      },
      nullptr, 3);
  EXPECT_EQ(some.size(), 3u);
  for (const auto& s : some) EXPECT_TRUE(dlx.count(s));
}

TEST(Baselines, SomaAndLTricubesFirstSolutionsAgree) {
  for (const char* f : {"puzzles/voxel/soma.json", "puzzles/voxel/l-tricubes.json"}) {
    SCOPED_TRACE(f);
    expect_first_agree(*cubex::load_puzzle(cubex::test::source_file(f)), true);
  }
}

// L-tricubes: 5,328 solutions (KNOWN_COUNTS.md) by blocking clauses, the same set as DLX.
TEST(Baselines, LTricubesSatEnumerationEqualsDlx) {
  const auto p = cubex::load_puzzle(cubex::test::source_file("puzzles/voxel/l-tricubes.json"));
  bl::Run rd, rs;
  const SolutionSet dlx =
      collect([&](const bl::Visit& v) { return bl::dlx_run(p->problem(), true, kLimit, v); }, &rd);
  const SolutionSet sat = collect(
      [&](const bl::Visit& v) { return bl::cadical_run(p->problem(), true, kLimit, v); }, &rs);
  EXPECT_TRUE(rd.finished && rs.finished);
  EXPECT_EQ(dlx.size(), 5328u);
  EXPECT_EQ(sat, dlx);
}

// Random matrices with a planted solution (or without, often unsolvable), with secondary items
// and multiplicities lo..hi: every solver enumerates the same set.
Problem random_problem(std::mt19937& rng, bool plant, bool ranges) {
  Problem pb;
  const int primaries = 6 + static_cast<int>(rng() % 5), secondaries = static_cast<int>(rng() % 3);
  std::vector<cubex::ItemId> prim, sec;
  std::vector<std::uint32_t> lo(static_cast<std::size_t>(primaries), 1), hi = lo;
  for (int i = 0; i < primaries; ++i) {
    if (ranges && rng() % 3 == 0) {
      lo[static_cast<std::size_t>(i)] = rng() % 2;
      hi[static_cast<std::size_t>(i)] = lo[static_cast<std::size_t>(i)] + 1 + rng() % 2;
    }
    prim.push_back(pb.add_primary("p" + std::to_string(i), lo[static_cast<std::size_t>(i)],
                                  hi[static_cast<std::size_t>(i)]));
  }
  for (int i = 0; i < secondaries; ++i) sec.push_back(pb.add_secondary("s" + std::to_string(i)));
  const auto add = [&](std::vector<cubex::ItemId> items) {
    std::sort(items.begin(), items.end());
    items.erase(std::unique(items.begin(), items.end()), items.end());
    pb.add_option(items);
  };
  if (plant) {  // a partition of the primaries (each once), with a secondary now and then
    std::vector<cubex::ItemId> order = prim;
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t i = 0; i < order.size();) {
      const std::size_t len = std::min<std::size_t>(1 + rng() % 3, order.size() - i);
      std::vector<cubex::ItemId> items(order.begin() + static_cast<long>(i),
                                       order.begin() + static_cast<long>(i + len));
      if (!sec.empty() && rng() % 2) items.push_back(sec[rng() % sec.size()]);
      add(items);
      i += len;
    }
  }
  const int extra = 8 + static_cast<int>(rng() % 10);
  for (int k = 0; k < extra; ++k) {
    std::vector<cubex::ItemId> items{prim[rng() % prim.size()]};
    const int more = static_cast<int>(rng() % 3);
    for (int j = 0; j < more; ++j) items.push_back(prim[rng() % prim.size()]);
    if (!sec.empty() && rng() % 2) items.push_back(sec[rng() % sec.size()]);
    add(items);
  }
  return pb;
}

TEST(Baselines, RandomMatricesEnumerationAgrees) {
  std::mt19937 rng(7);
  int solvable = 0, unsolvable = 0, with_ranges = 0;
  for (int k = 0; k < 30; ++k) {
    const bool ranges = k % 2 == 1;
    const Problem pb = random_problem(rng, k % 3 != 2, ranges);
    SCOPED_TRACE("case " + std::to_string(k));
    bl::Run rd, rc, rs;
    const SolutionSet dlx =
        collect([&](const bl::Visit& v) { return bl::dlx_run(pb, true, kLimit, v); }, &rd);
    ASSERT_TRUE(rd.finished);
    if (dlx.size() > 30) continue;  // CBC re-solves once per solution: keep the test short
    const SolutionSet cbc =
        collect([&](const bl::Visit& v) { return bl::cbc_run(pb, true, kLimit, v); }, &rc);
    const SolutionSet sat =
        collect([&](const bl::Visit& v) { return bl::cadical_run(pb, true, kLimit, v); }, &rs);
    ASSERT_TRUE(rc.finished && rs.finished);
    EXPECT_EQ(cbc, dlx);
    EXPECT_EQ(sat, dlx);
    for (const auto& s : sat) EXPECT_EQ(cubex::check_solution(pb, s), "");
    (dlx.empty() ? unsolvable : solvable) += 1;
    with_ranges += ranges && pb.has_multiplicities() && !dlx.empty() ? 1 : 0;
  }
  // The generator must exercise both answers and the ranges, or the test proves little.
  EXPECT_GE(solvable, 8);
  EXPECT_GE(unsolvable, 3);
  EXPECT_GE(with_ranges, 3);
  std::printf("random matrices: %d solvable (%d with ranges), %d unsolvable\n", solvable,
              with_ranges, unsolvable);
}

// The 2x1x1 box from two Rubens sets has items with multiplicity 2: first solutions agree.
TEST(Baselines, MultiplicityFirstSolutionsAgree) {
  const auto p =
      cubex::load_puzzle(cubex::test::source_file("puzzles/happycube/rubens_box_2x1x1.json"));
  ASSERT_TRUE(p->problem().has_multiplicities());
  expect_first_agree(*p, true);
}

TEST(Baselines, CommandLineWritesTheIssueSchema) {
  cubex::test::TempDir dir;
  const std::string out = dir / "b.json", svg = dir / "b.svg";
  const std::string cmd =
      std::string("'") + CUBEX_BASELINES_EXE + "' --time-limit 20 --json '" + out + "' --svg '" +
      svg + "' '" + cubex::test::source_file("puzzles/dlx/knuth-example.dlx") + "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const auto j = nlohmann::json::parse(cubex::test::slurp(out));
  ASSERT_EQ(j["results"].size(), 1u);
  const auto& r = j["results"][0];
  EXPECT_EQ(r["instance"], "knuth-example.dlx");
  for (const char* s : {"dlx", "cbc", "cadical"}) {
    const auto& c = r["solvers"][s];
    EXPECT_TRUE(c["first_seconds"].is_number()) << s;
    EXPECT_TRUE(c["all_seconds"].is_number()) << s;
    EXPECT_EQ(c["solutions"], 1) << s;  // Knuth's example has exactly one solution
    EXPECT_EQ(c["solved"], true) << s;
  }
  EXPECT_NE(cubex::test::slurp(svg).find("<svg"), std::string::npos);
  // Bad arguments: exit 2, nothing written.
  const std::string bad = std::string("'") + CUBEX_BASELINES_EXE + "' --time-limit x '" +
                          cubex::test::source_file("puzzles/dlx/knuth-example.dlx") +
                          "' >/dev/null 2>&1";
  const int st = std::system(bad.c_str());
  EXPECT_EQ(WEXITSTATUS(st), 2);
}

}  // namespace

#endif  // CUBEX_WITH_BASELINES
