// The utilities (src/util/): limits on files, JSON nesting and matrix size; messages that quote
// input safely; atomic writes that never replace a device or a symbolic link.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/limits.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"
#include "test_util.hpp"

namespace cubex {
namespace {

using test::TempDir;

TEST(RobustExcerpt, ShortTextUnchanged) {
  EXPECT_EQ(excerpt("abc"), "abc");
  EXPECT_EQ(excerpt("W\xc3\xbcrfel"), "W\xc3\xbcrfel");  // UTF-8 kept
}

TEST(RobustExcerpt, LongTextCut) {
  const std::string s(1000, 'x');
  EXPECT_EQ(excerpt(s, 10), std::string(10, 'x') + "...");
  EXPECT_EQ(excerpt(s).size(), 43u);  // 40 bytes and "..."
}

TEST(RobustExcerpt, ControlAndInvalidBytesEscaped) {
  EXPECT_EQ(excerpt(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(excerpt("\x1b[2J"), "\\x1b[2J");  // no escape sequence reaches the terminal
  EXPECT_EQ(excerpt("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(excerpt("\xc3"), "\\xc3");           // a cut UTF-8 sequence
  EXPECT_EQ(excerpt("\xc0\xaf"), "\\xc0\\xaf");  // an overlong encoding
}

TEST(RobustReadFile, DirectoryIsAnError) {
  TempDir dir;
  try {
    read_file(dir.path.string());
    FAIL() << "read a directory";
  } catch (const InputError& e) {
    EXPECT_EQ(e.message(), "expected a file, found a directory");
  }
}

TEST(RobustReadFile, SizeLimit) {
  Limits lim;
  lim.max_file_bytes = 1000;
  TempDir dir;
  EXPECT_EQ(read_file(dir.file("ok.dlx", std::string(1000, 'a')), lim).size(), 1000u);
  const std::string big = dir.file("big.dlx", std::string(1001, 'a'));
  try {
    read_file(big, lim);
    FAIL() << "read past the limit";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              big + ": expected a file of at most 1000 bytes, found 1001 bytes");
  }
}

TEST(RobustReadFile, SizeLimitOnAPipe) {
  // A pipe has no size: the reader stops at the limit instead of reading forever.
  Limits lim;
  lim.max_file_bytes = std::uint64_t(1) << 20;
  try {
    read_file("/dev/zero", lim);
    FAIL() << "read /dev/zero to its end";
  } catch (const InputError& e) {
    EXPECT_EQ(e.message(), "expected a file of at most 1 MiB, found more");
  }
}

std::string nested(int depth) {
  return std::string(std::size_t(depth), '[') + std::string(std::size_t(depth), ']');
}

TEST(RobustJson, NestingLimit) {
  const int max = int(Limits{}.max_json_depth);
  EXPECT_NO_THROW(parse_json_text(nested(max), "ok.json"));
  try {
    parse_json_text("{\"a\":\n  " + nested(max), "deep.json");
    FAIL() << "accepted " << max + 1 << " levels";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 3 + max - 1);  // the bracket one level too deep
  }
}

TEST(RobustJson, BracketsInStringsDoNotCount) {
  const std::string text = "[\"" + std::string(1000, '[') + "\\\"]\"]";
  EXPECT_EQ(parse_json_text(text, "s.json")[0].get<std::string>().size(), 1002u);
}

TEST(RobustJson, SyntaxErrorQuotesSafely) {
  try {
    parse_json_text("[1,\n \x01\x1b]", "bad.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(std::string(e.what()).find('\x1b'), std::string::npos) << e.what();
  }
}

TEST(RobustLimits, EveryFrontEndStopsAtMaxNodes) {
  // Each shipped kind loads with max_nodes equal to its matrix and fails one node below,
  // naming the file (and, where it can, the place).
  LoadOptions lo;
  for (const std::string rel :
       {"puzzles/dlx/soma.dlx", "puzzles/voxel/soma.json", "puzzles/voxel/wooden-cube-6.txt",
        "puzzles/happycube/HC_BQ_01.hcq", "puzzles/happycube/rubens_box_2x1x1.json"}) {
    SCOPED_TRACE(rel);
    const std::string path = test::source_file(rel);
    lo.limits.max_nodes = kMaxNodesCeiling;
    const std::uint64_t nodes = matrix_nodes(load_puzzle(path, lo)->problem());
    lo.limits.max_nodes = nodes;
    EXPECT_EQ(matrix_nodes(load_puzzle(path, lo)->problem()), nodes);
    lo.limits.max_nodes = nodes - 1;
    try {
      load_puzzle(path, lo);
      FAIL() << "loaded " << nodes << " nodes with a limit of " << nodes - 1;
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), path);
      EXPECT_NE(e.message().find("at most " + std::to_string(nodes - 1) + " nodes"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(RobustLimits, MatrixNodesIsWhatTheSolverLaysOut) {
  // 2 + items + entries + one spacer per option: Knuth's example has 7 items and 6 options
  // of 16 entries in all.
  const KnuthFile f =
      parse_knuth(test::slurp(test::source_file("puzzles/dlx/knuth-example.dlx")), "k.dlx");
  EXPECT_EQ(f.problem.num_items(), 7u);
  EXPECT_EQ(f.problem.num_options(), 6u);
  EXPECT_EQ(f.problem.num_entries(), 16u);
  EXPECT_EQ(matrix_nodes(f.problem), 2u + 7 + 16 + 6);
}

TEST(RobustLimits, KnuthNamesTheLine) {
  Limits lim;
  lim.max_nodes = 2 + 3 + 4;  // items A B C, then options "A B" (3 nodes) and "C" (2)
  EXPECT_NO_THROW(parse_knuth("A B C\nA B\n", "k.dlx", lim));
  try {
    parse_knuth("A B C\nA B\nC\n", "k.dlx", lim);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 3);
  }
}

TEST(RobustLimits, HappyCubeStructureSize) {
  nlohmann::json doc = {{"kind", "happy-cube"}, {"size", 5}, {"pieces", nlohmann::json::array()}};
  for (int x = 0; x < 1001; ++x) doc["structure"].push_back({x, 0, 0});
  try {
    happycube::parse_json(doc, "long.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.json_path(), "structure");
    EXPECT_EQ(e.message(), "expected at most 1000 cubes, found 1001");
  }
}

TEST(RobustWrite, DeviceIsWrittenNotReplaced) {
  try {
    write_file_atomic("/dev/full", "x");
    FAIL() << "wrote to /dev/full";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write /dev/full: No space left on device");
  }
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/full"));
  write_file_atomic("/dev/null", "x");
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
}

TEST(RobustWrite, SymbolicLinkIsWrittenThrough) {
  TempDir dir;
  const std::string target = dir.file("target.json", "old");
  std::filesystem::create_symlink(target, dir / "link.json");
  write_file_atomic(dir / "link.json", "new");
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "link.json"));
  EXPECT_EQ(test::slurp(target), "new");
}

TEST(RobustWrite, FailureLeavesNothingBehind) {
  TempDir dir;
  std::filesystem::create_directory(dir / "sub");
  EXPECT_THROW(write_file_atomic(dir / "sub", "x"), std::runtime_error);  // a directory
  EXPECT_THROW(write_file_atomic(dir / "missing/x.json", "x"), std::runtime_error);
  EXPECT_THROW(write_file_atomic("", "x"), std::runtime_error);
  std::size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) entries += e.exists();
  EXPECT_EQ(entries, 1u);  // only sub/, no temporary file
  EXPECT_TRUE(std::filesystem::is_empty(dir / "sub"));
}

}  // namespace
}  // namespace cubex
