// Happy Cube input: every bad input is reported with its line and column or JSON path, and the
// `cubex` program exits 2 for it; solve --json / verify end to end.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cubex/error.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/util/files.hpp"
#include "test_util.hpp"

namespace hc = cubex::happycube;
namespace fs = std::filesystem;

namespace {

const std::string kSeed = cubex::test::seed_file("HC_BQ_01.hcq");

std::string seed_text() {
  return cubex::read_file(kSeed);
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const std::size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

// The message of the InputError that `read()` throws ("" if none).
template <class F>
std::string error_of(F read) {
  try {
    read();
  } catch (const cubex::InputError& e) {
    return e.what();
  }
  return "";
}

std::string hcq_error(const std::string& text) {
  return error_of([&] { hc::parse_hcq(text, "t.hcq"); });
}

const char* const kJson = R"({"kind": "happy-cube", "size": 5, "pieces": [
  {"name": "1", "rows": [".#.#.", "####.", ".####", "####.", "##.##"]},
  {"name": "2", "rows": ["##.##", "####.", ".####", "####.", "#.#.."]},
  {"name": "3", "rows": ["#.#..", "####.", ".####", "####.", "#.#.."]},
  {"name": "4", "rows": [".#.#.", "####.", ".####", "####.", "..#.."]},
  {"name": "5", "rows": [".#.#.", ".###.", "#####", ".###.", "##.#."]},
  {"name": "6", "rows": [".#.#.", ".###.", "#####", ".###.", ".#.#."]}]})";

std::string json_error(const nlohmann::json& doc) {
  return error_of([&] { hc::parse_json(doc, "t.json"); });
}

struct CliResult {
  int status;
  std::string out;
};

// Runs the cubex program with `args`, stdout and stderr together.
CliResult cubex_run(const std::string& args) {
  const std::string cmd = std::string(CUBEX_EXE) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t k = fread(buf, 1, sizeof buf, p)) out.append(buf, k);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

// Runs cubex and expects its exit status and a fragment of its output.
void expect_run(const std::string& args, int status, const std::string& fragment) {
  const CliResult r = cubex_run(args);
  EXPECT_EQ(r.status, status) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(fragment), std::string::npos) << args << "\n" << r.out;
}

fs::path temp_dir() {
  const fs::path d = fs::temp_directory_path() / ("cubex_hc_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path p = temp_dir() / name;
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace

TEST(HappyCubeHcq, ReadsTheSeedAsTheIssueDescribes) {
  const hc::Spec s = hc::parse_hcq(seed_text(), kSeed);
  EXPECT_EQ(s.name, "HC_BQ_001");
  EXPECT_EQ(s.size, 5);
  ASSERT_EQ(s.pieces.size(), 6u);
  // Tile 1: [0,1,0,1,0; 0,0,1,0,1; 1,1,0,1,1; 1,1,0,1,0] drawn top row first.
  const std::vector<std::string> rows = {".#.#.", "####.", ".####", "####.", "##.##"};
  hc::Tile want(5);
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 5; ++c) want.set(r, c, rows[r][c] == '#');
  EXPECT_EQ(s.pieces[0].tile, want);
  EXPECT_EQ(s.pieces[0].name, "1");
  EXPECT_EQ(hc::parse_hcq(hc::to_hcq(s), "x.hcq").pieces[3].tile, s.pieces[3].tile);
  // The JSON drawing of the same pieces reads the same.
  const hc::Spec j = hc::parse_json(nlohmann::json::parse(kJson), "t.json");
  for (int k = 0; k < 6; ++k) EXPECT_EQ(j.pieces[k].tile, s.pieces[k].tile) << k;
}

TEST(HappyCubeHcq, BadInputNamesLineAndColumn) {
  struct Case {
    std::string from, to, want;
  };
  const std::string tile1 = "1 [0, 1, 0, 1, 0; 0, 0, 1, 0, 1; 1, 1, 0, 1, 1; 1, 1, 0, 1, 0]";
  const std::vector<Case> cases = {
      // Wrong bit count: the right edge of tile 2 has 4 bits.
      {"2 [1, 1, 0, 1, 1; 1, 0, 1, 0, 0;", "2 [1, 1, 0, 1, 1; 1, 0, 1, 0;",
       "t.hcq:7:19: tile 2: expected 5 bits in the right edge (20 in all), found 4"},
      // Disagreeing corner: the top edge of tile 1 ends with 0, the right edge starts with 1.
      {"1 [0, 1, 0, 1, 0; 0, 0", "1 [0, 1, 0, 1, 0; 1, 0",
       "t.hcq:6:19: tile 1: expected the corner between the top and right edges to agree, "
       "found 0 at the end of the top edge and 1 at the start of the right edge"},
      {"3 [1, 0, 1", "3 [1, 0, 2", "t.hcq:8:10: tile 3: expected a bit (0 or 1), found '2'"},
      {"NUM_TILES: 6", "NUM_TILES: 0", "t.hcq:4:12: expected at least 1 tile, found NUM_TILES: 0"},
      {"NUM_TILES: 6", "NUM_TILES: 7", "t.hcq:12: expected 7 tiles (NUM_TILES on line 4), found 6"},
      {"6 [0, 1, 0, 1, 0; 0, 0, 1, 0, 0; 0, 1, 0, 1, 0; 0, 0, 1, 0, 0]\n", "",
       "t.hcq:11: expected 6 tiles (NUM_TILES on line 4), found 5"},
      {"TYPE: HC_BQ_INSTANCE", "TYPE: TSP",
       "t.hcq:2:7: expected TYPE: HC_BQ_INSTANCE, found 'TSP'"},
      {"\n3 [", "\n2 [", "t.hcq:8:1: expected a new tile id, found '2' again (first on line 7)"},
      {tile1, "1 [0, 1, 0, 1, 0; 0, 0, 1, 0, 1; 1, 1, 0, 1, 1]",
       "t.hcq:6:4: tile 1: expected 4 edges of 5 bits (20 bits) separated by ';', found 3 edges"},
      {"1 [0", "1 (0",
       "t.hcq:6:3: expected a tile line 'id [bits]', found '1 (0" + tile1.substr(4) + "'"},
      {"EOF", "EOF\nmore", "t.hcq:13:1: expected nothing after EOF, found 'more'"},
      {"COMMENT:", "REMARK:",
       "t.hcq:3:1: expected a header line (NAME:, TYPE:, COMMENT:, NUM_TILES:) or "
       "TILE_ID_BORDER_PATTERN, found 'REMARK: Build 3D-Cube out of 6 Happy Cube (R) tiles'"},
  };
  const std::string t = seed_text();
  for (const Case& c : cases) EXPECT_EQ(hcq_error(replace(t, c.from, c.to)), c.want);
  EXPECT_EQ(hcq_error("NAME: x\n"),
            "t.hcq:2: expected TILE_ID_BORDER_PATTERN, found the end of the file");
}

TEST(HappyCubeJson, BadInputNamesTheJsonPath) {
  const nlohmann::json good = nlohmann::json::parse(kJson);
  EXPECT_EQ(json_error(good), "");
  auto with = [&](const std::string& ptr, const nlohmann::json& v) {
    nlohmann::json d = good;
    d[nlohmann::json::json_pointer(ptr)] = v;
    return json_error(d);
  };
  EXPECT_EQ(
      with("/pieces/2/rows/2", "##.##"),
      "t.json: pieces[2].rows[2]: column 3: expected '#' in the solid centre, found a hole '.'");
  EXPECT_EQ(with("/pieces/1/rows/4", "#.#."),
            "t.json: pieces[1].rows[4]: expected 5 characters, found 4 in \"#.#.\"");
  EXPECT_EQ(with("/pieces/1/rows/0", "#x#.."),
            "t.json: pieces[1].rows[0]: column 2: expected '#' (filled) or '.' (empty), found 'x'");
  EXPECT_EQ(with("/pieces/0/rows", nlohmann::json::array({"#####"})),
            "t.json: pieces[0].rows: expected an array of 5 rows, found an array of 1");
  // More plates than faces (a spare plate) and fewer (no solution, said by the model) are read.
  EXPECT_EQ(with("/pieces/5/count", 2), "");
  EXPECT_EQ(with("/pieces/5/count", 0),
            "t.json: pieces[5].count: expected an integer from 1 to 10000, found the number 0");
  EXPECT_EQ(
      with("/pieces/4/name", "1"),
      "t.json: pieces[4].name: expected a new piece name, found \"1\" again (first at pieces[0])");
  EXPECT_EQ(with("/pieces/4/colour", "red"),
            "t.json: pieces[4]: expected only the keys \"name\", \"rows\", \"count\", \"flip\", "
            "found \"colour\"");
  EXPECT_EQ(with("/size", 2), "t.json: size: expected an integer from 3 to 32, found the number 2");
  EXPECT_EQ(with("/flip", "yes"), "t.json: flip: expected true or false, found the string \"yes\"");
  EXPECT_EQ(with("/structure", nlohmann::json::parse("[[0,0,0],[1,0,0]]")), "");
  EXPECT_EQ(with("/structure", nlohmann::json::parse("[[0,0,0],[0,0,0]]")),
            "t.json: structure[1]: expected a new cube, found the cube of structure[0] again");
  EXPECT_EQ(with("/structure", nlohmann::json::parse("[[0,0]]")),
            "t.json: structure[0]: expected [x, y, z], found an array of 2");
  EXPECT_EQ(with("/sets", nlohmann::json::parse(R"([{"name": "b"}])")),
            "t.json: sets[0]: expected \"pieces\"");
  nlohmann::json no_size = good;
  no_size.erase("size");
  EXPECT_EQ(json_error(no_size), "t.json: expected a \"size\" (the plates are size x size)");
}

TEST(HappyCubeCli, JsonFilesAreDispatchedByKind) {
  const std::string bad_syntax =
      write_temp("syntax.json", "{\"kind\": \"happy-cube\",\n  \"size\": 5,,\n}");
  expect_run("solve " + bad_syntax, 2, "syntax.json:2:13: expected JSON");

  // Every other kind goes to the voxel front end, which names what it expected.
  const std::string voxel = write_temp("voxel.json", R"({"kind": "voxel", "pieces": []})");
  expect_run("solve " + voxel, 2, "voxel.json: expected a \"container\" key, found none");
  const std::string other = write_temp("other.json", R"({"kind": "happy", "pieces": []})");
  expect_run("solve " + other, 2,
             "other.json: kind: expected \"voxel\" (or \"happy-cube\" for Happy Cube puzzles)");

  const std::string hole = write_temp(
      "hole.json",
      replace(kJson, "\".####\", \"####.\", \"##.##\"]},", "\".#.##\", \"####.\", \"##.##\"]},"));
  expect_run("solve " + hole, 2,
             "hole.json: pieces[0].rows[2]: column 3: expected '#' in the solid centre");

  const std::string ok = write_temp("ok.json", kJson);
  expect_run("solve " + ok + " --count", 0, "solutions: 48\n");
}

TEST(HappyCubeCli, SolveJsonThenVerify) {
  const std::string out = (temp_dir() / "sol.json").string();
  expect_run("solve " + kSeed + " --all --quiet --symmetry none --json " + out, 0,
             "solutions: 48\n");
  const nlohmann::json j = nlohmann::json::parse(cubex::read_file(out));
  EXPECT_EQ(j["counts"]["total"], 48);
  ASSERT_EQ(j["solutions"].size(), 48u);
  EXPECT_EQ(j["solutions"][0]["placements"].size(), 6u);
  expect_run("verify " + kSeed + " " + out + " --quiet", 0, "48 of 48 solutions valid");

  nlohmann::json bad = j;
  bad["solutions"][3]["placements"][0]["place"] = 2;
  const std::string bad_out = write_temp("bad.json", bad.dump());
  expect_run("verify " + kSeed + " " + bad_out + " --quiet", 2,
             "solutions[3]: placements[0].cells: not the cells of the piece in this orientation");

  expect_run("solve " + kSeed + " --first --symmetry none", 0,
             "Take part 6 and put it on place 1.\n");

  const std::string corner = write_temp(
      "corner.hcq", replace(seed_text(), "1 [0, 1, 0, 1, 0; 0, 0", "1 [0, 1, 0, 1, 0; 1, 0"));
  expect_run(
      "solve " + corner, 2,
      "corner.hcq:6:19: tile 1: expected the corner between the top and right edges to agree");
  fs::remove_all(temp_dir());
}

// Spare plates: the summary notes them and each solution names the unused ones; too few plates:
// 0 solutions with the reason, printed and in --json, without a search.
TEST(HappyCubeCli, SparePlatesAndReasonsForNoSolution) {
  nlohmann::json doc = nlohmann::json::parse(kJson);
  doc["pieces"][5]["count"] = 2;
  const std::string spare = write_temp("spare.json", doc.dump());
  expect_run(
      "solve " + spare + " --count", 0,
      "note: 7 plates for 6 faces: 1 plate stays unused in each solution (listed with it)\n");
  const std::string out = (temp_dir() / "spare_sol.json").string();
  const CliResult first = cubex_run("solve " + spare + " --first --symmetry none --json " + out);
  EXPECT_EQ(first.status, 0) << first.out;
  const nlohmann::json sol = nlohmann::json::parse(cubex::read_file(out));
  ASSERT_EQ(sol["solutions"][0]["unused"].size(), 1u);
  const std::string left = sol["solutions"][0]["unused"][0];
  EXPECT_NE(first.out.find("\nUnused: " + left + ".\n"), std::string::npos) << first.out;
  for (const auto& p : sol["solutions"][0]["placements"]) {
    if (left != "6") {  // one copy of 6 may be left over while the other is laid
      EXPECT_NE(p["piece"], left);
    }
  }
  EXPECT_EQ(sol["notes"].size(), 1u);
  expect_run("verify " + spare + " " + out + " --quiet", 0, "1 of 1 solutions valid");

  doc["pieces"].erase(5);
  const std::string few = write_temp("few.json", doc.dump());
  const std::string few_out = (temp_dir() / "few_sol.json").string();
  const CliResult r = cubex_run("solve " + few + " --json " + few_out);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("no solution: too few plates: the cube has 6 faces and there are 5 plates\n"
                       "solutions: 0\n"),
            std::string::npos)
      << r.out;
  const nlohmann::json j = nlohmann::json::parse(cubex::read_file(few_out));
  EXPECT_EQ(j["infeasible"]["reason"],
            "too few plates: the cube has 6 faces and there are 5 plates");
  EXPECT_EQ(j["counts"]["total"], 0);
  EXPECT_EQ(j["stats"]["nodes"], 0);
  fs::remove_all(temp_dir());
}

// Counting alone goes by memo and says so (on the terminal and in --json); --backend searches
// instead, with the same counts (a box of two cubes from two Rubens sets, 18 symmetric classes).
TEST(HappyCubeCli, CountsByMemoUnlessABackendIsNamed) {
  const std::string box =
      std::string(CUBEX_SOURCE_DIR) + "/puzzles/happycube/rubens_box_2x1x1.json";
  const CliResult memo = cubex_run("solve '" + box + "'");
  EXPECT_EQ(memo.status, 0) << memo.out;
  EXPECT_NE(memo.out.find("(counted by memo: "), std::string::npos) << memo.out;
  const CliResult search = cubex_run("solve '" + box + "' --backend links --threads 1");
  EXPECT_EQ(search.status, 0) << search.out;
  EXPECT_EQ(search.out.find("counted by memo"), std::string::npos) << search.out;
  auto counts = [](const std::string& out) {
    const auto a = out.find("solutions: "), b = out.find("\nnodes: ");
    return a == std::string::npos || b == std::string::npos ? out : out.substr(a, b - a);
  };
  EXPECT_EQ(counts(memo.out), counts(search.out));
  EXPECT_NE(counts(memo.out).find("18 of them symmetric"), std::string::npos) << memo.out;
  // Solutions listed: the search.
  const CliResult first = cubex_run("solve '" + box + "' --first");
  EXPECT_EQ(first.out.find("counted by memo"), std::string::npos) << first.out;
  // Counts in JSON: by memo, named as the backend, with the search's tree identity.
  const std::string out = (temp_dir() / "memo.json").string();
  const std::string out_links = (temp_dir() / "links.json").string();
  EXPECT_EQ(cubex_run("solve '" + box + "' --json " + out).status, 0);
  EXPECT_EQ(cubex_run("solve '" + box + "' --backend links --json " + out_links).status, 0);
  const nlohmann::json j = nlohmann::json::parse(cubex::read_file(out));
  const nlohmann::json k = nlohmann::json::parse(cubex::read_file(out_links));
  EXPECT_EQ(j["search"]["backend"], "memo");
  EXPECT_EQ(k["search"]["backend"], "links");
  EXPECT_EQ(j["counts"], k["counts"]);
  EXPECT_EQ(j["search"]["tree"], k["search"]["tree"]);
  EXPECT_GT(j["search"]["states"].get<std::uint64_t>(), 0u);
  fs::remove_all(temp_dir());
}
