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
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/core/solver.hpp"

namespace cubex {

// A group acting on items: element k maps item i to perm[k][i]. Element 0 must be the identity.
struct ItemGroup {
  std::vector<std::vector<ItemId>> perm;
  std::size_t order() const { return perm.size(); }
};

struct SymmetryStats {
  std::uint64_t total = 0;      // all solutions (sum of orbit sizes)
  std::uint64_t unique = 0;     // orbits
  std::uint64_t symmetric = 0;  // orbits whose solutions a non-identity element fixes
  std::size_t group_order = 0;
  bool anchored = false;  // whether an anchor item cut the search
  SolveStats search;      // of the (restricted) search
};

// Calls visit(solution, orbit_size) once per orbit with its canonical solution.
class OrbitVisitor {
 public:
  template <class F>
  OrbitVisitor(F&& f)  // NOLINT: implicit by design
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* obj, std::span<const OptionId> s, std::uint64_t n) -> bool {
          return (*static_cast<std::remove_reference_t<F>*>(obj))(s, n);
        }) {}
  bool operator()(std::span<const OptionId> s, std::uint64_t n) const { return call_(obj_, s, n); }

 private:
  void* obj_;
  bool (*call_)(void*, std::span<const OptionId>, std::uint64_t);
};

class SymmetricSolver {
 public:
  // Throws ProblemError when an element is not a permutation of the items, does not map every
  // option to an option, or when two options cover the same items.
  SymmetricSolver(const Problem& problem, ItemGroup group);
  ~SymmetricSolver();

  // Counts (and optionally visits) one canonical solution per orbit.
  SymmetryStats solve(OrbitVisitor* visit, const SolveLimits& limits = {});
  SymmetryStats count(const SolveLimits& limits = {}) { return solve(nullptr, limits); }

  // The image of option o under group element g.
  OptionId image(std::size_t g, OptionId o) const { return option_perm_[g][o]; }
  std::size_t group_order() const { return group_.order(); }

 private:
  const Problem& problem_;
  ItemGroup group_;
  std::vector<std::vector<OptionId>> option_perm_;  // [g][option]
};

}  // namespace cubex
