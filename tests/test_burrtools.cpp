// BurrTools .xmpuzzle files in and out: published counts kept through `cubex convert`, ranges,
// holes and colours, several problems, recorded counts, bad files refused with their place
// (InteropBurr*); memory bounds that hold before the work and problem names (BurrTools*).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <bit>
#include <cinttypes>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cubex/burrtools/xmpuzzle.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/formats.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/limits.hpp"
#include "cubex/output/checkpoint.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/solve.hpp"
#include "cubex/render/stl.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"
#include "cubex/voxel/model.hpp"
#include "cubex/voxel/read.hpp"
#include "cubex/voxel/write.hpp"
#include "sanitized.hpp"
#include "test_util.hpp"
#include "voxel_helpers.hpp"

using cubex::test::run_cubex;
using cubex::test::slurp;
using cubex::test::TempDir;
using nlohmann::json;

namespace {

using cubex::Vec3;
using cubex::test::run_cubex;
using cubex::test::TempDir;

// ---- BurrTools ----------------------------------------------------------------------------------
#ifdef CUBEX_WITH_BURRTOOLS

struct Counts {
  std::uint64_t total = 0, unique = 0;
};
Counts solve_counts(const std::string& file, const std::string& extra = "") {
  TempDir dir;
  const auto r = run_cubex("solve '" + file + "' " + extra + " --json '" + dir / "out.json" + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(cubex::test::slurp(dir / "out.json"));
  return {j["counts"]["total"].get<std::uint64_t>(), j["counts"]["unique"].get<std::uint64_t>()};
}

struct KnownXm {
  const char* file;
  std::uint64_t total, unique;
};

class InteropBurrKnown : public ::testing::TestWithParam<KnownXm> {};

// Converted to .xmpuzzle by `cubex convert`, the shipped puzzles keep their published counts
// (KNOWN_COUNTS.md: Soma 11,520 / 240, L-tricubes 5,328 / 111), and converting back to JSON too.
TEST_P(InteropBurrKnown, ConvertKeepsPublishedCounts) {
  TempDir dir;
  const std::string xm = dir / "p.xmpuzzle", js = dir / "back.json";
  auto r = run_cubex("convert '" + vxtest::shipped(GetParam().file) + "' '" + xm + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string bytes = cubex::test::slurp(xm);
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);  // gzip
  Counts c = solve_counts(xm);
  EXPECT_EQ(c.total, GetParam().total);
  EXPECT_EQ(c.unique, GetParam().unique);
  r = run_cubex("convert '" + xm + "' '" + js + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  c = solve_counts(js);
  EXPECT_EQ(c.total, GetParam().total);
  EXPECT_EQ(c.unique, GetParam().unique);
}

INSTANTIATE_TEST_SUITE_P(Shipped, InteropBurrKnown,
                         ::testing::Values(KnownXm{"soma.json", 11520, 240},
                                           KnownXm{"l-tricubes.json", 5328, 111}),
                         [](const auto& info) {
                           std::string n = info.param.file;
                           n = n.substr(0, n.find('.'));
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// A file as BurrTools writes it: two problems, a hotspot, a name, groups, saved counts, a
// colour bitmap; `--problem` picks by name or number.
const char* kTwoProblems = R"(<?xml version="1.0"?>
<puzzle version="2">
 <gridType type="0"/>
 <colors/>
 <shapes>
  <voxel x="2" y="2" z="1" type="0" name="V">##_#</voxel>
  <voxel x="3" y="1" z="1" type="0" hx="1" hy="0" hz="0">###</voxel>
  <voxel x="3" y="3" z="1" type="0" name="box">#########</voxel>
  <voxel x="3" y="2" z="1" type="0">######</voxel>
 </shapes>
 <problems>
  <problem name="square" state="2" assemblies="3" solutions="2" time="0">
   <shapes>
    <shape id="1" count="3" group="1"/>
   </shapes>
   <result id="2"/>
   <bitmap/>
  </problem>
  <problem name="rect" state="0">
   <shapes>
    <shape id="0" count="2"/>
   </shapes>
   <result id="3"/>
   <bitmap/>
  </problem>
 </problems>
 <comment>test file</comment>
</puzzle>
)";

TEST(InteropBurr, ProblemsNotesAndRecordedCounts) {
  TempDir dir;
  const std::string f = dir.file("two.xmpuzzle", cubex::burrtools::gzip(kTwoProblems));
  auto r = run_cubex("solve '" + f + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  // Three I-trominoes in a 3x3 square: 2 ways, 1 up to symmetry.
  EXPECT_NE(r.output.find("solutions: 2\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("unique: 1 "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2 \"rect\""), std::string::npos) << r.output;  // the others listed
  EXPECT_NE(r.output.find("assemblies 3, solutions 2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("groups"), std::string::npos) << r.output;
  // Two V-trominoes in a 3x2 rectangle: 2 ways.
  for (const char* pick : {"2", "rect"}) {
    r = run_cubex("solve '" + f + "' --problem " + pick);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("solutions: 2\n"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("recorded"), std::string::npos) << r.output;
  }
  r = run_cubex("solve '" + f + "' --problem 3");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("1 \"square\", 2 \"rect\""), std::string::npos) << r.output;
  // Plain XML is read too.
  const std::string plain = dir.file("plain.xmpuzzle", kTwoProblems);
  EXPECT_EQ(solve_counts(plain).total, 2u);
}

struct BadXm {
  const char* name;
  std::string content;  // XML text (gzipped unless raw)
  bool raw;
  const char* expect;  // in the message
};

std::string replace(std::string s, const std::string& from, const std::string& to) {
  s.replace(s.find(from), from.size(), to);
  return s;
}

class InteropBurrBad : public ::testing::TestWithParam<BadXm> {};

TEST_P(InteropBurrBad, ExitTwoWithThePlace) {
  TempDir dir;
  const BadXm& b = GetParam();
  const std::string f =
      dir.file("bad.xmpuzzle", b.raw ? b.content : cubex::burrtools::gzip(b.content));
  const auto r = run_cubex("solve '" + f + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find(b.expect), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("bad.xmpuzzle"), std::string::npos) << r.output;
}

std::vector<BadXm> bad_files() {
  const std::string good = kTwoProblems;
  const std::string gz = cubex::burrtools::gzip(good);
  return {
      {"other_grid", replace(good, "<gridType type=\"0\"/>", "<gridType type=\"3\"/>"), false,
       ":3:2: expected the cube grid (gridType 0), found gridType 3 (rhombic dodecahedra)"},
      {"truncated_gzip", gz.substr(0, gz.size() / 2), true, "cut off"},
      {"corrupt_gzip", replace(gz, gz.substr(12, 6), "xxxxxx"), true, "corrupt gzip"},
      {"bad_xml", replace(good, "</shapes>\n <problems>", "</shape>\n <problems>"), false,
       "expected well-formed XML"},
      {"unknown_shape", replace(good, "<shape id=\"1\"", "<shape id=\"9\""), false,
       ":14:5: problem 1 \"square\": expected a shape id from 0 to 3"},
      {"bad_voxel_char", replace(good, "##_#", "##x#"), false, ":6:48: shape 0: expected '_'"},
      {"short_voxel", replace(good, "##_#", "##_"), false, "expected 4 cells"},
      {"variable_piece", replace(good, "###<", "#+#<"), false, "variable cell"},
      {"min_above_max", replace(good, "count=\"3\" group", "min=\"3\" max=\"2\" group"), false,
       "min <= max"},
      {"no_puzzle", "<?xml version=\"1.0\"?><other/>", false, "expected a BurrTools <puzzle>"},
  };
}

INSTANTIATE_TEST_SUITE_P(Files, InteropBurrBad, ::testing::ValuesIn(bad_files()),
                         [](const auto& info) { return std::string(info.param.name); });

// Like with like (issue 38): BurrTools counts assemblies up to rotations, and also up to mirror
// images unless it was told to keep mirror solutions; its file does not say which. Soma's pieces
// are closed under mirroring: 480 classes up to rotations (11,520 / 24: no rotation fixes a
// solution), 240 also up to mirror images. Both are printed beside the recorded count, and the
// one that matches it is named.
TEST(InteropBurr, RecordedCountsAreComparedLikeWithLike) {
  TempDir dir;
  const std::string xm = dir / "soma.xmpuzzle";
  ASSERT_EQ(run_cubex("convert '" + vxtest::shipped("soma.json") + "' '" + xm + "'").status, 0);
  const std::string xml = cubex::burrtools::gunzip(cubex::test::slurp(xm), xm);
  ASSERT_NE(xml.find("state=\"0\""), std::string::npos) << xml;
  for (const std::string recorded : {"480", "240"}) {
    const std::string f =
        dir.file("r" + recorded + ".xmpuzzle",
                 cubex::burrtools::gzip(
                     replace(xml, "state=\"0\"", "state=\"2\" assemblies=\"" + recorded + "\"")));
    const std::string out = dir / ("r" + recorded + ".json");
    const auto r = run_cubex("solve '" + f + "' --json '" + out + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    const bool kept = recorded == "480";
    const std::string line =
        "recorded by BurrTools (search complete): assemblies " + recorded +
        "\n  cubex: 480 assemblies up to rotations (BurrTools keeping mirror solutions" +
        (kept ? ", as this file was saved" : "") +
        "); 240 also up to mirror images (BurrTools' default" +
        (kept ? "" : ", as this file was saved") + ")\n";
    EXPECT_NE(r.output.find(line), std::string::npos) << r.output;
    const auto j = nlohmann::json::parse(cubex::test::slurp(out));
    EXPECT_EQ(j["counts"]["unique"], 240);
    EXPECT_EQ(j["recorded"]["assemblies"], std::stoi(recorded));
    EXPECT_EQ(j["recorded"]["unique_rotations"], 480);
  }
  // With --symmetry rotations the one count is the mirror-kept one; with none, nothing to compare.
  const std::string f = dir / "r480.xmpuzzle";
  auto r = run_cubex("solve '" + f + "' --symmetry rotations");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\n  cubex: 480 assemblies up to rotations (--symmetry rotations: as "
                          "BurrTools keeping mirror solutions)\n"),
            std::string::npos)
      << r.output;
  r = run_cubex("solve '" + f + "' --symmetry none");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\n  cubex: --symmetry none counts every solution apart"),
            std::string::npos)
      << r.output;
}

// Every count recorded in BurrTools' cube-grid examples is matched by the line printed beside
// it: assemblies by a unique count, solutions by a count of classes that come apart (the files
// are read from CUBEX_BURRTOOLS_EXAMPLES, as in test_disassembly_burrtools.cpp).
TEST(InteropBurr, BurrToolsExamplesRecordedCountsAreMatchedBeside) {
  const char* dir = std::getenv("CUBEX_BURRTOOLS_EXAMPLES");
  if (!dir) GTEST_SKIP() << "set CUBEX_BURRTOOLS_EXAMPLES to BurrTools' examples/ folder";
  TempDir tmp;
  for (const char* name :
       {"AlPackino", "CubeInCage", "DraculasDentalDesaster", "PelikanBurr", "SolidSixPieceBurrs"}) {
    SCOPED_TRACE(name);
    const std::string path = std::string(dir) + "/" + name + ".xmpuzzle";
    if (!std::filesystem::exists(path)) continue;
    const std::string out = tmp / "out.json";
    const auto r = run_cubex("solve '" + path + "' --disassemble --json '" + out + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    const auto j = nlohmann::json::parse(cubex::test::slurp(out));
    const auto& rec = j["recorded"];
    const auto& c = j["counts"];
    const std::uint64_t assemblies = rec["assemblies"];
    if (rec.contains("unique_rotations")) {  // both printed: the matching one named
      EXPECT_TRUE(assemblies == rec["unique_rotations"] || assemblies == c["unique"]) << rec;
      EXPECT_NE(r.output.find(", as this file was saved"), std::string::npos) << r.output;
    } else {
      EXPECT_EQ(assemblies, c["unique"]) << rec;
      EXPECT_NE(r.output.find("\n  cubex: " + cubex::with_commas(assemblies) +
                              (assemblies == 1 ? " assembly" : " assemblies") + " up to rotations"),
                std::string::npos)
          << r.output;
    }
    if (rec.contains("solutions")) {
      const std::uint64_t solutions = rec["solutions"];
      EXPECT_TRUE(solutions == c["disassemblable_unique"] ||
                  solutions == rec.value("disassemblable_unique_rotations", std::uint64_t(0)))
          << rec << c;
    }
    if (std::string(name) == "SolidSixPieceBurrs") {  // the issue's check
      EXPECT_NE(r.output.find("recorded by BurrTools (search complete): assemblies 1,063, "
                              "solutions 314\n  cubex: 1,063 assemblies up to rotations, 314 of "
                              "them come apart (BurrTools keeping mirror solutions, as this file "
                              "was saved); 588 also up to mirror images, 179 of them come apart"),
                std::string::npos)
          << r.output;
    }
  }
}

TEST(InteropBurr, MirrorCannotBeWrittenForChiralPieces) {
  TempDir dir;
  cubex::voxel::Model m = vxtest::model(
      R"({"container": {"box": [2,2,2]}, "mirror": true,
          "pieces": [{"name": "A", "cells": [[0,0,0],[0,1,0],[1,0,0],[1,0,1]]},
                     {"name": "B", "cells": [[0,0,0],[0,1,0],[0,1,1],[1,0,0]]}]})");
  EXPECT_THROW(cubex::save_model(m, dir / "m.xmpuzzle"), cubex::InputError);
  EXPECT_FALSE(std::filesystem::exists(dir / "m.xmpuzzle"));
}

#endif  // CUBEX_WITH_BURRTOOLS

std::string puzzle_path(const std::string& rel) {
  return std::string(CUBEX_SOURCE_DIR) + "/puzzles/" + rel;
}

}  // namespace

// ---- BurrTools: memory bounds that hold before the work ---------------------------------------

namespace {

// `text` as one gzip member.
std::string gzip_member(const std::string& text) {
  return cubex::burrtools::gzip(text);
}

// A gzip file that inflates to `head` and then `megabytes` MiB of `fill` repeated, written as
// many members of 1 MiB each (the reader inflates multi-member streams), `tail` last: a file of
// a few MB that inflates to gigabytes.
void write_bomb(const std::string& path, const std::string& head, const std::string& fill,
                std::size_t megabytes, const std::string& tail) {
  std::string chunk;
  while (chunk.size() < (std::size_t(1) << 20)) chunk += fill;
  chunk.resize(std::size_t(1) << 20);
  const std::string member = gzip_member(chunk);
  std::ofstream out(path, std::ios::binary);
  out << gzip_member(head);
  for (std::size_t k = 0; k < megabytes; ++k) out << member;
  out << gzip_member(tail);
}

// AddressSanitizer and ThreadSanitizer reserve terabytes of address space for their shadow
// memory at start: a program built with them cannot run under RLIMIT_AS, and its resident memory
// is theirs as much as cubex's. Such builds check the refusals, not the memory (the Release
// build checks both).
using cubex::test::kSanitized;  // (sanitized.hpp)

struct ChildRun {
  int status = -1;
  long peak_kb = 0;  // the child's peak resident memory (ru_maxrss)
  std::string output;
};

// Runs `cubex ARGS...` in a child process (no shell) whose address space is limited to
// `limit_mb` MB (RLIMIT_AS: running past it is an allocation failure, exit 1 "out of memory"),
// and measures its peak resident memory with wait4(). (Linux counts in ru_maxrss the memory the
// child had from this process before exec, so the peak is bounded by this test program's size
// too: the limit is the exact bound.) Not limited in a sanitizer build (kSanitized).
ChildRun run_measured(const std::vector<std::string>& args, const std::string& log,
                      std::size_t limit_mb) {
  ChildRun out;
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!kSanitized) {
      const struct rlimit lim { rlim_t(limit_mb) << 20, rlim_t(limit_mb) << 20 };
      ::setrlimit(RLIMIT_AS, &lim);
    }
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> argv;
    std::string exe = CUBEX_EXE;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  int st = 0;
  struct rusage ru {};
  ::wait4(pid, &st, 0, &ru);
  out.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  out.peak_kb = ru.ru_maxrss;
  out.output = slurp(log);
  return out;
}

const std::string kHead =
    "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n <gridType type=\"0\"/>\n";

}  // namespace

// The hostile files of issue 35, each refused with the limit named and a peak memory far below
// what inflating and parsing them took (2.1 GB, 1.8 GB, 4.0 GB, 3.1 GB of resident memory): here
// within an address space of 320 MB each, so a resident peak under that (the XML cap is 64 MiB;
// the rest is the compressed file, the growing buffer and the program).
TEST(BurrToolsLimits, HostileFilesAreRefusedBeforeMemoryIsSpent) {
  TempDir dir;
  struct Case {
    std::string name, fill;
    std::size_t megabytes;
    std::string tail, message;
  };
  const std::vector<Case> cases = {
      {"bomb2g.xmpuzzle", " ", 2048, "</puzzle>\n",
       "expected at most 64 MiB of XML after decompression, found more (raise the limit with "
       "--max-xml-bytes)"},
      {"bomb900m.xmpuzzle", "<!-- -->", 900, "</puzzle>\n", "expected at most 64 MiB of XML"},
      {"elements.xmpuzzle", "<a/>", 60, "</puzzle>\n",
       "expected at most 1000000 XML elements, found more (raise the limit with "
       "--max-xml-elements)"},
      {"attribute.xmpuzzle", "A", 60, "\"/></puzzle>\n",
       "expected an attribute value of at most 1 MiB, found 62914560 bytes"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string f = dir / c.name;
    write_bomb(f, c.name == "attribute.xmpuzzle" ? kHead + "<comment x=\"" : kHead, c.fill,
               c.megabytes, c.tail);
    const ChildRun r = run_measured({"convert", f, dir / "out.json"}, dir / "log", 320);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << r.output;
    if (!kSanitized) {
      EXPECT_LT(r.peak_kb, 320 * 1024) << "peak resident memory " << r.peak_kb << " KB";
    }
    std::printf("[          ] %s: peak %ld KB, %s", c.name.c_str(), r.peak_kb, r.output.c_str());
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "out.json"));
}

TEST(BurrToolsLimits, FlagsRaiseTheLimits) {
  TempDir dir;
  const std::string f = dir / "soma.xmpuzzle";
  ASSERT_EQ(run_cubex("convert '" + puzzle_path("voxel/soma.json") + "' '" + f + "'").status, 0);
  auto r = run_cubex("compile '" + f + "' --dlx '" + (dir / "a.dlx") + "' --max-xml-bytes 100");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("expected at most 100 bytes of XML"), std::string::npos) << r.output;
  r = run_cubex("compile '" + f + "' --dlx '" + (dir / "a.dlx") + "' --max-xml-elements 5");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("expected at most 5 XML elements"), std::string::npos) << r.output;
  r = run_cubex("compile '" + f + "' --dlx '" + (dir / "a.dlx") + "' --max-xml-bytes 0");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("expected --max-xml-bytes from 1"), std::string::npos) << r.output;
  r = run_cubex("compile '" + f + "' --dlx '" + (dir / "a.dlx") + "' --max-xml-elements 100");
  EXPECT_EQ(r.status, 0) << r.output;
  // The library's limits, set directly.
  cubex::LoadOptions few;
  few.limits.max_xml_attributes = 3;
  EXPECT_THROW(cubex::burrtools::read_xmpuzzle(f, few), cubex::InputError);
  EXPECT_NO_THROW(cubex::burrtools::read_xmpuzzle(f, {}));
}

TEST(BurrToolsLimits, PlainXmlOverTheLimitIsRefusedBeforeReading) {
  // A 2 GiB file (sparse: it takes no disk), refused by its size in a 100 MB address space.
  TempDir dir;
  const std::string f = dir / "big.xmpuzzle";
  {
    std::ofstream out(f, std::ios::binary);
    out << kHead;
  }
  std::filesystem::resize_file(f, std::uintmax_t(2) << 30);
  const ChildRun r = run_measured({"convert", f, dir / "out.json"}, dir / "log", 100);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("expected a BurrTools file of at most 64 MiB of XML, found a file of "
                          "2147483648 bytes (raise the limit with --max-xml-bytes)"),
            std::string::npos)
      << r.output;
}

TEST(BurrToolsLimits, TrailingDataIsReportedAtItsByte) {
  const std::string good = cubex::burrtools::gzip(kHead + "</puzzle>\n");
  try {
    cubex::burrtools::gunzip(good + "garbage after the stream", "t.xmpuzzle");
    FAIL() << "accepted";
  } catch (const cubex::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("expected nothing after the gzip stream, found 24 more "
                                         "bytes at byte " +
                                         std::to_string(good.size())),
              std::string::npos)
        << e.what();
  }
}

TEST(BurrToolsLimits, NoShapesSaysSo) {
  const std::string xml = kHead +
                          "<shapes/><problems><problem><shapes/><result id=\"0\"/></problem>"
                          "</problems></puzzle>";
  try {
    cubex::burrtools::parse_xmpuzzle(xml, "n.xmpuzzle", {});
    FAIL() << "accepted";
  } catch (const cubex::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the file has no shapes"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("-1"), std::string::npos) << e.what();
  }
}

// --problem: exact names first, then spaces around it ignored, "N" and "problem N" taken.
TEST(BurrToolsProblem, NamesAreTrimmedOrMatchedExactly) {
  TempDir dir;
  const std::string f = dir / "s.xmpuzzle";
  ASSERT_EQ(run_cubex("convert '" + puzzle_path("voxel/soma.json") + "' '" + f + "'").status, 0);
  const std::string xml = cubex::burrtools::gunzip(slurp(f), f);
  // Two problems: "Soma cube" and " 1" (a name that is also a number with a space).
  const std::size_t a = xml.find("  <problem "), b = xml.find("  </problem>") + 13;
  std::string second = xml.substr(a, b - a);
  second.replace(second.find("Soma cube"), 9, " 1");
  const std::string two = xml.substr(0, b) + second + xml.substr(b);
  auto chosen = [&](const std::string& want) {
    cubex::LoadOptions o;
    o.problem = want;
    return cubex::burrtools::parse_xmpuzzle(two, "two.xmpuzzle", o).chosen;
  };
  EXPECT_EQ(chosen(" 1"), 1u);  // the exact name wins
  EXPECT_EQ(chosen("1 "), 0u);  // trimmed: number 1
  EXPECT_EQ(chosen("1"), 0u);
  EXPECT_EQ(chosen("2"), 1u);
  EXPECT_EQ(chosen("problem 2"), 1u);
  EXPECT_EQ(chosen(" Soma cube "), 0u);
  for (const char* bad : {"3", "problem 3", "0", "x"}) {
    SCOPED_TRACE(bad);
    try {
      chosen(bad);
      FAIL() << "accepted";
    } catch (const cubex::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("give its number from 1 to 2"), std::string::npos)
          << e.what();
    }
  }
  for (std::string p : {" 1", "1 ", "problem 2", "problem 9"}) {
    const auto r =
        run_cubex("compile '" + f + "' --dlx '" + (dir / "x.dlx") + "' --problem '" + p + "'");
    EXPECT_TRUE(r.status == 0 || r.status == 2) << p << ": " << r.output;
  }
}
