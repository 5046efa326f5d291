// The designer's questions (cubex/library/designer.hpp): the unique verdict stops at the second
// class, the forced placements equal a brute-force intersection of all solutions, and the CSV
// rows and count checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "brute_force.hpp"
#include "cubex/library/designer.hpp"
#include "cubex/solve.hpp"
#include "cubex/voxel/read.hpp"
#include "test_util.hpp"

namespace {

std::unique_ptr<cubex::Puzzle> voxel(const std::string& text) {
  return cubex::voxel::load_json(nlohmann::json::parse(text), "t.json");
}

std::unique_ptr<cubex::Puzzle> library_puzzle(const std::string& id) {
  return cubex::load_puzzle(std::string(CUBEX_SOURCE_DIR) + "/puzzles/library/" + id + ".json");
}

// The options every solution uses, from the brute force's list of all solutions.
std::vector<cubex::OptionId> brute_intersection(const cubex::Problem& p) {
  const auto all = cubex::test::brute_force(p);
  std::vector<cubex::OptionId> common;
  bool first = true;
  for (const auto& s : all) {
    std::vector<cubex::OptionId> sorted = s;
    std::sort(sorted.begin(), sorted.end());
    if (first) {
      common = sorted;
      first = false;
      continue;
    }
    std::vector<cubex::OptionId> both;
    std::set_intersection(common.begin(), common.end(), sorted.begin(), sorted.end(),
                          std::back_inserter(both));
    common = both;
  }
  return common;
}

}  // namespace

TEST(DesignerUnique, OneClassIsUniqueAndThousandsStopAtTheSecond) {
  const auto sg = library_puzzle("slothouber-graatsma");
  const auto one = cubex::library::unique_verdict(*sg, {});
  EXPECT_EQ(one.classes, 1u);
  EXPECT_EQ(one.text(), "unique");
  EXPECT_EQ(one.json_value(), "unique");
  // 6x10: 2,339 classes; the search stops once it has two, far short of the whole tree.
  const auto pent = library_puzzle("pentominoes-6x10");
  const auto many = cubex::library::unique_verdict(*pent, {});
  EXPECT_EQ(many.classes, 2u);
  EXPECT_TRUE(many.complete);
  EXPECT_EQ(many.text(), "not unique (at least 2 classes)");
  EXPECT_EQ(many.json_value(), "not unique");
  // On one thread (a deterministic tree): stopping at the second class saves most of the nodes.
  cubex::Options one_thread;
  one_thread.threads = 1;
  const cubex::Result all = cubex::solve(*pent, one_thread);
  EXPECT_EQ(all.counts.unique, 2339u);
  const auto early = cubex::library::unique_verdict(*pent, one_thread);
  EXPECT_EQ(early.classes, 2u);
  EXPECT_LT(early.nodes * 10, all.nodes);
  // No solution at all (the checkerboard): "none".
  const auto none = cubex::library::unique_verdict(*library_puzzle("hexominoes-15x14"), {});
  EXPECT_EQ(none.classes, 0u);
  EXPECT_EQ(none.json_value(), "none");
}

TEST(DesignerForced, EqualsTheBruteForceIntersectionOfAllSolutions) {
  const std::vector<std::string> puzzles = {
      // a tail cell forces its domino, and so on: every placement is forced
      R"({"container": {"layers": [["#..", "###", "##."]]}, "pieces": [{"set": "dominoes", "count": 3}]})",
      // 11 tilings, nothing forced
      R"({"box": [4, 3], "pieces": [{"set": "dominoes", "count": 6}]})",
      // the top-left domino is forced, the rest of the 2x3 below is free
      R"({"container": {"layers": [["#..", "#..", "###", "###"]]}, "pieces": [{"set": "dominoes", "count": 4}]})",
      // two kinds of piece, each used 0 to 2 times
      R"({"box": [3, 2], "pieces": [{"set": "trominoes", "count": [0, 2]}]})"};
  int with_forced = 0;
  for (const std::string& text : puzzles) {
    SCOPED_TRACE(text);
    const auto puzzle = voxel(text);
    const cubex::Problem& p = puzzle->problem();
    ASSERT_LE(p.num_options(), 22u);  // the brute force tries every subset
    const auto forced = cubex::library::forced_options(*puzzle, {});
    EXPECT_TRUE(forced.complete);
    EXPECT_EQ(forced.solutions, cubex::test::brute_force(p).size());
    EXPECT_EQ(forced.options, brute_intersection(p));
    if (!forced.options.empty()) ++with_forced;
  }
  EXPECT_GE(with_forced, 2);
  // All three dominoes of the first shape are forced: the piece is fixed.
  const auto tail = voxel(puzzles[0]);
  const auto f = cubex::library::forced_options(*tail, {});
  const auto report = cubex::library::describe_forced(*tail, f);
  EXPECT_EQ(report.placements.size(), 3u);
  EXPECT_EQ(report.fixed_pieces, std::vector<std::string>{"D"});
  // One forced domino of four: placements but no fixed piece.
  const auto top = voxel(puzzles[2]);
  const auto r2 = cubex::library::describe_forced(*top, cubex::library::forced_options(*top, {}));
  EXPECT_EQ(r2.placements.size(), 1u);
  EXPECT_TRUE(r2.fixed_pieces.empty());
}

TEST(DesignerCheck, CountsAgainstTheExpectedOnes) {
  cubex::library::Expect e;
  e.total = 9356;
  e.unique = 2339;
  e.source = "Knuth";
  EXPECT_TRUE(cubex::library::check_counts(e, 9356, 2339).agree);
  const auto bad = cubex::library::check_counts(e, 9356, 2340);
  EXPECT_FALSE(bad.agree);
  EXPECT_NE(bad.text.find("DISAGREE: cubex total 9,356, unique 2,340, published unique 2,339"),
            std::string::npos)
      << bad.text;
  e.cubex_issue = "one-sided twins";
  EXPECT_TRUE(cubex::library::check_counts(e, 9356, 2340).agree);
}

TEST(DesignerCsv, RowsQuoteAndNameErrors) {
  EXPECT_EQ(cubex::library::csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(cubex::library::csv_field("say \"x\""), "\"say \"\"x\"\"\"");
  EXPECT_EQ(cubex::library::csv_field("plain"), "plain");
  cubex::library::CsvRow ok{"p.json", "P", "voxel", 72, 2056, 9356, 2339, 0, 58162, 0.25, true, ""};
  EXPECT_EQ(cubex::library::csv_line(ok), "p.json,P,voxel,72,2056,9356,2339,0,58162,0.250,true,");
  cubex::library::CsvRow bad{"q.json", "", "", 0, 0, 0, 0, 0, 0, 0, false, "q.json: pieces: bad"};
  EXPECT_EQ(cubex::library::csv_line(bad), "q.json,,,,,,,,,,false,q.json: pieces: bad");
  // as many fields as the header
  auto fields = [](const std::string& s) { return std::count(s.begin(), s.end(), ','); };
  EXPECT_EQ(fields(cubex::library::csv_header()), fields(cubex::library::csv_line(ok)));
  EXPECT_EQ(fields(cubex::library::csv_header()), fields(cubex::library::csv_line(bad)));
}

// ---- the CLI: cubex solve --unique, --forced, --check, --csv ----------------------------------

namespace {
const std::string kLib = std::string(CUBEX_SOURCE_DIR) + "/puzzles/library/";
}  // namespace

TEST(DesignerCli, UniqueSaysUniqueOrNotAndExitsZero) {
  cubex::test::TempDir dir;
  const auto one = cubex::test::run_cubex("solve library:slothouber-graatsma --unique --json '" +
                                          dir / "one.json" + "'");
  EXPECT_EQ(one.status, 0) << one.output;
  EXPECT_NE(one.output.find("library:slothouber-graatsma: unique\n"), std::string::npos)
      << one.output;
  const nlohmann::json j = nlohmann::json::parse(cubex::test::slurp(dir / "one.json"));
  EXPECT_EQ(j["counts"]["unique_verdict"], "unique");
  const auto many = cubex::test::run_cubex("solve '" + kLib + "pentominoes-6x10.json' --unique");
  EXPECT_EQ(many.status, 0) << many.output;
  EXPECT_NE(many.output.find(": not unique (at least 2 classes)\n"), std::string::npos)
      << many.output;
}

TEST(DesignerCli, ForcedListsPlacementsAndFixedPieces) {
  cubex::test::TempDir dir;
  const std::string tail = dir.file(
      "tail.json",
      R"({"container": {"layers": [["#..", "#..", "###", "###"]]}, "pieces": [{"set": "dominoes", "count": 4}]})");
  const auto r =
      cubex::test::run_cubex("solve '" + tail + "' --forced --json '" + dir / "f.json" + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("3 solutions; 1 placements in every one"), std::string::npos) << r.output;
  const nlohmann::json j = nlohmann::json::parse(cubex::test::slurp(dir / "f.json"));
  EXPECT_EQ(j["forced"]["solutions"], 3);
  EXPECT_EQ(j["forced"]["placements"].size(), 1u);
  EXPECT_TRUE(j["forced"]["fixed_pieces"].empty());
}

TEST(DesignerCli, CheckReportsAgreementAndDisagreement) {
  const auto ok = cubex::test::run_cubex("solve --check '" + kLib + "soma-bathtub.json' '" + kLib +
                                         "pentominoes-3x20.json'");
  EXPECT_EQ(ok.status, 0) << ok.output;
  EXPECT_NE(ok.output.find("soma-bathtub.json: agree: total 316, unique 158"), std::string::npos)
      << ok.output;
  EXPECT_NE(ok.output.find("pentominoes-3x20.json: agree: total 8, unique 2"), std::string::npos)
      << ok.output;
  cubex::test::TempDir dir;
  const std::string wrong = dir.file(
      "wrong.json",
      R"({"box": [4, 4], "pieces": [{"set": "dominoes", "count": 8}], "expect": {"total": 35, "source": "a test"}})");
  const auto bad = cubex::test::run_cubex("solve --check '" + wrong + "'");
  EXPECT_EQ(bad.status, 3) << bad.output;
  EXPECT_NE(bad.output.find("DISAGREE: cubex total 36, unique 9, published total 35 (a test)"),
            std::string::npos)
      << bad.output;
}

TEST(DesignerCli, CsvHasARowPerFileAndGoesOnPastBadOnes) {
  cubex::test::TempDir dir;
  const std::string broken =
      dir.file("broken.json", R"({"box": [4, 4], "pieces": [{"set": "dominos"}]})");
  const std::string missing = dir / "missing.json";
  const auto r = cubex::test::run_cubex("solve '" + kLib + "dominoes-4x4.json' '" + broken + "' '" +
                                        missing + "' '" + kLib + "pentominoes-3x20.json' --csv '" +
                                        dir / "out.csv" + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  const std::string csv = cubex::test::slurp(dir / "out.csv");
  std::vector<std::string> lines;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 5u) << csv;
  EXPECT_EQ(lines[0], cubex::library::csv_header());
  EXPECT_NE(lines[1].find(",Dominoes 4x4,voxel,"), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find(",36,9,"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("false,"), std::string::npos);
  EXPECT_NE(lines[2].find("pieces[0].set: expected one of the piece sets"), std::string::npos)
      << lines[2];
  EXPECT_NE(lines[3].find("missing.json"), std::string::npos);
  EXPECT_NE(lines[3].find(",false,"), std::string::npos) << lines[3];
  EXPECT_NE(lines[4].find(",8,2,"), std::string::npos) << lines[4];
  EXPECT_NE(lines[4].find(",true,"), std::string::npos) << lines[4];
  // To standard output, with '-'.
  const auto out =
      cubex::test::run_cubex("solve '" + kLib + "dominoes-3x4.json' --csv - --quiet");
  EXPECT_EQ(out.status, 0) << out.output;
  EXPECT_EQ(out.output.rfind(cubex::library::csv_header() + "\n", 0), 0u) << out.output;
}
