// Bad input through the command line: every reader fed empty, truncated, binary, huge
// and deeply nested input exits 2 with a message that names the place; a failed run leaves an
// earlier output file as it was; unwritable outputs are clear errors; `| head` ends quietly.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace cubex {
namespace {

using test::run_cubex;
using test::TempDir;

// Deterministic "binary" bytes: every value 0..255 appears, NUL and escapes included.
std::string binary_bytes(std::size_t n) {
  std::string s;
  std::uint32_t x = 12345;
  for (std::size_t i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    s += char(i < 256 ? i : (x >> 16) & 0xff);
  }
  return s;
}

// The message names the file and the place, fits in a few lines and sends no control bytes.
void expect_bad_input(const std::string& args, const std::string& expected_start) {
  SCOPED_TRACE(args);
  const test::RunResult r = run_cubex(args);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(r.output.rfind("cubex: " + expected_start, 0), 0u) << r.output;
  EXPECT_LT(r.output.size(), 600u) << r.output;
  for (std::size_t i = 0; i + 1 < r.output.size(); ++i) {
    const auto c = static_cast<unsigned char>(r.output[i]);
    EXPECT_TRUE(c >= 0x20 || c == '\n') << "control byte " << int(c) << " in " << r.output;
  }
}

struct Reader {
  std::string ext;     // file name ending
  std::string sample;  // a valid file to truncate, from the repository
};

const std::vector<Reader> kReaders = {
    {".dlx", "puzzles/dlx/l9.dlx"},
    {".json", "puzzles/voxel/soma.json"},
    {".txt", "puzzles/voxel/wooden-cube-6.txt"},
    {".hcq", "puzzles/happycube/HC_BQ_01.hcq"},
    {".json", "puzzles/happycube/confusius.json"},
};

TEST(RobustCli, EmptyFiles) {
  TempDir dir;
  expect_bad_input("solve " + dir.file("e.dlx", ""), dir / "e.dlx:1: expected the item line");
  expect_bad_input("solve " + dir.file("e.json", ""), dir / "e.json:1:1: expected JSON");
  expect_bad_input("solve " + dir.file("e.txt", ""), dir / "e.txt: expected at least one piece");
  expect_bad_input("solve " + dir.file("e.hcq", ""),
                   dir / "e.hcq:1: expected TILE_ID_BORDER_PATTERN");
  expect_bad_input(
      "verify " + test::source_file("puzzles/voxel/soma.json") + " " + dir.file("s.json", ""),
      dir / "s.json:1:1: expected JSON");
}

TEST(RobustCli, TruncatedFiles) {
  // Every reader, cut at several places (mid-token included): a message with the line.
  TempDir dir;
  for (const Reader& r : kReaders) {
    const std::string text = test::slurp(test::source_file(r.sample));
    ASSERT_GT(text.size(), 300u) << r.sample;
    for (std::size_t cut : {std::size_t(1), std::size_t(7), text.size() / 2, text.size() - 2}) {
      const std::string name = "cut" + std::to_string(cut) + r.ext;
      const std::string path = dir.file(name, text.substr(0, cut));
      const test::RunResult res = run_cubex("solve " + path);
      SCOPED_TRACE(r.sample + " cut at " + std::to_string(cut) + ": " + res.output);
      EXPECT_EQ(res.status, 2);
      // file:LINE: (text formats and JSON syntax) or file: a whole-file message for the .txt
      // format, whose every line is complete in itself.
      EXPECT_EQ(res.output.rfind("cubex: " + path + ":", 0), 0u);
    }
  }
}

TEST(RobustCli, BinaryFiles) {
  TempDir dir;
  const std::string junk = binary_bytes(4096);
  // The junk starts with a NUL byte: every text reader stops there (issue 20), at the first block.
  for (const std::string ext : {".dlx", ".json", ".txt", ".hcq"}) {
    expect_bad_input("solve " + dir.file("b" + ext, junk),
                     dir / ("b" + ext + ":1:1: expected text, found a NUL byte"));
  }
  // Without NUL bytes, each reader names what it expected.
  std::string no_nul = junk;
  for (char& c : no_nul) c = c == '\0' ? '\x01' : c;
  expect_bad_input("solve " + dir.file("c.dlx", no_nul), dir / "c.dlx:1:");
  expect_bad_input("solve " + dir.file("c.json", no_nul), dir / "c.json:1:1: expected JSON");
  expect_bad_input("solve " + dir.file("c.txt", no_nul), dir / "c.txt:1:1: expected a coordinate");
  expect_bad_input("solve " + dir.file("c.hcq", no_nul), dir / "c.hcq:1:1: expected a header line");
  // A NUL byte in the middle of an otherwise valid Knuth file.
  expect_bad_input("solve " + dir.file("nul.dlx", std::string("A B\nA\0B\n", 8)),
                   dir / "nul.dlx:2:2: expected text, found a NUL byte");
  expect_bad_input("pocket solve --no-cache \"$(printf 'R U\\033[2J')\"",
                   "scramble:1:4: expected a move");
  expect_bad_input("pocket solve --no-cache --state \"$(printf 'UUUURRRRFFFFDDDDLLLLBBB\\001')\"",
                   "--state:1:24: expected a colour letter, found '\\x01'");
}

TEST(RobustCli, HugeFiles) {
  // A sparse file over the 1 GiB limit: refused from its size, before reading.
  TempDir dir;
  for (const std::string ext : {".dlx", ".json", ".txt", ".hcq"}) {
    const std::string path = dir / ("huge" + ext);
    ASSERT_EQ(::truncate(dir.file("huge" + ext, "").c_str(), (off_t(1) << 30) + 1), 0);
    expect_bad_input("solve " + path, path + ": expected a file of at most 1 GiB, found ");
    std::filesystem::remove(path);
  }
}

TEST(RobustCli, HugeValues) {
  TempDir dir;
  expect_bad_input("solve " + dir.file("m.dlx", "99999999999999999999|A\nA\n"),
                   dir / "m.dlx:1:1: expected a multiplicity");
  expect_bad_input("solve " + dir.file("box.json", R"({"container": {"box": [1000, 1000, 1000]},
          "pieces": [{"name": "a", "cells": [[0,0,0]]}]})"),
                   dir / "box.json: container.box: expected at most 1000000 cells");
  expect_bad_input(
      "solve " + dir.file("n.json", R"({"container": {"box": [1, 1e400, 1]}})"),
      dir / "n.json:1:27: expected a number within the range of a double, found 1e400");
  expect_bad_input("solve " + dir.file("c.txt", "0 0 99999999999\n"),
                   dir / "c.txt:1:5: expected a coordinate");
  // A 40x40x40 box of 5x5x1 plates: 3 orientations x 36 x 36 x 40 places x 26 nodes, over a
  // limit of 1,000,000 nodes: the compiler stops at the limit, naming the piece.
  std::string plate;
  for (int x = 0; x < 5; ++x)
    for (int y = 0; y < 5; ++y)
      plate += (plate.empty() ? "[" : ",[") + std::to_string(x) + "," + std::to_string(y) + ",0]";
  const std::string big = dir.file("big.json", R"({"container": {"box": [40, 40, 40]},
      "pieces": [{"name": "plate", "cells": [)" + plate +
                                                   R"(], "count": 2560}]})");
  expect_bad_input("solve " + big + " --max-nodes 1000000",
                   big + ": pieces[0]: expected an exact-cover matrix of at most 1000000 nodes");
  // Under the default limit: a row of 1000 Happy Cubes of 32 x 32 plates in six kinds (8 x 4002
  // x 126 nodes each, 24 million in all) is refused before anything is built.
  nlohmann::json hc = {
      {"kind", "happy-cube"}, {"size", 32}, {"structure", nlohmann::json::array()}};
  for (int x = 0; x < 1000; ++x) hc["structure"].push_back({x, 0, 0});
  for (int k = 1; k <= 6; ++k) {
    std::vector<std::string> rows(32, std::string(32, '#'));
    rows[0][std::size_t(k)] = '.';  // a notch in the top edge, at a different place each time
    hc["pieces"].push_back({{"name", std::to_string(k)}, {"rows", rows}, {"count", 667}});
  }
  const std::string row = dir.file("row.json", hc.dump());
  expect_bad_input("solve " + row, row +
                                       ": expected an exact-cover matrix of at most 20000000 "
                                       "nodes, found at least 24208106 (raise the limit with "
                                       "--max-nodes)");
  const test::RunResult zero = run_cubex("solve " + big + " --max-nodes 0");
  EXPECT_EQ(zero.status, 2);
  EXPECT_EQ(zero.output,
            "cubex solve: expected --max-nodes from 1 to 2,000,000,000 (the solver "
            "indexes nodes with 32-bit integers), found 0\n");
  expect_bad_input("solve " + test::source_file("puzzles/voxel/soma.json") + " --max-nodes 500",
                   test::source_file("puzzles/voxel/soma.json") + ": pieces[0]: expected an exact");
}

TEST(RobustCli, DeeplyNestedInput) {
  TempDir dir;
  const std::string deep(100000, '[');
  expect_bad_input("solve " + dir.file("d.json", "{\"pieces\": " + deep),
                   dir / "d.json:1:267: expected arrays and objects nested at most 256 deep");
  expect_bad_input(
      "solve " + dir.file("h.json", "{\"kind\": \"happy-cube\",\n \"pieces\": [" + deep),
      dir / "h.json:2:267: expected arrays and objects nested at most 256 deep");
  expect_bad_input(
      "verify " + test::source_file("puzzles/voxel/soma.json") + " " + dir.file("s.json", deep),
      dir / "s.json:1:257: expected arrays");
  // The text formats have no nesting: brackets are just bad tokens, quoted briefly.
  expect_bad_input("solve " + dir.file("d.txt", "0 0 0 " + deep + "\n"),
                   dir /
                       "d.txt:1:7: expected a coordinate (an integer from -1000 to 1000), "
                       "found '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[...'");
  expect_bad_input("solve " + dir.file("d.hcq",
                                       "NAME: x\nTYPE: HC_BQ_INSTANCE\nNUM_TILES: 6\n"
                                       "TILE_ID_BORDER_PATTERN\n1 " +
                                           deep + "\n"),
                   dir / "d.hcq:5:4: tile 1: expected a bit (0 or 1), found '['");
}

TEST(RobustCli, FailedRunKeepsEarlierOutput) {
  TempDir dir;
  const std::string out = dir.file("out.json", "{\"earlier\": \"result\"}\n");
  const std::string before = test::slurp(out);
  const std::string bad = dir.file("bad.json", "{\"container\": {\"box\": [2, 2, 2]},\n]");
  const std::string soma = test::source_file("puzzles/voxel/soma.json");
  for (const std::string& args :
       {"solve " + bad + " --json " + out, "solve " + soma + " --max-nodes 100 --json " + out,
        "solve " + soma + " --symmetry sideways --json " + out}) {
    SCOPED_TRACE(args);
    EXPECT_EQ(run_cubex(args).status, 2);
    EXPECT_EQ(test::slurp(out), before);
  }
  // A successful run replaces it whole, and leaves no temporary file.
  EXPECT_EQ(run_cubex("solve " + soma + " --quiet --json " + out).status, 0);
  EXPECT_EQ(nlohmann::json::parse(test::slurp(out))["counts"]["total"], 11520);
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.path))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"bad.json", "out.json"}));
}

TEST(RobustCli, UnwritableOutputs) {
  TempDir dir;
  const std::string soma = test::source_file("puzzles/voxel/soma.json");
  test::RunResult r = run_cubex("solve " + soma + " --json /dev/full");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("cannot write /dev/full: No space left on device"), std::string::npos)
      << r.output;
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/full"));
  r = run_cubex("solve " + soma + " --json " + (dir / "no/such/dir.json"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(
      r.output.find("cannot write " + (dir / "no/such/dir.json") + ": No such file or directory"),
      std::string::npos)
      << r.output;
  r = run_cubex("solve " + soma + " --json " + dir.path.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find(": Is a directory"), std::string::npos) << r.output;
  // Standard output on a full disk.
  const std::string cmd =
      std::string("'") + CUBEX_EXE + "' solve '" + soma + "' >/dev/full 2>'" + (dir / "err") + "'";
  const int st = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 2);
  EXPECT_EQ(test::slurp(dir / "err"),
            "cubex: cannot write standard output: No space left on device\n");
}

TEST(RobustCli, ClosedPipeEndsQuietlyAndStopsTheSearch) {
  // 9,356 solutions drawn one by one; `head` takes the first lines and leaves. cubex notices
  // the closed pipe, stops searching, writes its --json (marked incomplete) and exits 0
  // without a word, whether or not it started with SIGPIPE ignored.
  TempDir dir;
  const std::string out = dir / "out.json";
  const std::string err = dir / "err.txt";
  for (const std::string trap : {"", "trap '' PIPE; "}) {
    SCOPED_TRACE(trap);
    const std::string cmd = "bash -c \"" + trap + "'" + CUBEX_EXE + "' solve '" +
                            test::source_file("puzzles/voxel/pentominoes-6x10.json") +
                            "' --all --symmetry none --json '" + out + "' 2>'" + err +
                            "' | head -n 2 >/dev/null; exit \\${PIPESTATUS[0]}\"";
    const int st = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(st));
    EXPECT_EQ(WEXITSTATUS(st), 0);
    EXPECT_EQ(test::slurp(err), "");
    const auto j = nlohmann::json::parse(test::slurp(out));
    EXPECT_FALSE(j["stats"]["complete"].get<bool>());
    EXPECT_LT(j["counts"]["total"].get<int>(), 9356);
  }
}

}  // namespace
}  // namespace cubex
