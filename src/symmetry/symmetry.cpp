// Counting up to symmetry: anchor restriction plus a canonical check (see symmetry.hpp).
#include "cubex/symmetry.hpp"

#include <cstdio>

#include <algorithm>
#include <map>
#include <optional>

#include "option_index.hpp"

namespace cubex {

SymmetricSolver::SymmetricSolver(const Problem& problem, ItemGroup group,
                                 std::vector<std::vector<OptionId>> option_perm, const Watch& watch)
    : problem_(problem), group_(std::move(group)), option_perm_(std::move(option_perm)) {
  const std::size_t n = problem.num_items();
  if (group_.perm.empty()) throw ProblemError("symmetry group is empty");
  // The board counts the checks of the elements (items, then options); restrict() has its own.
  PhasePoll poll(watch, "checking the symmetries",
                 group_.order() * (std::uint64_t{n} + problem.num_options()));
  for (std::size_t g = 0; g < group_.order(); ++g) {
    const auto& p = group_.perm[g];
    std::vector<bool> hit(n, false);
    if (p.size() != n)
      throw ProblemError("group element " + std::to_string(g) + " has the wrong size");
    for (ItemId i = 0; i < n; ++i) {
      poll.step();
      if (p[i] >= n || hit[p[i]]) {
        throw ProblemError("group element " + std::to_string(g) + " is not a permutation");
      }
      hit[p[i]] = true;
      if (g == 0 && p[i] != i) throw ProblemError("group element 0 is not the identity");
      const Item &a = problem.item(i), &b = problem.item(p[i]);
      if (a.primary != b.primary || a.lo != b.lo || a.hi != b.hi) {
        throw ProblemError("group element " + std::to_string(g) + " maps item '" + a.name +
                           "' to an item of another kind ('" + b.name + "')");
      }
    }
  }
  // Options are known by their (item, colour) entries: an element must map an option to one
  // that covers the image items with the same colours.
  detail::OptionIndex index(problem, watch);
  if (const auto& d = index.duplicate()) {
    throw ProblemError("options " + std::to_string(d->first) + " and " + std::to_string(d->second) +
                       " cover the same items");
  }
  if (!option_perm_.empty()) {  // given: each row must be a permutation of the options
    const std::size_t m = problem.num_options();
    bool ok = option_perm_.size() == group_.order();
    std::vector<bool> hit;
    for (std::size_t g = 0; g < option_perm_.size() && ok; ++g) {
      ok = option_perm_[g].size() == m;
      hit.assign(m, false);
      for (std::size_t o = 0; o < m && ok; ++o) {
        poll.step();
        const OptionId to = option_perm_[g][o];
        ok = to < m && !hit[to] && (g != 0 || to == o);
        if (ok) hit[to] = true;
      }
    }
    if (!ok) throw ProblemError("the options' images are no permutations of the options");
    restrict(watch);
    return;
  }
  option_perm_.assign(group_.order(), std::vector<OptionId>(problem.num_options()));
  for (std::size_t g = 0; g < group_.order(); ++g) {
    for (OptionId o = 0; o < problem.num_options(); ++o) {
      poll.step();
      const std::optional<OptionId> image =
          g == 0 ? std::optional<OptionId>(o) : index.image(o, group_.perm[g]);
      if (!image) {
        throw ProblemError("group element " + std::to_string(g) + " maps option " +
                           std::to_string(o) +
                           " to a set of items that is no option (with the same colours)");
      }
      option_perm_[g][o] = *image;
    }
  }
  restrict(watch);
}

SymmetricSolver::~SymmetricSolver() = default;

void SymmetricSolver::restrict(const Watch& watch) {
  const Problem& p = problem_;
  const std::size_t order = group_.order();
  // The board counts passes over the items and options: the kernel, the options of each item,
  // the anchor, the restricted problem's items and options.
  PhasePoll poll(watch, "restricting the anchor's options",
                 order * std::uint64_t{p.num_items()} + 2 * std::uint64_t{p.num_options()} +
                     2 * std::uint64_t{p.num_items()});
  kernel_ = 0;
  for (const auto& perm : group_.perm) {
    bool moves = false;
    for (ItemId i = 0; i < perm.size() && !moves; ++i) {
      moves = perm[i] != i;
      poll.step();
    }
    kernel_ += !moves;
  }
  poll.step_to(order * std::uint64_t{p.num_items()});

  // Options containing each item that may be the anchor (below: primary, covered exactly once,
  // fixed by every element); the other items' lists stay empty.
  std::vector<bool> may_anchor(p.num_items(), false);
  for (ItemId i = 0; i < p.num_items(); ++i) {
    const Item& it = p.item(i);
    bool fixed = it.primary && it.lo == 1 && it.hi == 1;
    for (std::size_t g = 1; g < order && fixed; ++g) fixed = group_.perm[g][i] == i;
    may_anchor[i] = fixed;
  }
  std::vector<std::vector<OptionId>> options_of(p.num_items());
  for (OptionId o = 0; o < p.num_options(); ++o) {
    for (ItemId i : p.option(o))
      if (may_anchor[i]) options_of[i].push_back(o);
    poll.step();
  }

  // The anchor: a primary item covered exactly once and fixed by every element, whose options
  // fall into the fewest orbits (ties: the most options, which the cut shrinks most).
  auto is_rep = [&](OptionId o) {
    for (std::size_t g = 1; g < order; ++g)
      if (option_perm_[g][o] < o) return false;
    return true;
  };
  std::optional<ItemId> anchor;
  std::size_t best_reps = 0;
  for (ItemId i = 0; i < p.num_items(); ++i) {
    poll.step();
    const Item& it = p.item(i);
    if (!it.primary || it.lo != 1 || it.hi != 1 || options_of[i].empty()) continue;
    bool fixed = true;
    for (std::size_t g = 1; g < order && fixed; ++g) fixed = group_.perm[g][i] == i;
    if (!fixed) continue;
    std::size_t reps = 0;
    for (OptionId o : options_of[i]) reps += is_rep(o);
    if (!anchor || reps < best_reps ||
        (reps == best_reps && options_of[i].size() > options_of[*anchor].size())) {
      anchor = i;
      best_reps = reps;
    }
  }
  anchored_ = anchor.has_value() && order > 1;

  // The restricted problem: the anchor keeps one option per orbit.
  std::vector<bool> keep(p.num_options(), true);
  is_anchor_option_.assign(p.num_options(), false);
  {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a over the permutations
    for (const auto& perm : group_.perm) {
      for (ItemId i : perm) {
        for (int k = 0; k < 4; ++k) {
          h ^= (i >> (8 * k)) & 0xFF;
          h *= 1099511628211ULL;
        }
        if ((i & 0xffff) == 0) poll.check();
      }
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "group of %zu, %016llx", group_.order(),
                  static_cast<unsigned long long>(h));
    identity_ = buf;
  }
  stab_.assign(p.num_options(), {});
  whole_group_.resize(order);
  for (std::size_t g = 0; g < order; ++g) whole_group_[g] = static_cast<std::uint32_t>(g);
  if (anchored_) {
    for (OptionId o : options_of[*anchor]) {
      is_anchor_option_[o] = true;
      keep[o] = is_rep(o);
      if (!keep[o]) continue;
      for (std::size_t g = 0; g < order; ++g)
        if (option_perm_[g][o] == o) stab_[o].push_back(static_cast<std::uint32_t>(g));
    }
  }
  restricted_ = p;
  restricted_.keep_options(keep);
  for (OptionId o = 0; o < p.num_options(); ++o)
    if (keep[o]) original_.push_back(o);
}

std::vector<bool> rotation_subgroup(const CubeGroup& group) {
  std::vector<bool> marks;
  bool reflections = false;
  for (int m : group.symmetry) {
    marks.push_back(m < 24);
    reflections = reflections || m >= 24;
  }
  if (!reflections) marks.clear();
  return marks;
}

void SymmetricSolver::set_subgroup(std::vector<bool> in_subgroup) {
  if (!in_subgroup.empty()) {
    const std::size_t in =
        static_cast<std::size_t>(std::count(in_subgroup.begin(), in_subgroup.end(), true));
    if (in_subgroup.size() != group_.order() || !in_subgroup[0] || 2 * in != group_.order()) {
      throw ProblemError("a subgroup of index 2: expected a mark per element (" +
                         std::to_string(group_.order()) + "), the identity's and half of them set, "
                         "found " + std::to_string(in) + " of " +
                         std::to_string(in_subgroup.size()) + " set");
    }
  }
  in_subgroup_ = std::move(in_subgroup);
}

bool SymmetricSolver::splits(std::span<const OptionId> solution) const {
  if (in_subgroup_.empty()) return false;
  std::vector<OptionId> img;
  img.reserve(solution.size());
  for (std::size_t g = 0; g < group_.order(); ++g) {
    if (in_subgroup_[g]) continue;
    img.clear();
    for (OptionId o : solution) img.push_back(option_perm_[g][o]);
    std::sort(img.begin(), img.end());
    if (std::equal(img.begin(), img.end(), solution.begin(), solution.end())) return false;
  }
  return true;
}

SymmetricSolver::Verdict SymmetricSolver::judge(std::span<const OptionId> solution,
                                                std::vector<OptionId>& sol) const {
  return judge_by(solution, sol, solution.size() >= kMarkedJudge);
}

SymmetricSolver::Verdict SymmetricSolver::judge_by(std::span<const OptionId> solution,
                                                   std::vector<OptionId>& sol, bool marks) const {
  sol.clear();
  for (OptionId o : solution) sol.push_back(original_[o]);
  std::sort(sol.begin(), sol.end());
  const std::vector<std::uint32_t>* elems = &whole_group_;
  if (anchored_) {
    for (OptionId o : sol)
      if (is_anchor_option_[o]) elems = &stab_[o];
  }
  if (marks) return judge_marked(*elems, sol);
  // The elements that fix the solution (its stabiliser) all fix its anchor option, so `elems`
  // holds them all; whether one lies outside the subgroup decides `split`.
  std::uint64_t fixers = 0;
  bool fixed_outside = false;
  std::vector<OptionId> img;
  img.reserve(sol.size());
  for (std::uint32_t g : *elems) {
    img.clear();
    for (OptionId o : sol) img.push_back(option_perm_[g][o]);
    std::sort(img.begin(), img.end());
    if (img < sol) return {};  // not canonical: its class is met elsewhere
    if (img == sol) {
      ++fixers;
      fixed_outside = fixed_outside || (!in_subgroup_.empty() && !in_subgroup_[g]);
    }
  }
  return {group_.order() / fixers, fixers > kernel_, !in_subgroup_.empty() && !fixed_outside};
}

SymmetryStats SymmetricSolver::solve(OrbitVisitor* visit, const SolveLimits& limits) {
  SymmetryStats out;
  out.group_order = group_.order();
  out.kernel = kernel_;
  out.anchored = anchored_;
  std::vector<OptionId> sol;
  auto on_solution = [&](std::span<const OptionId> s) {
    const Verdict v = judge(s, sol);
    if (!v.orbit) return true;
    ++out.unique;
    out.total += v.orbit;
    out.symmetric += v.symmetric;
    out.split += v.split;
    if (visit && !(*visit)(sol, v.orbit)) return false;
    return !(limits.max_solutions && out.unique >= limits.max_solutions);
  };
  SolveLimits inner;
  inner.stop = limits.stop;
  out.search = Solver(restricted_).solve(on_solution, inner);
  return out;
}

// The sorted image of `sol` under g is below `sol` (lexicographically, both sorted) exactly when
// the least option in one of the two sets and not the other is in the image: everything below it
// is in both or in neither, so the two agree up to where the image has it and `sol` something
// larger. Marks over the options find that least option in three passes, without a sort.
SymmetricSolver::Verdict SymmetricSolver::judge_marked(std::span<const std::uint32_t> elems,
                                                       std::span<const OptionId> sol) const {
  const std::size_t words = (problem_.num_options() + 63) / 64;
  std::vector<std::uint64_t> in_sol(words, 0), in_img(words, 0);
  auto has = [](const std::vector<std::uint64_t>& m, OptionId o) {
    return m[o / 64] >> (o % 64) & 1;
  };
  for (OptionId o : sol) in_sol[o / 64] |= std::uint64_t{1} << (o % 64);
  constexpr OptionId kNone = ~OptionId{0};
  std::uint64_t fixers = 0;
  bool fixed_outside = false;
  for (std::uint32_t g : elems) {
    const std::vector<OptionId>& to = option_perm_[g];
    OptionId image_only = kNone, sol_only = kNone;
    for (OptionId o : sol) {
      const OptionId t = to[o];
      in_img[t / 64] |= std::uint64_t{1} << (t % 64);
      if (!has(in_sol, t)) image_only = std::min(image_only, t);
    }
    for (OptionId o : sol) {  // (sorted: the first one missing is the least)
      if (!has(in_img, o)) {
        sol_only = o;
        break;
      }
    }
    for (OptionId o : sol) in_img[to[o] / 64] = 0;
    if (image_only == kNone) {
      ++fixers;  // the same set
      fixed_outside = fixed_outside || (!in_subgroup_.empty() && !in_subgroup_[g]);
    } else if (image_only < sol_only) {
      return {};  // not canonical: its class is met elsewhere
    }
  }
  return {group_.order() / fixers, fixers > kernel_, !in_subgroup_.empty() && !fixed_outside};
}

std::vector<std::pair<std::size_t, std::vector<OptionId>>> orbit_of(
    const SymmetricSolver& sym, std::span<const OptionId> solution) {
  std::vector<std::pair<std::size_t, std::vector<OptionId>>> out;
  std::vector<OptionId> image;
  for (std::size_t g = 0; g < sym.group_order(); ++g) {
    image.clear();
    for (OptionId o : solution) image.push_back(sym.image(g, o));
    std::sort(image.begin(), image.end());
    bool seen = false;
    for (const auto& [h, s] : out) seen = seen || s == image;
    if (!seen) out.emplace_back(g, image);
  }
  return out;
}

}  // namespace cubex
