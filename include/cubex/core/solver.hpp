// cubex/core/solver.hpp - enumerates the solutions of an exact-cover Problem.
//
//   cubex::Solver solver(problem);
//   auto stats = solver.count();                        // just count
//   solver.solve([&](std::span<const cubex::OptionId> s) { ...; return true; });  // visit all
//
// Two backends (Backend below): Knuth's Algorithm X over dancing links, extended with his
// Algorithm M for multiplicities, and bitsets of the live options (src/core/bitset/; with
// multiplicities src/core/bitset_mult.cpp). At each level the primary item with the fewest
// remaining options (MRV; ties: the first item) is branched on. The search loops are iterative,
// allocate nothing and make no virtual call; a visitor is called once per solution.
//
// For several threads, progress, checkpoints and shards see job.hpp (SearchJob), which cuts the
// tree of one backend into spans.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/core/tuning.hpp"

namespace cubex {

// A non-owning reference to any callable `bool(std::span<const OptionId>)`: return true to go
// on, false to stop the search. The span is the chosen options (indices into the Problem) and
// is valid only during the call.
class SolutionVisitor {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, SolutionVisitor>>>
  SolutionVisitor(F&& f)  // NOLINT: implicit by design, like std::function_ref
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* obj, std::span<const OptionId> s) -> bool {
          return (*static_cast<std::remove_reference_t<F>*>(obj))(s);
        }) {}
  bool operator()(std::span<const OptionId> s) const { return call_(obj_, s); }

 private:
  void* obj_;
  bool (*call_)(void*, std::span<const OptionId>);
};

struct SolveLimits {
  std::uint64_t max_solutions = 0;          // stop after this many (0: no limit)
  const std::atomic<bool>* stop = nullptr;  // set from outside (a signal, a timer) to stop
  std::uint64_t max_nodes = 0;              // stop before entering more nodes (0: no limit)
};

struct SolveStats {
  std::uint64_t solutions = 0;  // solutions found (visited)
  std::uint64_t nodes = 0;      // search-tree nodes entered
  std::uint64_t updates = 0;    // links: link removals; bitset: 64-bit words of live options
                                //   rewritten
  bool complete = true;         // false when stopped early (a limit, the visitor, stop flag)
  double seconds = 0;           // wall-clock time of the search
};

// The search backends. Both find the same solutions. Without pruning they walk the same tree
// (same item choices, same order of children, the solutions in the same order); the bitset
// backend prunes where it pays (EngineTuning::prune, plain exact cover only): an option that
// conflicts with every live option of some item is removed before the item is chosen, so its
// tree has fewer nodes and its solutions may come in another order. The tree's choice rule
// (SearchJob::identity) says which tree a run walks.
//   kLinks:  dancing links (Algorithms X and M): every problem, multiplicities included.
//   kBitset: live-option bitsets, usually several times faster on puzzle-sized matrices:
//            plain exact cover, and multiplicities (Algorithm M) with under 28,672 options;
//            the CPU needs POPCNT, AVX2 and BMI2.
//   kAuto:   kBitset where it applies, else kLinks.
enum class Backend { kAuto, kLinks, kBitset };

namespace detail {
class Engine;
}

// The most nodes a matrix may have: the dancing-links arrays index nodes with 32-bit signed
// integers. A matrix has items + option entries + options + 2 nodes (matrix_nodes() in
// cubex/limits.hpp, whose max_nodes limit the readers apply long before this one).
constexpr std::uint64_t kMaxMatrixNodes = 0x7fffffff;

// Threads. A Problem is not changed by solving: once built, one Problem may be read by any
// number of threads at once (each with its own Solver). A Solver (and a SymmetricSolver) keeps
// the search state of one run: use each from one thread at a time. A SolutionVisitor is called
// on the thread that called solve().
//
// A Solver refers to its Problem, which must outlive it; a temporary Problem is refused at
// compile time (Solver s(make_problem()) does not compile: keep the Problem in a variable).
class Solver {
 public:
  // Throws std::invalid_argument when `backend` is kBitset and the problem is outside what it
  // takes (see Backend), and ProblemError when the matrix has more than kMaxMatrixNodes nodes.
  explicit Solver(const Problem& problem, Backend backend = Backend::kAuto);
  // The same with the bitset backend's tuning (cubex/core/tuning.hpp).
  Solver(const Problem& problem, Backend backend, const EngineTuning& tuning);
  Solver(Problem&&, Backend = Backend::kAuto) = delete;  // it would dangle
  Solver(Problem&&, Backend, const EngineTuning&) = delete;
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  // Visits every solution (until the visitor returns false or a limit is hit).
  SolveStats solve(SolutionVisitor visit, const SolveLimits& limits = {});
  // Counts solutions without looking at them.
  SolveStats count(const SolveLimits& limits = {});
  // The first solution found, if any.
  std::optional<std::vector<OptionId>> first();

  const Problem& problem() const { return problem_; }
  // The backend in use (never kAuto).
  Backend backend() const { return backend_; }

 private:
  detail::Engine& engine();

  const Problem& problem_;
  Backend backend_;
  EngineTuning tuning_;
  std::unique_ptr<detail::Engine> engine_;
};

}  // namespace cubex
