// The brute force the core's tests check every backend against: independent of the solver and
// of check_solution.
#pragma once

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "cubex/core/problem.hpp"

namespace cubex::test {

// Every subset of options, judged item by item from the definition: a primary item covered lo..hi
// times; a secondary item at most once, or more often when every use gives it the same non-zero
// colour.
inline std::set<std::vector<OptionId>> brute_force(const Problem& p) {
  const std::size_t m = p.num_options();
  std::set<std::vector<OptionId>> out;
  std::vector<unsigned> uses(p.num_items());
  std::vector<ColourId> colour(p.num_items());
  std::vector<char> mixed(p.num_items());
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << m); ++mask) {
    std::fill(uses.begin(), uses.end(), 0u);
    std::fill(mixed.begin(), mixed.end(), 0);
    for (std::size_t o = 0; o < m; ++o) {
      if (!(mask >> o & 1)) continue;
      const auto items = p.option(static_cast<OptionId>(o));
      const auto colours = p.option_colours(static_cast<OptionId>(o));
      for (std::size_t k = 0; k < items.size(); ++k) {
        const ItemId i = items[k];
        if (uses[i]++ == 0)
          colour[i] = colours[k];
        else if (colours[k] == 0 || colours[k] != colour[i])
          mixed[i] = 1;
      }
    }
    bool ok = true;
    for (ItemId i = 0; i < p.num_items() && ok; ++i) {
      const auto& it = p.item(i);
      ok = it.primary ? uses[i] >= it.lo && uses[i] <= it.hi
                      : uses[i] <= 1 || (!mixed[i] && colour[i] != 0);
    }
    if (!ok) continue;
    std::vector<OptionId> s;
    for (std::size_t o = 0; o < m; ++o)
      if (mask >> o & 1) s.push_back(static_cast<OptionId>(o));
    out.insert(s);
  }
  return out;
}

}  // namespace cubex::test
