// `cubex solve --disassemble` (issue 36): the counts and the JSON keys, --keep-locked, --sort
// level, --first, and the usage errors; on small voxel puzzles of the repository.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.hpp"

namespace {

using cubex::test::run_cubex;
using cubex::test::source_file;
using cubex::test::TempDir;
using nlohmann::json;

json solve_json(const std::string& args) {
  TempDir dir;
  const std::string out = dir / "out.json";
  const auto r = run_cubex("solve " + args + " --quiet --json '" + out + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  return json::parse(cubex::test::slurp(out));
}

const char* kTwoCubes = R"({"kind": "voxel", "container": {"box": [2, 1, 1]},
  "pieces": [{"name": "A", "cells": [[0, 0, 0]]}, {"name": "B", "cells": [[0, 0, 0]]}]})";

TEST(DisassemblyCli, TwoCubesComeApartInOneMove) {
  TempDir dir;
  const std::string f = dir.file("two.json", kTwoCubes);
  const json j = solve_json(f + " --all --disassemble");
  EXPECT_EQ(j["counts"]["unique"], 1);
  EXPECT_EQ(j["counts"]["disassemblable_unique"], 1);
  EXPECT_EQ(j["counts"]["disassemblable"], j["counts"]["total"]);
  ASSERT_EQ(j["solutions"].size(), 1u);
  const json& d = j["solutions"][0]["disassembly"];
  EXPECT_EQ(d["level"], json::array({1}));
  ASSERT_EQ(d["moves"].size(), 1u);
  EXPECT_EQ(d["moves"][0]["separates"], true);
  EXPECT_EQ(d["moves"][0]["pieces"].size(), 1u);
  EXPECT_EQ(j["disassembly"]["hardest"], json::array({1}));
  const auto text = run_cubex("solve '" + f + "' --disassemble");
  EXPECT_NE(text.output.find("come apart: 1 class"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("hardest: level 1\n"), std::string::npos) << text.output;
}

TEST(DisassemblyCli, SomaClassesAreCountedAndSortedByLevel) {
  const std::string soma = "'" + source_file("puzzles/voxel/soma.json") + "'";
  const json all = solve_json(soma + " --all --disassemble --keep-locked");
  const auto unique = all["counts"]["unique"].get<std::uint64_t>();
  const auto apart = all["counts"]["disassemblable_unique"].get<std::uint64_t>();
  EXPECT_EQ(unique, 240u);
  EXPECT_EQ(apart + all["disassembly"]["locked_unique"].get<std::uint64_t>(), unique);
  ASSERT_EQ(all["solutions"].size(), unique);  // --keep-locked: every class listed
  std::uint64_t listed_apart = 0, weight = 0;
  for (const json& s : all["solutions"]) {
    if (s["disassembly"].is_null()) continue;
    ++listed_apart;
    weight += s["orbit_size"].get<std::uint64_t>();
    // Each separation ends with a move that separates; the level's first number is the first
    // separation's moves.
    const json& moves = s["disassembly"]["moves"];
    ASSERT_FALSE(moves.empty());
    std::size_t first = 0;
    while (!moves[first]["separates"].get<bool>()) ++first;
    EXPECT_EQ(s["disassembly"]["level"][0].get<std::size_t>(), first + 1);
  }
  EXPECT_EQ(listed_apart, apart);
  EXPECT_EQ(all["counts"]["disassemblable"].get<std::uint64_t>(), weight);

  // Without --keep-locked only the classes that come apart; with --sort level the highest first.
  const json sorted = solve_json(soma + " --all --disassemble --sort level");
  ASSERT_EQ(sorted["solutions"].size(), apart);
  for (std::size_t k = 1; k < sorted["solutions"].size(); ++k) {
    const auto a = sorted["solutions"][k - 1]["disassembly"]["level"].get<std::vector<int>>();
    const auto b = sorted["solutions"][k]["disassembly"]["level"].get<std::vector<int>>();
    EXPECT_FALSE(std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end())) << k;
  }
  EXPECT_EQ(sorted["solutions"][0]["disassembly"]["level"], sorted["disassembly"]["hardest"]);
  // The levels' distribution adds up to the classes that come apart.
  std::uint64_t classes = 0;
  for (const json& l : sorted["disassembly"]["levels"]) classes += l["classes"].get<std::uint64_t>();
  EXPECT_EQ(classes, apart);

  // --first: one solution, and it comes apart.
  const json first = solve_json(soma + " --first --disassemble");
  ASSERT_EQ(first["solutions"].size(), 1u);
  EXPECT_FALSE(first["solutions"][0]["disassembly"].is_null());
}

TEST(DisassemblyCli, TheWoodenCubeComesApart) {
  const std::string f = "'" + source_file("puzzles/voxel/wooden-cube-6.txt") + "'";
  const json j = solve_json(f + " --disassemble");
  EXPECT_EQ(j["counts"]["unique"].get<std::uint64_t>(),
            j["counts"]["disassemblable_unique"].get<std::uint64_t>() +
                j["disassembly"]["locked_unique"].get<std::uint64_t>());
  EXPECT_EQ(j["disassembly"]["cut_unique"], 0);
}

TEST(DisassemblyCli, OptionsThatNeedDisassembleAreRefused) {
  const std::string soma = "'" + source_file("puzzles/voxel/soma.json") + "'";
  auto r = run_cubex("solve " + soma + " --keep-locked");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--disassemble"), std::string::npos) << r.output;
  r = run_cubex("solve " + soma + " --disassemble --sort pieces");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("expected --sort level"), std::string::npos) << r.output;
  r = run_cubex("solve " + soma + " --disassemble --all --expand");
  EXPECT_EQ(r.status, 2) << r.output;
}

}  // namespace
