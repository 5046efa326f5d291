// End to end: the `cubex` program as a user runs it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.hpp"

using cubex::test::run_cubex;
using cubex::test::slurp;
using cubex::test::source_file;
using cubex::test::TempDir;
using cubex::test::xc_file;

TEST(Cli, CountWritesJsonWithTotal) {
  TempDir d;
  auto r = run_cubex("solve '" + xc_file("pent6x10_sym.dlx") + "' --count --json '" +
                     d / "out.json" + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("solutions: 2,339"), std::string::npos) << r.output;
  auto j = nlohmann::json::parse(slurp(d / "out.json"));
  EXPECT_EQ(j["counts"]["total"], 2339);
  EXPECT_EQ(j["stats"]["complete"], true);
  EXPECT_GT(j["stats"]["nodes"].get<std::uint64_t>(), 0u);
}

TEST(Cli, AllListsVerifiableSolutionsAndVerifyCatchesTampering) {
  TempDir d;
  const std::string l9 = xc_file("l9.dlx");
  auto r = run_cubex("solve '" + l9 + "' --all --limit 20 --quiet --json '" + d / "s.json" + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  auto j = nlohmann::json::parse(slurp(d / "s.json"));
  ASSERT_EQ(j["solutions"].size(), 20u);
  EXPECT_EQ(j["counts"]["total"], 20);
  EXPECT_EQ(j["stats"]["complete"], false);
  const auto& opt0 = j["solutions"][0]["options"][0];
  EXPECT_TRUE(opt0["option"].is_number());
  EXPECT_EQ(opt0["items"].size(), 3u);

  r = run_cubex("verify '" + l9 + "' '" + d / "s.json" + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("20 of 20 solutions valid"), std::string::npos);

  // Swap one option for another: the cover is broken.
  auto bad = j;
  auto& o = bad["solutions"][3]["options"][0];
  o["option"] = o["option"].get<int>() == 0 ? 1 : 0;
  std::ofstream(d / "bad.json") << bad.dump();
  r = run_cubex("verify '" + l9 + "' '" + d / "bad.json" + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("solutions[3]"), std::string::npos) << r.output;

  // Drop one option: an item is left uncovered.
  bad = j;
  bad["solutions"][5]["options"].erase(0);
  std::ofstream(d / "bad2.json") << bad.dump();
  r = run_cubex("verify '" + l9 + "' '" + d / "bad2.json" + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("covered 0 times"), std::string::npos) << r.output;
}

TEST(Cli, FirstPrintsOneSolution) {
  auto r = run_cubex("solve '" + xc_file("soma.dlx") + "' --first");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Solution 1:"), std::string::npos);
  EXPECT_EQ(r.output.find("Solution 2:"), std::string::npos);
  EXPECT_NE(r.output.find("solutions: 1 (stopped at the first)"), std::string::npos) << r.output;
}

TEST(Cli, StoppedEarlyWithSymmetrySaysClassesNotSolutions) {
  // The Soma cube's 11,520 solutions fall into 240 classes of 48 (no solution is symmetric): the
  // first class found stands for 48 solutions, it is not 48 solutions found.
  const std::string soma = source_file("puzzles/voxel/soma.json");
  auto r = run_cubex("solve '" + soma + "' --first");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\nsolutions: 1 class of 48 (stopped at the first)\n"), std::string::npos)
      << r.output;
  r = run_cubex("solve '" + soma + "' --all --limit 3 --quiet");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(
      r.output.find("\nsolutions: 3 classes, 144 solutions in all (stopped at the limit of 3)\n"),
      std::string::npos)
      << r.output;
  r = run_cubex("solve '" + soma + "' --all --limit 3 --quiet --symmetry none");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\nsolutions: 3 (stopped at the limit of 3)\n"), std::string::npos)
      << r.output;
}

// Runs `cubex ARGS` with the environment `env` and interrupts it (SIGINT) after a second.
cubex::test::RunResult interrupted_run(const std::string& env, const std::string& args) {
  cubex::test::RunResult r;
  const std::string cmd = env + " timeout -s INT 1 '" + CUBEX_EXE + "' " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

TEST(Cli, InterruptWithoutCheckpointHintsHowToKeepTheWork) {
  // The hint comes after a minute; the hidden --hint-after SECONDS moves the minute for this test.
  TempDir d;
  // (Bedlam: about 10 CPU seconds, so that the run is still going when the signal comes.)
  const std::string y = "'" + source_file("puzzles/voxel/bedlam.json") + "' --symmetry none";
  const std::string hint = "; run with --checkpoint FILE to keep the work next time\n";
  auto r = interrupted_run("", "solve " + y + " --hint-after 0");
  EXPECT_NE(r.output.find("solutions: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(interrupted: counted so far)"), std::string::npos) << r.output;
  const std::size_t at = r.output.find("interrupted after 0:0");
  ASSERT_NE(at, std::string::npos) << r.output;
  EXPECT_EQ(r.output.compare(at + 22, hint.size(), hint), 0) << r.output;
  // Not with a checkpoint (the work is kept), and not before the minute.
  r = interrupted_run("", "solve " + y + " --hint-after 0.5 --checkpoint '" + (d / "c.json") + "'");
  EXPECT_NE(r.output.find("(interrupted: counted so far)"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("--checkpoint FILE"), std::string::npos) << r.output;
  r = interrupted_run("", "solve " + y);
  EXPECT_NE(r.output.find("(interrupted: counted so far)"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("--checkpoint FILE"), std::string::npos) << r.output;
}

TEST(Cli, BadInputExitsTwoAndLeavesExistingOutputAlone) {
  TempDir d;
  const std::string out = d.file("out.json", "{\"previous\": true}\n");
  const std::string bad = d.file("bad.dlx", "A B\nA C\n");
  auto r = run_cubex("solve '" + bad + "' --json '" + out + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("cubex: " + bad + ":2:3: expected an item named on the item line"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(slurp(out), "{\"previous\": true}\n");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(d.path), {}), 2);  // no temp left

  r = run_cubex("solve '" + d / "missing.dlx" + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("missing.dlx: cannot open file"), std::string::npos) << r.output;

  r = run_cubex("solve '" + d.file("p.unknown", "x") + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("expected a puzzle file ending in"), std::string::npos) << r.output;
}

TEST(Cli, UnwritableOutputIsAClearError) {
  auto r = run_cubex("solve '" + xc_file("l9.dlx") + "' --json /nonexistent-dir/out.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("cannot write /nonexistent-dir/out.json"), std::string::npos) << r.output;
}

TEST(Cli, UsageErrorsAndHelp) {
  auto r = run_cubex("solve --bogus x.dlx");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("Try 'cubex solve --help'"), std::string::npos) << r.output;
  EXPECT_EQ(run_cubex("solve x.dlx --count --all").status, 2);
  EXPECT_EQ(run_cubex("nonsense").status, 2);
  EXPECT_EQ(run_cubex("").status, 2);

  r = run_cubex("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("solve"), std::string::npos);
  r = run_cubex("solve --help");
  EXPECT_EQ(r.status, 0);
  for (const char* flag : {"--count", "--first", "--all", "--limit", "--json", "--threads"})
    EXPECT_NE(r.output.find(flag), std::string::npos) << flag;
}

TEST(Cli, ThreadsIsAccepted) {
  auto r = run_cubex("solve '" + xc_file("soma_sym.dlx") + "' --threads 2");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("solutions: 480"), std::string::npos);
}
