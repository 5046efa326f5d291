// The front door (cubex/cubex.hpp) and its solve layer: every client gets the same answer, the
// options come from one table, and that table is what the docs list.
#include <gtest/gtest.h>

#include <atomic>
#include <cubex/cubex.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "test_util.hpp"

namespace {

using cubex::test::run_cubex;
using cubex::test::slurp;
using cubex::test::source_file;

// The lines of `text` between the line holding `begin` and the line holding `end`.
std::string between(const std::string& text, const std::string& begin, const std::string& end) {
  const auto a = text.find(begin);
  const auto b = text.find(end);
  if (a == std::string::npos || b == std::string::npos || b < a) return "<markers missing>";
  const auto from = text.find('\n', a) + 1;
  const auto to = text.rfind('\n', b) + 1;
  return text.substr(from, to - from);
}

TEST(SolveLayer, CountsSomaThroughTheFrontDoor) {
  auto puzzle = cubex::load(source_file("puzzles/voxel/soma.json"));
  cubex::Options opt;
  opt.threads = 2;
  opt.symmetry = cubex::Symmetry::automatic;
  const cubex::Counts c = cubex::count(*puzzle, opt);
  EXPECT_EQ(c.total, 11520u);  // KNOWN_COUNTS.md
  EXPECT_EQ(c.unique, 240u);
  EXPECT_EQ(c.group_order, 48u);
  EXPECT_TRUE(c.complete);
  opt.symmetry = cubex::Symmetry::none;
  const cubex::Counts all = cubex::count(*puzzle, opt);
  EXPECT_EQ(all.total, 11520u);
  EXPECT_EQ(all.unique, 11520u);
  EXPECT_EQ(all.group_order, 1u);
}

TEST(SolveLayer, ListsClassesAndExpandsThem) {
  auto puzzle = cubex::load(source_file("puzzles/voxel/soma.json"));
  cubex::Options opt;
  opt.threads = 1;
  opt.limit = 2;
  std::vector<cubex::Count> orbits;
  const cubex::Result r = cubex::solve(*puzzle, opt, [&](const cubex::Solution& s) {
    EXPECT_TRUE(puzzle->verify_solution(puzzle->solution_json(s.options)).empty());
    orbits.push_back(s.orbit);
    return true;
  });
  ASSERT_EQ(orbits.size(), 2u);
  EXPECT_EQ(r.listed, 2u);
  EXPECT_EQ(r.counts.unique, 2u);
  EXPECT_FALSE(r.counts.complete);
  EXPECT_TRUE(r.limited);
  // --expand lists every solution of the class found: as many as its orbit says.
  opt.limit = 1;
  opt.expand = true;
  cubex::Count listed = 0, orbit = 0;
  cubex::solve(*puzzle, opt, [&](const cubex::Solution& s) {
    ++listed;
    orbit = s.orbit;
    EXPECT_EQ(s.class_index, 1u);
    return true;
  });
  EXPECT_EQ(listed, orbit);
  EXPECT_EQ(orbit, 48u);
}

TEST(SolveLayer, AnswersAnInfeasiblePuzzleWithItsReasonAndValidJson) {
  auto puzzle = cubex::load(source_file("puzzles/happycube/row4_three_sets.json"));
  cubex::Plan plan(*puzzle, {});
  const cubex::Result r = plan.run();
  EXPECT_EQ(r.method, "checks");
  EXPECT_NE(r.infeasible.find("bumps"), std::string::npos) << r.infeasible;
  EXPECT_EQ(r.counts.total, 0u);
  EXPECT_TRUE(r.counts.complete);
  const nlohmann::json j = cubex::result_json(plan, r, "count");
  for (const char* key : {"schema", "puzzle", "mode", "expand", "symmetry", "solutions", "counts",
                          "stats", "search", "infeasible"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["counts"]["total"], 0);
  EXPECT_EQ(j["search"]["backend"], "checks");
}

TEST(SolveLayer, CountsHappyCubeStructuresByMemoAsTheCliDoes) {
  auto puzzle = cubex::load(source_file("puzzles/happycube/rubens_box_2x1x1_count.json"));
  cubex::Options opt;
  const cubex::Result memo = cubex::solve(*puzzle, opt);
  EXPECT_EQ(memo.method, "memo");
  opt.count_by = cubex::CountBy::search;
  const cubex::Result search = cubex::solve(*puzzle, opt);
  EXPECT_EQ(search.method, "search");
  EXPECT_EQ(memo.counts, search.counts);
  EXPECT_GT(memo.counts.total, 0u);
}

TEST(SolveLayer, RefusesMemoWhereItCannotCount) {
  auto puzzle = cubex::load(source_file("puzzles/voxel/soma.json"));
  cubex::Options opt;
  opt.count_by = cubex::CountBy::memo;
  opt.limit = 3;
  try {
    cubex::solve(*puzzle, opt);
    FAIL() << "expected a usage error";
  } catch (const cubex::Error& e) {
    EXPECT_EQ(e.kind(), cubex::Error::Kind::usage);
    EXPECT_NE(std::string(e.what()).find("--count-by memo"), std::string::npos) << e.what();
  }
}

TEST(SolveLayer, ErrorsHaveOneTypeWithAKindAndAPlace) {
  try {
    cubex::load("no/such/file.json");
    FAIL() << "expected an error";
  } catch (const cubex::Error& e) {
    EXPECT_EQ(e.kind(), cubex::Error::Kind::input);
    EXPECT_EQ(e.file(), "no/such/file.json");
  }
  cubex::Options o;
  try {
    cubex::set_option(o, "threads", "many");
    FAIL() << "expected a usage error";
  } catch (const cubex::Error& e) {
    EXPECT_EQ(e.kind(), cubex::Error::Kind::usage);
    EXPECT_NE(std::string(e.what()).find("--threads"), std::string::npos);
  }
  const cubex::test::TempDir dir;
  const std::string bad =
      dir.file("bad.json", R"({"pieces": [{"name": "A", "cells": [[0,0,0]]}], "box": [1, 1, "x"]})");
  try {
    cubex::load(bad);
    FAIL() << "expected an input error";
  } catch (const cubex::Error& e) {
    EXPECT_EQ(e.kind(), cubex::Error::Kind::input);
    EXPECT_FALSE(e.json_path().empty()) << e.what();
  }
}

TEST(SolveLayer, StopFlagEndsASearchWithTheCountsSoFar) {
  auto puzzle = cubex::load(source_file("puzzles/dlx/pent6x10.dlx"));
  std::atomic<bool> stop{true};  // set before the start: the search ends at once
  cubex::Options opt;
  opt.stop = &stop;
  const cubex::Result r = cubex::solve(*puzzle, opt);
  EXPECT_TRUE(r.interrupted);
  EXPECT_FALSE(r.counts.complete);
}

TEST(OptionsTable, EveryRowReadsBackWhatItStores) {
  for (const cubex::OptionRow& row : cubex::option_table()) {
    cubex::Options o;
    const std::string before = row.get(o);
    if (!row.value) {
      row.set(o, "yes");
      EXPECT_EQ(row.get(o), "yes") << row.name;
      continue;
    }
    if (before.empty()) continue;  // a file name: nothing to read back by default
    row.set(o, before);
    EXPECT_EQ(row.get(o), before) << row.name;
  }
  cubex::Options o;
  cubex::set_option(o, "checkpoint_every", "30");  // Python's spelling
  EXPECT_EQ(o.checkpoint_every, 30);
  cubex::set_option(o, "shard", "2/5");
  EXPECT_EQ(o.shard_index, 2u);
  EXPECT_EQ(o.shard_count, 5u);
  EXPECT_THROW(cubex::set_option(o, "shard", "5/5"), cubex::UsageError);
  EXPECT_THROW(cubex::set_option(o, "no-such-option", "1"), cubex::UsageError);
}

TEST(OptionsTable, TheCliOffersEveryRow) {
  const auto r = run_cubex("solve --help");
  ASSERT_EQ(r.status, 0);
  for (const cubex::OptionRow& row : cubex::option_table())
    EXPECT_NE(r.output.find(std::string("--") + row.name), std::string::npos) << row.name;
}

TEST(OptionsTable, TheDocsListTheTable) {
  const std::string hint = " (run tools/update_docs.sh)";
  EXPECT_EQ(between(slurp(source_file("docs/cli.md")), "BEGIN options table", "END options table"),
            cubex::option_table_markdown())
      << "docs/cli.md" << hint;
  EXPECT_EQ(between(slurp(source_file("docs/cubex.1")), "BEGIN options table", "END options table"),
            cubex::option_table_roff())
      << "docs/cubex.1" << hint;
  EXPECT_EQ(run_cubex("options --markdown").output, cubex::option_table_markdown());
}

TEST(SolveCli, RefusedBeforeTheSearchStillWritesJsonToStandardOutput) {
  // (stderr, where the summary goes, is dropped: stdout must be the JSON alone)
  const auto r = cubex::test::run_shell(std::string("('") + CUBEX_EXE + "' solve '" +
                                        source_file("puzzles/happycube/row4_three_sets.json") +
                                        "' --json - 2>/dev/null)");
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["schema"], "cubex-solve/1");
  EXPECT_EQ(j["counts"]["total"], 0);
  EXPECT_TRUE(j.contains("symmetry"));
  EXPECT_TRUE(j.contains("search"));
}

}  // namespace
