// The symmetry group's action on options (src/symmetry/option_index): cube_symmetry_group()
// records the image of every option under every element, SymmetricSolver takes them instead of
// finding them again; both checked against images found by sorting entries, and against the
// solver's own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cubex/cubex.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cubex/symmetry.hpp"
#include "test_util.hpp"

namespace {

using cubex::ItemId;
using cubex::OptionId;
using cubex::test::source_file;

// Option o's (item, colour) entries with every item mapped by perm, sorted.
std::vector<std::pair<ItemId, cubex::ColourId>> entries(const cubex::Problem& pb, OptionId o,
                                                        const std::vector<ItemId>& perm) {
  std::vector<std::pair<ItemId, cubex::ColourId>> out;
  const auto items = pb.option(o);
  const auto colours = pb.option_colours(o);
  for (std::size_t k = 0; k < items.size(); ++k) out.emplace_back(perm[items[k]], colours[k]);
  std::sort(out.begin(), out.end());
  return out;
}

class OptionImages : public ::testing::TestWithParam<const char*> {};

TEST_P(OptionImages, RecordedImagesAreTheImagesAndTheSolverKeepsThem) {
  auto puzzle = cubex::load(source_file(GetParam()));
  const cubex::Problem& pb = puzzle->problem();
  const cubex::CubeGroup g = puzzle->symmetry_group(cubex::SymmetryMode::kAuto);
  ASSERT_GT(g.group.order(), 1u);
  ASSERT_EQ(g.option_perm.size(), g.group.order());
  std::vector<ItemId> identity(pb.num_items());
  for (ItemId i = 0; i < identity.size(); ++i) identity[i] = i;
  for (std::size_t k = 0; k < g.group.order(); ++k) {
    ASSERT_EQ(g.option_perm[k].size(), pb.num_options());
    for (OptionId o = 0; o < pb.num_options(); ++o) {
      ASSERT_EQ(entries(pb, o, g.group.perm[k]), entries(pb, g.option_perm[k][o], identity))
          << "element " << k << ", option " << o;
    }
  }
  const cubex::SymmetricSolver found(pb, g.group), given(pb, g.group, g.option_perm);
  for (std::size_t k = 0; k < g.group.order(); ++k)
    for (OptionId o = 0; o < pb.num_options(); ++o)
      ASSERT_EQ(found.image(k, o), given.image(k, o)) << k << " " << o;
  EXPECT_EQ(found.restricted().num_options(), given.restricted().num_options());
  EXPECT_EQ(found.anchored(), given.anchored());
  EXPECT_EQ(found.kernel(), given.kernel());
}

INSTANTIATE_TEST_SUITE_P(Puzzles, OptionImages,
                         ::testing::Values("puzzles/voxel/soma.json",
                                           "puzzles/voxel/pentominoes-6x10.json",
                                           "puzzles/voxel/wooden-cube-6.txt"));

TEST(OptionImages, GivenImagesMustBePermutations) {
  auto puzzle = cubex::load(source_file("puzzles/voxel/soma.json"));
  const cubex::Problem& pb = puzzle->problem();
  const cubex::CubeGroup g = puzzle->symmetry_group(cubex::SymmetryMode::kAuto);
  auto bad = g.option_perm;
  bad[1][0] = bad[1][1];  // two options onto one
  EXPECT_THROW(cubex::SymmetricSolver(pb, g.group, bad), cubex::ProblemError);
  bad = g.option_perm;
  bad.pop_back();  // a row short
  EXPECT_THROW(cubex::SymmetricSolver(pb, g.group, bad), cubex::ProblemError);
}

}  // namespace
