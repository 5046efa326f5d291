// Counting exact covers with a table of sub-problems (cubex/core/memo.hpp).
#include "cubex/core/memo.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <span>
#include <thread>
#include <vector>

namespace cubex {

namespace {

using Word = std::uint64_t;

std::size_t words_for(std::size_t bits) {
  return (bits + 63) / 64;
}

// The problem the search runs on: the quotient of a Problem by an item permutation (the
// Problem itself for the identity). Items are "bits" (covered at most once: the primary items of
// range 1..1, which must be covered, first, those of the order leading in its order, then the
// secondary ones without colours), "colour fields" (secondary items some option colours: 0
// while uncovered, then the colour of the options covering them, or `uncoloured` for an option
// that gives none) and "counters" (primary items with another range, covered by an option
// `weight` times).
struct Quotient {
  std::uint32_t exact = 0;  // bits [0, exact) must be covered
  std::uint32_t bits = 0;
  std::uint32_t colour_fields = 0;
  std::uint32_t uncoloured = 0;                         // the value of an uncoloured covering
  std::vector<std::uint32_t> lo, hi;                    // per counter
  std::vector<std::vector<std::uint32_t>> option_bits;  // per quotient option
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> option_counters;  // (c, w)
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> option_colours;   // (f, c)
  std::vector<std::vector<OptionId>> members;  // the options of the Problem it stands for
  std::vector<std::uint32_t> order;            // bits to branch on first, in this order
  std::size_t min_exact = 0;                   // the fewest bits < exact an option covers
  std::size_t max_degree = 0;                  // the most options on a bit < exact
};

std::string applies(const Problem& pb) {
  for (OptionId o = 0; o < pb.num_options(); ++o) {
    bool exact = false;
    for (ItemId i : pb.option(o)) {
      const Item& it = pb.item(i);
      exact = exact || (it.primary && it.lo == 1 && it.hi == 1);
    }
    if (!exact) {
      return "option " + std::to_string(o) + " covers no primary item of range 1..1";
    }
  }
  return {};
}

constexpr OptionId kNoOption = ~OptionId{0};

// The options in the order of their sorted item lists (flat arrays, no allocation per option):
// finds the option that covers a given set of items, and refuses two options that cover the
// same items.
class ByItems {
 public:
  explicit ByItems(const Problem& pb) : start_(pb.num_options() + 1, 0) {
    for (OptionId o = 0; o < pb.num_options(); ++o) {
      const auto items = pb.option(o);
      items_.insert(items_.end(), items.begin(), items.end());
      start_[o + 1] = static_cast<std::uint32_t>(items_.size());
      std::sort(items_.begin() + start_[o], items_.end());
    }
    sorted_.resize(pb.num_options());
    for (OptionId o = 0; o < pb.num_options(); ++o) sorted_[o] = o;
    std::stable_sort(sorted_.begin(), sorted_.end(),
                     [&](OptionId a, OptionId b) { return less(of(a), of(b)); });
    for (std::size_t k = 1; k < sorted_.size(); ++k) {
      if (!less(of(sorted_[k - 1]), of(sorted_[k]))) {
        throw ProblemError("memo count: options " + std::to_string(sorted_[k - 1]) + " and " +
                           std::to_string(sorted_[k]) + " cover the same items");
      }
    }
  }
  // The option whose sorted items are `key`, or kNoOption.
  OptionId find(std::span<const ItemId> key) const {
    const auto it =
        std::lower_bound(sorted_.begin(), sorted_.end(), key,
                         [&](OptionId o, std::span<const ItemId> k) { return less(of(o), k); });
    return it != sorted_.end() && !less(key, of(*it)) ? *it : kNoOption;
  }

 private:
  std::span<const ItemId> of(OptionId o) const {
    return std::span<const ItemId>(items_).subspan(start_[o], start_[o + 1] - start_[o]);
  }
  static bool less(std::span<const ItemId> a, std::span<const ItemId> b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }
  std::vector<std::uint32_t> start_;
  std::vector<ItemId> items_;
  std::vector<OptionId> sorted_;
};

// `gens` generate the group whose fixed solutions are counted (empty: the identity): the
// quotient's items are the orbits of items under it, its options the orbits of options.
Quotient make_quotient(const Problem& pb, std::span<const std::vector<ItemId>> gens_in,
                       std::span<const ItemId> order) {
  if (std::string why = applies(pb); !why.empty()) throw ProblemError("memo count: " + why);
  const std::size_t n = pb.num_items();
  std::vector<std::vector<ItemId>> gens;
  for (const auto& g : gens_in) {
    if (g.empty()) continue;  // the identity
    if (g.size() != n) throw ProblemError("memo count: the permutation has the wrong size");
    std::vector<bool> hit(n, false);
    for (ItemId i = 0; i < n; ++i) {
      if (g[i] >= n || hit[g[i]]) throw ProblemError("memo count: not a permutation of the items");
      hit[g[i]] = true;
    }
    bool moves = false;
    for (ItemId i = 0; i < n; ++i) moves = moves || g[i] != i;
    if (!moves) continue;
    if (pb.has_colours()) {
      throw ProblemError(
          "memo count: symmetries of a problem with colours are not counted by memo");
    }
    gens.push_back(g);
  }
  auto same_kind = [&](ItemId a, ItemId b) {
    const Item& x = pb.item(a);
    const Item& y = pb.item(b);
    return x.primary == y.primary && x.lo == y.lo && x.hi == y.hi;
  };
  // Item orbits (closures under the generators), numbered within their kind.
  enum Kind : std::uint8_t { kExact, kSecondary, kCounter, kColoured };
  std::vector<bool> coloured(n, false);  // secondary items some option gives a colour
  for (OptionId o = 0; o < pb.num_options(); ++o) {
    const auto items = pb.option(o);
    const auto colours = pb.option_colours(o);
    for (std::size_t k = 0; k < items.size(); ++k)
      coloured[items[k]] = coloured[items[k]] || colours[k] != 0;
  }
  std::vector<std::uint32_t> orbit(n, UINT32_MAX), orbit_size;
  std::vector<Kind> orbit_kind;
  std::vector<ItemId> orbit_rep;
  std::vector<ItemId> todo;
  for (ItemId i = 0; i < n; ++i) {
    if (orbit[i] != UINT32_MAX) continue;
    const auto id = static_cast<std::uint32_t>(orbit_size.size());
    std::uint32_t size = 1;
    orbit[i] = id;
    todo.assign(1, i);
    while (!todo.empty()) {
      const ItemId j = todo.back();
      todo.pop_back();
      for (const auto& g : gens) {
        const ItemId k = g[j];
        if (orbit[k] != UINT32_MAX) continue;
        if (!same_kind(i, k)) {
          throw ProblemError("memo count: the permutation maps item '" + pb.item(j).name +
                             "' onto '" + pb.item(k).name + "' of another range");
        }
        orbit[k] = id;
        ++size;
        todo.push_back(k);
      }
    }
    const Item& it = pb.item(i);
    orbit_size.push_back(size);
    orbit_rep.push_back(i);
    orbit_kind.push_back(!it.primary                ? (coloured[i] ? kColoured : kSecondary)
                         : it.lo == 1 && it.hi == 1 ? kExact
                                                    : kCounter);
  }
  Quotient q;
  std::vector<std::uint32_t> index(orbit_size.size(), UINT32_MAX);
  for (ItemId i : order) {  // the exact items of the order lead, in its order
    if (i >= n) throw ProblemError("memo count: an item of the order is out of range");
    const std::uint32_t r = orbit[i];
    if (orbit_kind[r] != kExact || index[r] != UINT32_MAX) continue;
    index[r] = q.bits++;
    q.order.push_back(index[r]);
  }
  for (Kind k : {kExact, kSecondary}) {
    for (std::size_t r = 0; r < orbit_size.size(); ++r) {
      if (orbit_kind[r] == k && index[r] == UINT32_MAX) index[r] = q.bits++;
    }
    if (k == kExact) q.exact = q.bits;
  }
  for (std::size_t r = 0; r < orbit_size.size(); ++r) {
    if (orbit_kind[r] == kColoured) index[r] = q.colour_fields++;
  }
  q.uncoloured = static_cast<std::uint32_t>(pb.num_colours()) + 1;
  for (std::size_t r = 0; r < orbit_size.size(); ++r) {
    if (orbit_kind[r] != kCounter) continue;
    index[r] = static_cast<std::uint32_t>(q.lo.size());
    q.lo.push_back(pb.item(orbit_rep[r]).lo);
    q.hi.push_back(pb.item(orbit_rep[r]).hi);
  }

  // Options by their sorted items, to map an option's image back to an option.
  const ByItems by_items(pb);
  std::vector<ItemId> key;
  std::vector<bool> done(pb.num_options(), false);
  std::vector<std::uint32_t> stamp(n, 0), times(orbit_size.size(), 0);
  std::uint32_t mark = 0;
  std::vector<OptionId> cycle;  // the orbit of an option
  for (OptionId o = 0; o < pb.num_options(); ++o) {
    if (done[o]) continue;
    done[o] = true;
    cycle.assign(1, o);
    for (std::size_t at = 0; at < cycle.size(); ++at) {
      const auto items = pb.option(cycle[at]);
      for (const auto& g : gens) {
        key.clear();
        for (ItemId i : items) key.push_back(g[i]);
        std::sort(key.begin(), key.end());
        const OptionId image = by_items.find(key);
        if (image == kNoOption) {
          throw ProblemError("memo count: the permutation maps option " +
                             std::to_string(cycle[at]) + " onto no option");
        }
        if (!done[image]) {
          done[image] = true;
          cycle.push_back(image);
        }
      }
    }
    // Usable only when its members are disjoint on the items covered at most once.
    ++mark;
    bool disjoint = true;
    std::fill(times.begin(), times.end(), 0);
    for (OptionId p : cycle) {
      for (ItemId i : pb.option(p)) {
        if (orbit_kind[orbit[i]] == kCounter) {
          ++times[orbit[i]];
        } else if (stamp[i] == mark) {
          disjoint = false;
        } else {
          stamp[i] = mark;
        }
      }
    }
    if (!disjoint) continue;
    std::vector<std::uint32_t> bits;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> counters, colours;
    for (OptionId p : cycle) {
      const auto items = pb.option(p);
      for (std::size_t k = 0; k < items.size(); ++k) {
        const ItemId i = items[k];
        const std::uint32_t r = orbit[i];
        if (orbit_kind[r] == kColoured) {
          const ColourId c = pb.option_colours(p)[k];
          colours.emplace_back(index[r], c == 0 ? q.uncoloured : c);
        } else if (orbit_kind[r] == kCounter) {
          if (times[r] == 0) continue;
          if (times[r] % orbit_size[r] != 0) {
            throw ProblemError("memo count: an orbit of options covers an orbit of items unevenly");
          }
          counters.emplace_back(index[r], times[r] / orbit_size[r]);
          times[r] = 0;
        } else {
          bits.push_back(index[r]);
        }
      }
    }
    std::sort(bits.begin(), bits.end());
    bits.erase(std::unique(bits.begin(), bits.end()), bits.end());
    std::sort(cycle.begin(), cycle.end());
    std::size_t exact_bits = 0;
    for (std::uint32_t b : bits) exact_bits += b < q.exact;
    q.min_exact = q.option_bits.empty() ? exact_bits : std::min(q.min_exact, exact_bits);
    q.option_bits.push_back(std::move(bits));
    q.option_counters.push_back(std::move(counters));
    q.option_colours.push_back(std::move(colours));
    q.members.push_back(cycle);
  }
  std::vector<std::size_t> degree(q.exact, 0);
  for (const auto& bits : q.option_bits) {
    for (std::uint32_t b : bits) {
      if (b < q.exact) q.max_degree = std::max(q.max_degree, ++degree[b]);
    }
  }
  return q;
}

}  // namespace

namespace {
namespace memo_plain {
using cubex::Quotient;
using cubex::Word;
using cubex::words_for;
#include "memo_search.inc"  // NOLINT(bugprone-suspicious-include)
}  // namespace memo_plain
}  // namespace

// The same compiled for CPUs with POPCNT (a popcount is then one instruction, not a call).
#if defined(__x86_64__)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("popcnt")
#endif
namespace {
namespace memo_popcnt {
using cubex::Quotient;
using cubex::Word;
using cubex::words_for;
#include "memo_search.inc"  // NOLINT(bugprone-suspicious-include)
}  // namespace memo_popcnt
}  // namespace
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif

namespace {

bool has_popcnt() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("popcnt");
#else
  return false;
#endif
}

template <class F>
auto with_search(const Quotient& q, const std::atomic<bool>* stop, bool sweep, F&& f) {
#if defined(__x86_64__)
  if (has_popcnt()) {
    memo_popcnt::Search s(q, stop, sweep);
    return f(s);
  }
#endif
  memo_plain::Search s(q, stop, sweep);
  return f(s);
}

}  // namespace

std::string memo_applies(const Problem& problem) {
  return applies(problem);
}

MemoCount memo_count(const Problem& problem, std::span<const ItemId> perm,
                     const MemoLimits& limits) {
  const std::vector<ItemId> one(perm.begin(), perm.end());
  return memo_count_fixed(problem, std::span<const std::vector<ItemId>>(&one, 1), limits);
}

MemoCount memo_count_fixed(const Problem& problem, std::span<const std::vector<ItemId>> perms,
                           const MemoLimits& limits) {
  const Quotient q = make_quotient(problem, perms, limits.order);
  // Values wide enough for max_degree^(exact / min_exact), the most solutions the tree can
  // have, up to two words; wider ones only after an overflow.
  std::size_t words = 1;
  if (q.min_exact > 0 && q.max_degree > 1) {
    const double bits = double(q.exact) / double(q.min_exact) * std::log2(double(q.max_degree));
    words = bits < 63 ? 1 : 2;
  }
  return with_search(q, limits.stop, true, [&](auto& s) { return s.count(limits, words); });
}

SolveStats memo_solve_fixed(const Problem& problem, std::span<const ItemId> perm,
                            SolutionVisitor visit, std::uint64_t max_solutions,
                            std::span<const ItemId> order) {
  const std::vector<ItemId> one(perm.begin(), perm.end());
  const Quotient q = make_quotient(problem, std::span<const std::vector<ItemId>>(&one, 1), order);
  return with_search(q, nullptr, false, [&](auto& s) { return s.enumerate(visit, max_solutions); });
}

}  // namespace cubex
