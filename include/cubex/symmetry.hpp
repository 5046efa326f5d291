// cubex/symmetry.hpp - counting solutions up to a symmetry group, exactly, without enumerating
// every solution.
//
// The group is given as permutations of the Problem's items that map the set of options onto
// itself (a front end derives them from the container's rotations and reflections). The search
// is broken by an anchor: a primary item covered exactly once and fixed by the whole group (a
// piece that occurs once, or the cell at the container's centre). Its options are cut down to
// one representative r per orbit; a solution found is kept only if it is the smallest of its
// images under the stabiliser of r. Every orbit of solutions is then met exactly once, and its
// size |G| / |stabiliser of the solution| gives the total without listing the orbit.
// Without such an anchor every solution is enumerated and the canonical check runs over all of G.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "cubex/core/job.hpp"
#include "cubex/core/memo.hpp"
#include "cubex/core/problem.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/geometry.hpp"
#include "cubex/stop.hpp"

namespace cubex {

// A group acting on items: element k maps item i to perm[k][i]. Element 0 must be the identity.
struct ItemGroup {
  std::vector<std::vector<ItemId>> perm;
  std::size_t order() const { return perm.size(); }
};

// How much of the cube's symmetry a count uses: none (every solution counted apart), the 24
// rotations, or the largest valid group (rotations plus reflections where the puzzle allows).
enum class SymmetryMode { kNone, kRotations, kAuto };
// "none", "rotations", "auto"; nullopt for anything else.
std::optional<SymmetryMode> parse_symmetry_mode(std::string_view text);

// The trivial group (the identity alone) on n items.
ItemGroup trivial_group(std::size_t num_items);

// Items placed in space, from which a front end derives its puzzle's group.
struct ItemPlaces {
  // where[i]: a tag (items of different tags never map to each other) and an integer point, or
  // nullopt for an item every rotation fixes (a piece).
  std::vector<std::optional<std::pair<int, Vec3>>> where;
  // reflected[i], for an item without a point: the item a reflection maps it to (a piece's
  // mirror twin); nullopt when no reflection can be a symmetry (a chiral piece without a twin).
  std::vector<std::optional<ItemId>> reflected;
};

// A group of cube symmetries acting on a Problem's items.
struct CubeGroup {
  ItemGroup group;
  std::vector<int> symmetry;  // symmetry[k]: the index into cube_symmetries() of element k
  // option_perm[k][o]: the option that element k maps option o to (as cube_symmetry_group found
  // it; SymmetricSolver takes it instead of finding it again).
  std::vector<std::vector<OptionId>> option_perm;
};

// The elements M of the cube's symmetry group (the 24 rotations first; the 24 reflections too when
// mode is kAuto) such that M followed by one translation maps the placed points onto themselves
// (tags kept) and every option of the problem onto an option. Items without a point stay fixed
// under rotations and go to reflected[i] under reflections. Element 0 is the identity; kNone gives
// the identity alone. The result is a group: the symmetries of the point set that preserve the
// options form a subgroup of the cube's. Fills option_perm with the image of every option under
// every element. Polls `watch` every few thousand items or options (cubex/stop.hpp): throws
// Interrupted once its stop flag is set; the board counts the 47 (or 23) candidates tried.
CubeGroup cube_symmetry_group(const Problem& problem, const ItemPlaces& places, SymmetryMode mode,
                              const Watch& watch = {});

// The rotations of a group that has reflections, as a mark per element (CubeGroup::symmetry
// below 24), for SymmetricSolver::set_subgroup: a subgroup of index 2. Empty when the group has
// no reflection (its rotations are all of it).
std::vector<bool> rotation_subgroup(const CubeGroup& group);

struct SymmetryStats {
  std::uint64_t total = 0;      // all solutions (sum of orbit sizes)
  std::uint64_t unique = 0;     // orbits
  std::uint64_t symmetric = 0;  // orbits whose solutions an element that moves items fixes
  // With a subgroup (SymmetricSolver::set_subgroup): orbits that are two orbits up to it, so
  // that unique + split are the orbits up to the subgroup. 0 without one.
  std::uint64_t split = 0;
  std::size_t group_order = 0;
  std::size_t kernel = 1;  // elements that move no item (a flat puzzle's mid-plane mirror)
  bool anchored = false;   // whether an anchor item cut the search
  SolveStats search;       // of the (restricted) search
};

// Calls visit(solution, orbit_size) once per orbit with its canonical solution.
using OrbitVisitor = ClassVisitor;  // (job.hpp) the same non-owning callable

class SymmetricSolver final : public SolutionJudge {
 public:
  // Throws ProblemError when an element is not a permutation of the items, does not map every
  // option to an option, or when two options cover the same items. option_perm, when not empty,
  // gives the image of every option under every element, as cube_symmetry_group() found it
  // (CubeGroup::option_perm): the constructor then only checks that each row is a permutation
  // of the options, instead of finding every image again. Polls `watch` every few thousand
  // items or options (cubex/stop.hpp): throws Interrupted once its stop flag is set.
  SymmetricSolver(const Problem& problem, ItemGroup group,
                  std::vector<std::vector<OptionId>> option_perm = {}, const Watch& watch = {});
  SymmetricSolver(Problem&&, ItemGroup, std::vector<std::vector<OptionId>> = {},
                  const Watch& = {}) = delete;
  ~SymmetricSolver() override;

  // Counts (and optionally visits) one canonical solution per orbit.
  SymmetryStats solve(OrbitVisitor* visit, const SolveLimits& limits = {});
  SymmetryStats count(const SolveLimits& limits = {}) { return solve(nullptr, limits); }

  // A subgroup H of index 2 (in practice the rotations of a group with reflections:
  // rotation_subgroup()), as a mark per element. A class up to the group is one class up to H
  // when some element outside H fixes its solutions, else two (H and the other coset map a
  // solution to disjoint halves of its class). judge() and solve() then say which
  // (Verdict::split, SymmetryStats::split): one search counts the classes up to both groups.
  // Empty marks: no subgroup (the default). The marks are part of what judge() answers but not
  // of identity(): a caller that marks a subgroup marks the same one for the same group (the
  // plan: the group's rotations). Throws ProblemError unless the marks have one entry per
  // element, the identity's set and exactly half set. Call it before judging, not while.
  void set_subgroup(std::vector<bool> in_subgroup);
  const std::vector<bool>& subgroup() const { return in_subgroup_; }
  bool has_subgroup() const { return !in_subgroup_.empty(); }
  // Whether the class of `solution` (sorted options of the problem the solver was built on) is
  // two classes up to the subgroup: no element outside it fixes the solution. False without a
  // subgroup. Forms an image under each element outside the subgroup (at most 24).
  bool splits(std::span<const OptionId> solution) const;

  // The image of option o under group element g.
  OptionId image(std::size_t g, OptionId o) const { return option_perm_[g][o]; }
  std::size_t group_order() const { return group_.order(); }
  const ItemGroup& group() const { return group_; }
  const Problem& problem() const { return problem_; }
  // Elements that move no item.
  std::size_t kernel() const { return kernel_; }
  bool anchored() const { return anchored_; }

  // The two halves of solve(), for callers that run the search themselves (with threads, work
  // units and checkpoints): search `restricted()` (the problem with the anchor's options cut to
  // one per orbit) and pass each solution found to judge(). It returns orbit = 0 when the
  // solution is not the canonical one of its class (the class is met elsewhere), else the class
  // size and whether some element that moves items fixes it; `original` receives the solution
  // as sorted options of the original problem. judge() is const and may run on several threads
  // at once, each with its own `original`.
  using Verdict = SolutionJudge::Verdict;
  const Problem& restricted() const { return restricted_; }
  // The option of the original problem that option o of restricted() is.
  OptionId original_option(OptionId o) const { return original_[o]; }
  Verdict judge(std::span<const OptionId> solution, std::vector<OptionId>& original) const override;
  // The group's order and a hash of its permutations (the tree identity of job.hpp), found once
  // by the constructor.
  std::string identity() const override { return identity_; }
  // Solutions of at least this many options are judged by marks over the options (three passes
  // per element) instead of a sort per element: a box of a million monocubes.
  static constexpr std::size_t kMarkedJudge = 4096;
  // judge() by one way or the other (`marks`), whatever the solution's size: the same verdict
  // (the tests compare them).
  Verdict judge_by(std::span<const OptionId> solution, std::vector<OptionId>& original,
                   bool marks) const;

 private:
  void restrict(const Watch& watch);
  Verdict judge_marked(std::span<const std::uint32_t> elems, std::span<const OptionId> sol) const;

  const Problem& problem_;
  ItemGroup group_;
  std::vector<std::vector<OptionId>> option_perm_;  // [g][option]
  std::size_t kernel_ = 1;
  bool anchored_ = false;
  Problem restricted_;
  std::vector<OptionId> original_;                // option of restricted_ -> of problem_
  std::vector<bool> is_anchor_option_;            // options of problem_
  std::vector<std::vector<std::uint32_t>> stab_;  // stabiliser of each anchor representative
  std::vector<std::uint32_t> whole_group_;
  std::vector<bool> in_subgroup_;  // set_subgroup(): empty, or a mark per element
  std::string identity_;
};

// Counting classes without visiting them (count_classes_by_memo).
struct MemoClasses {
  bool complete = false;  // false: `why` says why (the caller searches instead)
  std::string why;
  SymmetryStats stats;       // search.nodes: sub-problems counted; search.solutions: symmetric
                             // solutions listed
  std::uint64_t states = 0;  // sub-problems counted, over all group elements
  std::size_t bytes = 0;     // the largest table
  unsigned threads = 1;      // the most threads a count ran on (MemoLimits::threads)
  std::uint64_t fixed = 0;   // solutions fixed by an element that moves items (up to 2^64 - 1)
  BigCount total, unique;    // exact (stats.total and stats.unique: the same when they fit
                             // 64 bits, else 2^64 - 1)
  // With a subgroup (SymmetricSolver::set_subgroup): the classes up to it, by Burnside's lemma
  // over its elements alone (the counts of the group's elements give it: no count more).
  std::optional<BigCount> subgroup_unique;
};

// The counts of sym.solve() without its search: the total by memo_count() (core/memo.hpp), the
// classes by Burnside's lemma (their number is the average over the group of the solutions each
// element fixes, each counted as a memo_count() of the quotient), and the symmetric classes
// either by listing the solutions fixed by elements that move items (memo_solve_fixed, when at
// most `max_fixed` are) and sorting them into classes, or else by counting: the solutions no
// symmetry but the identity fixes are Σ μ(1, K) Fix(K) over the subgroups K of the group
// (Möbius inversion on its lattice of subgroups; Fix(K) a memo_count_fixed() of the quotient by
// K), and they make classes of the group's size. Incomplete when memo_applies() is not empty,
// a table outgrows `limits.max_bytes` or the stop flag is set. With a subgroup marked on `sym`,
// also the classes up to the subgroup (subgroup_unique). With limits.threads > 1 the first
// count runs on the threads and the counts of subgroups side by side, one thread each.
MemoClasses count_classes_by_memo(const SymmetricSolver& sym, const MemoLimits& limits = {},
                                  std::uint64_t max_fixed = 1'000'000);

// Every solution in the class of `solution` (options of the problem `sym` was built on): each
// once, options sorted, with the first group element that maps `solution` onto it (element 0,
// the identity, gives `solution` itself, listed first). Their number is the class size that
// judge() gives. At most group_order() images are formed (48 at most for cube groups).
std::vector<std::pair<std::size_t, std::vector<OptionId>>> orbit_of(
    const SymmetricSolver& sym, std::span<const OptionId> solution);

}  // namespace cubex
