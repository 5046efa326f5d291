// `cubex solve --symmetry none|rotations|auto` end to end: the published unique counts
// (KNOWN_COUNTS.md), the JSON counts, one listed solution per class whose class sizes add up to
// the total, and the listed solutions re-checked by `cubex verify`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.hpp"

using namespace cubex::test;

namespace {

nlohmann::json counts_of(const std::string& puzzle, const std::string& flags) {
  TempDir d;
  const std::string out = d / "out.json";
  RunResult r = run_cubex("solve '" + puzzle + "' " + flags + " --json '" + out + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  if (r.status != 0) return {};
  return nlohmann::json::parse(slurp(out))["counts"];
}

std::string voxel(const std::string& f) {
  return source_file("puzzles/voxel/" + f);
}
std::string happy(const std::string& f) {
  return source_file("puzzles/happycube/" + f);
}

}  // namespace

TEST(SymmetryCli, SomaInEveryMode) {
  RunResult r = run_cubex("solve '" + voxel("soma.json") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("solutions: 11,520\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("unique: 240 up to 48 symmetries (24 rotations, 24 reflections)"),
            std::string::npos)
      << r.output;

  auto c = counts_of(voxel("soma.json"), "--symmetry auto");
  EXPECT_EQ(c["total"], 11520);
  EXPECT_EQ(c["unique"], 240);
  EXPECT_EQ(c["group_order"], 48);
  EXPECT_EQ(c["symmetric"], 0);
  c = counts_of(voxel("soma.json"), "--symmetry rotations");
  EXPECT_EQ(c["total"], 11520);
  EXPECT_EQ(c["unique"], 480);
  EXPECT_EQ(c["group_order"], 24);
  c = counts_of(voxel("soma.json"), "--symmetry none");
  EXPECT_EQ(c["total"], 11520);
  EXPECT_EQ(c["unique"], 11520);
  EXPECT_EQ(c["group_order"], 1);
}

TEST(SymmetryCli, PublishedUniqueCounts) {
  struct Case {
    std::string file;
    int total, unique, group;
  };
  for (const Case& k :
       {Case{voxel("l-tricubes.json"), 5328, 111, 48},
        Case{voxel("pentominoes-6x10.json"), 9356, 2339, 8},
        Case{voxel("conway.json"), 27456, 572, 48}, Case{happy("HC_BQ_01.hcq"), 48, 1, 48},
        Case{happy("HC_BQ_02.hcq"), 48, 1, 48}, Case{happy("HC_BQ_03.hcq"), 48, 1, 48}}) {
    auto c = counts_of(k.file, "--count");
    EXPECT_EQ(c["total"], k.total) << k.file;
    EXPECT_EQ(c["unique"], k.unique) << k.file;
    EXPECT_EQ(c["group_order"], k.group) << k.file;
    EXPECT_EQ(c["symmetric"], 0) << k.file;
  }
  // Under rotations only a Happy Cube's mirror image is another solution.
  EXPECT_EQ(counts_of(happy("HC_BQ_01.hcq"), "--symmetry rotations")["unique"], 2);
}

TEST(SymmetryCli, AllListsOneSolutionPerClassAndVerifyAcceptsThem) {
  TempDir d;
  const std::string out = d / "l.json";
  RunResult r =
      run_cubex("solve '" + voxel("l-tricubes.json") + "' --all --quiet --json '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  auto j = nlohmann::json::parse(slurp(out));
  ASSERT_EQ(j["solutions"].size(), 111u);
  std::uint64_t sum = 0;
  for (const auto& s : j["solutions"]) sum += s["orbit_size"].get<std::uint64_t>();
  EXPECT_EQ(sum, 5328u);
  r = run_cubex("verify '" + voxel("l-tricubes.json") + "' '" + out + "' --quiet");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("111 of 111 solutions valid"), std::string::npos) << r.output;

  // With --symmetry none every solution is listed.
  r = run_cubex("solve '" + voxel("l-tricubes.json") + "' --all --quiet --symmetry none --json '" +
                out + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(nlohmann::json::parse(slurp(out))["solutions"].size(), 5328u);
}

TEST(SymmetryCli, FlatPuzzleSaysWhichSymmetryMovesNothing) {
  // Three dominoes in a 2x3 rectangle: 3 tilings; the three parallel ones, and the two with a
  // crossing domino (mirror images of each other, each symmetric about the long axis): 2 classes,
  // both symmetric. The mirror in the rectangle's own plane moves no cell.
  TempDir d;
  const std::string f = d.file("flat.json", R"({"container": {"box": [2, 3, 1]},
    "pieces": [{"name": "d", "cells": [[0,0,0],[1,0,0]], "count": 3}]})");
  RunResult r = run_cubex("solve '" + f + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("solutions: 3\nunique: 2 up to 8 symmetries (4 rotations, 4 "
                          "reflections); 2 of them symmetric\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("1 of the symmetries moves no cell"), std::string::npos) << r.output;
}

TEST(SymmetryCli, ExactCoverFilesHaveNoGeometry) {
  auto c = counts_of(xc_file("soma_sym.dlx"), "");
  EXPECT_EQ(c["total"], 480);
  EXPECT_EQ(c["unique"], 480);
  EXPECT_EQ(c["group_order"], 1);
}

TEST(SymmetryCli, BadModeIsAUsageError) {
  RunResult r = run_cubex("solve '" + voxel("soma.json") + "' --symmetry mirror");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("expected --symmetry none, rotations or auto, found 'mirror'"),
            std::string::npos)
      << r.output;
}

TEST(SymmetryCli, ThreadsShardsAndResumeKeepTheClassCounts) {
  // Conway's puzzle: 27,456 solutions in 572 classes (KNOWN_COUNTS.md), however it is split.
  const std::string puzzle = voxel("conway.json");
  for (const char* threads : {"2", "4"}) {
    auto c = counts_of(puzzle, std::string("--threads ") + threads);
    EXPECT_EQ(c["total"], 27456) << threads;
    EXPECT_EQ(c["unique"], 572) << threads;
  }
  TempDir d;
  std::string parts;
  for (int k = 0; k < 3; ++k) {
    const std::string out = d / ("s" + std::to_string(k) + ".json");
    RunResult r = run_cubex("solve '" + puzzle + "' --shard " + std::to_string(k) + "/3 --json '" +
                            out + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    parts += " '" + out + "'";
  }
  RunResult r = run_cubex("merge" + parts + " --json '" + (d / "m.json") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  auto m = nlohmann::json::parse(slurp(d / "m.json"))["counts"];
  EXPECT_EQ(m["total"], 27456);
  EXPECT_EQ(m["unique"], 572);
  EXPECT_EQ(m["group_order"], 48);

  // Interrupted (SIGINT after a moment), then resumed from the checkpoint.
  const std::string cp = d / "cp.json";
  r = run_cubex("solve '" + puzzle + "' --threads 2 --checkpoint '" + cp +
                "' & sleep 0.3; kill -INT $!; wait $!");
  r = run_cubex("solve '" + puzzle + "' --resume '" + cp + "' --json '" + (d / "r.json") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  auto c = nlohmann::json::parse(slurp(d / "r.json"))["counts"];
  EXPECT_EQ(c["total"], 27456);
  EXPECT_EQ(c["unique"], 572);
}
