// Streamed JSON of `cubex solve` (issue 19): --json -, --jsonl, stable keys, the symmetry group
// as matrices with piece permutations, --expand, and the writer's atomicity.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cubex/geometry.hpp"
#include "cubex/output/solve_output.hpp"
#include "test_util.hpp"

using cubex::test::run_cubex;
using cubex::test::slurp;
using cubex::test::source_file;
using cubex::test::TempDir;
using cubex::test::xc_file;

namespace {

// Runs cubex with standard output and standard error kept apart.
struct Split {
  int status = -1;
  std::string out, err;
};
Split run_split(const std::string& args, const TempDir& d) {
  const std::string err = d / "stderr.txt";
  const std::string cmd = std::string("'") + CUBEX_EXE + "' " + args + " 2>'" + err + "'";
  Split r;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[65536];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.err = slurp(err);
  return r;
}

std::vector<nlohmann::json> lines_of(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(nlohmann::json::parse(line));
  return out;
}

std::set<std::string> keys(const nlohmann::json& j) {
  std::set<std::string> k;
  for (const auto& [key, v] : j.items()) k.insert(key);
  return k;
}

// A solution as a set of (piece, cells) strings: equal for equal placements, whatever order.
std::string placement_set(const nlohmann::json& s) {
  std::multiset<std::string> parts;
  for (const auto& p : s["placements"]) parts.insert(p["piece"].dump() + p["cells"].dump());
  std::string out;
  for (const auto& p : parts) out += p + ";";
  return out;
}

}  // namespace

TEST(JsonStream, DashWritesOnlyJsonToStdoutAndTheSummaryToStderr) {
  TempDir d;
  const auto r = run_split(
      "solve '" + source_file("puzzles/voxel/soma.json") + "' --all -q --threads 2 --json -", d);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);  // the whole of stdout is one document
  EXPECT_EQ(j["schema"], "cubex-solve/1");
  EXPECT_EQ(j["counts"]["total"], 11520);  // KNOWN_COUNTS.md (Conway & Guy)
  EXPECT_EQ(j["counts"]["unique"], 240);
  EXPECT_EQ(j["counts"]["listed"], 240);
  ASSERT_EQ(j["solutions"].size(), 240u);
  std::uint64_t sum = 0;
  for (const auto& s : j["solutions"]) sum += s["orbit_size"].get<std::uint64_t>();
  EXPECT_EQ(sum, 11520u);
  EXPECT_NE(r.err.find("solutions: 11,520"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists("-"));
  // /dev/stdout is standard output too: the text moves to stderr, nothing is mixed in.
  const auto r2 =
      run_split("solve '" + xc_file("l9.dlx") + "' --all --limit 2 --json /dev/stdout", d);
  ASSERT_EQ(r2.status, 0) << r2.err;
  EXPECT_EQ(nlohmann::json::parse(r2.out)["counts"]["listed"], 2);
  EXPECT_NE(r2.err.find("Solution 2:"), std::string::npos) << r2.err;
}

TEST(JsonStream, JsonlHasHeaderOneLinePerSolutionAndEnd) {
  TempDir d;
  const auto r = run_split("solve '" + xc_file("l9.dlx") + "' --all -q --limit 25 --jsonl -", d);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 27u);
  EXPECT_EQ(lines.front()["type"], "header");
  EXPECT_EQ(lines.front()["schema"], "cubex-solve/1");
  EXPECT_EQ(lines.front()["puzzle"]["options"].get<int>() > 0, true);
  for (std::size_t k = 1; k + 1 < lines.size(); ++k) {
    EXPECT_EQ(lines[k]["type"], "solution");
    EXPECT_EQ(lines[k]["index"], k);
    EXPECT_EQ(lines[k]["options"].size(), 9u);  // nine L-tricubes
  }
  EXPECT_EQ(lines.back()["type"], "end");
  EXPECT_EQ(lines.back()["counts"]["listed"], 25);
  EXPECT_EQ(lines.back()["stats"]["complete"], false);
}

TEST(JsonStream, BothFilesAtOnceHoldTheSameSolutions) {
  TempDir d;
  const auto r = run_cubex("solve '" + xc_file("l9.dlx") + "' --all -q --limit 7 --json '" +
                           d / "a.json" + "' --jsonl '" + d / "a.jsonl" + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto doc = nlohmann::json::parse(slurp(d / "a.json"));
  const auto lines = lines_of(slurp(d / "a.jsonl"));
  ASSERT_EQ(lines.size(), 9u);
  for (std::size_t k = 0; k < 7; ++k)
    EXPECT_EQ(doc["solutions"][k]["options"], lines[k + 1]["options"]);
  EXPECT_EQ(doc["counts"], lines.back()["counts"]);
  EXPECT_EQ(run_cubex("solve x.dlx --json - --jsonl -").status, 2);
}

TEST(JsonStream, KeysArePresentWhateverTheFlags) {
  TempDir d;
  const std::string soma = source_file("puzzles/voxel/soma.json");
  std::vector<nlohmann::json> docs;
  for (const std::string flags :
       {"--count", "--first", "--all --limit 3", "--all --limit 2 --symmetry none",
        "--count --threads 1", "--count --threads 2", "--first --expand"}) {
    const auto r = run_split("solve '" + soma + "' -q " + flags + " --json -", d);
    ASSERT_EQ(r.status, 0) << flags << ": " << r.err;
    docs.push_back(nlohmann::json::parse(r.out));
  }
  for (const auto& j : docs) {
    EXPECT_EQ(keys(j), keys(docs[0]));
    for (const char* obj : {"puzzle", "symmetry", "counts", "stats", "search"})
      EXPECT_EQ(keys(j[obj]), keys(docs[0][obj])) << obj << " in " << j[obj].dump();
    for (const auto& s : j["solutions"])
      EXPECT_EQ(keys(s),
                (std::set<std::string>{"index", "class", "orbit_size", "element", "placements"}));
  }
  EXPECT_EQ(docs[3]["solutions"][0]["orbit_size"], 1);  // --symmetry none: every class of one
  EXPECT_EQ(docs[3]["symmetry"]["order"], 1);
}

TEST(JsonStream, GroupIsWrittenAsMatricesWithPiecePermutations) {
  TempDir d;
  const auto r =
      run_split("solve '" + source_file("puzzles/voxel/soma.json") + "' --count --json -", d);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& group = j["symmetry"]["group"];
  ASSERT_EQ(group.size(), 48u);
  ASSERT_EQ(j["symmetry"]["elements"].size(), 48u);
  std::set<std::string> matrices;
  for (std::size_t k = 0; k < group.size(); ++k) {
    const auto& e = group[k];
    EXPECT_EQ(e["symmetry"], j["symmetry"]["elements"][k]);
    // The matrix is the one cube_symmetries() names, and orthogonal with entries 0 and +-1.
    const cubex::Mat3& m = cubex::cube_symmetries()[e["symmetry"].get<std::size_t>()];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) EXPECT_EQ(e["matrix"][r][c], m.m[r][c]);
    EXPECT_EQ(e["reflection"], m.det() < 0);
    matrices.insert(e["matrix"].dump());
    // Soma: pieces A and B are mirror twins (KNOWN_COUNTS.md): reflections swap them, and
    // fix every other piece; rotations fix all.
    for (const auto& pair : e["pieces"]) {
      const std::string from = pair[0], to = pair[1];
      if (e["reflection"] && (from == "A" || from == "B")) {
        EXPECT_NE(from, to);
      } else {
        EXPECT_EQ(from, to);
      }
    }
  }
  EXPECT_EQ(matrices.size(), 48u);
  EXPECT_EQ(group[0]["matrix"], nlohmann::json({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}));
}

TEST(JsonStream, ExpandListsEveryOrbitMemberOnceAndTheyVerify) {
  // 3x3x3 from nine L-tricubes: 5,328 solutions in 111 classes (KNOWN_COUNTS.md).
  TempDir d;
  const std::string file = source_file("puzzles/voxel/l-tricubes.json");
  const auto r =
      run_cubex("solve '" + file + "' --all --expand -q --jsonl '" + d / "e.jsonl" + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto lines = lines_of(slurp(d / "e.jsonl"));
  ASSERT_EQ(lines.size(), 5328u + 2);
  std::set<std::string> distinct;
  std::map<std::uint64_t, std::uint64_t> per_class;
  std::uint64_t orbit_sum = 0;
  for (std::size_t k = 1; k + 1 < lines.size(); ++k) {
    distinct.insert(placement_set(lines[k]));
    const auto c = lines[k]["class"].get<std::uint64_t>();
    if (++per_class[c] == 1) {
      EXPECT_EQ(lines[k]["element"], 0);  // the class's representative comes first
      orbit_sum += lines[k]["orbit_size"].get<std::uint64_t>();
    }
  }
  EXPECT_EQ(distinct.size(), 5328u);
  EXPECT_EQ(per_class.size(), 111u);
  EXPECT_EQ(orbit_sum, 5328u);
  for (std::size_t k = 1; k + 1 < lines.size(); ++k)
    EXPECT_EQ(per_class[lines[k]["class"]], lines[k]["orbit_size"]);
  EXPECT_EQ(lines.back()["counts"]["listed"], 5328);
  EXPECT_EQ(lines.back()["counts"]["total"], 5328);
  // Every listed solution is checked from scratch by `cubex verify` (which reads --jsonl).
  const auto v = run_cubex("verify '" + file + "' '" + d / "e.jsonl" + "' -q");
  EXPECT_EQ(v.status, 0) << v.output;
  EXPECT_NE(v.output.find("5328 of 5328 solutions valid"), std::string::npos) << v.output;
  EXPECT_EQ(run_cubex("solve '" + file + "' --expand").status, 2);  // --count lists nothing
}

TEST(JsonStream, HappyCubeFaceHasOneTypeForCubesAndStructures) {
  TempDir d;
  for (const std::string f :
       {"puzzles/happycube/HC_BQ_01.hcq", "puzzles/happycube/rubens_box_2x1x1.json"}) {
    const auto r = run_split("solve '" + source_file(f) + "' --first -q --json -", d);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["solutions"].size(), 1u) << f;
    for (const auto& p : j["solutions"][0]["placements"]) {
      ASSERT_TRUE(p["face"].is_object()) << p.dump();
      EXPECT_EQ(p["face"]["cube"].size(), 3u);
      EXPECT_TRUE(p["face"]["side"].is_string());
      // "place" keeps its old meaning: 1..6 for one cube, the face object for structures.
      if (p["place"].is_object()) {
        EXPECT_EQ(p["place"], p["face"]);
      } else {
        EXPECT_TRUE(p["place"].is_number_integer());
      }
    }
  }
}

TEST(JsonStream, VerifyWritesItsOwnSchema) {
  TempDir d;
  const std::string l9 = xc_file("l9.dlx");
  ASSERT_EQ(run_cubex("solve '" + l9 + "' --all -q --limit 4 --json '" + d / "s.json" + "'").status,
            0);
  const auto r = run_split("verify '" + l9 + "' '" + d / "s.json" + "' --json -", d);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "cubex-verify/1");
  EXPECT_EQ(j["checked"], 4);
  EXPECT_EQ(j["valid"], 4);
  EXPECT_TRUE(j["invalid"].empty());
}

TEST(JsonStream, WriterIsAtomicAndHandlesNoSolutions) {
  TempDir d;
  const std::string path = d.file("out.json", "old\n");
  {
    cubex::SolveStream s(path, cubex::StreamFormat::kJson);
    s.begin({{"mode", "all"}});
    s.solution({{"index", 1}});
    // destroyed without end(): the old content stays, no temporary file is left
  }
  EXPECT_EQ(slurp(path), "old\n");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(d.path), {}), 1);
  {
    cubex::SolveStream s(path, cubex::StreamFormat::kJson);
    s.begin({{"mode", "count"}});
    s.end({{"counts", {{"total", 0}}}});
  }
  const auto j = nlohmann::json::parse(slurp(path));
  EXPECT_EQ(j["schema"], "cubex-solve/1");
  EXPECT_TRUE(j["solutions"].is_array() && j["solutions"].empty());
  EXPECT_EQ(j["counts"]["total"], 0);
  EXPECT_THROW(cubex::SolveStream(d / "no-such-dir/x.json", cubex::StreamFormat::kJsonl),
               std::runtime_error);
}
