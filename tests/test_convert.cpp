// `cubex convert` is faithful: it refuses what the target format cannot say (one-sided pieces
// and distinct congruent pieces in BurrTools files, far-apart cells) and never changes a count;
// every shipped and library puzzle keeps its counts through a round trip.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cinttypes>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cubex/burrtools/xmpuzzle.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/limits.hpp"
#include "cubex/output/checkpoint.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"
#include "cubex/voxel/model.hpp"
#include "cubex/voxel/read.hpp"
#include "cubex/voxel/write.hpp"
#include "sanitized.hpp"
#include "test_util.hpp"
using cubex::test::run_cubex;
using cubex::test::slurp;
using cubex::test::TempDir;
using nlohmann::json;

namespace {

std::string puzzle_path(const std::string& rel) {
  return std::string(CUBEX_SOURCE_DIR) + "/puzzles/" + rel;
}

}  // namespace

// ---- faithful conversion: refuse what the target format cannot say, never change a count ----

namespace {

// The "solutions: ..." and "unique: ..." lines of `cubex solve FILE` (no timings).
std::string counts_of(const std::string& file) {
  const auto r = run_cubex("solve '" + file + "'");
  EXPECT_EQ(r.status, 0) << file << ": " << r.output;
  std::string out;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("solutions:", 0) == 0 || line.rfind("unique:", 0) == 0) out += line + "\n";
  EXPECT_FALSE(out.empty()) << r.output;
  return out;
}

json distinct_box() {
  json doc = json::parse(slurp(puzzle_path("voxel/congruent-box.json")));
  for (json& p : doc["pieces"]) p["distinct"] = true;
  return doc;
}

}  // namespace

TEST(Conversion, OneSidedPiecesAreRefusedByBurrToolsAndKeptInJson) {
  TempDir dir;
  const std::string in = puzzle_path("voxel/tetrominoes-one-sided-4x6.json");
  auto r = run_cubex("convert '" + in + "' '" + (dir / "t.xmpuzzle") + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("cannot write \"turn_over\": false"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the count would change"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "t.xmpuzzle"));
  r = run_cubex("convert '" + in + "' '" + (dir / "t.json") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(counts_of(dir / "t.json"), counts_of(in));
  EXPECT_NE(counts_of(dir / "t.json").find("solutions: 2\n"), std::string::npos);
}

TEST(Conversion, OneSidedPiecesThatAreTheirOwnMirrorImageConvert) {
  // I, O and T: one-sided or not, the same placements; BurrTools can say that.
  TempDir dir;
  json doc = json::parse(slurp(puzzle_path("voxel/tetrominoes-one-sided-4x6.json")));
  json pieces = json::array();
  for (const json& p : doc["pieces"])
    if (std::string("IO").find(p["name"].get<std::string>()) != std::string::npos)
      pieces.push_back(p);
  for (json& p : pieces)
    if (p["name"] == "O") p["count"] = 2;  // I and two O: 12 cells, a 4x3 box
  doc["pieces"] = pieces;
  doc["container"] = {{"box", {4, 3, 1}}};
  const std::string in = dir.file("io.json", doc.dump());
  const auto r = run_cubex("convert '" + in + "' '" + (dir / "io.xmpuzzle") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(counts_of(dir / "io.xmpuzzle"), counts_of(in));
}

TEST(Conversion, DistinctCongruentPiecesAreRefusedByBurrToolsAndKeptInJson) {
  TempDir dir;
  const std::string in = dir.file("distinct.json", distinct_box().dump());
  auto r = run_cubex("convert '" + in + "' '" + (dir / "d.xmpuzzle") + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("cannot write \"distinct\": true: pieces 'a' and 'b' are congruent"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "d.xmpuzzle"));
  r = run_cubex("convert '" + in + "' '" + (dir / "d.json") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(counts_of(dir / "d.json").find("solutions: 322,560\n"), std::string::npos);
  EXPECT_EQ(counts_of(dir / "d.json"), counts_of(in));
}

namespace {

struct RoundTrips {
  int converted = 0, counted = 0, refused = 0, other = 0;
};

// Converts `f` to .xmpuzzle and back to JSON, and straight to JSON; with `count`, checks that
// the counts (solutions and unique) are the same each way (`full`: also of the file read back
// from .xmpuzzle). What cannot convert must say why (exit 2) and write nothing.
void round_trip(const std::string& f, bool count, bool full, RoundTrips& n) {
  SCOPED_TRACE(f);
  TempDir dir;
  const auto x = run_cubex("convert '" + f + "' '" + (dir / "x.xmpuzzle") + "'");
  const auto j = run_cubex("convert '" + f + "' '" + (dir / "j.json") + "'");
  if (j.status != 0) {  // not a voxel puzzle (Knuth's format, Happy Cube)
    EXPECT_EQ(j.status, 2) << j.output;
    EXPECT_EQ(x.status, 2) << x.output;
    EXPECT_NE(j.output.find("expected a voxel puzzle"), std::string::npos) << j.output;
    ++n.other;
    return;
  }
  if (x.status != 0) {
    EXPECT_EQ(x.status, 2) << x.output;
    EXPECT_NE(x.output.find("cannot write"), std::string::npos) << x.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "x.xmpuzzle"));
    ++n.refused;
  } else {
    const auto back =
        run_cubex("convert '" + (dir / "x.xmpuzzle") + "' '" + (dir / "b.json") + "'");
    ASSERT_EQ(back.status, 0) << back.output;
    ++n.converted;
  }
  if (!count) return;
  const std::string before = counts_of(f);
  EXPECT_EQ(counts_of(dir / "j.json"), before);
  if (x.status == 0) {
    EXPECT_EQ(counts_of(dir / "x.xmpuzzle"), before);
    if (full) {
      EXPECT_EQ(counts_of(dir / "b.json"), before);
    }
  }
  ++n.counted;
}

}  // namespace

// The example puzzles (puzzles/voxel, puzzles/dlx, puzzles/happycube): every one that is a
// voxel puzzle converts with the same counts, or is refused for .xmpuzzle with the reason.
TEST(Conversion, RoundTripOfEveryShippedPuzzleKeepsTheCounts) {
  // Counting these takes seconds each (bedlam: 4 s a count; the 18 one-sided pentominoes in
  // 6x15: minutes): they are converted and checked, but not counted.
  const std::set<std::string> slow = {"bedlam.json", "pentominoes-one-sided.json"};
  RoundTrips n;
  for (const char* folder : {"voxel", "dlx", "happycube"}) {
    for (const auto& e : std::filesystem::directory_iterator(puzzle_path(folder))) {
      if (!e.is_regular_file()) continue;
      round_trip(e.path().string(), !slow.count(e.path().filename().string()), true, n);
    }
  }
  EXPECT_GE(n.converted, 10);
  EXPECT_GE(n.counted, 12);
  EXPECT_EQ(n.refused, 3);  // the three one-sided puzzles
  EXPECT_GE(n.other, 20);   // Knuth's format and Happy Cube
}

// The puzzle library (puzzles/library): every entry converts; the entries that are not marked
// "bench" (slow) keep their counts through .xmpuzzle and JSON. (puzzles/sets holds piece sets,
// not puzzles.)
TEST(Conversion, RoundTripOfEveryLibraryPuzzleKeepsTheCounts) {
  RoundTrips n;
  int entry = 0;
  for (const auto& e : std::filesystem::directory_iterator(puzzle_path("library"))) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    const json doc = json::parse(slurp(e.path().string()));
    const bool bench = doc.contains("expect") && doc["expect"].value("bench", false);
    if (cubex::test::kSanitized && entry++ % 4 != 0) continue;  // (a quarter: sanitized.hpp)
    round_trip(e.path().string(), !bench, false, n);
  }
  EXPECT_GE(n.converted, cubex::test::scaled(100, 25));
  EXPECT_GE(n.counted, cubex::test::scaled(60, 15));
}

TEST(Conversion, JsonKeepsTurnOverAndDistinct) {
  cubex::voxel::Model m = cubex::voxel::model_from_json(distinct_box(), "d.json");
  m.pieces[0].turn_over = true;
  const json out = cubex::voxel::to_json(m);
  EXPECT_EQ(out["pieces"][1]["distinct"], true);
  const cubex::voxel::Model back = cubex::voxel::model_from_json(out, "back.json");
  ASSERT_EQ(back.pieces.size(), m.pieces.size());
  for (std::size_t k = 0; k < m.pieces.size(); ++k) EXPECT_TRUE(back.pieces[k].distinct);
  const json one = cubex::voxel::to_json(cubex::voxel::model_from_json(
      json::parse(slurp(puzzle_path("voxel/tetrominoes-one-sided-4x6.json"))), "t.json"));
  EXPECT_EQ(one["turn_over"], false);
}

TEST(Conversion, FarApartCellsNameTheLimit) {
  TempDir dir;
  const std::string in = dir.file(
      "far.json",
      R"({"container": {"box": [2,1,1]}, "pieces": [{"name": "a", "cells": [[-1000,-1000,-1000],[1000,1000,1000]]}]})");
  const auto r = run_cubex("convert '" + in + "' '" + (dir / "far.xmpuzzle") + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("cannot write piece 'a'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2001x2001x2001 cells, and the limit is 1000 a side"), std::string::npos)
      << r.output;
}

TEST(Conversion, ControlCharactersInNames) {
  TempDir dir;
  json doc = json::parse(slurp(puzzle_path("voxel/soma.json")));
  doc["name"] = "tab\there, line\nthere";
  const std::string ok = dir.file("ok.json", doc.dump());
  auto r = run_cubex("convert '" + ok + "' '" + (dir / "ok.xmpuzzle") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const cubex::voxel::Model back =
      cubex::burrtools::load_xmpuzzle_model(dir / "ok.xmpuzzle", cubex::LoadOptions{});
  EXPECT_EQ(back.name, "tab\there, line\nthere");
  doc["pieces"][0]["name"] = "bell\x07";
  const std::string bad = dir.file("bad.json", doc.dump());
  r = run_cubex("convert '" + bad + "' '" + (dir / "bad.xmpuzzle") + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("the control character U+0007"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.xmpuzzle"));
}
