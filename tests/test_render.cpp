// Pictures: colours, terminal drawings, `cubex render` SVG (golden files, XML structure, exact
// hidden-face removal), the HTML viewer (self-contained; driven in headless Chromium).
//
// CUBEX_UPDATE_GOLDEN=1 ./build/cubex_tests --gtest_filter='RenderSvg.Golden*' rewrites the
// golden pictures in tests/golden/ (look at them before committing).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "cubex/core/solver.hpp"
#include "cubex/happycube/model.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/puzzle/colour.hpp"
#include "test_util.hpp"

namespace {

using cubex::Vec3;
using cubex::test::run_cubex;
using cubex::test::slurp;
using cubex::test::source_file;
using cubex::test::TempDir;
using nlohmann::json;

bool have(const std::string& program) {
  return std::system(("command -v " + program + " >/dev/null 2>&1").c_str()) == 0;
}

// The structure of an SVG as tests/render/check_svg.py (Python's XML parser) sees it.
json svg_structure(const std::string& svg_path) {
  const std::string cmd =
      "python3 '" + source_file("tests/render/check_svg.py") + "' '" + svg_path + "' 2>&1";
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = ::pclose(p);
  EXPECT_EQ(st, 0) << out;
  return json::parse(out, nullptr, false);
}

// The piece names of a solution as the pictures name them ("B#1" for copy 1 of a repeated piece).
std::vector<std::string> names_of(const json& solution, const std::set<std::string>& repeated) {
  std::vector<std::string> names;
  for (const json& pl : solution["placements"]) {
    std::string name = pl["piece"];
    if (repeated.count(name)) name += "#" + std::to_string(pl["copy"].get<int>());
    names.push_back(name);
  }
  return names;
}

bool touching(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  for (const Vec3& p : a)
    for (const Vec3& q : b)
      if (std::abs(p.x - q.x) + std::abs(p.y - q.y) + std::abs(p.z - q.z) == 1) return true;
  return false;
}

// Random pieces: a box cut into connected regions grown from random seeds.
std::vector<std::vector<Vec3>> random_pieces(std::mt19937& rng, int nx, int ny, int nz, int count) {
  std::map<Vec3, int> owner;
  std::vector<std::vector<Vec3>> pieces(static_cast<std::size_t>(count));
  std::vector<Vec3> cells;
  for (int x = 0; x < nx; ++x)
    for (int y = 0; y < ny; ++y)
      for (int z = 0; z < nz; ++z) cells.push_back({x, y, z});
  std::shuffle(cells.begin(), cells.end(), rng);
  for (int p = 0; p < count; ++p) {
    owner[cells[std::size_t(p)]] = p;
    pieces[std::size_t(p)].push_back(cells[std::size_t(p)]);
  }
  const Vec3 steps[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (bool grew = true; grew;) {
    grew = false;
    for (const Vec3& c : cells) {
      if (owner.count(c)) continue;
      for (const Vec3& d : steps) {
        auto it = owner.find(c + d);
        if (it == owner.end()) continue;
        owner[c] = it->second;
        pieces[std::size_t(it->second)].push_back(c);
        grew = true;
        break;
      }
    }
  }
  return pieces;
}

TEST(RenderColour, TouchingPiecesNeverShareAColourAndFewPiecesAllDiffer) {
  std::mt19937 rng(8);
  for (int round = 0; round < 60; ++round) {
    const int count = 2 + int(rng() % 40);  // up to 41 pieces: past the 20 colours
    const auto pieces = random_pieces(rng, 4, 4, 3, count);
    const std::vector<int> colour = cubex::render::assign_colours(pieces);
    ASSERT_EQ(colour.size(), pieces.size());
    const int k = int(cubex::render::palette().size());
    for (std::size_t a = 0; a < pieces.size(); ++a) {
      ASSERT_GE(colour[a], 0);
      ASSERT_LT(colour[a], k);
      if (count <= k) {
        EXPECT_LT(colour[a], count) << "n pieces take the first n colours";
      }
      for (std::size_t b = a + 1; b < pieces.size(); ++b) {
        if (count <= k || touching(pieces[a], pieces[b])) {
          EXPECT_NE(colour[a], colour[b]) << "round " << round << ", pieces " << a << ", " << b;
        }
      }
    }
  }
  // 64 unit cubes, each its own piece: every one has up to 6 neighbours, colours are reused.
  std::vector<std::vector<Vec3>> cubes;
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y)
      for (int z = 0; z < 4; ++z) cubes.push_back({{x, y, z}});
  const std::vector<int> colour = cubex::render::assign_colours(cubes);
  for (std::size_t a = 0; a < cubes.size(); ++a)
    for (std::size_t b = 0; b < cubes.size(); ++b)
      if (touching(cubes[a], cubes[b])) {
        EXPECT_NE(colour[a], colour[b]);
      }
}

// Removes ANSI escapes (ESC [ ... m).
std::string strip_ansi(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b') {
      i = s.find('m', i);
      continue;
    }
    out += s[i];
  }
  return out;
}

TEST(RenderTerminal, ColouredDrawingIsThePlainOneWithOneColourPerPiece) {
  for (const char* file : {"puzzles/voxel/soma.json", "puzzles/voxel/wooden-cube-6.txt",
                           "puzzles/happycube/HC_BQ_03.hcq"}) {
    SCOPED_TRACE(file);
    const auto puzzle = cubex::load_puzzle(source_file(file));
    cubex::Solver solver(puzzle->problem());
    const auto sol = solver.first();
    ASSERT_TRUE(sol);
    const std::string plain = puzzle->solution_text(*sol);
    const std::string coloured = puzzle->coloured_solution_text(*sol);
    EXPECT_EQ(plain.find('\x1b'), std::string::npos);
    EXPECT_NE(coloured.find('\x1b'), std::string::npos);
    EXPECT_EQ(strip_ansi(coloured), plain);
    // Every coloured letter: ESC[48;5;Nm ESC[..m LETTER ESC[0m; one colour per letter, and the
    // letters of different pieces in different colours (at most 20 pieces here).
    std::map<char, std::string> colour_of;
    std::size_t pos = 0, painted = 0;
    while ((pos = coloured.find("\x1b[48;5;", pos)) != std::string::npos) {
      const std::size_t fg = coloured.find('m', pos) + 1;
      const std::size_t letter = coloured.find('m', fg) + 1;
      const std::string esc = coloured.substr(pos, fg - pos);
      const auto [it, fresh] = colour_of.emplace(coloured[letter], esc);
      EXPECT_EQ(it->second, esc) << "letter " << coloured[letter] << " in two colours";
      EXPECT_EQ(coloured.compare(letter + 1, 4, "\x1b[0m"), 0);
      ++painted;
      pos = letter;
    }
    EXPECT_GT(painted, 0u);
    std::set<std::string> distinct;
    for (const auto& [letter, esc] : colour_of) distinct.insert(esc);
    EXPECT_EQ(distinct.size(), colour_of.size());
  }
  // Not a terminal (a pipe): no escapes from `cubex solve`.
  const auto r = run_cubex("solve '" + source_file("puzzles/voxel/soma.json") + "' --first");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos);
}

struct Golden {
  const char* puzzle;
  const char* solutions;  // tests/golden/..., written by `cubex solve --first --json`
  const char* svg;
  std::vector<std::string> views;
};

const std::vector<Golden>& goldens() {
  static const std::vector<Golden> all = {
      {"puzzles/voxel/soma.json",
       "soma_solutions.json",
       "soma_1.svg",
       {"assembled", "turned-over", "pieces"}},
      {"puzzles/happycube/HC_BQ_03.hcq",
       "hc_bq_03_solutions.json",
       "hc_bq_03_1.svg",
       {"net", "assembled", "turned-over"}},
      {"puzzles/voxel/pentominoes-6x10.json",
       "pentominoes_solutions.json",
       "pentominoes_1.svg",
       {"flat"}},
  };
  return all;
}

TEST(RenderSvg, GoldenPicturesAreStable) {
  TempDir tmp;
  const bool update = std::getenv("CUBEX_UPDATE_GOLDEN") != nullptr;
  for (const Golden& g : goldens()) {
    SCOPED_TRACE(g.svg);
    const std::string out = tmp / g.svg;
    const auto r = run_cubex("render '" + source_file(g.puzzle) + "' --from '" +
                             source_file(std::string("tests/golden/") + g.solutions) + "' --svg '" +
                             out + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(r.output, "wrote " + out + ": solution 1 of 1\n");
    const std::string golden = source_file(std::string("tests/golden/") + g.svg);
    if (update)
      std::filesystem::copy_file(out, golden, std::filesystem::copy_options::overwrite_existing);
    EXPECT_EQ(slurp(out), slurp(golden)) << "the picture changed; see the header of this file";
  }
}

TEST(RenderSvg, ValidXmlWithOneGroupPerPieceInEveryView) {
  if (!have("python3")) GTEST_SKIP() << "python3 is not installed";
  for (const Golden& g : goldens()) {
    SCOPED_TRACE(g.svg);
    const json sols = json::parse(slurp(source_file(std::string("tests/golden/") + g.solutions)));
    const json s = svg_structure(source_file(std::string("tests/golden/") + g.svg));
    ASSERT_TRUE(s.is_object());
    std::vector<std::string> expected = names_of(sols["solutions"][0], {});
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(s["views"].size(), g.views.size());
    for (const std::string& v : g.views) {
      SCOPED_TRACE(v);
      ASSERT_TRUE(s["views"].contains(v));
      std::vector<std::string> names;
      for (const json& p : s["views"][v]) names.push_back(p["name"]);
      std::sort(names.begin(), names.end());
      EXPECT_EQ(names, expected);  // one group per piece, no piece twice, none missing
    }
    std::vector<std::string> legend = s["legend"];
    std::sort(legend.begin(), legend.end());
    EXPECT_EQ(legend, expected);
    // Piece boundaries at least 3 times as heavy as the seams between cells of one piece, and
    // the turned-over view as large as the assembled one.
    for (const std::string& v : g.views) {
      if (v == "pieces") continue;
      const json& l = s["lines"][v];
      EXPECT_GE(l["boundary"].get<double>(), 3 * l["seam"].get<double>()) << v;
    }
    if (s["lines"].contains("turned-over")) {
      EXPECT_EQ(s["lines"]["turned-over"]["extent"], s["lines"]["assembled"]["extent"]);
    }
  }
}

TEST(RenderSvg, HiddenFacesAreRemovedExactly) {
  if (!have("python3")) GTEST_SKIP() << "python3 is not installed";
  // Seen from a corner, a full box a x b x c shows a*b + b*c + c*a whole unit faces and nothing
  // else: any face drawn behind another, or cut into triangles wrongly, changes the count. The
  // Soma cube is a full 3x3x3; a Happy Cube solution covers the whole shell of a 5x5x5 block; the
  // 2x1x1 Happy Cube box is a 9x5x5 shell.
  struct Case {
    const char* puzzle;
    const char* from;  // "" to solve
    std::size_t faces;
  };
  TempDir tmp;
  for (const Case& c : {Case{"puzzles/voxel/soma.json", "tests/golden/soma_solutions.json", 27},
                        Case{"puzzles/voxel/slothouber-graatsma.json", "", 27},
                        Case{"puzzles/happycube/HC_BQ_03.hcq", "", 75},
                        Case{"puzzles/happycube/rubens_box_2x1x1.json", "", 9 * 5 * 2 + 25}}) {
    SCOPED_TRACE(c.puzzle);
    for (int k : {1, 2}) {
      const std::string out = tmp / "p.svg";
      const std::string from =
          *c.from ? " --from '" + source_file(c.from) + "'" : std::string(" --symmetry none");
      if (*c.from && k > 1) continue;
      const auto r = run_cubex("render '" + source_file(c.puzzle) + "'" + from + " --solution " +
                               std::to_string(k) + " --svg '" + out + "'");
      ASSERT_EQ(r.status, 0) << r.output;
      const json s = svg_structure(out);
      for (const char* view : {"assembled", "turned-over"}) {
        std::size_t quads = 0, other = 0;
        for (const json& p : s["views"][view]) {
          for (int corners : p["polygons"]) (corners == 4 ? quads : other) += 1;
        }
        EXPECT_EQ(quads, c.faces) << view << " solution " << k;
        EXPECT_EQ(other, 0u) << view << " solution " << k;
      }
    }
  }
}

TEST(RenderSvg, NearerCubeHidesTheFartherOne) {
  if (!have("python3")) GTEST_SKIP() << "python3 is not installed";
  // Seen from +x +y +z, the cube at (1,1,0) hides the lower half of the cube at (0,0,0): its top
  // face covers one triangle of each side face of the other. And a cube at (1,1,1) hides the
  // cube at (0,0,0) completely. (The optional cell keeps the container from being flat; the two
  // congruent unit cubes are "distinct", else they would be one piece with count 2.)
  TempDir tmp;
  const auto solution = [](Vec3 near, Vec3 far) {
    auto pl = [](const char* name, Vec3 at) {
      return json{{"piece", name},
                  {"copy", 0},
                  {"rotation", {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
                  {"mirrored", false},
                  {"offset", {at.x, at.y, at.z}},
                  {"cells", {{at.x, at.y, at.z}}}};
    };
    return json{{"solutions", {{{"placements", {pl("F", far), pl("N", near)}}}}}}.dump();
  };
  struct Case {
    Vec3 near;
    std::vector<int> far_polygons, near_polygons;
  };
  for (const Case& c : {Case{{1, 1, 0}, {3, 3, 4}, {4, 4, 4}}, Case{{1, 1, 1}, {}, {4, 4, 4}}}) {
    const std::string cells = "[[0,0,0],[" + std::to_string(c.near.x) + "," +
                              std::to_string(c.near.y) + "," + std::to_string(c.near.z) + "]]";
    const std::string puzzle = tmp.file(
        "two.json", R"({"container": {"optional": [[0,1,1]], "cells": )" + cells +
                        R"(}, "pieces": [{"name": "F", "cells": [[0,0,0]], "distinct": true},
                                         {"name": "N", "cells": [[0,0,0]], "distinct": true}]})");
    const std::string from = tmp.file("two_solutions.json", solution(c.near, {0, 0, 0}));
    const std::string out = tmp / "two.svg";
    const auto r = run_cubex("render '" + puzzle + "' --from '" + from + "' --svg '" + out + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    const json s = svg_structure(out);
    std::map<std::string, std::vector<int>> polygons;
    for (const json& p : s["views"]["assembled"]) {
      std::vector<int> v = p["polygons"];
      std::sort(v.begin(), v.end());
      polygons[p["name"]] = v;
    }
    EXPECT_EQ(polygons["F"], c.far_polygons);
    EXPECT_EQ(polygons["N"], c.near_polygons);
  }
}

TEST(RenderSvg, FlatPuzzleIsOneSquarePerCell) {
  if (!have("python3")) GTEST_SKIP() << "python3 is not installed";
  const json s = svg_structure(source_file("tests/golden/pentominoes_1.svg"));
  std::size_t rects = 0;
  for (const json& p : s["views"]["flat"]) {
    EXPECT_EQ(p["rects"], 5) << p["name"];  // five squares per pentomino
    rects += p["rects"].get<std::size_t>();
  }
  EXPECT_EQ(rects, 60u);
}

TEST(RenderCli, BadInputExits2AndWritesNothing) {
  TempDir tmp;
  const std::string soma = source_file("puzzles/voxel/soma.json");
  const std::string out = tmp / "out.svg";
  json sols = json::parse(slurp(source_file("tests/golden/soma_solutions.json")));
  sols["solutions"][0]["placements"][2]["offset"][0] = 7;  // no longer the cells
  const std::string bad = tmp.file("bad.json", sols.dump());
  struct Case {
    std::string args, message;
  };
  for (const Case& c : std::vector<Case>{
           {"'" + soma + "' --from '" + bad + "' --svg '" + out + "'",
            "bad.json: solutions[0]: placements[2]"},
           {"'" + soma + "' --from '" + tmp.file("x.json", "{\"solutions\": 3}") + "' --svg '" +
                out + "'",
            "expected an object with a \"solutions\" array"},
           {"'" + soma + "' --from '" + tmp.file("y.json", "{\"solutions\": [") + "' --svg '" +
                out + "'",
            "y.json:1:16: expected JSON, syntax error"},
           {"'" + source_file("puzzles/happycube/HC_BQ_03.hcq") +
                "' --symmetry none --solution 49 --svg '" + out + "'",
            "expected at least 49 solution(s) for --solution 49, found 48"},
           {"'" + soma + "' --solution 0 --svg '" + out + "'", "--solution counts from 1"},
           {"'" + soma + "'", "expected --svg OUT.svg or --html OUT.html"},
           {"'" + source_file("puzzles/dlx/knuth-example.dlx") + "' --svg '" + out + "'",
            "cannot draw exact-cover puzzles"},
           {"'" + soma + "' --svg /nonexistent-dir/out.svg", "cannot write /nonexistent-dir"},
           {"'" + tmp.file("nope.json", "{\"pieces\": 1}") + "' --svg '" + out + "'",
            "nope.json: expected a \"container\" key"},
       }) {
    SCOPED_TRACE(c.args);
    const auto r = run_cubex("render " + c.args);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
}

// The JSON the viewer page carries.
json viewer_data(const std::string& page) {
  const std::string start = "const DATA = ";
  const std::size_t a = page.find(start);
  const std::size_t b = page.find(";\n", a);
  if (a == std::string::npos || b == std::string::npos) return json();
  return json::parse(page.substr(a + start.size(), b - a - start.size()), nullptr, false);
}

TEST(RenderHtml, SelfContainedPageWithTheSolutions) {
  TempDir tmp;
  const std::string out = tmp / "v.html";
  auto r = run_cubex("render '" + source_file("puzzles/happycube/HC_BQ_03.hcq") +
                     "' --symmetry none --html '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, "wrote " + out + ": all 48 solutions\n");
  std::string page = slurp(out);
  for (const char* remote : {"src=", "href=", "http://", "https://", "import ", "fetch("}) {
    EXPECT_EQ(page.find(remote), std::string::npos) << remote;
  }
  json data = viewer_data(page);
  ASSERT_TRUE(data.is_object());
  ASSERT_EQ(data["solutions"].size(), 48u);
  EXPECT_EQ(data["start"], 0);
  // Every solution: 6 plates covering the 98 shell points once.
  for (const json& sol : data["solutions"]) {
    std::set<std::vector<int>> points;
    std::size_t total = 0;
    ASSERT_EQ(sol["pieces"].size(), 6u);
    for (const json& p : sol["pieces"]) {
      const std::vector<int> c = p["cells"];
      for (std::size_t i = 0; i < c.size(); i += 3) points.insert({c[i], c[i + 1], c[i + 2]});
      total += c.size() / 3;
    }
    EXPECT_EQ(points.size(), 98u);
    EXPECT_EQ(total, 98u);
  }

  // --limit and --solution; a name with '<' cannot end the script early.
  r = run_cubex("render '" + source_file("puzzles/voxel/soma.json") + "' --limit 5 --solution 3 " +
                "--html '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  // Of how many classes: Soma's 240 (11,520 solutions).
  EXPECT_EQ(r.output, "wrote " + out +
                          ": the first 5 of 240 solutions up to symmetry (11,520 in all; --limit N "
                          "for more)\n");
  data = viewer_data(slurp(out));
  EXPECT_EQ(data["solutions"].size(), 5u);
  EXPECT_EQ(data["start"], 2);
  // From a --json file of a complete count, the same; from one of a listing cut short, no count.
  const std::string all = tmp / "all.json";
  ASSERT_EQ(run_cubex("solve '" + source_file("puzzles/voxel/soma.json") + "' --all --quiet " +
                      "--json '" + all + "'")
                .status,
            0);
  r = run_cubex("render '" + source_file("puzzles/voxel/soma.json") + "' --from '" + all +
                "' --limit 5 --html '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, "wrote " + out +
                          ": the first 5 of 240 solutions up to symmetry (11,520 in all; --limit N "
                          "for more)\n");
  ASSERT_EQ(run_cubex("solve '" + source_file("puzzles/voxel/soma.json") +
                      "' --all --limit 7 --quiet --json '" + all + "'")
                .status,
            0);
  r = run_cubex("render '" + source_file("puzzles/voxel/soma.json") + "' --from '" + all +
                "' --limit 5 --html '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output,
            "wrote " + out + ": the first 5 solutions up to symmetry (--limit N for more)\n");
  const std::string tricky =
      tmp.file("t.json", R"({"name": "</script><b>", "container": {"box": [2, 1, 1]},
                    "pieces": [{"name": "</script>", "cells": [[0,0,0],[1,0,0]]}]})");
  r = run_cubex("render '" + tricky + "' --html '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  page = slurp(out);
  EXPECT_EQ(page.find("</script><b>"), std::string::npos);
  data = viewer_data(page);
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data["title"], "</script><b>");
}

TEST(RenderHtml, ViewerDrawsAndStepsInHeadlessChromium) {
  std::string chromium;
  for (const char* c : {"chromium", "chromium-browser", "google-chrome"}) {
    if (have(c)) {
      chromium = c;
      break;
    }
  }
  if (chromium.empty()) GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
  if (!have("python3")) GTEST_SKIP() << "python3 is not installed";
  TempDir tmp;
  const std::string page = tmp / "soma.html";
  // (with --disassemble: the page plays the moves too)
  auto r = run_cubex("render '" + source_file("puzzles/voxel/soma.json") +
                     "' --disassemble --limit 3 --html '" + page + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  // Screenshots go to CUBEX_SCREENSHOTS when set (to look at them), else to the temporary folder.
  const char* keep = std::getenv("CUBEX_SCREENSHOTS");
  const std::string shots = keep ? keep : tmp.path.string();
  const std::string cmd = "python3 '" + source_file("tests/render/viewer_check.py") +
                          "' $(command -v " + chromium + ") '" + page + "' '" + shots + "' 2>&1";
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = ::pclose(p);
  if (WIFEXITED(st) && WEXITSTATUS(st) == 3) GTEST_SKIP() << "chromium did not start: " << out;
  ASSERT_EQ(st, 0) << out;
  const json j = json::parse(out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << out;
  EXPECT_EQ(j["label_before"], "solution 1 of 3");
  EXPECT_EQ(j["label_after"], "solution 2 of 3");
  // Not blank: many colours (the shaded faces of 7 pieces, the panel) and plenty of ink.
  const double area = j["width"].get<double>() * j["height"].get<double>();
  EXPECT_GT(j["colours"].get<int>(), 20) << out;
  EXPECT_GT(j["ink"].get<double>(), area * 0.1) << out;
  // The next solution looks different (at least 1% of the pixels changed).
  EXPECT_GT(j["changed"].get<double>(), area * 0.01) << out;

  // Piece boundaries heavy, seams thin: the page's edges are those counted from the cells, there
  // are both kinds, and the heavy lines show (nearly black pixels).
  EXPECT_EQ(j["edges"], j["expected_edges"]) << out;
  EXPECT_GT(j["edges"]["heavy"].get<int>(), 0) << out;
  EXPECT_GT(j["edges"]["thin"].get<int>(), 0) << out;
  EXPECT_GT(j["dark"].get<double>(), area * 0.005) << out;
  // "save PNG" downloads a PNG of the picture, named after the puzzle and the solution.
  const json& png = j["png"];
  EXPECT_EQ(png["name"], "Soma-cube-solution-2.png") << out;
  ASSERT_TRUE(png["exists"].get<bool>()) << out;
  ASSERT_TRUE(png["is_png"].get<bool>()) << out;
  EXPECT_GT(png["width"].get<int>(), 300) << out;
  EXPECT_GT(png["height"].get<int>(), 300) << out;
  EXPECT_GT(png["ink"].get<double>(),
            png["width"].get<double>() * png["height"].get<double>() * 0.1)
      << out;
  // The address opens solution 2, half exploded, seen from the top; stepping keeps the address.
  const json& a = j["address"];
  EXPECT_EQ(a["label"], "solution 2 of 3") << out;
  EXPECT_EQ(a["explode"], "50") << out;
  EXPECT_EQ(a["view"], "top") << out;
  EXPECT_NEAR(a["pitch"].get<double>(), 89.9, 1e-6) << out;
  EXPECT_EQ(a["hash_after_left"], "#solution=1&explode=0.5&view=top") << out;

  // Zoom and fit (issue 38): the buttons, the keys + and 0 and the mouse wheel change the scale
  // by their factors, fit gives back the fitted scale; fitted, the picture with every move made
  // (the pieces spread out) lies inside the canvas and fills a good part of it; zoomed in five
  // times it runs over the canvas' edges.
  const json& c = j["controls"];
  for (const char* id : {"zoomin", "zoomout", "fit", "stepback", "stepnext", "play"})
    EXPECT_TRUE(c[id].get<bool>()) << id << ": " << out;
  const double s0 = c["scale"].get<double>();
  EXPECT_GT(s0, 5) << out;
  EXPECT_NEAR(c["scale_zoomin"].get<double>(), s0 * 1.25, 1e-6 * s0) << out;
  EXPECT_NEAR(c["scale_plus"].get<double>(), s0 * 1.25 * 1.25, 1e-6 * s0) << out;
  EXPECT_NEAR(c["scale_fit"].get<double>(), s0, 1e-6 * s0) << out;
  EXPECT_NEAR(c["scale_wheel"].get<double>(), s0 * 1.1, 1e-6 * s0) << out;
  EXPECT_NEAR(c["scale_key0"].get<double>(), s0, 1e-6 * s0) << out;
  // (boxes [x0, y0, x1, y1, width, height] of the ink in half-size shots of the canvas)
  const auto fitted = c["ink_fitted"].get<std::vector<int>>();
  ASSERT_EQ(fitted.size(), 6u) << out;
  const int cw = fitted[4], chh = fitted[5];
  EXPECT_GT(fitted[0], 1) << out;
  EXPECT_GT(fitted[1], 1) << out;
  EXPECT_LT(fitted[2], cw - 2) << out;
  EXPECT_LT(fitted[3], chh - 2) << out;
  EXPECT_GT(std::max(fitted[2] - fitted[0], fitted[3] - fitted[1]), 0.4 * std::min(cw, chh)) << out;
  const auto zoomed = c["ink_zoomed"].get<std::vector<int>>();
  ASSERT_EQ(zoomed.size(), 6u) << out;
  EXPECT_TRUE(zoomed[0] <= 1 || zoomed[1] <= 1 || zoomed[2] >= cw - 2 || zoomed[3] >= chh - 2)
      << out;

  // The disassembly (issue 36): the down arrow makes the first move (its group highlighted and
  // shifted, the picture changed, the address keeping the step), the up arrow takes it back.
  ASSERT_TRUE(j.contains("steps")) << out;
  const json& ds = j["steps"];
  EXPECT_TRUE(ds["visible"].get<bool>()) << out;
  EXPECT_EQ(ds["step"], 1) << out;
  EXPECT_EQ(ds["shown"], 1) << out;
  EXPECT_EQ(ds["label"].get<std::string>().rfind("move 1 of ", 0), 0u) << out;
  EXPECT_EQ(ds["level"].get<std::string>().rfind("takes apart in ", 0), 0u) << out;
  EXPECT_EQ(ds["moving"], ds["expected_moving"]) << out;
  ASSERT_FALSE(ds["moving"].empty()) << out;
  for (std::size_t p = 0; p < ds["shifts"].size(); ++p) {
    bool moves = false;
    for (const json& m : ds["moving"]) moves = moves || m.get<std::size_t>() == p;
    EXPECT_EQ(ds["shifts"][p], moves ? ds["expected_shift"] : json::array({0, 0, 0})) << p;
    EXPECT_EQ(ds["shifts_back"][p], json::array({0, 0, 0})) << p;
  }
  EXPECT_EQ(ds["hash"], "#solution=1&explode=0&view=iso&step=1") << out;
  EXPECT_GT(ds["changed"].get<double>(), ds["area"].get<double>() * 0.01) << out;
  EXPECT_EQ(ds["step_back"], 0) << out;
  EXPECT_EQ(ds["label_back"], "assembled") << out;
}

}  // namespace

// ---- issue 21: what a person sees ----------------------------------------------------------

namespace more {

// CIEDE2000 colour difference (Sharma, Wu and Dalal's formulation), written here apart from the
// library's colour code: the palette's claim is checked by an independent computation.
std::array<double, 3> to_lab(const cubex::render::Rgb& c) {
  auto lin = [](double v) {
    v /= 255;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  };
  const double r = lin(c.r), g = lin(c.g), b = lin(c.b);
  const double xyz[3] = {(0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047,
                         0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
                         (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883};
  double f[3];
  for (int i = 0; i < 3; ++i) {
    const double e = 216.0 / 24389, k = 24389.0 / 27;
    f[i] = xyz[i] > e ? std::cbrt(xyz[i]) : (k * xyz[i] + 16) / 116;
  }
  return {116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])};
}

double ciede2000_lab(const std::array<double, 3>& x, const std::array<double, 3>& y) {
  constexpr double kPi = 3.14159265358979323846;
  auto rad = [&](double d) { return d * kPi / 180; };
  const auto [l1, a1, b1] = x;
  const auto [l2, a2, b2] = y;
  const double cbar = (std::hypot(a1, b1) + std::hypot(a2, b2)) / 2;
  const double c7 = std::pow(cbar, 7);
  const double g = 0.5 * (1 - std::sqrt(c7 / (c7 + std::pow(25.0, 7))));
  const double a1p = (1 + g) * a1, a2p = (1 + g) * a2;
  const double c1p = std::hypot(a1p, b1), c2p = std::hypot(a2p, b2);
  auto hue = [&](double b, double a) {
    if (a == 0 && b == 0) return 0.0;
    double h = std::atan2(b, a) * 180 / kPi;
    return h < 0 ? h + 360 : h;
  };
  const double h1p = hue(b1, a1p), h2p = hue(b2, a2p);
  const double dl = l2 - l1, dc = c2p - c1p;
  double dh = 0;
  if (c1p * c2p != 0) {
    dh = h2p - h1p;
    if (dh > 180) dh -= 360;
    if (dh < -180) dh += 360;
  }
  const double dhh = 2 * std::sqrt(c1p * c2p) * std::sin(rad(dh / 2));
  const double lbar = (l1 + l2) / 2, cbarp = (c1p + c2p) / 2;
  double hbar = h1p + h2p;
  if (c1p * c2p != 0) {
    if (std::abs(h1p - h2p) <= 180) {
      hbar /= 2;
    } else {
      hbar = hbar < 360 ? (hbar + 360) / 2 : (hbar - 360) / 2;
    }
  }
  const double t = 1 - 0.17 * std::cos(rad(hbar - 30)) + 0.24 * std::cos(rad(2 * hbar)) +
                   0.32 * std::cos(rad(3 * hbar + 6)) - 0.20 * std::cos(rad(4 * hbar - 63));
  const double dtheta = 30 * std::exp(-std::pow((hbar - 275) / 25, 2));
  const double c7p = std::pow(cbarp, 7);
  const double rc = 2 * std::sqrt(c7p / (c7p + std::pow(25.0, 7)));
  const double sl =
      1 + 0.015 * (lbar - 50) * (lbar - 50) / std::sqrt(20 + (lbar - 50) * (lbar - 50));
  const double sc = 1 + 0.045 * cbarp, sh = 1 + 0.015 * cbarp * t;
  const double rt = -std::sin(rad(2 * dtheta)) * rc;
  return std::sqrt((dl / sl) * (dl / sl) + (dc / sc) * (dc / sc) + (dhh / sh) * (dhh / sh) +
                   rt * (dc / sc) * (dhh / sh));
}

double ciede2000(const cubex::render::Rgb& x, const cubex::render::Rgb& y) {
  return ciede2000_lab(to_lab(x), to_lab(y));
}

}  // namespace more

TEST(RenderColour, Ciede2000MatchesPublishedPairs) {
  // Pairs from the test data of Sharma, Wu and Dalal (2005), in L*a*b*, with their differences.
  struct Pair {
    std::array<double, 3> x, y;
    double de;
  };
  for (const Pair& p :
       {Pair{{50, 2.6772, -79.7751}, {50, 0, -82.7485}, 2.0425},
        Pair{{50, 0, 0}, {50, -1, 2}, 2.3669}, Pair{{50, 2.5, 0}, {73, 25, -18}, 27.1492},
        Pair{{60.2574, -34.0099, 36.2677}, {60.4626, -34.1751, 39.4387}, 1.2644},
        Pair{{2.0776, 0.0795, -1.1350}, {0.9033, -0.0636, -0.5514}, 0.9082}}) {
    EXPECT_NEAR(more::ciede2000_lab(p.x, p.y), p.de, 1e-4);
    EXPECT_NEAR(more::ciede2000_lab(p.y, p.x), p.de, 1e-4);
  }
  // sRGB: black and white are 100 apart.
  EXPECT_NEAR(more::ciede2000({0, 0, 0}, {255, 255, 255}), 100.0, 0.01);
}

TEST(RenderColour, ShippedPuzzlesHaveFarApartColours) {
  // Every pair of pieces in a picture of each shipped puzzle (Bedlam's 13, the Y pentacubes' 25)
  // differs by at least 17 in CIEDE2000 (about 2.3 is a just-noticeable difference); the 20
  // colours before issue 21 had a pink and a lavender 15 apart among Bedlam's first 13. And the
  // whole palette of 30 keeps 17 between any two.
  const auto pal = cubex::render::palette();
  ASSERT_GE(pal.size(), 30u);
  double all = 1e9;
  for (std::size_t a = 0; a < 30; ++a)
    for (std::size_t b = a + 1; b < 30; ++b) all = std::min(all, more::ciede2000(pal[a], pal[b]));
  EXPECT_GE(all, 17.0);

  struct Case {
    const char* puzzle;
    std::size_t pieces;
    double at_least;
  };
  for (const Case& c :
       {Case{"puzzles/voxel/soma.json", 7, 30}, Case{"puzzles/voxel/bedlam.json", 13, 25},
        Case{"puzzles/voxel/l-tricubes.json", 9, 25},
        Case{"puzzles/voxel/pentominoes-6x10.json", 12, 25},
        Case{"puzzles/voxel/slothouber-graatsma.json", 9, 25},
        Case{"puzzles/voxel/wooden-cube-6.txt", 6, 30},
        Case{"puzzles/voxel/wooden-cube-7.json", 7, 30}, Case{"puzzles/voxel/conway.json", 18, 20},
        Case{"puzzles/voxel/y-pentacubes.json", 25, 17},
        Case{"puzzles/happycube/HC_BQ_03.hcq", 6, 30},
        Case{"puzzles/happycube/rubens_box_2x1x1.json", 10, 25}}) {
    SCOPED_TRACE(c.puzzle);
    const auto puzzle = cubex::load_puzzle(source_file(c.puzzle));
    cubex::Solver solver(puzzle->problem());
    const auto sol = solver.first();
    ASSERT_TRUE(sol);
    const auto scene = puzzle->scene(puzzle->solution_json(*sol));
    ASSERT_TRUE(scene);
    ASSERT_EQ(scene->pieces.size(), c.pieces);
    double least = 1e9;
    for (std::size_t a = 0; a < scene->pieces.size(); ++a)
      for (std::size_t b = a + 1; b < scene->pieces.size(); ++b)
        least = std::min(least, more::ciede2000(scene->pieces[a].colour, scene->pieces[b].colour));
    EXPECT_GE(least, c.at_least);
  }
}

// The orbit sizes the viewer page shows ("stands for 24 solutions").
std::vector<std::uint64_t> orbits_of(const json& data) {
  std::vector<std::uint64_t> out;
  for (const json& s : data["solutions"]) {
    const std::string note = s.value("note", "");
    std::string digits;
    for (char ch : note)
      if (std::isdigit(static_cast<unsigned char>(ch))) digits += ch;
    out.push_back(digits.empty() ? 1 : std::stoull(digits));
  }
  return out;
}

// The cells of a viewer solution, as a set of (piece-independent) sorted cell lists.
std::set<std::vector<std::vector<int>>> pieces_of(const json& sol) {
  std::set<std::vector<std::vector<int>>> out;
  for (const json& p : sol["pieces"]) {
    const std::vector<int> c = p["cells"];
    std::vector<std::vector<int>> cells;
    for (std::size_t i = 0; i < c.size(); i += 3) cells.push_back({c[i], c[i + 1], c[i + 2]});
    std::sort(cells.begin(), cells.end());
    out.insert(cells);
  }
  return out;
}

TEST(RenderCli, OneSolutionPerSymmetryClassByDefault) {
  TempDir tmp;
  const std::string out = tmp / "v.html";
  // 48 solutions in one class; 8 in one class of symmetric solutions; 96 in 4 classes.
  for (const char* file :
       {"puzzles/happycube/HC_BQ_03.hcq", "puzzles/voxel/slothouber-graatsma.json",
        "puzzles/voxel/wooden-cube-6.txt"}) {
    SCOPED_TRACE(file);
    // Every solution, and the count up to symmetry from `cubex solve`.
    auto r = run_cubex("render '" + source_file(file) +
                       "' --symmetry none --limit 100000 --html '" + out + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    const json every = viewer_data(slurp(out));
    const std::size_t total = every["solutions"].size();
    std::set<std::set<std::vector<std::vector<int>>>> all;
    for (const json& s : every["solutions"]) all.insert(pieces_of(s));
    ASSERT_EQ(all.size(), total);
    r = run_cubex("solve '" + source_file(file) + "' --json '" + (tmp / "s.json") + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    const json solved = json::parse(slurp(tmp / "s.json"));
    ASSERT_EQ(solved["counts"]["total"], total);

    r = run_cubex("render '" + source_file(file) + "' --limit 100000 --html '" + out + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    const json classes = viewer_data(slurp(out));
    const std::size_t unique = solved["counts"]["unique"];
    ASSERT_EQ(classes["solutions"].size(), unique);
    ASSERT_LT(unique, total);
    auto commas = [](std::size_t n) {
      std::string d = std::to_string(n), out;
      for (std::size_t i = 0; i < d.size(); ++i) {
        if (i > 0 && (d.size() - i) % 3 == 0) out += ',';
        out += d[i];
      }
      return out;
    };
    EXPECT_EQ(r.output, "wrote " + out + ": " +
                            (unique == 1 ? std::string("the only solution")
                                         : "all " + commas(unique) + " solutions") +
                            " up to symmetry (" + commas(total) + " in all)\n");
    // Each shown solution is one of all the solutions, and their classes add up to all.
    std::uint64_t sum = 0;
    for (std::uint64_t n : orbits_of(classes)) sum += n;
    EXPECT_EQ(sum, total);
    for (const json& s : classes["solutions"]) EXPECT_TRUE(all.count(pieces_of(s)));
  }
  // The SVG caption says what a solution stands for.
  const auto r = run_cubex("render '" + source_file("puzzles/voxel/soma.json") +
                           "' --solution 2 --svg '" + (tmp / "s.svg") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output,
            "wrote " + (tmp / "s.svg") + ": solution 2 up to symmetry (stands for 48 solutions)\n");
  // A --from file of `cubex solve` (with symmetry) keeps each solution's class size.
  const std::string first = tmp / "first.json";
  ASSERT_EQ(run_cubex("solve '" + source_file("puzzles/voxel/soma.json") + "' --first -q --json '" +
                      first + "'")
                .status,
            0);
  const auto f = run_cubex("render '" + source_file("puzzles/voxel/soma.json") + "' --from '" +
                           first + "' --svg '" + (tmp / "f.svg") + "'");
  ASSERT_EQ(f.status, 0) << f.output;
  EXPECT_EQ(f.output, "wrote " + (tmp / "f.svg") +
                          ": solution 1 of 1 up to symmetry (stands for 48 solutions)\n");
  // Past the last class: the message says the count is up to symmetry.
  const auto past = run_cubex("render '" + source_file("puzzles/happycube/HC_BQ_03.hcq") +
                              "' --solution 2 --svg '" + (tmp / "p.svg") + "'");
  EXPECT_EQ(past.status, 2) << past.output;
  EXPECT_NE(past.output.find("expected at least 2 solution(s) for --solution 2, found 1 up to "
                             "symmetry (--symmetry none counts every solution)"),
            std::string::npos)
      << past.output;
  // --symmetry with --from, or an unknown mode: exit 2.
  const std::string x = tmp / "x.svg";
  for (const std::string& args :
       std::vector<std::string>{"--symmetry sideways --svg '" + x + "'",
                                "--from '" + source_file("tests/golden/soma_solutions.json") +
                                    "' --symmetry none --svg '" + x + "'"}) {
    const auto bad = run_cubex("render '" + source_file("puzzles/voxel/soma.json") + "' " + args);
    EXPECT_EQ(bad.status, 2) << bad.output;
    EXPECT_NE(bad.output.find("--symmetry"), std::string::npos) << bad.output;
    EXPECT_FALSE(std::filesystem::exists(x));
  }
}

TEST(RenderHappyCube, EveryCubeIsACrossThatFoldsIntoThePlatesInPlace) {
  namespace hc = cubex::happycube;
  for (const char* file :
       {"puzzles/happycube/HC_BQ_03.hcq", "puzzles/happycube/rubens_box_2x1x1.json"}) {
    SCOPED_TRACE(file);
    const auto puzzle = cubex::load_puzzle(source_file(file));
    cubex::Solver solver(puzzle->problem());
    const auto sol = solver.first();
    ASSERT_TRUE(sol);
    const auto sc = puzzle->scene(puzzle->solution_json(*sol));
    ASSERT_TRUE(sc);
    const int n = sc->net_size, l = n - 1;
    const std::size_t cubes = sc->net_groups.size();
    // The unit cube's six faces with their places in the cross (1, 2, 5, 6 down the middle
    // column, 3 left of 2, 4 right of 2).
    const auto unit = hc::make_faces(n, {{0, 0, 0}});
    const std::map<std::pair<int, int>, int> place = {{{0, 1}, 0}, {{1, 1}, 1}, {{1, 0}, 2},
                                                      {{1, 2}, 3}, {{2, 1}, 4}, {{3, 1}, 5}};
    // Folding each cross (a plate's cells at the unit face of its block, moved to its cube)
    // gives back exactly the points the plate covers in the 3-D scene; every block of every
    // cross is a plate or a gap, once.
    std::map<std::pair<int, std::pair<int, int>>, int> used;
    for (const cubex::render::NetPlate& plate : sc->net) {
      ASSERT_LT(std::size_t(plate.group), cubes);
      ++used[{plate.group, {plate.row, plate.col}}];
      const int f = place.at({plate.row, plate.col});
      Vec3 cube{0, 0, 0};  // the caption names the cube: "cube (x,y,z)"
      if (cubes > 1) {
        const std::string& cap = sc->net_groups[std::size_t(plate.group)];
        ASSERT_EQ(std::sscanf(cap.c_str(), "cube (%d,%d,%d)", &cube.x, &cube.y, &cube.z), 3) << cap;
      } else {
        EXPECT_EQ(plate.label, std::to_string(f + 1) + ": part " + sc->pieces[plate.piece].name);
      }
      std::vector<Vec3> folded;
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
          if (plate.grid[std::size_t(r * n + c)])
            folded.push_back(unit[std::size_t(f)].point(r, c, n) +
                             Vec3{cube.x * l, cube.y * l, cube.z * l});
      std::sort(folded.begin(), folded.end());
      EXPECT_EQ(folded, sc->pieces[plate.piece].cells) << plate.label;
    }
    for (const cubex::render::NetGap& g : sc->net_gaps) ++used[{g.group, {g.row, g.col}}];
    EXPECT_EQ(used.size(), 6 * cubes);
    for (const auto& [at, k] : used) EXPECT_EQ(k, 1);
    if (cubes == 1) {
      EXPECT_TRUE(sc->net_gaps.empty());
    } else {
      EXPECT_EQ(sc->net_gaps.size(), 2u);  // the two cubes join at one face
      EXPECT_EQ(sc->net_gaps[0].label, "joins (1,0,0)");
    }
  }
}

TEST(RenderHappyCube, TerminalNetWithLongNamesHasAKey) {
  const auto puzzle = cubex::load_puzzle(source_file("puzzles/happycube/rubens_box_2x1x1.json"));
  cubex::Solver solver(puzzle->problem());
  const auto sol = solver.first();
  ASSERT_TRUE(sol);
  const std::string text = puzzle->solution_text(*sol);
  const json j = puzzle->solution_json(*sol);
  // One letter per plate with a key ("a = part A/1"), each letter on as many cells as its plate
  // has filled cells; no '#'.
  const std::size_t key = text.find("key: a = part ");
  ASSERT_NE(key, std::string::npos) << text;
  std::string drawing = text.substr(text.find('\n', key) + 1);
  // The two joined faces: "(+x)" over "joins" (taken out before counting letters).
  for (const char* side : {"(+x)", "(-x)"}) EXPECT_NE(drawing.find(side), std::string::npos);
  std::size_t joins = 0;
  for (std::size_t at; (at = drawing.find("joins")) != std::string::npos; ++joins)
    drawing.replace(at, 5, "     ");
  EXPECT_EQ(joins, 2u) << text;
  EXPECT_EQ(drawing.find('#'), std::string::npos) << text;
  EXPECT_NE(drawing.find("cube (0,0,0)"), std::string::npos) << text;
  EXPECT_NE(drawing.find("cube (1,0,0)"), std::string::npos) << text;
  ASSERT_EQ(j["placements"].size(), 10u);
  for (std::size_t k = 0; k < 10; ++k) {
    const char mark = char('a' + k);
    const std::string piece = j["placements"][k]["piece"];
    EXPECT_NE(text.find(std::string(1, mark) + " = part " + piece), std::string::npos) << piece;
    const std::size_t cells = j["placements"][k]["cells"].size();
    std::size_t marks = 0;
    for (std::size_t i = drawing.find('\n') + 1; i < drawing.size(); ++i)
      marks += drawing[i] == mark;
    EXPECT_EQ(marks, cells) << piece << "\n" << text;
  }
}
