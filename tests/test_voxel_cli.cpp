// Voxel puzzles end to end through the `cubex` program: solve, --json, verify, bad input.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

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
