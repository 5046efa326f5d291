// Voxel puzzles: every kind of bad input is named by its JSON path (or line and column).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cubex/error.hpp"
#include "cubex/util/files.hpp"
#include "voxel_helpers.hpp"

namespace vx = cubex::voxel;

namespace {

// The message of the InputError that loading `json_text` as a puzzle throws ("" if none).
std::string json_error(const std::string& json_text) {
  try {
    vx::load_json(nlohmann::json::parse(json_text), "p.json");
  } catch (const cubex::InputError& e) {
    return e.what();
  }
  return "";
}

std::string txt_error(const std::string& text) {
  try {
    vx::make_puzzle(vx::model_from_txt(text, "p.txt"), "p.txt", false);
  } catch (const cubex::InputError& e) {
    return e.what();
  }
  return "";
}

const std::string kPieces = R"("pieces": [{"name": "d", "cells": [[0,0,0],[1,0,0]]}])";

}  // namespace

TEST(VoxelInput, ValidFormsOfTheContainer) {
  EXPECT_EQ(json_error(R"({"container": {"box": [2,1,1]}, )" + kPieces + "}"), "");
  EXPECT_EQ(json_error(R"({"kind": "voxel", "comment": "c", "name": "n", "mirror": true,
    "container": {"cells": [[0,0,0],[1,0,0]]}, )" +
                       kPieces + "}"),
            "");
  EXPECT_EQ(json_error(R"({"container": {"cells": [[0,0,0]], "optional": [[1,0,0],[2,0,0]]}, )" +
                       kPieces + "}"),
            "");
  EXPECT_EQ(json_error(R"({"container": {"layers": [["#+"]]}, )" + kPieces + "}"), "");
}

TEST(VoxelInput, BadJsonNamesThePath) {
  struct Case {
    std::string json, want;
  };
  const std::string box = R"("container": {"box": [3,1,1]})";
  const Case cases[] = {
      {"[1]", "p.json: expected a JSON object, found an array of 1"},
      {R"({"colour": 1, )" + box + ", " + kPieces + "}",
       "p.json: colour: expected one of the keys"},
      {R"({"kind": "tetris", )" + box + ", " + kPieces + "}", "p.json: kind: expected \"voxel\""},
      {R"({"name": 3, )" + box + ", " + kPieces + "}",
       "p.json: name: expected a string, found the number 3"},
      {R"({"mirror": "yes", )" + box + ", " + kPieces + "}",
       "p.json: mirror: expected true or false"},
      {"{" + kPieces + "}", "p.json: expected a \"container\" key, found none"},
      {"{" + box + "}", "p.json: expected a \"pieces\" key, found none"},
      {R"({"container": {"box": [3,1,1,1]}, )" + kPieces + "}",
       "p.json: container.box: expected [x, y, z] or flat [x, y] sizes, found an array of 4"},
      {R"({"container": {"box": [3,0,1]}, )" + kPieces + "}",
       "p.json: container.box[1]: expected a size (an integer from 1 to 1000), found the number 0"},
      {R"({"container": {"box": [3,1,1], "cells": [[0,0,0]]}, )" + kPieces + "}",
       "p.json: container: expected exactly one of"},
      {R"({"container": {"box": [3,1,1], "optional": [[0,0,0]]}, )" + kPieces + "}",
       "p.json: container.optional: expected \"optional\" only beside \"cells\""},
      {R"({"container": {"box": [3,1,1], "walls": 1}, )" + kPieces + "}",
       "p.json: container.walls: expected one of the keys box,cells,optional,layers"},
      {R"({"container": {"cells": [[0,0,0],[1,0,0],[0,0,0]]}, )" + kPieces + "}",
       "p.json: container.cells[2]: expected a new cell, found [0,0,0] again (as "
       "container.cells[0])"},
      {R"({"container": {"cells": [[0,0,0],[1,0]]}, )" + kPieces + "}",
       "p.json: container.cells[1]: expected a cell [x, y, z], found an array of 2"},
      {R"({"container": {"cells": [[0,0,0],[1,0.5,0]]}, )" + kPieces + "}",
       "p.json: container.cells[1][1]: expected a coordinate"},
      {R"({"container": {"cells": [[0,0,0],[1,0,0]], "optional": [[1,0,0]]}, )" + kPieces + "}",
       "p.json: container.optional[0]: expected a new cell, found [1,0,0] again (as "
       "container.cells[1])"},
      {R"({"container": {"cells": []}, )" + kPieces + "}",
       "p.json: container.cells: expected a non-empty array of cells"},
      {R"({"container": {"layers": [["##", "#x"]]}, )" + kPieces + "}",
       "p.json: container.layers[0][1]: expected '#', '+', '.' at column 2, found 'x'"},
      {R"({"container": {"layers": [["..", ".."]]}, )" + kPieces + "}",
       "p.json: container.layers: expected at least one cell, found none"},
      {R"({"container": {"layers": ["##"]}, )" + kPieces + "}",
       "p.json: container.layers[0]: expected a layer"},
      {box + R"(, "pieces": [])", "p.json: pieces: expected a non-empty array of pieces"},
      {box + R"(, "pieces": [{"cells": [[0,0,0]]}])",
       "p.json: pieces[0]: expected a \"name\", found none"},
      {box + R"(, "pieces": [{"name": "", "cells": [[0,0,0]]}])",
       "p.json: pieces[0].name: expected a non-empty string"},
      {box +
           R"(, "pieces": [{"name": "a", "cells": [[0,0,0]]}, {"name": "a", "cells": [[0,0,0]]}])",
       "p.json: pieces[1].name: expected a name not used before, found \"a\" (also pieces[0])"},
      {box + R"(, "pieces": [{"name": "a"}])",
       "p.json: pieces[0]: expected exactly one of \"cells\" and \"layers\""},
      {box + R"(, "pieces": [{"name": "a", "cells": [[0,0,0],[1,0,0],[2,0,0],[1,0,0]]}])",
       "p.json: pieces[0].cells[3]: expected a new cell, found [1,0,0] again (as "
       "pieces[0].cells[1])"},
      {box + R"(, "pieces": [{"name": "a", "layers": [["#+#"]]}])",
       "p.json: pieces[0].layers[0][0]: expected '#', '.' at column 2, found '+'"},
      {box + R"(, "pieces": [{"name": "a", "cells": [[0,0,0]], "count": 0}])",
       "p.json: pieces[0].count: expected a count (an integer from 1 to 1000000), found the number "
       "0"},
      {box + R"(, "pieces": [{"name": "a", "cells": [[0,0,0]], "count": "2"}])",
       "p.json: pieces[0].count: expected a count"},
      {box + R"(, "pieces": [{"name": "a", "cells": [[0,0,0]], "color": "red"}])",
       "p.json: pieces[0].color: expected one of the keys name,cells,layers,count,distinct,"
       "turn_over"},
      // Volumes and fit are no input errors: see VoxelNoSolution.ReasonsForNoSolution.
  };
  for (const Case& c : cases) {
    const std::string doc = c.json[0] == '"' ? "{" + c.json + "}" : c.json;  // bare keys
    SCOPED_TRACE(doc);
    const std::string got = json_error(doc);
    EXPECT_EQ(got.substr(0, c.want.size()), c.want) << got;
  }
}

TEST(VoxelInput, TextFormat) {
  // Two dominoes and a monomino in a 5x1x1 bar; the dominoes are one piece with count 2.
  const auto m =
      vx::model_from_txt("# a comment\n0 0 0 1 0 0\n\n2 0 0  # inline\n3 0 0 4 0 0\n", "p.txt");
  ASSERT_EQ(m.pieces.size(), 2u);
  EXPECT_EQ(m.pieces[0].name, "A");
  EXPECT_EQ(m.pieces[0].count, 2);
  EXPECT_EQ(m.pieces[1].name, "B");
  EXPECT_EQ(m.cells.size(), 5u);
  EXPECT_EQ(vxtest::count(m), 3u);  // the monomino at x = 0, 2 or 4
  EXPECT_EQ(txt_error("0 0 0 1 0\n"),
            "p.txt:1: expected coordinates in threes (x y z x y z ...), found 5 numbers");
  EXPECT_EQ(txt_error("0 0 0\n0 0 x\n"),
            "p.txt:2:5: expected a coordinate (an integer from -1000 to 1000), found 'x'");
  EXPECT_EQ(txt_error("0 0 0 1 0 0 0 0 0\n"), "p.txt:1:13: expected a new cell, found 0 0 0 again");
  EXPECT_EQ(txt_error("# nothing\n"), "p.txt: expected at least one piece line, found none");
  // Too few cells is a reason for no solution, not an input error.
  EXPECT_EQ(txt_error("0 0 0\n2 0 0\n"), "");
  EXPECT_EQ(
      vx::make_puzzle(vx::model_from_txt("0 0 0\n2 0 0\n", "p.txt"), "p.txt", false)->infeasible(),
      "the cells do not add up: the pieces have at most 2 cells, fewer than the "
      "container's 3 cells to fill");
}

// Through load_puzzle: dispatch on the extension and on "kind", and JSON syntax errors.
TEST(VoxelInput, LoadPuzzleDispatch) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("cubex_vx_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    const std::string path = (dir / name).string();
    std::ofstream(path) << text;
    return path;
  };
  auto error = [](const std::string& path) -> std::string {
    try {
      cubex::load_puzzle(path);
    } catch (const cubex::InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(
      cubex::load_puzzle(write("a.json", R"({"container": {"box": [2,1,1]}, )" + kPieces + "}"))
          ->kind(),
      "voxel");
  EXPECT_EQ(cubex::load_puzzle(write("b.txt", "0 0 0 0 1 0\n"))->kind(), "voxel");
  EXPECT_EQ(cubex::load_puzzle(write("b.txt", "0 0 0 0 1 0\n"))->name(), "b");
  const std::string bad = write("c.json", "{\"container\": ");
  EXPECT_EQ(error(bad).rfind(bad + ":1:15: expected JSON, ", 0), 0u) << error(bad);
  std::filesystem::remove_all(dir);
}
