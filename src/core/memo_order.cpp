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

// The graph of the items of range 1..1 (neighbours share an option), as flat arrays: the
// neighbours of item i are adj[start[i] .. start[i + 1]), each once.
struct Graph {
  std::vector<std::uint32_t> start, adj;
  std::size_t degree(ItemId i) const { return start[i + 1] - start[i]; }
};

Graph neighbours(const Problem& pb, const std::vector<bool>& in) {
  const std::size_t n = pb.num_items();
  Graph g;
  g.start.assign(n + 1, 0);
  for (OptionId o = 0; o < pb.num_options(); ++o) {
    std::size_t k = 0;
    for (ItemId i : pb.option(o)) k += in[i];
    for (ItemId i : pb.option(o))
      if (in[i]) g.start[i + 1] += static_cast<std::uint32_t>(k - 1);
  }
  for (std::size_t i = 0; i < n; ++i) g.start[i + 1] += g.start[i];
  g.adj.resize(g.start[n]);
  std::vector<std::uint32_t> fill(g.start.begin(), g.start.end() - 1);
  for (OptionId o = 0; o < pb.num_options(); ++o) {
    const auto items = pb.option(o);
    for (ItemId a : items) {
      if (!in[a]) continue;
      for (ItemId b : items)
        if (b != a && in[b]) g.adj[fill[a]++] = b;
    }
  }
  // Each neighbour once (an item pair that several options share was listed once per option).
  std::vector<std::uint32_t> out;
  out.reserve(g.adj.size());
  std::vector<std::uint32_t> start(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    auto b = g.adj.begin() + g.start[i], e = g.adj.begin() + g.start[i + 1];
    std::sort(b, e);
    e = std::unique(b, e);
    out.insert(out.end(), b, e);
    start[i + 1] = static_cast<std::uint32_t>(out.size());
  }
  g.adj = std::move(out);
  g.start = std::move(start);
  return g;
}

}  // namespace

std::vector<ItemId> breadth_first_order(const Problem& pb, const std::atomic<bool>* stop) {
  const std::size_t n = pb.num_items();
  std::vector<std::size_t> options(n, 0);
  for (OptionId o = 0; o < pb.num_options(); ++o)
    for (ItemId i : pb.option(o)) ++options[i];
  std::vector<std::size_t> counts;
  for (ItemId i = 0; i < n; ++i)
    if (exact(pb.item(i))) counts.push_back(options[i]);
  std::vector<bool> in(n, false);
  if (!counts.empty()) {
    std::nth_element(counts.begin(), counts.begin() + counts.size() / 2, counts.end());
    const std::size_t heavy = 4 * std::max<std::size_t>(counts[counts.size() / 2], 1);
    for (ItemId i = 0; i < n; ++i) in[i] = exact(pb.item(i)) && options[i] <= heavy;
  }
  const Graph g = neighbours(pb, in);
  std::vector<ItemId> order;
  order.reserve(n);
  std::vector<std::uint32_t> level(n, UINT32_MAX);
  std::vector<ItemId> part, kids;
  // Breadth first from s over the items not yet ordered, into `out` (levels in `level`).
  auto walk = [&](ItemId s, std::vector<ItemId>& out) {
    const std::size_t from = out.size();
    level[s] = 0;
    out.push_back(s);
    for (std::size_t k = from; k < out.size(); ++k) {
      if ((k & 4095) == 0 && stop && stop->load(std::memory_order_relaxed)) return false;
      const ItemId a = out[k];
      kids.clear();
      for (std::uint32_t j = g.start[a]; j < g.start[a + 1]; ++j) {
        const ItemId b = g.adj[j];
        if (level[b] != UINT32_MAX) continue;
        level[b] = level[a] + 1;
        kids.push_back(b);
      }
      std::stable_sort(kids.begin(), kids.end(),
                       [&](ItemId x, ItemId y) { return g.degree(x) < g.degree(y); });
      out.insert(out.end(), kids.begin(), kids.end());
    }
    return true;
  };
  for (ItemId first = 0; first < n; ++first) {
    if (!in[first] || level[first] != UINT32_MAX) continue;
    // The far end of first's part: twice, the last level's item with the fewest neighbours.
    ItemId s = first;
    for (int pass = 0; pass < 2; ++pass) {
      part.clear();
      if (!walk(s, part)) return {};
      const std::uint32_t last = level[part.back()];
      s = part.back();
      for (ItemId a : part)
        if (level[a] == last && g.degree(a) < g.degree(s)) s = a;
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
