// Voxel puzzles end to end through the `cubex` program: solve, --json, verify, bad input.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "cubex/util/files.hpp"
#include "voxel_helpers.hpp"

namespace {

struct Result {
  int status;
  std::string output;  // stdout and stderr together
};

Result run(const std::string& args) {
  const std::string cmd = std::string(CUBEX_EXE) + " " + args + " 2>&1";
  Result r{-1, ""};
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

class VoxelCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("cubex_vxcli_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

}  // namespace

TEST_F(VoxelCli, SolveAllJsonThenVerifyAcceptsAndRejectsTampering) {
  const std::string puzzle = vxtest::shipped("wooden-cube-6.txt");
  const std::string out = path("w6.json");
  Result r = run("solve " + puzzle + " --all --quiet --symmetry none --json " + out);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("solutions: 96\n"), std::string::npos) << r.output;
  auto doc = nlohmann::json::parse(cubex::read_file(out));
  EXPECT_EQ(doc["counts"]["total"], 96);
  ASSERT_EQ(doc["solutions"].size(), 96u);
  const auto& p0 = doc["solutions"][0]["placements"][0];
  for (const char* key : {"piece", "copy", "rotation", "mirrored", "offset", "cells"}) {
    EXPECT_TRUE(p0.contains(key)) << key;
  }
  EXPECT_EQ(doc["solutions"][0]["placements"].size(), 6u);

  r = run("verify " + puzzle + " " + out + " --quiet");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("96 of 96 solutions valid"), std::string::npos) << r.output;

  // Solution 5: one cell of one placement moved onto another placement's cell.
  auto& cells = doc["solutions"][5]["placements"][2]["cells"];
  cells[0] = doc["solutions"][5]["placements"][3]["cells"][0];
  cubex::write_file_atomic(out, doc.dump());
  r = run("verify " + puzzle + " " + out + " --quiet");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("solutions[5]: placements[2]: its cells are not"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("95 of 96 solutions valid"), std::string::npos) << r.output;
}

TEST_F(VoxelCli, FirstPrintsTheDrawing) {
  Result r =
      run("solve " + vxtest::shipped("slothouber-graatsma.json") + " --first --symmetry none");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Solution 1:\nz=0  z=1  z=2\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Slothouber-Graatsma puzzle (voxel, 29 items, 63 options)"),
            std::string::npos);
}

TEST_F(VoxelCli, BadInputExits2WithThePathAndWritesNothing) {
  const std::string puzzle = path("bad.json");
  std::ofstream(puzzle)
      << R"({"container": {"box": [2,1,1]}, "pieces": [{"name": "d", "cells": [[0,0,0],[1,0,0]], "color": 1}]})";
  const std::string out = path("out.json");
  Result r = run("solve " + puzzle + " --all --json " + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output.rfind("cubex: " + puzzle + ": pieces[0].color: expected one of the keys", 0),
            0u)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(out));

  const std::string txt = path("bad.txt");
  std::ofstream(txt) << "0 0 0 1 0 0\n0 0 z\n";
  r = run("solve " + txt);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(
      r.output,
      "cubex: " + txt + ":2:5: expected a coordinate (an integer from -1000 to 1000), found 'z'\n");
}

// Spare pieces (a count range) left over by a solution are listed with it, as Happy Cube lists
// its spare plates: "Unused: ..." under the drawing and "unused" in --json, which verify checks.
// A 2x1x1 box from a domino [0, 1] and monominoes [0, 2]: the domino alone (both monominoes
// spare) or both monominoes (the domino spare).
TEST_F(VoxelCli, SparePiecesAreListedWithEachSolution) {
  const std::string puzzle = path("spare.json");
  std::ofstream(puzzle) << R"({"container": {"box": [2, 1, 1]}, "pieces": [
      {"name": "d", "cells": [[0,0,0],[1,0,0]], "count": [0, 1]},
      {"name": "m", "cells": [[0,0,0]], "count": [0, 2]}]})";
  const std::string out = path("spare_out.json");
  Result r = run("solve " + puzzle + " --all --symmetry none --json " + out);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("solutions: 2\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Unused: m, m.\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Unused: d.\n"), std::string::npos) << r.output;
  auto doc = nlohmann::json::parse(cubex::read_file(out));
  ASSERT_EQ(doc["solutions"].size(), 2u);
  std::multiset<std::vector<std::string>> lists;
  for (const auto& s : doc["solutions"]) {
    // The unused copies are the counts less the placed ones.
    std::map<std::string, int> left{{"d", 1}, {"m", 2}};
    for (const auto& p : s["placements"]) --left[p["piece"].get<std::string>()];
    std::vector<std::string> want;
    for (const auto& [name, n] : left) want.insert(want.end(), std::size_t(n), name);
    EXPECT_EQ(s["unused"].get<std::vector<std::string>>(), want) << s;
    lists.insert(want);
  }
  EXPECT_EQ(lists, (std::multiset<std::vector<std::string>>{{"d"}, {"m", "m"}}));
  r = run("verify " + puzzle + " " + out + " --quiet");
  EXPECT_EQ(r.status, 0) << r.output;
  doc["solutions"][0]["unused"] = nlohmann::json::array({"m"});
  cubex::write_file_atomic(out, doc.dump());
  r = run("verify " + puzzle + " " + out + " --quiet");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("solutions[0]: unused: not the pieces that the placements leave over"),
            std::string::npos)
      << r.output;
  // A puzzle without spare pieces has no list.
  r = run("solve " + vxtest::shipped("soma.json") + " --first --json " + out);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("Unused"), std::string::npos) << r.output;
  EXPECT_FALSE(nlohmann::json::parse(cubex::read_file(out))["solutions"][0].contains("unused"));
}
