// Text that is not plain: bytes that are not UTF-8 in input files, names and file names, and
// control characters in piece and puzzle names. Input is refused with its place; what cubex
// writes is valid UTF-8 (U+FFFD for each bad byte) and reaches the terminal escaped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cubex/error.hpp"
#include "cubex/util/json.hpp"
#include "test_util.hpp"

namespace cubex {
namespace {

using test::run_cubex;
using test::slurp;
using test::TempDir;

std::string q(const std::string& s) {
  return "'" + s + "'";
}

bool has_control_byte(const std::string& s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f) return true;
  }
  return false;
}

TEST(TextEncoding, NonUtf8ItemNameInDlxIsRefusedWithItsPlace) {
  TempDir dir;
  const std::string f = dir.file("x.dlx", "A B\xff C\nA\nB\xff C\n");
  const auto r = run_cubex("solve " + q(f) + " --json " + q(dir / "out.json"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("x.dlx:1:4: expected an item name in UTF-8, found the byte \\xff"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.json"));
}

TEST(TextEncoding, NonUtf8HcqNameIsRefusedWithItsPlace) {
  TempDir dir;
  std::string hcq = slurp(test::source_file("puzzles/happycube/HC_BQ_01.hcq"));
  hcq.replace(hcq.find("HC_BQ_001"), 9, "caf\xe9");
  const std::string f = dir.file("x.hcq", hcq);
  const auto r = run_cubex("solve " + q(f) + " --json " + q(dir / "o.json"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("x.hcq:1:10: expected UTF-8 text, found the byte \\xe9"),
            std::string::npos)
      << r.output;
}

// The input file's own name need not be UTF-8: --json, --checkpoint, --html and --svg write it
// with U+FFFD for each byte that is not (and exit 0, never 1).
TEST(TextEncoding, NonUtf8FileNameIsWrittenReplaced) {
  TempDir dir;
  const std::string dlx = dir.file("caf\xe9.dlx", "A B\nA\nB\nA B\n");
  const auto r = run_cubex("solve " + q(dlx) + " --all --json " + q(dir / "o.json") +
                           " --checkpoint " + q(dir / "ck.json"));
  ASSERT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(slurp(dir / "o.json"));
  EXPECT_EQ(j["counts"]["total"], 2);
  EXPECT_NE(j["puzzle"]["file"].get<std::string>().find("caf\xef\xbf\xbd.dlx"), std::string::npos);
  EXPECT_EQ(j["puzzle"]["name"], "caf\xef\xbf\xbd.dlx");
  const auto ck = nlohmann::json::parse(slurp(dir / "ck.json"));
  EXPECT_TRUE(ck["complete"].get<bool>());
  // The terminal gets the name escaped.
  EXPECT_NE(r.output.find("caf\\xe9.dlx (exact-cover"), std::string::npos) << r.output;

  const std::string vox = dir.file("\xe9t\xe9.json", R"({"container": {"box": [2, 2, 1]},
      "pieces": [{"name": "L", "layers": [["##", "#."]]}, {"name": "o", "layers": [["#"]]}]})");
  const auto h =
      run_cubex("render " + q(vox) + " --html " + q(dir / "v.html") + " --svg " + q(dir / "v.svg"));
  ASSERT_EQ(h.status, 0) << h.output;
  EXPECT_NE(slurp(dir / "v.html").find("\xef\xbf\xbdt\xef\xbf\xbd"), std::string::npos);
  const std::string svg = slurp(dir / "v.svg");
  EXPECT_TRUE(is_utf8(svg));
}

TEST(TextEncoding, DumpJsonReplacesInvalidBytes) {
  const nlohmann::json j = {{"a", std::string("x\xc3(y")}};
  EXPECT_EQ(dump_json(j), "{\"a\":\"x\xef\xbf\xbd(y\"}");
  EXPECT_TRUE(is_utf8("plain \xc3\xa9 \xf0\x9f\x98\x80"));
  EXPECT_FALSE(is_utf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(is_utf8("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(is_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(is_utf8("\xe2\x82"));          // cut short
}

// "\u001b[2J" clears the screen: piece and puzzle names are printed escaped everywhere.
TEST(TextEncoding, ControlCharactersInNamesNeverReachTheTerminal) {
  TempDir dir;
  const std::string vox = dir.file("c.json", R"({"name": "\u001b]0;title\u0007", "container":
      {"box": [2, 2, 1]}, "pieces": [{"name": "\u001b[2J", "layers": [["##", "#."]]},
      {"name": "\u001b", "layers": [["#"]]}]})");
  auto r = run_cubex("solve " + q(vox) + " --all --symmetry none");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(has_control_byte(r.output)) << r.output;
  EXPECT_NE(r.output.find("\\x1b[2J"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\\x1b]0;title\\x07 (voxel"), std::string::npos) << r.output;

  std::string hc = slurp(test::source_file("puzzles/happycube/confusius.json"));
  const std::size_t name = hc.find("\"name\": \"") + 9;
  hc.insert(name, "\\u001b[2J");
  r = run_cubex("solve " + q(dir.file("h.json", hc)) + " --first");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(has_control_byte(r.output)) << r.output;

  // verify quotes names from the solutions file in its messages: escaped too.
  const std::string out = dir / "o.json";
  ASSERT_EQ(run_cubex("solve " + q(vox) + " --all --json " + q(out)).status, 0);
  auto j = nlohmann::json::parse(slurp(out));
  j["solutions"][0]["placements"][0]["piece"] = "\x1b[31mred";
  std::ofstream(dir / "bad.json") << j.dump();
  r = run_cubex("verify " + q(vox) + " " + q(dir / "bad.json"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_FALSE(has_control_byte(r.output)) << r.output;
}

}  // namespace
}  // namespace cubex
