// Orders of the items for the memo (cubex/core/memo_order.hpp).
#include "cubex/core/memo_order.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace cubex {
namespace {

bool exact(const Item& it) {
  return it.primary && it.lo == 1 && it.hi == 1;
}

// The options of each item, as flat arrays: the options of item i are
// opts[start[i] .. start[i + 1]).
struct Incidence {
  std::vector<std::uint32_t> start, opts;
  std::size_t count(ItemId i) const { return start[i + 1] - start[i]; }
};

Incidence incidence(const Problem& pb) {
  const std::size_t n = pb.num_items();
  Incidence g;
  g.start.assign(n + 1, 0);
  for (OptionId o = 0; o < pb.num_options(); ++o)
    for (ItemId i : pb.option(o)) ++g.start[i + 1];
  for (std::size_t i = 0; i < n; ++i) g.start[i + 1] += g.start[i];
  g.opts.resize(g.start[n]);
  std::vector<std::uint32_t> fill(g.start.begin(), g.start.end() - 1);
  for (OptionId o = 0; o < pb.num_options(); ++o)
    for (ItemId i : pb.option(o)) g.opts[fill[i]++] = o;
  return g;
}

}  // namespace

std::vector<ItemId> breadth_first_order(const Problem& pb, const std::atomic<bool>* stop) {
  const std::size_t n = pb.num_items();
  const Incidence g = incidence(pb);
  std::vector<std::size_t> counts;
  for (ItemId i = 0; i < n; ++i)
    if (exact(pb.item(i))) counts.push_back(g.count(i));
  std::vector<bool> in(n, false);
  if (!counts.empty()) {
    std::nth_element(counts.begin(), counts.begin() + counts.size() / 2, counts.end());
    const std::size_t heavy = 4 * std::max<std::size_t>(counts[counts.size() / 2], 1);
    for (ItemId i = 0; i < n; ++i) in[i] = exact(pb.item(i)) && g.count(i) <= heavy;
  }
  std::vector<ItemId> order;
  order.reserve(n);
  std::vector<std::uint32_t> level(n, UINT32_MAX);
  // An option's items are all met the first time it is scanned: later scans are skipped, so a
  // walk costs the size of the matrix. `scanned` holds the walk's stamp.
  std::vector<std::uint32_t> scanned(pb.num_options(), 0);
  std::uint32_t stamp = 0;
  std::vector<ItemId> part, kids;
  // Breadth first from s over the items not yet ordered, into `out` (levels in `level`); the
  // neighbours of an item in order of their number of options, fewest first.
  auto walk = [&](ItemId s, std::vector<ItemId>& out) {
    ++stamp;
    const std::size_t from = out.size();
    level[s] = 0;
    out.push_back(s);
    for (std::size_t k = from; k < out.size(); ++k) {
      if ((k & 4095) == 0 && stop && stop->load(std::memory_order_relaxed)) return false;
      const ItemId a = out[k];
      kids.clear();
      for (std::uint32_t j = g.start[a]; j < g.start[a + 1]; ++j) {
        const OptionId o = g.opts[j];
        if (scanned[o] == stamp) continue;
        scanned[o] = stamp;
        for (ItemId b : pb.option(o)) {
          if (!in[b] || level[b] != UINT32_MAX) continue;
          level[b] = level[a] + 1;
          kids.push_back(b);
        }
      }
      std::stable_sort(kids.begin(), kids.end(),
                       [&](ItemId x, ItemId y) { return g.count(x) < g.count(y); });
      out.insert(out.end(), kids.begin(), kids.end());
    }
    return true;
  };
  for (ItemId first = 0; first < n; ++first) {
    if (!in[first] || level[first] != UINT32_MAX) continue;
    // The far end of first's part: twice, the last level's item in the fewest options.
    ItemId s = first;
    for (int pass = 0; pass < 2; ++pass) {
      part.clear();
      if (!walk(s, part)) return {};
      const std::uint32_t last = level[part.back()];
      s = part.back();
      for (ItemId a : part)
        if (level[a] == last && g.count(a) < g.count(s)) s = a;
      for (ItemId a : part) level[a] = UINT32_MAX;
    }
    if (!walk(s, order)) return {};
  }
  for (ItemId i = 0; i < n; ++i)
    if (exact(pb.item(i)) && !in[i]) order.push_back(i);
  for (ItemId i = 0; i < n; ++i)
    if (pb.item(i).primary && !exact(pb.item(i))) order.push_back(i);
  return order;
}

double frontier_cost(const Problem& pb, std::span<const ItemId> order) {
  const std::size_t n = pb.num_items();
  std::vector<std::uint32_t> place(n, UINT32_MAX);
  std::uint32_t m = 0;
  for (ItemId i : order)
    if (i < n && exact(pb.item(i)) && place[i] == UINT32_MAX) place[i] = m++;
  // Item j (at place p) is in the frontier of places e .. p - 1, where e is the first place of
  // an item it shares an option with.
  std::vector<std::uint32_t> earliest(m, UINT32_MAX);
  for (OptionId o = 0; o < pb.num_options(); ++o) {
    std::uint32_t lo = UINT32_MAX;
    for (ItemId i : pb.option(o)) lo = std::min(lo, place[i]);
    if (lo == UINT32_MAX) continue;
    for (ItemId i : pb.option(o))
      if (place[i] != UINT32_MAX) earliest[place[i]] = std::min(earliest[place[i]], lo);
  }
  std::vector<std::int64_t> diff(m + 1, 0);
  for (std::uint32_t p = 0; p < m; ++p) {
    if (earliest[p] < p) {
      ++diff[earliest[p]];
      --diff[p];
    }
  }
  double cost = 0;
  std::int64_t f = 0;
  for (std::uint32_t t = 0; t < m; ++t) {
    f += diff[t];
    cost += std::ldexp(1.0, static_cast<int>(std::min<std::int64_t>(f, 900)));
  }
  return cost;
}

}  // namespace cubex
