// How `--count-by auto` chooses between memo and search where the front end says that the memo
// may pay (Puzzle::MemoHint::kTrial: Knuth files, tilings by a few shapes in many copies): each
// way is tried briefly (src/solve/plan.cpp, choose_by_trials). The counts never depend on the
// choice; these tests check which way each kind of puzzle goes and that JSON's search.chosen
// says why. The choices asserted rest on node and sub-problem counts, or on margins of a
// hundredfold and more in the times compared, so a loaded machine makes the same ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>

#include "cubex/core/memo.hpp"
#include "cubex/core/memo_order.hpp"
#include "cubex/core/tree_estimate.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/solve.hpp"
#include "cubex/voxel/read.hpp"

namespace {

std::string puzzle_path(const std::string& rel) {
  return std::string(CUBEX_SOURCE_DIR) + "/puzzles/" + rel;
}

cubex::Result count_auto(const cubex::Puzzle& p) {
  cubex::Options o;
  o.threads = 1;
  return cubex::solve(p, o);
}

std::string chosen(const cubex::Result& r) {
  return r.search.contains("chosen") ? r.search["chosen"].get<std::string>() : "";
}

// A voxel puzzle written as a Knuth file (as `cubex compile --dlx` does) and loaded back: the
// same matrix, without the voxel front end's hint.
std::unique_ptr<cubex::Puzzle> as_knuth_file(const std::string& rel) {
  const auto voxel = cubex::load(puzzle_path(rel));
  const std::string path =
      ::testing::TempDir() + "/" + std::filesystem::path(rel).stem().string() + "-memo-choice.dlx";
  std::ofstream(path) << cubex::to_knuth(voxel->problem());
  return cubex::load(path);
}

}  // namespace

TEST(MemoChoice, KnuthFilesOfTilingsCountByMemo) {
  const auto p = cubex::load(puzzle_path("memo/dominoes-10x10.dlx"));
  EXPECT_EQ(p->memo_hint(), cubex::Puzzle::MemoHint::kTrial);
  const cubex::Result r = count_auto(*p);
  EXPECT_EQ(r.method, "memo");
  EXPECT_EQ(r.counts.total, 258584046368u);
  EXPECT_EQ(r.search["backend"], "memo");
  EXPECT_NE(chosen(r).find("the search's tree has about"), std::string::npos) << chosen(r);
  EXPECT_NE(r.memo_why.find("chosen: "), std::string::npos) << r.memo_why;
}

TEST(MemoChoice, KnuthFilesWhoseSubProblemsRarelyRepeatAreSearched) {
  const auto p = cubex::load(puzzle_path("dlx/soma.dlx"));
  const cubex::Result r = count_auto(*p);
  EXPECT_EQ(r.method, "search");
  EXPECT_EQ(r.counts.total, 11520u);
  EXPECT_NE(chosen(r).find("under one in ten"), std::string::npos) << chosen(r);
  // The summary stays as it was: nothing was spent on the memo beyond its trial.
  EXPECT_TRUE(r.memo_why.empty()) << r.memo_why;
}

TEST(MemoChoice, SmallTreesStayWithTheSearch) {
  const auto p = cubex::load(puzzle_path("dlx/knuth-example.dlx"));
  const cubex::Result r = count_auto(*p);
  EXPECT_EQ(r.method, "search");
  EXPECT_EQ(r.counts.total, 1u);
  EXPECT_EQ(chosen(r), "the search's trial finished it (4 nodes)");
}

// The 7-piece wooden cube as a Knuth file: a little over one sub-problem in ten is met again in
// the memo's trial, so the memo
// races the search; its progress foresees far more than the search's estimated time (about
// 200,000 nodes), and the search counts. The summary says what the memo cost.
TEST(MemoChoice, TheMemoGivesUpWhereItForeseesMoreThanTheSearch) {
  const auto p = as_knuth_file("voxel/wooden-cube-7.json");
  const cubex::Result r = count_auto(*p);
  const cubex::Result s = [&] {
    cubex::Options o;
    o.threads = 1;
    o.count_by = cubex::CountBy::search;
    return cubex::solve(*p, o);
  }();
  EXPECT_EQ(r.method, "search");
  EXPECT_EQ(r.counts.total, s.counts.total);
  EXPECT_NE(chosen(r).find("the memo gave up after"), std::string::npos) << chosen(r);
  EXPECT_EQ(r.memo_why, chosen(r));
}

// Knuth's estimate from random paths: exact on a tree whose nodes at each depth all have as many
// children (the n x 1 strip of monominoes: a path), within a small factor of the nodes walked
// on a real puzzle, and the same for the same seed.
TEST(MemoChoice, RandomPathsEstimateTheSearchTree) {
  const auto p = cubex::load(puzzle_path("dlx/soma.dlx"));
  cubex::Solver solver(p->problem());
  const cubex::SolveStats st = solver.count();
  const double est = cubex::estimate_search_nodes(p->problem(), solver.backend(), 64, 1);
  EXPECT_GT(est, static_cast<double>(st.nodes) / 4);
  EXPECT_LT(est, static_cast<double>(st.nodes) * 4);
  EXPECT_EQ(est, cubex::estimate_search_nodes(p->problem(), solver.backend(), 64, 1));
  cubex::Problem strip;
  std::vector<cubex::ItemId> cells;
  for (int i = 0; i < 5; ++i) cells.push_back(strip.add_primary("c" + std::to_string(i)));
  for (cubex::ItemId c : cells) strip.add_option({c});
  cubex::Solver one(strip);
  EXPECT_EQ(cubex::estimate_search_nodes(strip, cubex::Backend::kLinks, 8, 3),
            static_cast<double>(one.count().nodes));
}

namespace {

std::unique_ptr<cubex::Puzzle> tiling(int cols, int rows, const nlohmann::json& cells, int count) {
  const nlohmann::json doc = {{"name", "tiling"},
                              {"kind", "voxel"},
                              {"box", {cols, rows}},
                              {"pieces", {{{"name", "p"}, {"cells", cells}, {"count", count}}}}};
  return cubex::voxel::load_json(doc, "tiling.json");
}

std::vector<cubex::ItemId> primary_items(const cubex::Problem& pb) {
  std::vector<cubex::ItemId> out;
  for (cubex::ItemId i = 0; i < pb.num_items(); ++i)
    if (pb.item(i).primary) out.push_back(i);
  return out;
}

}  // namespace

// The breadth-first order lists every primary item once, those of range 1..1 (with pieces,
// colours) and those of other ranges (conway_mult's multiplicities) alike.
TEST(MemoOrder, BreadthFirstOrderHoldsEveryPrimaryItemOnce) {
  for (const char* rel : {"dlx/pent6x10.dlx", "dlx/conway_mult.dlx", "dlx/knuth-colours.xc",
                          "memo/dominoes-10x10.dlx"}) {
    SCOPED_TRACE(rel);
    const auto p = cubex::load(puzzle_path(rel));
    const cubex::Problem& pb = p->problem();
    std::vector<cubex::ItemId> order = cubex::breadth_first_order(pb);
    std::vector<cubex::ItemId> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, primary_items(pb));
  }
}

// The frontier cost picks the order that the memo's sub-problems favour: the diagonals of the
// breadth-first order across a square of dominoes, the sweep along the rows for L-trominoes
// (whose breadth-first frontiers are the square's growing L-shaped rings). The counts are the
// same in every order.
TEST(MemoOrder, FrontierCostPicksTheOrderWithFewerSubProblems) {
  const nlohmann::json domino = {{0, 0, 0}, {1, 0, 0}};
  const nlohmann::json ell = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  struct Case {
    std::unique_ptr<cubex::Puzzle> p;
    bool breadth_first_wins;
    std::uint64_t total;
  };
  Case cases[] = {{tiling(10, 10, domino, 50), true, 258584046368u},
                  {tiling(9, 9, ell, 27), false, 1193600u}};
  for (Case& c : cases) {
    const cubex::Problem& pb = c.p->problem();
    const std::vector<cubex::ItemId> sweep = c.p->memo_order();
    const std::vector<cubex::ItemId> wide = cubex::breadth_first_order(pb);
    ASSERT_FALSE(sweep.empty());
    EXPECT_EQ(cubex::frontier_cost(pb, wide) < cubex::frontier_cost(pb, sweep),
              c.breadth_first_wins);
    cubex::MemoLimits by_sweep, by_wide;
    by_sweep.order = sweep;
    by_wide.order = wide;
    const cubex::MemoCount a = cubex::memo_count(pb, {}, by_sweep);
    const cubex::MemoCount b = cubex::memo_count(pb, {}, by_wide);
    EXPECT_EQ(a.count, cubex::BigCount(c.total));
    EXPECT_EQ(b.count, cubex::BigCount(c.total));
    EXPECT_EQ(b.states < a.states, c.breadth_first_wins) << a.states << " " << b.states;
    // And solve() counts by the cheaper one.
    cubex::Options o;
    o.count_by = cubex::CountBy::memo;
    o.symmetry = cubex::Symmetry::none;
    const cubex::Result r = cubex::solve(*c.p, o);
    EXPECT_EQ(r.counts.total, c.total);
    EXPECT_EQ(r.memo_states, std::min(a.states, b.states));
  }
}

// Random matrices with secondary items, colours and multiplicities: the memo counts the same in
// the problem's order, the breadth-first order and its reverse, and as the search does.
TEST(MemoOrder, RandomMatricesCountTheSameInEveryOrder) {
  std::mt19937 rng(20261128);
  int checked = 0;
  for (int round = 0; round < 200; ++round) {
    cubex::Problem pb;
    const int exact = 3 + static_cast<int>(rng() % 6);
    std::vector<cubex::ItemId> items;
    for (int i = 0; i < exact; ++i) items.push_back(pb.add_primary("p" + std::to_string(i)));
    const bool mult = rng() % 3 == 0;
    if (mult) items.push_back(pb.add_primary("m", 1, 2));
    const int secondary = static_cast<int>(rng() % 3);
    std::vector<cubex::ItemId> sec;
    for (int i = 0; i < secondary; ++i) sec.push_back(pb.add_secondary("s" + std::to_string(i)));
    const cubex::ColourId red = pb.add_colour("red"), blue = pb.add_colour("blue");
    const int options = 4 + static_cast<int>(rng() % 12);
    std::set<std::vector<cubex::ItemId>> seen;
    for (int o = 0; o < options; ++o) {
      std::vector<cubex::ItemId> its;
      std::vector<cubex::ColourId> cols;
      for (int i = 0; i < exact; ++i)
        if (rng() % 3 == 0) its.push_back(items[i]), cols.push_back(0);
      if (its.empty()) its.push_back(items[rng() % exact]), cols.push_back(0);
      if (mult && rng() % 2 == 0) its.push_back(items.back()), cols.push_back(0);
      for (cubex::ItemId s : sec) {
        if (rng() % 3 != 0) continue;
        its.push_back(s);
        const auto pick = rng() % 3;
        cols.push_back(pick == 0 ? 0 : pick == 1 ? red : blue);
      }
      std::vector<cubex::ItemId> key = its;
      std::sort(key.begin(), key.end());
      if (!seen.insert(key).second) continue;  // the memo refuses two options on one item set
      pb.add_option(its, cols);
    }
    cubex::Solver solver(pb, cubex::Backend::kLinks);
    const std::uint64_t want = solver.count().solutions;
    std::vector<cubex::ItemId> wide = cubex::breadth_first_order(pb);
    std::vector<cubex::ItemId> back(wide.rbegin(), wide.rend());
    for (const auto& order : {primary_items(pb), wide, back}) {
      cubex::MemoLimits l;
      l.order = order;
      EXPECT_EQ(cubex::memo_count(pb, {}, l).count, cubex::BigCount(want)) << "round " << round;
    }
    checked += want > 0;
  }
  EXPECT_GT(checked, 20);  // enough of them have solutions
}
