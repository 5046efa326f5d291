// Counting classes up to symmetry by Burnside's lemma over memo counts (see symmetry.hpp).
#include <algorithm>
#include <chrono>
#include <set>
#include <stdexcept>

#include "cubex/symmetry.hpp"

namespace cubex {

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
  auto moves = [&](std::size_t g) {
    const auto& p = group.perm[g];
    for (ItemId i = 0; i < p.size(); ++i)
      if (p[i] != i) return true;
    return false;
  };
  auto fail = [&](std::string why) {
    out.complete = false;
    out.why = std::move(why);
    return out;
  };
  if (pb.has_colours()) {
    for (std::size_t g = 0; g < group.order(); ++g) {
      if (moves(g)) return fail("symmetries of a problem with colours are not counted by memo");
    }
  }
  // One count per element that moves items, after the count of all solutions. Those are counts
  // of quotients, far smaller: the progress is the first count's fraction (up to 99%), then 99%
  // during the others; the states of each count are added to those before it.
  bool first = true;
  auto run = [&](std::span<const ItemId> perm, BigCount& n) {
    MemoLimits l = limits;
    if (limits.on_progress) {
      l.on_progress = [&, before = out.states](const MemoProgress& p) {
        MemoProgress q = p;
        q.states += before;
        q.fraction = first ? 0.99 * p.fraction : 0.99;
        limits.on_progress(q);
      };
    }
    const MemoCount c = memo_count(pb, perm, l);
    first = false;
    out.states += c.states;
    out.bytes = std::max(out.bytes, c.bytes);
    n = c.count;
    if (!c.complete) out.why = c.why;
    return c.complete;
  };
  BigCount total;
  if (!run({}, total)) return fail(out.why);
  // Burnside: the classes are the average number of solutions fixed by an element.
  BigCount sum;
  std::vector<std::size_t> fixers;
  for (std::size_t g = 0; g < group.order(); ++g) {
    if (!moves(g)) {
      sum += total;
      continue;
    }
    BigCount f;
    if (!run(group.perm[g], f)) return fail(out.why);
    sum += f;
    const std::uint64_t f64 = f.fits_u64() ? f.to_u64() : ~std::uint64_t(0);
    out.fixed = f64 > ~std::uint64_t(0) - out.fixed ? ~std::uint64_t(0) : out.fixed + f64;  // no wrap
    if (!f.is_zero()) fixers.push_back(g);
  }
  BigCount unique = sum;
  if (unique.divide(group.order()) != 0) {
    throw std::logic_error("count_classes_by_memo: Burnside's sum " + sum.to_string() +
                           " is not a multiple of the group's order");
  }
  if (out.fixed > max_fixed) {
    return fail(std::to_string(out.fixed) +
                " solutions are fixed by symmetries that move items: too many to list");
  }
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
  out.complete = true;
  out.why.clear();
  const std::uint64_t most = ~std::uint64_t(0);
  out.stats.total = total.fits_u64() ? total.to_u64() : most;
  out.stats.unique = unique.fits_u64() ? unique.to_u64() : most;
  out.total = total;
  out.unique = unique;
  out.stats.search.nodes = out.states;
  out.stats.search.complete = true;
  out.stats.search.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace cubex
