// The cube's symmetry group as listed by cube_symmetries().
#include <gtest/gtest.h>

#include <set>

#include "cubex/geometry.hpp"

using cubex::Mat3;

TEST(Geometry, FortyEightDistinctSymmetriesRotationsFirst) {
  const auto& g = cubex::cube_symmetries();
  EXPECT_EQ(g[0], Mat3::identity());
  std::set<std::array<std::array<int, 3>, 3>> seen;
  for (int k = 0; k < 48; ++k) {
    EXPECT_EQ(g[k].det(), k < 24 ? 1 : -1) << k;
    EXPECT_EQ(g[k] * g[k].inverse(), Mat3::identity());
    seen.insert(g[k].m);
  }
  EXPECT_EQ(seen.size(), 48u);
}

TEST(Geometry, RotationsAreClosedUnderComposition) {
  auto rot = cubex::cube_rotations();
  for (const Mat3& a : rot)
    for (const Mat3& b : rot) {
      Mat3 c = a * b;
      EXPECT_EQ(c.det(), 1);
      EXPECT_NE(std::find(rot.begin(), rot.end(), c), rot.end());
    }
}

TEST(Geometry, NormalizeTranslatesToOriginAndSorts) {
  auto n = cubex::normalize({{3, 5, 2}, {2, 5, 2}, {2, 6, 3}});
  std::vector<cubex::Vec3> want{{0, 0, 0}, {0, 1, 1}, {1, 0, 0}};
  EXPECT_EQ(n, want);
}
