// Reading puzzle files: CR, CRLF and LF line endings read alike; a JSON key given twice is
// refused with its path; a .hcq file without EOF, with a header line twice or without a name is
// refused; /dev/zero and other binary files are refused at their first block.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cubex/error.hpp"
#include "cubex/util/files.hpp"
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

std::string with_endings(const std::string& text, const std::string& eol) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += eol;
    } else {
      out += c;
    }
  }
  return out;
}

std::string solutions_line(const std::string& output) {
  const std::size_t at = output.find("solutions: ");
  return at == std::string::npos ? "" : output.substr(at, output.find('\n', at) - at);
}

TEST(InputReading, CrCrlfAndLfLineEndingsReadAlike) {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> files = {
      // An L tromino and a monocube in their assembled places (a 2 x 2 x 1 box): 4 solutions;
      // read as one line (CR-only, before), a single square piece: 1.
      {".txt", "# box\n0 0 0  1 0 0  0 1 0\n1 1 0\n"},
      {".dlx", slurp(test::xc_file("l9.dlx"))},
      {".hcq", slurp(test::source_file("puzzles/happycube/HC_BQ_01.hcq"))},
  };
  for (const auto& [ext, text] : files) {
    const auto lf = run_cubex("solve " + q(dir.file("lf" + ext, text)) + " --symmetry none");
    ASSERT_EQ(lf.status, 0) << lf.output;
    if (ext == ".txt") {
      EXPECT_EQ(solutions_line(lf.output), "solutions: 4");
    }
    for (const std::string eol : {"\r", "\r\n"}) {
      SCOPED_TRACE(ext + (eol == "\r" ? " CR" : " CRLF"));
      const std::string f = dir.file("x" + ext, with_endings(text, eol));
      const auto r = run_cubex("solve " + q(f) + " --symmetry none");
      ASSERT_EQ(r.status, 0) << r.output;
      EXPECT_EQ(solutions_line(r.output), solutions_line(lf.output));
      // The same matrix: the header line after the name (items, options).
      EXPECT_EQ(
          r.output.substr(r.output.find(" ("), r.output.find('\n') - r.output.find(" (")),
          lf.output.substr(lf.output.find(" ("), lf.output.find('\n') - lf.output.find(" (")));
    }
  }
  // A CR-only error still names the right line.
  const auto bad = run_cubex("solve " + q(dir.file("bad.dlx", "A B\rA\rC\r")));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("bad.dlx:3:1:"), std::string::npos) << bad.output;
}

TEST(InputReading, DuplicateJsonKeysAreRefusedWithTheirPath) {
  auto error = [](const std::string& text) -> std::string {
    try {
      parse_json_text(text, "d.json");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error(R"({"a": 1, "a": 2})"),
            "d.json: expected each key once in an object, found \"a\" twice");
  EXPECT_EQ(error(R"({"a": {"b": [1, {"c": 1, "d": [], "c": 2}]}})"),
            "d.json: a.b[1]: expected each key once in an object, found \"c\" twice");
  EXPECT_EQ(error(R"([[0], {"x": [1, 2], "y": {"z": 1, "z": 1}}])"),
            "d.json: [1].y: expected each key once in an object, found \"z\" twice");
  EXPECT_EQ(error(R"({"a": {"k": 1}, "b": {"k": 1}, "c": [{"k": 1}, {"k": 2}]})"), "");

  TempDir dir;
  const std::string vox = dir.file(
      "v.json",
      R"({"container": {"box": [2, 2, 1]}, "pieces": [{"name": "L", "layers": [["##", "#."]]},
                   {"name": "o", "layers": [["#"]], "name": "p"}]})");
  auto r = run_cubex("solve " + q(vox));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("v.json: pieces[1]: expected each key once in an object, found \"name\" "
                          "twice"),
            std::string::npos)
      << r.output;
  std::string hc = slurp(test::source_file("puzzles/happycube/confusius.json"));
  hc.replace(hc.find('{') + 1, 0, "\"size\": 5, ");
  r = run_cubex("solve " + q(dir.file("h.json", hc)));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("h.json: expected each key once in an object, found \"size\" twice"),
            std::string::npos)
      << r.output;
}

TEST(InputReading, HcqWithoutEofRepeatedHeaderOrWithoutNameIsRefused) {
  const std::string seed = slurp(test::source_file("puzzles/happycube/HC_BQ_01.hcq"));
  TempDir dir;
  struct Case {
    std::string text, want;
  };
  std::string no_eof = seed.substr(0, seed.find("EOF"));
  std::string twice = seed;
  twice.insert(twice.find("TYPE:"), "NAME: again\n");
  std::string no_name = seed.substr(seed.find('\n') + 1);
  const std::vector<Case> cases = {
      {no_eof,
       "t.hcq:12: expected EOF after the last tile, found the end of the file (is the "
       "file truncated?)"},
      {twice, "t.hcq:2:1: expected each header line once, found NAME: again (first on line 1)"},
      {no_name, "t.hcq:1: expected a NAME: header line"},
  };
  for (const Case& c : cases) {
    const auto r = run_cubex("solve " + q(dir.file("t.hcq", c.text)));
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find(c.want), std::string::npos) << r.output;
  }
}

// /dev/zero (or any binary file) is refused at its first block, not after reading 1 GiB.
TEST(InputReading, DevZeroIsRefusedAtOnce) {
  TempDir dir;
  for (const std::string ext : {".dlx", ".json", ".txt", ".hcq"}) {
    const std::string link = dir / ("zero" + ext);
    ASSERT_EQ(::symlink("/dev/zero", link.c_str()), 0);
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = run_cubex("solve " + q(link));
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find(link + ":1:1: expected text, found a NUL byte"), std::string::npos)
        << r.output;
    EXPECT_LT(s, 2.0);  // reading 1 GiB of zeros took several seconds
  }
  try {
    read_text_file(dir.file("b.txt", std::string("1 2 3\n4 5\0 6\n", 12)));
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 4);
  }
}

}  // namespace
}  // namespace cubex
