// The voxel front end's preparation (orientations, placements, the checks before the search)
// against plain reference computations on random small models: the faster ways of computing
// them must give the same results.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "cubex/voxel/model.hpp"
#include "sanitized.hpp"

namespace vx = cubex::voxel;
using cubex::Vec3;

namespace {

// The orientations as first written: each symmetry's cells moved to the corner 0 and sorted as
// (cell, colour) pairs, the first symmetry of each distinct result kept.
std::vector<vx::Orientation> reference_orientations(const std::vector<Vec3>& cells,
                                                    const std::vector<std::uint8_t>& colours,
                                                    std::uint64_t allowed) {
  std::vector<vx::Orientation> out;
  for (int k = 0; k < 48; ++k) {
    if (!(allowed >> k & 1)) continue;
    const cubex::Mat3& m = cubex::cube_symmetries()[std::size_t(k)];
    std::vector<std::pair<Vec3, std::uint8_t>> cc;
    for (std::size_t i = 0; i < cells.size(); ++i)
      cc.push_back({m * cells[i], colours.empty() ? std::uint8_t(0) : colours[i]});
    Vec3 lo = cc[0].first;
    for (const auto& [c, col] : cc)
      lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
    vx::Orientation o;
    o.symmetry = k;
    o.shift = Vec3{} - lo;
    for (auto& [c, col] : cc) c = c - lo;
    std::sort(cc.begin(), cc.end());
    for (const auto& [c, col] : cc) {
      o.cells.push_back(c);
      if (!colours.empty()) o.colours.push_back(col);
    }
    bool seen = false;
    for (const vx::Orientation& q : out)
      seen = seen || (q.cells == o.cells && q.colours == o.colours);
    if (!seen) out.push_back(std::move(o));
  }
  return out;
}

std::vector<Vec3> random_piece(std::mt19937& rng, int size, int extent) {
  std::uniform_int_distribution<int> coord(0, extent - 1);
  std::set<Vec3> cells;
  while (int(cells.size()) < size) cells.insert({coord(rng), coord(rng), coord(rng)});
  return {cells.begin(), cells.end()};
}

}  // namespace

TEST(VoxelPrep, OrientationsAreThoseOfTheReference) {
  std::mt19937 rng(36);
  const int rounds = cubex::test::kSanitized ? 60 : 400;
  int symmetric = 0;
  for (int r = 0; r < rounds; ++r) {
    const int size = 1 + int(rng() % 8);
    std::vector<Vec3> cells = random_piece(rng, size, 2 + int(rng() % 3));
    std::vector<std::uint8_t> colours;
    if (r % 3 == 0)
      for (int i = 0; i < size; ++i) colours.push_back(std::uint8_t(rng() % 3));
    if (r % 7 == 0) {  // coordinates beyond the keys' span: the pairs' sort
      for (Vec3& c : cells) c.x *= int(vx::kKeySpan) / 2;
    } else if (r % 4 == 1) {  // a sparse box: the keys sorted, not read off a grid
      for (Vec3& c : cells) c = {7 * c.x - 5, 9 * c.y, 11 * c.z + 3};
    } else if (r % 4 == 2) {  // not at the origin
      for (Vec3& c : cells) c = c + Vec3{-3, 2, 5};
    }
    const std::uint64_t allowed = r % 5 == 0   ? rng() & ((std::uint64_t{1} << 48) - 1)
                                  : r % 2 == 0 ? (std::uint64_t{1} << 48) - 1
                                               : (std::uint64_t{1} << 24) - 1;
    if (!allowed) continue;
    const auto want = reference_orientations(cells, colours, allowed);
    const auto got = vx::orientations(cells, colours, allowed);
    ASSERT_EQ(got.size(), want.size()) << "round " << r;
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].symmetry, want[k].symmetry) << "round " << r;
      EXPECT_EQ(got[k].shift, want[k].shift) << "round " << r;
      EXPECT_EQ(got[k].cells, want[k].cells) << "round " << r;
      EXPECT_EQ(got[k].colours, want[k].colours) << "round " << r;
    }
    symmetric += want.size() < std::size_t(std::popcount(allowed));
  }
  EXPECT_GT(symmetric, rounds / 10);  // (duplicates were met and removed)
}

// The checks' reasons for no solution by sizes and the checkerboard, against every choice of
// copies and signs enumerated.
TEST(VoxelPrep, InfeasibleAgreesWithEveryChoiceEnumerated) {
  std::mt19937 rng(3636);
  const int rounds = cubex::test::kSanitized ? 80 : 600;
  int sizes = 0, board = 0, fine = 0;
  for (int r = 0; r < rounds; ++r) {
    vx::Model m;
    const int bx = 1 + int(rng() % 4), by = 1 + int(rng() % 4), bz = 1 + int(rng() % 3);
    for (int x = 0; x < bx; ++x)
      for (int y = 0; y < by; ++y)
        for (int z = 0; z < bz; ++z) {
          if (rng() % 5 == 0) continue;  // a hole in the box
          m.cells.push_back({x, y, z});
          m.optional.push_back(rng() % 6 == 0);
        }
    if (m.cells.empty()) continue;
    const int kinds = 1 + int(rng() % 3);
    for (int k = 0; k < kinds; ++k) {
      vx::Piece p;
      p.name = "p" + std::to_string(k);
      p.cells = random_piece(rng, 1 + int(rng() % 5), 3);
      p.count = 1 + int(rng() % 3);
      if (rng() % 3 == 0) p.min_count = int(rng() % (p.count + 1));
      m.pieces.push_back(p);
    }
    vx::canonicalize(m);
    const std::string why = vx::infeasible(m, std::vector<bool>(m.pieces.size(), true));
    if (why.rfind("the cells do not add up: the pieces", 0) == 0) continue;  // (by sums alone)
    // Every choice: each copy left out (when optional) or placed with +d or -d.
    std::set<std::pair<long, long>> reach{{0, 0}};
    for (const vx::Piece& p : m.pieces) {
      long d = 0;
      for (const Vec3& c : p.cells) d += ((c.x + c.y + c.z) & 1) == 0 ? 1 : -1;
      for (int k = 0; k < p.count; ++k) {
        std::set<std::pair<long, long>> next;
        for (const auto& [t, i] : reach) {
          if (k >= p.fewest()) next.insert({t, i});
          next.insert({t + long(p.cells.size()), i + d});
          next.insert({t + long(p.cells.size()), i - d});
        }
        reach = std::move(next);
      }
    }
    long black = 0, white = 0, black_opt = 0, white_opt = 0;
    for (std::size_t k = 0; k < m.cells.size(); ++k) {
      const bool b = ((m.cells[k].x + m.cells[k].y + m.cells[k].z) & 1) == 0;
      (m.optional[k] ? (b ? black_opt : white_opt) : (b ? black : white)) += 1;
    }
    bool any_size = false, any_colour = false;
    for (const auto& [t, i] : reach) {
      if (t < black + white || t > long(m.cells.size())) continue;
      any_size = true;
      const long b = (t + i) / 2, w = (t - i) / 2;
      any_colour = any_colour || ((t + i) % 2 == 0 && b >= black && b <= black + black_opt &&
                                  w >= white && w <= white + white_opt);
    }
    if (!any_size) {
      EXPECT_EQ(why.rfind("the cells do not add up: no choice", 0), 0u)
          << "round " << r << ": " << why;
      ++sizes;
    } else if (!any_colour) {
      EXPECT_EQ(why.rfind("checkerboard", 0), 0u) << "round " << r << ": " << why;
      ++board;
    } else {
      EXPECT_EQ(why, "") << "round " << r;
      ++fine;
    }
  }
  // Each outcome was met.
  EXPECT_GT(sizes, 0);
  EXPECT_GT(board, 0);
  EXPECT_GT(fine, 0);
}

// The placements: every orientation at every translation whose cells are all the container's,
// each once, with the items of its piece and cells.
TEST(VoxelPrep, PlacementsAreEveryFit) {
  std::mt19937 rng(363636);
  const int rounds = cubex::test::kSanitized ? 15 : 80;
  for (int r = 0; r < rounds; ++r) {
    vx::Model m;
    const int bx = 2 + int(rng() % 3), by = 2 + int(rng() % 3), bz = 1 + int(rng() % 3);
    for (int x = 0; x < bx; ++x)
      for (int y = 0; y < by; ++y)
        for (int z = 0; z < bz; ++z)
          if (rng() % 6 != 0) m.cells.push_back({x + 3, y - 2, z});  // (not at the origin)
    if (m.cells.empty()) continue;
    for (int k = 0; k < 2; ++k) {
      vx::Piece p;
      p.name = "p" + std::to_string(k);
      p.cells = random_piece(rng, 1 + int(rng() % 4), 2);
      p.count = 1;
      m.pieces.push_back(p);
    }
    m.mirror = r % 2 == 0;
    vx::canonicalize(m);
    const vx::Compiled c = vx::compile(m);
    std::set<std::vector<Vec3>> got;
    for (std::size_t o = 0; o < c.placements.size(); ++o) {
      const vx::Placement& pl = c.placements[o];
      std::vector<Vec3> cells = pl.cells;
      std::sort(cells.begin(), cells.end());
      cells.push_back({pl.piece, -1000, -1000});  // (the piece, apart from the cells)
      EXPECT_TRUE(got.insert(cells).second) << "round " << r << ": a placement twice";
      // Its items: the piece's, then the cells' in the placement's order.
      const auto items = c.problem.option(cubex::OptionId(o));
      ASSERT_EQ(items.size(), pl.cells.size() + 1);
      EXPECT_EQ(items[0], c.piece_item[std::size_t(pl.piece)]);
      for (std::size_t i = 0; i < pl.cells.size(); ++i)
        EXPECT_EQ(items[i + 1], c.cell_item[std::size_t(m.cell_index(pl.cells[i]))]);
    }
    std::set<std::vector<Vec3>> want;
    const std::set<Vec3> inside(m.cells.begin(), m.cells.end());
    for (std::size_t p = 0; p < m.pieces.size(); ++p) {
      for (const vx::Orientation& o : vx::orientations(m.pieces[p].cells, m.mirror)) {
        for (int x = -8; x <= 8; ++x)
          for (int y = -8; y <= 8; ++y)
            for (int z = -8; z <= 8; ++z) {
              std::vector<Vec3> cells;
              bool fits = true;
              for (const Vec3& cell : o.cells) {
                cells.push_back(cell + Vec3{x, y, z});
                fits = fits && inside.count(cells.back());
              }
              if (!fits) continue;
              std::sort(cells.begin(), cells.end());
              cells.push_back({int(p), -1000, -1000});
              want.insert(cells);
            }
      }
    }
    EXPECT_EQ(got, want) << "round " << r;
  }
}
