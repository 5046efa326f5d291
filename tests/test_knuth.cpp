// Knuth's format: what it accepts, and one clear message (file:line:col) for each bad input.
#include <gtest/gtest.h>

#include "cubex/core/solver.hpp"
#include "cubex/knuth/format.hpp"
#include "test_util.hpp"

using cubex::parse_knuth;

namespace {

// The message of the InputError that parsing `text` throws ("" if none).
std::string error_of(const std::string& text) {
  try {
    parse_knuth(text, "in.dlx");
  } catch (const cubex::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Knuth, ReadsMultiplicitiesLongNamesCommentsAndBlankLines) {
  auto f = parse_knuth(
      "| comment before\n\n  a_very_long_item_name 2|pair 0:3|few | sec\r\n"
      "   | indented comment\n"
      "a_very_long_item_name pair sec\n\npair few\nfew\n",
      "x");
  const auto& p = f.problem;
  ASSERT_EQ(p.num_items(), 4u);
  EXPECT_EQ(p.item(0).name, "a_very_long_item_name");
  EXPECT_EQ(p.item(1).lo, 2u);
  EXPECT_EQ(p.item(1).hi, 2u);
  EXPECT_EQ(p.item(2).lo, 0u);
  EXPECT_EQ(p.item(2).hi, 3u);
  EXPECT_FALSE(p.item(3).primary);
  ASSERT_EQ(p.num_options(), 3u);
  EXPECT_EQ(f.option_line, (std::vector<int>{5, 7, 8}));
  EXPECT_TRUE(p.has_multiplicities());
}

TEST(Knuth, BarNeedsNoBlankAfterIt) {
  auto f = parse_knuth("A B |X Y\nA X\nB Y\n", "x");
  EXPECT_EQ(f.problem.num_primary(), 2u);
  EXPECT_EQ(f.problem.num_items(), 4u);
}

TEST(Knuth, WriterRoundTrips) {
  const std::string text = "A 3|B 1:2|C | X\nA X\nB C\nB\nB C X\n";
  auto f = parse_knuth(text, "x");
  EXPECT_EQ(cubex::to_knuth(f.problem), text);
  const auto g = parse_knuth(cubex::to_knuth(f.problem), "y");
  EXPECT_EQ(cubex::Solver(g.problem).count().solutions, cubex::Solver(f.problem).count().solutions);
}

TEST(Knuth, EachBadInputGetsItsMessage) {
  struct Case {
    const char* text;
    const char* want;  // a part of the message, place included
  };
  const Case cases[] = {
      {"A B\nA C\n", "in.dlx:2:3: expected an item named on the item line, found 'C'"},
      {"A B A\n", "in.dlx:1:5: expected distinct item names"},
      {"A B\nA B A\n", "in.dlx:2:5: expected distinct items, found 'A' twice"},
      {"A | X\nX\n", "in.dlx:2: expected at least one primary item in the option"},
      {"A | X | Y\n", "in.dlx:1:7: expected item names, found a second '|'"},
      {"A 3|\n", "in.dlx:1:3: expected an item name after '3'|"},
      {"A x:2|B\n",
       "in.dlx:1:3: expected a multiplicity 'b|name' or 'a:b|name' with whole numbers"},
      {"A 2:1|B\n", "in.dlx:1:3: expected lower bound <= upper bound"},
      {"A | 2|X\n", "in.dlx:1:5: expected a secondary item name (they take no multiplicity)"},
      {"A B\nA B",
       "in.dlx:2:4: expected a newline at the end of the line, found the end of the file"},
      {"A | X\nA:c X\n",
       "in.dlx:2:1: expected a colour on a secondary item only, found 'A:c' on the primary item"},
      {"A | X\nA X:\n", "in.dlx:2:3: expected 'item:colour' with a non-empty colour name"},
      {"A B\nA |B\n", "in.dlx:2:3: expected an item name, found '|B'"},
      {"| only a comment\n", "in.dlx:2: expected the item line, found the end of the file"},
      {"", "in.dlx:1: expected the item line"},
      {"A B\nA\x01 B\n", "in.dlx:2:1: expected an item named on the item line"},
      {"A\0B\n", "in.dlx:1:2: expected text, found a NUL byte"},
  };
  for (const Case& c : cases) {
    std::string text(c.text, c.text + std::char_traits<char>::length(c.text));
    if (std::string(c.want).find("NUL") != std::string::npos) text = std::string("A\0B\n", 4);
    EXPECT_NE(error_of(text).find(c.want), std::string::npos)
        << "input: " << c.text << "\ngot: " << error_of(text);
  }
}

TEST(Knuth, MissingFileIsAnInputError) {
  EXPECT_THROW(cubex::read_knuth_file("/nonexistent/x.dlx"), cubex::InputError);
}
