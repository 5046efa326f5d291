// Counting classes up to symmetry by Burnside's lemma over memo counts (see symmetry.hpp).
#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <exception>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>

#include "cubex/symmetry.hpp"

namespace cubex {

namespace {

// The distinct item permutations of a group, as a multiplication table, and its subgroups as
// masks of elements (at most 64 distinct elements: a cube's group has 48).
struct Elements {
  std::vector<std::vector<ItemId>> perm;           // distinct; perm[0] the identity
  std::vector<std::vector<std::uint8_t>> product;  // product[a][b]: a after b
  std::uint64_t closure(std::uint64_t mask) const {
    for (;;) {
      std::uint64_t more = mask | 1;
      for (std::size_t a = 0; a < perm.size(); ++a) {
        if (!(mask >> a & 1)) continue;
        for (std::size_t b = 0; b < perm.size(); ++b) {
          if (mask >> b & 1) more |= std::uint64_t{1} << product[a][b];
        }
      }
      if (more == mask) return mask;
      mask = more;
    }
  }
};

Elements distinct_elements(const ItemGroup& group, std::size_t n) {
  Elements e;
  std::map<std::vector<ItemId>, std::uint8_t> index;
  std::vector<ItemId> id(n);
  for (ItemId i = 0; i < n; ++i) id[i] = i;
  index.emplace(id, 0);
  e.perm.push_back(id);
  for (const auto& p : group.perm) {
    if (index.count(p) || e.perm.size() >= 64) continue;
    index.emplace(p, static_cast<std::uint8_t>(e.perm.size()));
    e.perm.push_back(p);
  }
  const std::size_t m = e.perm.size();
  e.product.assign(m, std::vector<std::uint8_t>(m, 0));
  std::vector<ItemId> c(n);
  for (std::size_t a = 0; a < m; ++a) {
    for (std::size_t b = 0; b < m; ++b) {
      for (ItemId i = 0; i < n; ++i) c[i] = e.perm[a][e.perm[b][i]];
      const auto it = index.find(c);
      if (it == index.end())
        throw std::logic_error("count_classes_by_memo: the group is not closed");
      e.product[a][b] = it->second;
    }
  }
  return e;
}

// Every subgroup (as a mask), each the join of cyclic ones, with μ(1, K) of the subgroup
// lattice (Möbius): the solutions no element but the identity fixes are Σ μ(1, K) Fix(K).
std::vector<std::pair<std::uint64_t, long long>> subgroups_with_mobius(const Elements& e) {
  const std::size_t m = e.perm.size();
  std::vector<std::uint64_t> cyclic;
  for (std::size_t g = 0; g < m; ++g) cyclic.push_back(e.closure(std::uint64_t{1} << g | 1));
  std::set<std::uint64_t> all(cyclic.begin(), cyclic.end());
  std::vector<std::uint64_t> todo(all.begin(), all.end());
  while (!todo.empty()) {
    const std::uint64_t h = todo.back();
    todo.pop_back();
    for (std::uint64_t c : cyclic) {
      const std::uint64_t j = e.closure(h | c);
      if (all.insert(j).second) todo.push_back(j);
    }
  }
  std::vector<std::uint64_t> subs(all.begin(), all.end());
  std::sort(subs.begin(), subs.end(), [](std::uint64_t a, std::uint64_t b) {
    return std::popcount(a) != std::popcount(b) ? std::popcount(a) < std::popcount(b) : a < b;
  });
  std::vector<std::pair<std::uint64_t, long long>> out;
  for (std::uint64_t k : subs) {
    long long mu = 0;
    if (k == 1) {
      mu = 1;
    } else {
      for (const auto& [h, mh] : out) {
        if ((h & k) == h) mu -= mh;  // every proper subgroup H of K
      }
    }
    out.emplace_back(k, mu);
  }
  return out;
}

}  // namespace

MemoClasses count_classes_by_memo(const SymmetricSolver& sym, const MemoLimits& limits,
                                  std::uint64_t max_fixed) {
  const auto t0 = std::chrono::steady_clock::now();
  MemoClasses out;
  const Problem& pb = sym.problem();
  const ItemGroup& group = sym.group();
  out.stats.group_order = group.order();
  out.stats.kernel = sym.kernel();
  out.why = memo_applies(pb);
  if (!out.why.empty()) return out;
  auto fail = [&](std::string why) {
    out.complete = false;
    out.why = std::move(why);
    return out;
  };
  const Elements e = distinct_elements(group, pb.num_items());
  const std::size_t m = e.perm.size();
  if (m >= 64) return fail("more than 63 distinct symmetries: not counted by memo");
  if (pb.has_colours() && m > 1) {
    return fail("symmetries of a problem with colours are not counted by memo");
  }
  std::vector<std::uint8_t> inverse(m, 0);
  for (std::size_t a = 0; a < m; ++a) {
    for (std::size_t b = 0; b < m; ++b) {
      if (e.product[a][b] == 0) inverse[a] = static_cast<std::uint8_t>(b);
    }
  }
  // Conjugate subgroups fix as many solutions (h maps the solutions K fixes onto those hKh⁻¹
  // fixes), and an element fixes what its cyclic subgroup fixes: one count per class of
  // subgroups, the smallest mask of the class its key.
  auto canonical = [&](std::uint64_t k) {
    std::uint64_t best = k;
    for (std::size_t h = 1; h < m; ++h) {
      std::uint64_t c = 0;
      for (std::size_t a = 0; a < m; ++a) {
        if (k >> a & 1) c |= std::uint64_t{1} << e.product[e.product[h][a]][inverse[h]];
      }
      best = std::min(best, c);
    }
    return best;
  };
  // The identity's count first, then one per class of subgroups. Those are counts of quotients,
  // far smaller: the progress is the first count's fraction (up to 99%), then 99% during the
  // others; the states of each count are added to those before it.
  std::map<std::uint64_t, BigCount> fixed_by;  // Fix(K) by canonical mask
  bool first = true;
  auto generators = [&](std::uint64_t key) {
    std::vector<std::vector<ItemId>> gens;
    for (std::size_t g = 1; g < m; ++g) {
      if (key >> g & 1) gens.push_back(e.perm[g]);
    }
    return gens;
  };
  // With threads, the counts of several subgroups side by side, one thread each (they are
  // independent), each table within an equal share of the budget; a count that outgrows its
  // share is left to fix(), which makes it alone with the whole budget and every thread.
  auto side_by_side = [&](const std::vector<std::uint64_t>& ks) {
    std::vector<std::uint64_t> keys;
    for (std::uint64_t k : ks) {
      const std::uint64_t key = canonical(k);
      if (!fixed_by.count(key) && std::find(keys.begin(), keys.end(), key) == keys.end())
        keys.push_back(key);
    }
    const std::size_t crew = std::min<std::size_t>(limits.threads, keys.size());
    if (crew < 2) return;
    MemoLimits one = limits;
    one.threads = 1;
    one.on_progress = nullptr;
    one.max_bytes = limits.max_bytes / crew;
    std::vector<MemoCount> counts(keys.size());
    std::vector<std::exception_ptr> errors(crew);
    std::atomic<std::size_t> next{0}, finished{0};
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < crew; ++t) {
      threads.emplace_back([&, t] {
        try {
          for (std::size_t i; (i = next.fetch_add(1)) < keys.size();) {
            const std::vector<std::vector<ItemId>> gens = generators(keys[i]);
            counts[i] = memo_count_fixed(pb, gens, one);
          }
        } catch (...) {
          errors[t] = std::current_exception();
        }
        finished.fetch_add(1);
      });
    }
    // The calling thread reports (at 99%) while they count, so that the caller's progress goes
    // on and a caller that stops from its progress callback is heard.
    while (finished.load() < crew) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (limits.on_progress) limits.on_progress(MemoProgress{out.states, 0, out.bytes, 0.99});
    }
    for (std::thread& t : threads) t.join();
    for (const std::exception_ptr& x : errors) {
      if (x) std::rethrow_exception(x);
    }
    out.threads = std::max(out.threads, static_cast<unsigned>(crew));
    for (std::size_t i = 0; i < keys.size(); ++i) {
      out.states += counts[i].states;
      out.bytes = std::max(out.bytes, counts[i].bytes);
      if (counts[i].complete) fixed_by.emplace(keys[i], counts[i].count);
    }
  };
  auto fix = [&](std::uint64_t k, BigCount& n) {
    const std::uint64_t key = canonical(k);
    if (const auto it = fixed_by.find(key); it != fixed_by.end()) {
      n = it->second;
      return true;
    }
    const std::vector<std::vector<ItemId>> gens = generators(key);
    MemoLimits l = limits;
    if (limits.on_progress) {
      l.on_progress = [&, before = out.states](const MemoProgress& p) {
        MemoProgress q = p;
        q.states += before;
        q.fraction = first ? 0.99 * p.fraction : 0.99;
        limits.on_progress(q);
      };
    }
    const MemoCount c = memo_count_fixed(pb, gens, l);
    first = false;
    out.states += c.states;
    out.bytes = std::max(out.bytes, c.bytes);
    out.threads = std::max(out.threads, c.threads);
    if (!c.complete) {
      out.why = c.why;
      return false;
    }
    n = c.count;
    fixed_by.emplace(key, c.count);
    return true;
  };
  BigCount total;
  if (!fix(1, total)) return fail(out.why);
  // Burnside: the classes are the average number of solutions fixed by an element.
  std::map<std::vector<ItemId>, std::size_t> index;
  for (std::size_t g = 0; g < m; ++g) index.emplace(e.perm[g], g);
  {
    std::vector<std::uint64_t> cyclic;
    for (std::size_t g = 0; g < group.order(); ++g) {
      const std::size_t d = index.at(group.perm[g]);
      if (d != 0) cyclic.push_back(e.closure(std::uint64_t{1} << d | 1));
    }
    side_by_side(cyclic);
  }
  // The subgroup's classes too, when one is marked: the average over its elements alone.
  const std::vector<bool>& sub = sym.subgroup();
  BigCount sum, sub_sum;
  std::vector<std::size_t> fixers;
  for (std::size_t g = 0; g < group.order(); ++g) {
    const std::size_t d = index.at(group.perm[g]);
    if (d == 0) {
      sum += total;
      if (!sub.empty() && sub[g]) sub_sum += total;
      continue;
    }
    BigCount f;
    if (!fix(e.closure(std::uint64_t{1} << d | 1), f)) return fail(out.why);
    sum += f;
    if (!sub.empty() && sub[g]) sub_sum += f;
    out.fixed = f.saturated() > ~std::uint64_t(0) - out.fixed ? ~std::uint64_t(0)
                                                              : out.fixed + f.saturated();
    if (!f.is_zero()) fixers.push_back(g);
  }
  BigCount unique = sum;
  if (unique.divide(group.order()) != 0) {
    throw std::logic_error("count_classes_by_memo: Burnside's sum " + sum.to_string() +
                           " is not a multiple of the group's order");
  }
  if (!sub.empty()) {
    BigCount sub_unique = sub_sum;
    if (sub_unique.divide(group.order() / 2) != 0) {
      throw std::logic_error("count_classes_by_memo: Burnside's sum over the subgroup " +
                             sub_sum.to_string() + " is not a multiple of its order");
    }
    out.subgroup_unique = sub_unique;
  }
  if (out.fixed <= max_fixed) {
    // The symmetric classes: list the solutions some element that moves items fixes.
    std::set<std::vector<OptionId>> fixed;
    for (std::size_t g : fixers) {
      memo_solve_fixed(
          pb, group.perm[g],
          [&](std::span<const OptionId> s) {
            fixed.emplace(s.begin(), s.end());
            return true;
          },
          0, limits.order);
    }
    out.stats.search.solutions = fixed.size();
    std::set<std::vector<OptionId>> seen;
    std::vector<OptionId> img;
    for (const auto& s : fixed) {
      if (seen.count(s)) continue;
      ++out.stats.symmetric;
      for (std::size_t g = 0; g < group.order(); ++g) {
        img.clear();
        for (OptionId o : s) img.push_back(sym.image(g, o));
        std::sort(img.begin(), img.end());
        seen.insert(img);
      }
    }
  } else {
    // Too many to list: the solutions no element but the identity fixes, by Möbius inversion
    // over the subgroups of the distinct permutations; they fall into classes of m solutions,
    // and the other classes are the symmetric ones.
    BigCount plus, minus;  // Σ μ(1, K) Fix(K), its positive and negative parts
    const std::vector<std::pair<std::uint64_t, long long>> subgroups = subgroups_with_mobius(e);
    {
      std::vector<std::uint64_t> ks;
      for (const auto& [k, mu] : subgroups) {
        if (mu != 0) ks.push_back(k);
      }
      side_by_side(ks);
    }
    for (const auto& [k, mu] : subgroups) {
      if (mu == 0) continue;
      BigCount f;
      if (!fix(k, f)) return fail(out.why);
      BigCount& to = mu > 0 ? plus : minus;
      to += f * static_cast<std::uint64_t>(mu > 0 ? mu : -mu);
    }
    if (!plus.subtract(minus)) {
      throw std::logic_error("count_classes_by_memo: Möbius' sum is negative");
    }
    BigCount free_solutions = plus;
    if (free_solutions.divide(m) != 0) {
      throw std::logic_error(
          "count_classes_by_memo: the solutions fixed by no symmetry are not "
          "a multiple of the group's size");
    }
    BigCount symmetric = unique;
    if (!symmetric.subtract(free_solutions) || !symmetric.fits_u64()) {
      throw std::logic_error("count_classes_by_memo: symmetric classes out of range");
    }
    out.stats.symmetric = symmetric.to_u64();
  }
  out.complete = true;
  out.why.clear();
  out.stats.total = total.saturated();
  out.stats.unique = unique.saturated();
  out.total = total;
  out.unique = unique;
  out.stats.search.nodes = out.states;
  out.stats.search.complete = true;
  out.stats.search.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace cubex
