// How `--count-by auto` chooses between memo and search where the front end says that the memo
// may pay (Puzzle::MemoHint::kTrial: Knuth files, tilings by a few shapes in many copies): each
// way is tried briefly (src/solve/plan.cpp, choose_by_trials). The counts never depend on the
// choice; these tests check which way each kind of puzzle goes and that JSON's search.chosen
// says why. The choices asserted rest on node and sub-problem counts, or on margins of a
// hundredfold and more in the times compared, so a loaded machine makes the same ones.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "cubex/core/memo.hpp"
#include "cubex/core/tree_estimate.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/solve.hpp"

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
  EXPECT_NE(chosen(r).find("under one in sixteen"), std::string::npos) << chosen(r);
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

// The 7-piece wooden cube as a Knuth file: one sub-problem in ten is met again, so the memo
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
