// An independent brute-force packer for small voxel puzzles, used to cross-check the engine.
//
// It shares nothing with src/voxel or the core: orientations are the closure of a shape under two
// quarter turns (and the mirror), found by search rather than listed; placements are bit masks;
// the search is plain recursion. Containers of at most 64 cells.
#pragma once

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

namespace brute {

struct P {
  int x, y, z;
  friend auto operator<=>(const P&, const P&) = default;
};
using Shape = std::vector<P>;

inline Shape norm(Shape s) {
  int mx = 1 << 20, my = mx, mz = mx;
  for (const P& p : s) mx = std::min(mx, p.x), my = std::min(my, p.y), mz = std::min(mz, p.z);
  for (P& p : s) p = {p.x - mx, p.y - my, p.z - mz};
  std::sort(s.begin(), s.end());
  return s;
}

// Every shape reachable from `s` by quarter turns about x and y (these generate all 24
// rotations), and by the mirror x -> -x when `mirror`.
inline std::vector<Shape> orientations(const Shape& s, bool mirror) {
  auto turn_x = [](P p) { return P{p.x, -p.z, p.y}; };
  auto turn_y = [](P p) { return P{p.z, p.y, -p.x}; };
  auto flip = [](P p) { return P{-p.x, p.y, p.z}; };
  std::set<Shape> seen{norm(s)};
  std::vector<Shape> todo{norm(s)};
  while (!todo.empty()) {
    Shape cur = todo.back();
    todo.pop_back();
    for (int g = 0; g < (mirror ? 3 : 2); ++g) {
      Shape next;
      for (P p : cur) next.push_back(g == 0 ? turn_x(p) : g == 1 ? turn_y(p) : flip(p));
      next = norm(next);
      if (seen.insert(next).second) todo.push_back(next);
    }
  }
  return {seen.begin(), seen.end()};
}

struct Puzzle {
  std::vector<P> cells;        // container
  std::vector<bool> optional;  // parallel to cells
  std::vector<Shape> pieces;
  std::vector<int> counts;
  bool mirror = false;
};

class Counter {
 public:
  explicit Counter(const Puzzle& pz) : left_(pz.counts) {
    for (std::size_t k = 0; k < pz.cells.size(); ++k)
      if (!pz.optional[k]) must_ |= std::uint64_t{1} << k;
    P lo = pz.cells.front(), hi = lo;
    for (const P& c : pz.cells) {
      lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
      hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
    }
    // Shapes are normalised (smallest coordinates 0), so a translation lies within lo..hi.
    for (const Shape& s : pz.pieces) {
      std::set<std::uint64_t> masks;
      for (const Shape& o : orientations(s, pz.mirror))
        for (int dx = lo.x; dx <= hi.x; ++dx)
          for (int dy = lo.y; dy <= hi.y; ++dy)
            for (int dz = lo.z; dz <= hi.z; ++dz) {
              std::uint64_t m = 0;
              bool ok = true;
              for (const P& p : o) {
                auto it =
                    std::find(pz.cells.begin(), pz.cells.end(), P{p.x + dx, p.y + dy, p.z + dz});
                if (it == pz.cells.end()) {
                  ok = false;
                  break;
                }
                m |= std::uint64_t{1} << (it - pz.cells.begin());
              }
              if (ok) masks.insert(m);
            }
      masks_.emplace_back(masks.begin(), masks.end());
    }
  }

  std::uint64_t count() { return fill(0); }

 private:
  // Phase 1: the lowest must-fill cell still empty is covered by some remaining piece.
  std::uint64_t fill(std::uint64_t used) {
    const std::uint64_t open = must_ & ~used;
    if (open == 0) return rest(used, 0, 0);
    const std::uint64_t bit = open & (~open + 1);
    std::uint64_t n = 0;
    for (std::size_t p = 0; p < masks_.size(); ++p) {
      if (left_[p] == 0) continue;
      --left_[p];
      for (std::uint64_t m : masks_[p])
        if ((m & bit) && !(m & used)) n += fill(used | m);
      ++left_[p];
    }
    return n;
  }
  // Phase 2: the pieces left go into optional cells; copies in increasing mask order.
  std::uint64_t rest(std::uint64_t used, std::size_t p, std::size_t from) {
    while (p < masks_.size() && left_[p] == 0) ++p, from = 0;
    if (p == masks_.size()) return 1;
    std::uint64_t n = 0;
    --left_[p];
    for (std::size_t k = from; k < masks_[p].size(); ++k) {
      const std::uint64_t m = masks_[p][k];
      if (m & used) continue;
      // A cell that is must-fill is covered already, so m lies in optional cells.
      n += rest(used | m, p, k + 1);
    }
    ++left_[p];
    return n;
  }

  std::vector<int> left_;
  std::uint64_t must_ = 0;
  std::vector<std::vector<std::uint64_t>> masks_;
};

inline std::uint64_t count(const Puzzle& pz) {
  return Counter(pz).count();
}

}  // namespace brute
