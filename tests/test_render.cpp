// Pictures: colours, terminal drawings, `cubex render` SVG (golden files, XML structure, exact
// hidden-face removal), the HTML viewer (self-contained; driven in headless Chromium).
//
// CUBEX_UPDATE_GOLDEN=1 ./build/cubex_tests --gtest_filter='RenderSvg.Golden*' rewrites the
// golden pictures in tests/golden/ (look at them before committing).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "cubex/core/solver.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/render/colour.hpp"
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
      const std::string from = *c.from ? " --from '" + source_file(c.from) + "'" : std::string();
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
  // cube at (0,0,0) completely. (The optional cell keeps the container from being flat.)
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
    const std::string puzzle =
        tmp.file("two.json", R"({"container": {"optional": [[0,1,1]], "cells": )" + cells +
                                 R"(}, "pieces": [{"name": "F", "cells": [[0,0,0]]},
                                         {"name": "N", "cells": [[0,0,0]]}]})");
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
           {"'" + source_file("puzzles/happycube/HC_BQ_03.hcq") + "' --solution 49 --svg '" + out +
                "'",
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
  auto r = run_cubex("render '" + source_file("puzzles/happycube/HC_BQ_03.hcq") + "' --html '" +
                     out + "'");
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
  EXPECT_EQ(r.output, "wrote " + out + ": the first 5 solutions (--limit N for more)\n");
  data = viewer_data(slurp(out));
  EXPECT_EQ(data["solutions"].size(), 5u);
  EXPECT_EQ(data["start"], 2);
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
  auto r = run_cubex("render '" + source_file("puzzles/voxel/soma.json") + "' --limit 3 --html '" +
                     page + "'");
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
}

}  // namespace
