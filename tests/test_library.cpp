// The puzzle library (puzzles/library, cubex/library/library.hpp): every entry names its source
// and its counts; the entries that take under a second are solved here and must give exactly
// the published counts (the rest: bench/library_check.sh). Also `cubex library` and
// `cubex solve library:NAME`, and the table of docs/library-puzzles.md.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cubex/error.hpp"
#include "cubex/library/library.hpp"
#include "cubex/puzzle.hpp"
#include "test_util.hpp"
#include "sanitized.hpp"

namespace {

using cubex::test::run_cubex;
using cubex::test::slurp;

const std::string kDir = std::string(CUBEX_SOURCE_DIR) + "/puzzles/library";

std::vector<cubex::library::Entry> library_entries() {
  return cubex::library::entries(kDir);
}

std::string count_cell(const std::optional<std::uint64_t>& n) {
  return n ? std::to_string(*n) : "-";
}

}  // namespace

TEST(LibraryIndex, EveryEntryHasCountsSourceAndLoads) {
  const auto entries = library_entries();
  EXPECT_GE(entries.size(), 60u);
  std::set<std::string> names;
  for (const auto& e : entries) {
    SCOPED_TRACE(e.id);
    EXPECT_FALSE(e.expect.source.empty());
    EXPECT_TRUE(e.expect.total || e.expect.unique);
    EXPECT_TRUE(names.insert(e.name).second) << "name used twice: " << e.name;
    for (char c : e.id) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
    EXPECT_NO_THROW(cubex::load_puzzle(e.path));
  }
}

TEST(LibraryIndex, ExpectMustNameASourceAndACount) {
  cubex::test::TempDir dir;
  const std::string no_source = dir.file(
      "a.json", R"({"box": [2, 1], "pieces": [{"set": "dominoes"}], "expect": {"total": 1}})");
  EXPECT_THROW(cubex::library::read_entry(no_source), cubex::InputError);
  const std::string no_count = dir.file(
      "b.json", R"({"box": [2, 1], "pieces": [{"set": "dominoes"}], "expect": {"source": "me"}})");
  EXPECT_THROW(cubex::library::read_entry(no_count), cubex::InputError);
  const std::string good = dir.file(
      "c.json",
      R"({"box": [2, 1], "pieces": [{"set": "dominoes"}], "expect": {"total": 1, "source": "me"}})");
  const auto e = cubex::library::read_entry(good);
  EXPECT_EQ(e.id, "c");
  EXPECT_EQ(e.expect.total, std::optional<std::uint64_t>(1));
  EXPECT_EQ(e.sets, std::vector<std::string>{"dominoes"});
}

// The fast entries (no "bench": true), each solved by the CLI: total and unique as published.
TEST(LibraryCounts, FastEntriesGiveThePublishedCounts) {
  cubex::test::TempDir dir;
  int solved = 0, fast = 0;
  for (const auto& e : library_entries()) {
    if (e.expect.bench) continue;
    if (cubex::test::kSanitized && fast++ % 4 != 0) continue;  // (a quarter: sanitized.hpp)
    SCOPED_TRACE(e.id);
    const std::string out = dir / (e.id + ".out.json");
    const auto r = run_cubex("solve '" + e.path + "' --count --quiet --symmetry " +
                             e.expect.symmetry + " --json '" + out + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json j = nlohmann::json::parse(slurp(out));
    EXPECT_TRUE(j["stats"]["complete"].get<bool>());
    if (e.expect.total) {
      EXPECT_EQ(j["counts"]["total"].get<std::uint64_t>(), *e.expect.total);
    }
    if (e.expect.unique && e.expect.cubex_issue.empty()) {
      EXPECT_EQ(j["counts"]["unique"].get<std::uint64_t>(), *e.expect.unique);
    }
    ++solved;
  }
  EXPECT_GE(solved, cubex::test::scaled(60, 15));
}

TEST(LibraryCli, ListsMatchesAndSolvesByName) {
  const auto all = run_cubex("library --dir '" + kDir + "'");
  ASSERT_EQ(all.status, 0) << all.output;
  EXPECT_NE(all.output.find("pentominoes-6x10"), std::string::npos);
  const auto soma = run_cubex("library --dir '" + kDir + "' soma BATHTUB");
  ASSERT_EQ(soma.status, 0) << soma.output;
  EXPECT_NE(soma.output.find("soma-bathtub  total -, unique 158"), std::string::npos)
      << soma.output;
  EXPECT_NE(soma.output.find("1 of "), std::string::npos) << soma.output;
  const auto json = run_cubex("library --dir '" + kDir + "' --json 8x8-centre-hole");
  ASSERT_EQ(json.status, 0) << json.output;
  const nlohmann::json j = nlohmann::json::parse(json.output);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["unique"], 65);
  cubex::test::TempDir dir;
  const auto solve =
      run_cubex("solve library:pentominoes-3x20 --count --quiet --json '" + dir / "out.json" + "'");
  ASSERT_EQ(solve.status, 0) << solve.output;
  EXPECT_EQ(nlohmann::json::parse(slurp(dir / "out.json"))["counts"]["unique"], 2);
  const auto missing = run_cubex("solve library:no-such-puzzle");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.output.find("library:no-such-puzzle: expected the name of a library entry"),
            std::string::npos)
      << missing.output;
}

// docs/library-puzzles.md lists every entry: | `id` | pieces | container | total | unique |.
TEST(LibraryDocs, TableListsEveryEntryWithItsCounts) {
  const std::string doc = slurp(std::string(CUBEX_SOURCE_DIR) + "/docs/library-puzzles.md");
  for (const auto& e : library_entries()) {
    std::string pieces;
    for (const std::string& s : e.sets) pieces += (pieces.empty() ? "" : " + ") + s;
    for (const std::string& p : e.pieces) pieces += (pieces.empty() ? "" : " + ") + p;
    const std::string row = "| `" + e.id + "` | " + pieces + " | " + e.container + " | " +
                            count_cell(e.expect.total) + " | " + count_cell(e.expect.unique) + " |";
    EXPECT_NE(doc.find(row), std::string::npos) << "missing or stale row: " << row;
  }
}
