// Option values on the command line: negative, empty and out-of-range values are refused with
// what was expected (exit 2), and an output file that names the input file (under any spelling,
// or through a link) is refused before anything is written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace cubex {
namespace {

using test::run_cubex;
using test::slurp;
using test::TempDir;

std::string q(const std::string& s) {
  return "'" + s + "'";
}

// A 2 x 2 x 1 box from an L tromino and a monocube: 4 solutions without symmetry.
const char* kSmallVoxel =
    R"({"name": "box", "container": {"box": [2, 2, 1]},
        "pieces": [{"name": "L", "layers": [["##", "#."]]}, {"name": "o", "layers": [["#"]]}]})";

TEST(CliOptions, NegativeAndEmptyOptionValuesAreRefused) {
  TempDir dir;
  const std::string f = test::xc_file("l9.dlx");
  struct Case {
    std::string args, want;
  };
  const std::vector<Case> cases = {
      {"solve " + q(f) + " --limit -1",
       "expected --limit to be a whole number of 0 or more, found '-1'"},
      {"solve " + q(f) + " --threads -1",
       "expected --threads from 0 (all cores) to 4096, found '-1'"},
      {"solve " + q(f) + " --threads=-1", "expected --threads from 0 (all cores) to 4096"},
      {"solve " + q(f) + " --threads 5000",
       "expected --threads from 0 (all cores) to 4096, found '5000'"},
      {"solve " + q(f) + " --threads ''", "expected a value after --threads"},
      {"solve " + q(f) + " --max-nodes -1", "expected --max-nodes to be a whole number"},
      {"solve " + q(f) + " --json ''", "expected a value after --json, found an empty string"},
      {"solve " + q(f) + " --checkpoint ''", "expected a value after --checkpoint"},
      {"render " + q(f) + " --svg x.svg --solution -1", "expected --solution to be a whole number"},
      {"render " + q(f) + " --html ''", "expected a value after --html"},
      {"render " + q(f) + " --svg x.svg --limit -3", "expected --limit to be a whole number"},
      {"merge a.json --json ''", "expected a value after --json"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const auto r = run_cubex(c.args);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find(c.want), std::string::npos) << r.output;
  }
}

TEST(CliOptions, OutputNamingTheInputIsRefused) {
  TempDir dir;
  const std::string text = slurp(test::xc_file("l9.dlx"));
  const std::string f = dir.file("p.dlx", text);
  std::filesystem::create_directory(dir / "sub");
  const std::string other_spelling = dir / "sub/../p.dlx";
  ::symlink(f.c_str(), (dir / "link.dlx").c_str());
  for (const std::string& out : {f, other_spelling, dir / "link.dlx"}) {
    SCOPED_TRACE(out);
    auto r = run_cubex("solve " + q(f) + " --json " + q(out));
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("names the input file"), std::string::npos) << r.output;
    r = run_cubex("solve " + q(f) + " --checkpoint " + q(out));
    EXPECT_EQ(r.status, 2) << r.output;
  }
  const std::string v = dir.file("v.json", kSmallVoxel);
  auto r = run_cubex("render " + q(v) + " --html " + q(v));
  EXPECT_EQ(r.status, 2) << r.output;
  ASSERT_EQ(run_cubex("solve " + q(v) + " --all --json " + q(dir / "s.json")).status, 0);
  r = run_cubex("render " + q(v) + " --from " + q(dir / "s.json") + " --svg " + q(dir / "s.json"));
  EXPECT_EQ(r.status, 2) << r.output;
  r = run_cubex("merge " + q(dir / "s.json") + " --json " + q(dir / "s.json"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("names the input file"), std::string::npos) << r.output;
  EXPECT_EQ(slurp(f), text);
  EXPECT_EQ(slurp(v), kSmallVoxel);
}

}  // namespace
}  // namespace cubex
