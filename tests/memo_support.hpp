// Helpers shared by the memo's tests (test_memo_*.cpp): random matrices with every kind of item,
// domino tilings by an independent transfer matrix, and domino puzzles.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cubex/core/bigcount.hpp"
#include "cubex/core/problem.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/voxel/read.hpp"

namespace cubex::test {

// The domino tilings of a rows x cols rectangle by a broken-profile transfer matrix: cells are
// filled column by column, top to bottom. Before cell (r, c), bit k of the profile says whether
// cell (k, c) (k >= r) or cell (k, c + 1) (k < r) is already covered.
inline BigCount domino_tilings(int rows, int cols) {
  std::map<std::uint64_t, BigCount> now{{0, BigCount(1)}};
  for (int c = 0; c < cols; ++c) {
    for (int r = 0; r < rows; ++r) {
      std::map<std::uint64_t, BigCount> next;
      const std::uint64_t bit = std::uint64_t{1} << r;
      for (const auto& [profile, n] : now) {
        if (profile & bit) {  // covered already: cell (r, c + 1) is free
          next[profile & ~bit] += n;
          continue;
        }
        if (c + 1 < cols) next[profile | bit] += n;  // across into (r, c + 1)
        if (r + 1 < rows && !(profile & (bit << 1))) next[profile | (bit << 1)] += n;  // down
      }
      now.swap(next);
    }
  }
  return now[0];
}

// A random matrix: `exact` items of range 1..1, a plain secondary item, two coloured secondary
// items (colours a, b), a multiplicity item 0..2 and one 1..2; every option covers one to three
// items of range 1..1 and maybe others, with a colour on the coloured ones (sometimes none).
inline Problem random_problem(std::mt19937& rng, int exact, int options) {
  Problem p;
  std::vector<ItemId> ex;
  for (int i = 0; i < exact; ++i) ex.push_back(p.add_primary("e" + std::to_string(i)));
  const ItemId s0 = p.add_secondary("s0");
  const ItemId c0 = p.add_secondary("c0");
  const ItemId c1 = p.add_secondary("c1");
  const ItemId m0 = p.add_primary("m0", 0, 2);
  const ItemId m1 = p.add_primary("m1", 1, 2);
  const ColourId a = p.add_colour("a"), b = p.add_colour("b");
  std::set<std::vector<ItemId>> seen;
  int tries = 0;
  while (static_cast<int>(p.num_options()) < options && ++tries < 1000) {
    std::vector<ItemId> items;
    const int k = 1 + static_cast<int>(rng() % 3);
    for (int j = 0; j < k; ++j) items.push_back(ex[rng() % ex.size()]);
    for (ItemId o : {s0, c0, c1, m0, m1})
      if (rng() % 4 == 0) items.push_back(o);
    std::sort(items.begin(), items.end());
    items.erase(std::unique(items.begin(), items.end()), items.end());
    if (!seen.insert(items).second) continue;
    std::vector<ColourId> colours;
    for (ItemId i : items) {
      const bool coloured = i == c0 || i == c1;
      const unsigned pick = static_cast<unsigned>(rng() % 5);
      colours.push_back(!coloured ? 0 : pick < 2 ? a : pick < 4 ? b : 0);
    }
    p.add_option(items, colours);
  }
  return p;
}

// A voxel puzzle: dominoes filling a rows x cols box.
inline std::unique_ptr<Puzzle> dominoes(int rows, int cols) {
  const nlohmann::json doc = {
      {"name", "dominoes"},
      {"kind", "voxel"},
      {"box", {cols, rows}},
      {"pieces",
       {{{"name", "domino"}, {"cells", {{0, 0, 0}, {1, 0, 0}}}, {"count", rows * cols / 2}}}}};
  return voxel::load_json(doc, "dominoes.json");
}

}  // namespace cubex::test
