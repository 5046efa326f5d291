// An independent brute-force counter for small voxel puzzles with count ranges (spare pieces):
// piece kind p is used between lo[p] and hi[p] times, copies identical. It shares nothing with
// src/voxel or the core: each piece comes with its own list of orientations (from
// brute::orientations, or a 2-D list for one-sided pieces), placements are bit masks, the search
// is plain recursion. Containers of at most 64 cells.
#pragma once

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "voxel_brute.hpp"

namespace rbrute {

using brute::P;
using brute::Shape;

struct Puzzle {
  std::vector<P> cells;                     // container
  std::vector<bool> optional;               // parallel to cells
  std::vector<std::vector<Shape>> orients;  // per piece kind: every allowed orientation
  std::vector<int> lo, hi;                  // per piece kind: fewest and most copies
};

// The four turns of a flat shape (z = 0) in its plane, without turning it over.
inline std::vector<Shape> plane_turns(const Shape& s) {
  std::set<Shape> out;
  Shape cur = s;
  for (int k = 0; k < 4; ++k) {
    out.insert(brute::norm(cur));
    for (P& p : cur) p = P{-p.y, p.x, p.z};
  }
  return {out.begin(), out.end()};
}

class Counter {
 public:
  explicit Counter(const Puzzle& pz) : pz_(pz), used_(pz.lo.size(), 0) {
    for (std::size_t k = 0; k < pz.cells.size(); ++k)
      if (!pz.optional[k]) must_ |= std::uint64_t{1} << k;
    P lo = pz.cells.front(), hi = lo;
    for (const P& c : pz.cells) {
      lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
      hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
    }
    for (const auto& shapes : pz.orients) {
      std::set<std::uint64_t> masks;
      for (const Shape& o : shapes)
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
  // The lowest must-fill cell still empty is covered by some piece with copies left.
  std::uint64_t fill(std::uint64_t used) {
    const std::uint64_t open = must_ & ~used;
    if (open == 0) return rest(used, 0, 0);
    const std::uint64_t bit = open & (~open + 1);
    std::uint64_t n = 0;
    for (std::size_t p = 0; p < masks_.size(); ++p) {
      if (used_[p] == pz_.hi[p]) continue;
      ++used_[p];
      for (std::uint64_t m : masks_[p])
        if ((m & bit) && !(m & used)) n += fill(used | m);
      --used_[p];
    }
    return n;
  }
  // Then any further copies in the optional cells (each kind's in increasing mask order), as
  // long as every kind ends with at least lo copies.
  std::uint64_t rest(std::uint64_t used, std::size_t p, std::size_t from) {
    if (p == masks_.size()) {
      for (std::size_t q = 0; q < masks_.size(); ++q)
        if (used_[q] < pz_.lo[q]) return 0;
      return 1;
    }
    std::uint64_t n = rest(used, p + 1, 0);  // no more copies of p
    if (used_[p] == pz_.hi[p]) return n;
    ++used_[p];
    for (std::size_t k = from; k < masks_[p].size(); ++k)
      if (!(masks_[p][k] & used)) n += rest(used | masks_[p][k], p, k + 1);
    --used_[p];
    return n;
  }

  const Puzzle& pz_;
  std::vector<int> used_;
  std::uint64_t must_ = 0;
  std::vector<std::vector<std::uint64_t>> masks_;
};

inline std::uint64_t count(const Puzzle& pz) {
  return Counter(pz).count();
}

}  // namespace rbrute
