// Issue 35, "Robust at the new edges": one-sided pieces and their mirror twins, faithful
// conversion, output paths, leftover temporaries, BurrTools limits, checkpoint counts and the
// small things. Counts are checked against an independent path (an enumeration of every
// solution sorted into classes by hand, or the total with --symmetry none).
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
#include "test_util.hpp"

using cubex::test::run_cubex;
using cubex::test::slurp;
using cubex::test::TempDir;
using nlohmann::json;

namespace {

std::string puzzle_path(const std::string& rel) {
  return std::string(CUBEX_SOURCE_DIR) + "/puzzles/" + rel;
}

// The one-sided pentominoes of puzzles/voxel/pentominoes-one-sided.json whose names `keep`
// accepts, in a box x by y.
json one_sided_pentominoes(int x, int y, bool chiral_only) {
  json doc = json::parse(slurp(puzzle_path("voxel/pentominoes-one-sided.json")));
  json pieces = json::array();
  const std::string chiral = "FLNPYZ";
  for (const json& p : doc["pieces"]) {
    const std::string name = p["name"].get<std::string>();
    if (!chiral_only || chiral.find(name[0]) != std::string::npos) pieces.push_back(p);
  }
  doc["pieces"] = pieces;
  doc["container"] = {{"box", {x, y, 1}}};
  doc["name"] = "one-sided pentominoes " + std::to_string(x) + "x" + std::to_string(y);
  return doc;
}

struct Counts {
  std::uint64_t total = 0, unique = 0, classes_by_hand = 0;
  std::size_t order = 0;
};

// The counts with the puzzle's own group (--symmetry auto), and independently: every solution
// listed (no symmetry), drawn as a grid of piece names, and sorted into classes under the
// rectangle's four symmetries in its plane, a mirror swapping each piece X with its twin X'.
Counts count_both_ways(const json& doc) {
  Counts out;
  auto puzzle = cubex::voxel::load_json(doc, "test.json");
  const cubex::CubeGroup group = puzzle->symmetry_group(cubex::SymmetryMode::kAuto);
  cubex::SymmetricSolver sym(puzzle->problem(), group.group);
  const cubex::SymmetryStats st = sym.count();
  out.total = st.total;
  out.unique = st.unique;
  out.order = st.group_order;

  const int w = doc["container"]["box"][0].get<int>(), h = doc["container"]["box"][1].get<int>();
  auto twin = [](std::string n) {
    if (n.size() == 2) return n.substr(0, 1);
    if (std::string("FLNPYZ").find(n[0]) != std::string::npos) return n + "'";
    return n;
  };
  std::set<std::vector<std::string>> classes;
  std::uint64_t listed = 0;
  cubex::Solver solver(puzzle->problem());
  solver.solve([&](std::span<const cubex::OptionId> s) {
    ++listed;
    std::vector<std::string> grid(std::size_t(w * h));
    const json sol = puzzle->solution_json(s);
    for (const json& pl : sol["placements"])
      for (const json& c : pl["cells"])
        grid[std::size_t(c[1].get<int>() * w + c[0].get<int>())] = pl["piece"].get<std::string>();
    std::vector<std::string> best;
    for (int t = 0; t < 4; ++t) {  // identity, turn by 180, mirror in x, mirror in y
      std::vector<std::string> img(grid.size());
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const int tx = (t == 1 || t == 2) ? w - 1 - x : x;
          const int ty = (t == 1 || t == 3) ? h - 1 - y : y;
          const std::string& n = grid[std::size_t(y * w + x)];
          img[std::size_t(ty * w + tx)] = t >= 2 ? twin(n) : n;
        }
      if (best.empty() || img < best) best = img;
    }
    classes.insert(best);
    return true;
  });
  EXPECT_EQ(listed, out.total);
  out.classes_by_hand = classes.size();
  return out;
}

}  // namespace

// ---- one-sided pieces: the mirror image of a solution is a solution with twins swapped ------

TEST(SymmetryOneSided, ChiralPentominoes15x4Give72And18) {
  const Counts c = count_both_ways(one_sided_pentominoes(15, 4, true));
  EXPECT_EQ(c.total, 72u);
  EXPECT_EQ(c.unique, 18u);
  EXPECT_EQ(c.classes_by_hand, 18u);
  EXPECT_EQ(c.order, 4u);  // two turns, two mirrors in the plane (each piece onto its twin)
}

TEST(SymmetryOneSided, EighteenPentominoes3x30Give184And46) {
  const Counts c = count_both_ways(one_sided_pentominoes(30, 3, false));
  EXPECT_EQ(c.total, 184u);
  EXPECT_EQ(c.unique, 46u);  // Knuth, "Dancing Links": 46 ways
  EXPECT_EQ(c.classes_by_hand, 46u);
}

TEST(SymmetryOneSided, TotalsWithoutSymmetryStayTheSame) {
  TempDir dir;
  const std::string f = dir.file("c.json", one_sided_pentominoes(15, 4, true).dump());
  const auto none = run_cubex("solve '" + f + "' --symmetry none");
  ASSERT_EQ(none.status, 0) << none.output;
  EXPECT_NE(none.output.find("solutions: 72\n"), std::string::npos) << none.output;
  const auto with = run_cubex("solve '" + f + "'");
  ASSERT_EQ(with.status, 0) << with.output;
  EXPECT_NE(with.output.find("solutions: 72\n"), std::string::npos) << with.output;
  EXPECT_NE(with.output.find("unique: 18 up to 4 symmetries"), std::string::npos) << with.output;
}

TEST(SymmetryOneSided, ChiralPieceWithoutTwinKeepsTurnsOnly) {
  // Five one-sided chiral pentominoes without their twins, 5x5: no mirror can be a symmetry.
  json doc = one_sided_pentominoes(5, 5, true);
  json pieces = json::array();
  for (const json& p : doc["pieces"])
    if (p["name"].get<std::string>().size() == 1) pieces.push_back(p);
  pieces.erase(pieces.begin() + 5, pieces.end());
  doc["pieces"] = pieces;
  auto puzzle = cubex::voxel::load_json(doc, "t.json");
  const cubex::CubeGroup g = puzzle->symmetry_group(cubex::SymmetryMode::kAuto);
  for (int k : g.symmetry) EXPECT_LT(k, 24) << "a reflection without the mirror pieces";
}

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
  for (const auto& e : std::filesystem::directory_iterator(puzzle_path("library"))) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    const json doc = json::parse(slurp(e.path().string()));
    const bool bench = doc.contains("expect") && doc["expect"].value("bench", false);
    round_trip(e.path().string(), !bench, false, n);
  }
  EXPECT_GE(n.converted, 100);
  EXPECT_GE(n.counted, 60);
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

// ---- outputs: never the input, checked before any work ----------------------------------------

TEST(Outputs, CompileAndConvertNeverReplaceTheirInput) {
  TempDir dir;
  const std::string s = dir.file("s.json", slurp(puzzle_path("voxel/soma.json")));
  const std::string original = slurp(s);
  std::filesystem::create_symlink(s, dir / "link.dlx");
  std::filesystem::create_hard_link(s, dir / "hard.dlx");
  std::filesystem::create_symlink(s, dir / "link.json");
  for (const std::string& args :
       {"compile '" + s + "' --dlx '" + s + "'",
        "compile '" + s + "' --dlx '" + (dir / "link.dlx") + "'",
        "compile '" + s + "' --dlx '" + (dir / "hard.dlx") + "'",
        "compile '" + s + "' --dlx '" + dir.path.string() + "/./s.json'",
        "convert '" + s + "' '" + s + "'", "convert '" + s + "' '" + (dir / "link.json") + "'"}) {
    SCOPED_TRACE(args);
    const auto r = run_cubex(args);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("names the input file"), std::string::npos) << r.output;
    EXPECT_EQ(slurp(s), original);
  }
  const auto r = run_cubex("compile '" + s + "' --dlx '" + (dir / "link.dlx") + "'");
  EXPECT_NE(r.output.find("(through a symbolic link)"), std::string::npos) << r.output;
}

TEST(Outputs, VerifyRenderAndStlCheckTheirOutputsFirst) {
  TempDir dir;
  const std::string soma = puzzle_path("voxel/soma.json");
  const std::string sols = dir.file(
      "sols.json", slurp(std::string(CUBEX_SOURCE_DIR) + "/tests/golden/soma_solutions.json"));
  const std::string original = slurp(sols);
  auto r = run_cubex("verify '" + soma + "' '" + sols + "' --json '" + sols + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--json " + sols + " names the input file"), std::string::npos)
      << r.output;
  EXPECT_EQ(slurp(sols), original);
  r = run_cubex("render '" + soma + "' --svg '" + (dir / "no/such/a.svg") + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("does not exist"), std::string::npos) << r.output;
  const std::string file = dir.file("afile", "x");
  r = run_cubex("render '" + soma + "' --stl '" + file + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--stl " + file + " is a file: expected a folder"), std::string::npos)
      << r.output;
  r = run_cubex("render '" + soma + "' --stl '" + (file + "/sub") + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(slurp(file), "x");
}

TEST(Outputs, OutputPathProblemNamesEachCase) {
  TempDir dir;
  const std::string in = dir.file("in.json", "{}");
  EXPECT_EQ(cubex::output_path_problem(dir / "out.json", {in}), "");
  EXPECT_EQ(cubex::output_path_problem("-", {in}), "");
  EXPECT_NE(cubex::output_path_problem(in, {in}).find("names the input file"), std::string::npos);
  EXPECT_NE(cubex::output_path_problem(dir.path.string(), {in}).find("Is a directory"),
            std::string::npos);
  EXPECT_NE(cubex::output_path_problem(dir / "x/y.json", {in}).find("does not exist"),
            std::string::npos);
  EXPECT_NE(cubex::output_path_problem(in + "/y.json", {in}).find("Not a directory"),
            std::string::npos);
  EXPECT_EQ(cubex::output_path_problem("/dev/null", {in}), "");
  EXPECT_EQ(cubex::output_path_problem("/dev/null", {"/dev/null"}), "");  // written in place
  // Two outputs of one run that do not exist yet (--json and --jsonl of solve).
  EXPECT_NE(cubex::output_path_problem(dir / "new.json", {dir.path.string() + "/./new.json"})
                .find("names the input file"),
            std::string::npos);
  EXPECT_EQ(cubex::output_path_problem(dir / "new.json", {dir / "other.json"}), "");
}

TEST(Outputs, LongOutputNamesFitTheirTemporary) {
  TempDir dir;
  const std::string name = std::string(241, 'n') + ".json";  // 246 characters
  const auto r =
      run_cubex("convert '" + puzzle_path("voxel/soma.json") + "' '" + (dir / name) + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir / name));
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) files += !e.is_directory();
  EXPECT_EQ(files, 1u);             // no temporary left
  cubex::AtomicFile f(dir / name);  // the streaming writer too
  f.write("{}");
  f.commit();
  EXPECT_EQ(slurp(dir / name), "{}");
}

// ---- leftover temporaries of a killed run ----------------------------------------------------

namespace {

// The pid of a process that has ended (a child, reaped).
pid_t dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

}  // namespace

TEST(Outputs, LeftoverTemporariesOfDeadWritersAreRemoved) {
  TempDir dir;
  const std::string dead = ".out.json.cubex-tmp." + std::to_string(dead_pid()) + ".aBc123";
  const std::string live = ".out.json.cubex-tmp." + std::to_string(::getppid()) + ".aBc123";
  const std::string other = ".other.json.cubex-tmp." + std::to_string(dead_pid()) + ".aBc123";
  const std::string not_ours = "out.json.tmp.aBc123";
  for (const std::string& n : {dead, live, other, not_ours}) dir.file(n, "partial");
  // The atomic writer (here through convert) removes the dead writer's temporary of its name.
  auto r =
      run_cubex("convert '" + puzzle_path("voxel/soma.json") + "' '" + (dir / "out.json") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / dead));
  EXPECT_TRUE(std::filesystem::exists(dir / live));      // its writer still runs
  EXPECT_TRUE(std::filesystem::exists(dir / other));     // another output's
  EXPECT_TRUE(std::filesystem::exists(dir / not_ours));  // not our pattern
  // The streaming writer (solve --json) does the same.
  dir.file(dead, "partial");
  {
    cubex::AtomicFile f(dir / "out.json");
    EXPECT_FALSE(std::filesystem::exists(dir / dead));
    f.write("{}");
    f.commit();
  }
  EXPECT_EQ(slurp(dir / "out.json"), "{}");
}

TEST(Outputs, TemporaryOfAKilledWriterIsRemovedByTheNextRun) {
  // A child process opens the streaming writer (its temporary has the child's pid and lock) and
  // is killed with SIGKILL: the temporary stays; the next writer of the same name removes it.
  TempDir dir;
  const std::string out = dir / "stream.json";
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    cubex::AtomicFile f(out);
    f.write(std::string(1 << 17, 'x'));
    const char c = 1;
    (void)!::write(ready[1], &c, 1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  std::size_t temps = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) temps += e.exists();
  EXPECT_EQ(temps, 1u);
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  temps = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) temps += e.exists();
  EXPECT_EQ(temps, 1u);  // left behind by SIGKILL
  cubex::write_file_atomic(out, "done\n");
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.path))
    names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"stream.json"});
}

// ---- BurrTools: memory bounds that hold before the work ---------------------------------------

namespace {

// `text` as one gzip member.
std::string gzip_member(const std::string& text) {
  return cubex::burrtools::gzip(text);
}

// A gzip file that inflates to `head` and then `megabytes` MiB of `fill` repeated, written as
// many members of 1 MiB each (the reader inflates multi-member streams), `tail` last: a file of
// a few MB that inflates to gigabytes.
void write_bomb(const std::string& path, const std::string& head, const std::string& fill,
                std::size_t megabytes, const std::string& tail) {
  std::string chunk;
  while (chunk.size() < (std::size_t(1) << 20)) chunk += fill;
  chunk.resize(std::size_t(1) << 20);
  const std::string member = gzip_member(chunk);
  std::ofstream out(path, std::ios::binary);
  out << gzip_member(head);
  for (std::size_t k = 0; k < megabytes; ++k) out << member;
  out << gzip_member(tail);
}

// AddressSanitizer and ThreadSanitizer reserve terabytes of address space for their shadow
// memory at start: a program built with them cannot run under RLIMIT_AS, and its resident memory
// is theirs as much as cubex's. Such builds check the refusals, not the memory (the Release
// build checks both).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

struct ChildRun {
  int status = -1;
  long peak_kb = 0;  // the child's peak resident memory (ru_maxrss)
  std::string output;
};

// Runs `cubex ARGS...` in a child process (no shell) whose address space is limited to
// `limit_mb` MB (RLIMIT_AS: running past it is an allocation failure, exit 1 "out of memory"),
// and measures its peak resident memory with wait4(). (Linux counts in ru_maxrss the memory the
// child had from this process before exec, so the peak is bounded by this test program's size
// too: the limit is the exact bound.) Not limited in a sanitizer build (kSanitized).
ChildRun run_measured(const std::vector<std::string>& args, const std::string& log,
                      std::size_t limit_mb) {
  ChildRun out;
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!kSanitized) {
      const struct rlimit lim { rlim_t(limit_mb) << 20, rlim_t(limit_mb) << 20 };
      ::setrlimit(RLIMIT_AS, &lim);
    }
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> argv;
    std::string exe = CUBEX_EXE;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  int st = 0;
  struct rusage ru {};
  ::wait4(pid, &st, 0, &ru);
  out.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  out.peak_kb = ru.ru_maxrss;
  out.output = slurp(log);
  return out;
}

const std::string kHead =
    "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n <gridType type=\"0\"/>\n";

}  // namespace

// The hostile files of issue 35, each refused with the limit named and a peak memory far below
// what inflating and parsing them took (2.1 GB, 1.8 GB, 4.0 GB, 3.1 GB of resident memory): here
// within an address space of 320 MB each, so a resident peak under that (the XML cap is 64 MiB;
// the rest is the compressed file, the growing buffer and the program).
TEST(BurrToolsLimits, HostileFilesAreRefusedBeforeMemoryIsSpent) {
  TempDir dir;
  struct Case {
    std::string name, fill;
    std::size_t megabytes;
    std::string tail, message;
  };
  const std::vector<Case> cases = {
      {"bomb2g.xmpuzzle", " ", 2048, "</puzzle>\n",
       "expected at most 64 MiB of XML after decompression, found more (raise the limit with "
       "--max-xml-bytes)"},
      {"bomb900m.xmpuzzle", "<!-- -->", 900, "</puzzle>\n", "expected at most 64 MiB of XML"},
      {"elements.xmpuzzle", "<a/>", 60, "</puzzle>\n",
       "expected at most 1000000 XML elements, found more (raise the limit with "
       "--max-xml-elements)"},
      {"attribute.xmpuzzle", "A", 60, "\"/></puzzle>\n",
       "expected an attribute value of at most 1 MiB, found 62914560 bytes"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string f = dir / c.name;
    write_bomb(f, c.name == "attribute.xmpuzzle" ? kHead + "<comment x=\"" : kHead, c.fill,
               c.megabytes, c.tail);
    const ChildRun r = run_measured({"convert", f, dir / "out.json"}, dir / "log", 320);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << r.output;
    if (!kSanitized) {
      EXPECT_LT(r.peak_kb, 320 * 1024) << "peak resident memory " << r.peak_kb << " KB";
    }
    std::printf("[          ] %s: peak %ld KB, %s", c.name.c_str(), r.peak_kb, r.output.c_str());
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "out.json"));
}

TEST(BurrToolsLimits, FlagsRaiseTheLimits) {
  TempDir dir;
  const std::string f = dir / "soma.xmpuzzle";
  ASSERT_EQ(run_cubex("convert '" + puzzle_path("voxel/soma.json") + "' '" + f + "'").status, 0);
  auto r = run_cubex("compile '" + f + "' --dlx '" + (dir / "a.dlx") + "' --max-xml-bytes 100");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("expected at most 100 bytes of XML"), std::string::npos) << r.output;
  r = run_cubex("compile '" + f + "' --dlx '" + (dir / "a.dlx") + "' --max-xml-elements 5");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("expected at most 5 XML elements"), std::string::npos) << r.output;
  r = run_cubex("compile '" + f + "' --dlx '" + (dir / "a.dlx") + "' --max-xml-bytes 0");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("expected --max-xml-bytes from 1"), std::string::npos) << r.output;
  r = run_cubex("compile '" + f + "' --dlx '" + (dir / "a.dlx") + "' --max-xml-elements 100");
  EXPECT_EQ(r.status, 0) << r.output;
  // The library's limits, set directly.
  cubex::LoadOptions few;
  few.limits.max_xml_attributes = 3;
  EXPECT_THROW(cubex::burrtools::read_xmpuzzle(f, few), cubex::InputError);
  EXPECT_NO_THROW(cubex::burrtools::read_xmpuzzle(f, {}));
}

TEST(BurrToolsLimits, PlainXmlOverTheLimitIsRefusedBeforeReading) {
  // A 2 GiB file (sparse: it takes no disk), refused by its size in a 100 MB address space.
  TempDir dir;
  const std::string f = dir / "big.xmpuzzle";
  {
    std::ofstream out(f, std::ios::binary);
    out << kHead;
  }
  std::filesystem::resize_file(f, std::uintmax_t(2) << 30);
  const ChildRun r = run_measured({"convert", f, dir / "out.json"}, dir / "log", 100);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("expected a BurrTools file of at most 64 MiB of XML, found a file of "
                          "2147483648 bytes (raise the limit with --max-xml-bytes)"),
            std::string::npos)
      << r.output;
}

TEST(BurrToolsLimits, TrailingDataIsReportedAtItsByte) {
  const std::string good = cubex::burrtools::gzip(kHead + "</puzzle>\n");
  try {
    cubex::burrtools::gunzip(good + "garbage after the stream", "t.xmpuzzle");
    FAIL() << "accepted";
  } catch (const cubex::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("expected nothing after the gzip stream, found 24 more "
                                         "bytes at byte " +
                                         std::to_string(good.size())),
              std::string::npos)
        << e.what();
  }
}

TEST(BurrToolsLimits, NoShapesSaysSo) {
  const std::string xml = kHead +
                          "<shapes/><problems><problem><shapes/><result id=\"0\"/></problem>"
                          "</problems></puzzle>";
  try {
    cubex::burrtools::parse_xmpuzzle(xml, "n.xmpuzzle", {});
    FAIL() << "accepted";
  } catch (const cubex::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the file has no shapes"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("-1"), std::string::npos) << e.what();
  }
}

// --problem: exact names first, then spaces around it ignored, "N" and "problem N" taken.
TEST(BurrToolsProblem, NamesAreTrimmedOrMatchedExactly) {
  TempDir dir;
  const std::string f = dir / "s.xmpuzzle";
  ASSERT_EQ(run_cubex("convert '" + puzzle_path("voxel/soma.json") + "' '" + f + "'").status, 0);
  const std::string xml = cubex::burrtools::gunzip(slurp(f), f);
  // Two problems: "Soma cube" and " 1" (a name that is also a number with a space).
  const std::size_t a = xml.find("  <problem "), b = xml.find("  </problem>") + 13;
  std::string second = xml.substr(a, b - a);
  second.replace(second.find("Soma cube"), 9, " 1");
  const std::string two = xml.substr(0, b) + second + xml.substr(b);
  auto chosen = [&](const std::string& want) {
    cubex::LoadOptions o;
    o.problem = want;
    return cubex::burrtools::parse_xmpuzzle(two, "two.xmpuzzle", o).chosen;
  };
  EXPECT_EQ(chosen(" 1"), 1u);  // the exact name wins
  EXPECT_EQ(chosen("1 "), 0u);  // trimmed: number 1
  EXPECT_EQ(chosen("1"), 0u);
  EXPECT_EQ(chosen("2"), 1u);
  EXPECT_EQ(chosen("problem 2"), 1u);
  EXPECT_EQ(chosen(" Soma cube "), 0u);
  for (const char* bad : {"3", "problem 3", "0", "x"}) {
    SCOPED_TRACE(bad);
    try {
      chosen(bad);
      FAIL() << "accepted";
    } catch (const cubex::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("give its number from 1 to 2"), std::string::npos)
          << e.what();
    }
  }
  for (std::string p : {" 1", "1 ", "problem 2", "problem 9"}) {
    const auto r =
        run_cubex("compile '" + f + "' --dlx '" + (dir / "x.dlx") + "' --problem '" + p + "'");
    EXPECT_TRUE(r.status == 0 || r.status == 2) << p << ": " << r.output;
  }
}

// ---- checkpoints: counts that cannot wrap, done and pending that add up ------------------------

namespace {

cubex::JobState sample_state() {
  cubex::JobState st;
  st.tree.fingerprint = "f";
  st.tree.items = 3;
  st.tree.options = 4;
  st.tree.order = "sorted";
  st.tree.rule = "mrv";
  st.tree.judge = "group of 2";
  st.tree.cut = 16;
  st.counts.total = 20;
  st.counts.unique = 10;
  st.counts.symmetric = 1;
  st.counts.solutions = 12;
  st.counts.nodes = 100;
  st.counts.updates = 1000;
  st.weight_total = 1;
  st.weight_done = 0.5;
  st.pending.push_back({{1}, {2}, false, 0.25});
  st.pending.push_back({{3}, {}, true, 0.25});
  return st;
}

// The checkpoint of `st` changed by `edit`, its checksum recomputed (as a forger would).
json forged(const cubex::JobState& st, const std::function<void(json&)>& edit) {
  cubex::CheckpointRun run{"p.json", "auto", "bitset", 2};
  json j = cubex::checkpoint_json(st, run);
  edit(j);
  json copy = j;
  copy.erase("checksum");
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : cubex::dump_json(copy)) h = (h ^ c) * 1099511628211ULL;
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, h);
  j["checksum"] = buf;
  return j;
}

std::string refusal(const json& j) {
  try {
    cubex::checkpoint_from_json(j, "c.json");
  } catch (const cubex::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(CheckpointCounts, ConsistentStateIsAccepted) {
  const json j = forged(sample_state(), [](json&) {});
  EXPECT_EQ(refusal(j), "");
  const cubex::JobState back = cubex::checkpoint_from_json(j, "c.json");
  EXPECT_EQ(back.counts.total, 20u);
  EXPECT_EQ(back.pending.size(), 2u);
}

TEST(CheckpointCounts, CountsThatWouldWrapAreRefused) {
  const std::uint64_t most = ~std::uint64_t(0);
  EXPECT_NE(refusal(forged(sample_state(), [&](json& j) { j["counts"]["total"] = most; }))
                .find("counts.total: expected a count below 2^63"),
            std::string::npos);
  EXPECT_NE(refusal(forged(sample_state(), [&](json& j) { j["counts"]["nodes"] = most; }))
                .find("counts.nodes"),
            std::string::npos);
  // Inconsistent counts: more classes than solutions met, a total beyond 2 per class.
  EXPECT_NE(refusal(forged(sample_state(), [](json& j) { j["counts"]["unique"] = 13u; }))
                .find("expected symmetric <= unique <= solutions"),
            std::string::npos);
  EXPECT_NE(refusal(forged(sample_state(), [](json& j) { j["counts"]["total"] = 21u; }))
                .find("unique <= total <= unique x 2"),
            std::string::npos);
  EXPECT_NE(refusal(forged(sample_state(), [](json& j) { j["counts"]["total"] = 9u; })), "");
}

TEST(CheckpointCounts, DroppedPendingSpanIsRefused) {
  const std::string why = refusal(forged(sample_state(), [](json& j) { j["pending"].erase(0); }));
  EXPECT_NE(why.find("a span is missing"), std::string::npos) << why;
  EXPECT_NE(refusal(forged(sample_state(), [](json& j) { j["progress"]["weight_done"] = 1.5; })),
            "");
}

// ---- the small things ---------------------------------------------------------------------------

TEST(SmallThings, StlGapAndUnitThatWouldDegenerateAreRefused) {
  TempDir dir;
  const std::string soma = puzzle_path("voxel/soma.json");
  for (std::string args : {"--gap 1e-30", "--unit 1e-300", "--gap 0.005", "--unit 0.05",
                           "--unit 1000 --gap 0.5", "--gap nan"}) {
    SCOPED_TRACE(args);
    const auto r = run_cubex("render '" + soma + "' --stl '" + (dir / "stl") + "' " + args);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("expected --"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "stl"));
  }
  const auto r =
      run_cubex("render '" + soma + "' --stl '" + (dir / "stl") + "' --unit 0.1 --gap 0.01");
  EXPECT_EQ(r.status, 0) << r.output;
}

TEST(SmallThings, ManyCongruentPiecesGiveAShortNote) {
  cubex::voxel::Model m;
  m.name = "many";
  for (int k = 0; k < 100000; ++k) {
    m.cells.push_back({k % 100, k / 100, 0});
    m.optional.push_back(0);
    m.pieces.push_back({"p" + std::to_string(k), {{0, 0, 0}}});
  }
  cubex::voxel::canonicalize(m);
  const std::vector<std::string> notes = cubex::voxel::merge_congruent(m);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_LT(notes[0].size(), 200u) << notes[0];
  EXPECT_EQ(notes[0],
            "pieces p0, p1, p2, p3, p4, p5, p6, p7, p8, p9 and 99,990 more are congruent: counted "
            "as identical");
  EXPECT_EQ(m.pieces.size(), 1u);
  EXPECT_EQ(m.pieces[0].count, 100000);
}
