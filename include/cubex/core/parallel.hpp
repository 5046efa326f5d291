// cubex/core/parallel.hpp - the search tree cut into work units: threads, progress, interrupt
// and resume, shards. One mechanism for all four.
//
//   cubex::ParallelSolver ps(problem);                 // cuts the tree into ~4096 units
//   cubex::ParallelOptions opt;  opt.threads = 4;
//   auto st = ps.solve(nullptr, opt);                  // count with 4 threads
//
// Work units. The tree (the same tree as Solver's: see solver.hpp) is cut breadth-first: the
// node whose subtree is largest by Knuth's estimate (1 / product of the branching factors on its
// path) is replaced by its children until there are at least `target_units` nodes or none can
// be split. The units are these nodes in left-to-right order; unit k is named by its choice
// prefix (`WorkUnit::path`: the index of the child taken at each level). The cut depends only on
// the problem, the backend and the target: the same on every run and machine, so a unit index
// means the same subtree in a checkpoint, in a resumed run and in every shard. Every solution
// lies under exactly one unit, so counts per unit add up to the whole.
//
// Threads take the next unit from a shared counter (units are many and small, so the threads
// stay busy to the end). A unit's counts are final when it completes; an interrupted unit counts
// as not done and is searched again, from its start, on resume.
//
// Visitors. `solve` calls the visitor from the worker threads, one call at a time (under a
// mutex), so a visitor written for Solver stays correct. It receives the index of the unit the
// solution belongs to. `on_unit_done(unit, result)` is called, under the same mutex, after the
// last solution of a unit that completed; a unit whose search was cut short (stop flag, limit)
// never gets it. A caller with its own per-solution counters (the symmetry layer counts total,
// unique and symmetric solutions per solution) keeps them per unit:
//     per_unit[unit] += ...  in the visitor,
//     done[unit] = per_unit[unit]  in on_unit_done,
// checkpoints `done`, and on resume passes the done units in `ParallelOptions::skip` and adds
// their saved counters to its own: exactly what `cubex solve --checkpoint` does with the plain
// count (src/cli/search.cpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/core/solver.hpp"

namespace cubex {

struct WorkUnit {
  std::vector<std::uint32_t> path;  // child index taken at each level from the root
  double weight = 0;                // estimated share of the tree (sums to 1 over all units)
};

struct UnitResult {
  std::uint64_t solutions = 0;
  std::uint64_t nodes = 0;
};

// What a progress report knows (all counts over completed units plus the units done before a
// resume; `fraction` is the weight of the completed units over the weight of the units this run
// covers, so it only grows and is exactly 1 when all are done).
struct Progress {
  std::uint64_t solutions = 0;
  std::uint64_t nodes = 0;
  std::size_t units_done = 0;
  std::size_t units_total = 0;  // in this run's shard, done before a resume included
  double fraction = 0;
  double elapsed = 0;  // seconds since solve() started
  double eta = -1;     // seconds left (-1: not known yet)
};

// A non-owning visitor that also learns the unit: bool(std::size_t unit, span solution).
class UnitVisitor {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, UnitVisitor>>>
  UnitVisitor(F&& f)  // NOLINT: implicit by design, like SolutionVisitor
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* obj, std::size_t unit, std::span<const OptionId> s) -> bool {
          return (*static_cast<std::remove_reference_t<F>*>(obj))(unit, s);
        }) {}
  bool operator()(std::size_t unit, std::span<const OptionId> s) const {
    return call_(obj_, unit, s);
  }

 private:
  void* obj_;
  bool (*call_)(void*, std::size_t, std::span<const OptionId>);
};

struct ParallelOptions {
  unsigned threads = 0;                     // 0: all cores (std::thread::hardware_concurrency)
  std::uint32_t shard_index = 0;            // solve only the units with index % shard_count ==
  std::uint32_t shard_count = 1;            //   shard_index
  const std::vector<bool>* skip = nullptr;  // units already done (resume): not searched
  UnitResult skipped_counts;                // their counts, added to the totals and progress
  SolveLimits limits;                       // stop flag, solution limit (over all threads)
  // Called from the thread that called solve(), about every `tick_seconds`, and once at the end.
  std::function<void(const Progress&)> on_tick;
  double tick_seconds = 0.25;
  // Called (serialised with the visitor) when a unit completes; return false to stop the search.
  std::function<bool(std::size_t unit, const UnitResult&)> on_unit_done;
};

struct ParallelStats {
  SolveStats st;                // totals: done units, skipped ones and cut-short ones
  std::size_t units_done = 0;   // completed in this run
  std::size_t units_total = 0;  // units in this run's shard
  unsigned threads = 0;
};

namespace detail {
class Engine;
}

class ParallelSolver {
 public:
  static constexpr std::size_t kDefaultUnits = 4096;

  explicit ParallelSolver(const Problem& problem, Backend backend = Backend::kAuto,
                          std::size_t target_units = kDefaultUnits);
  ~ParallelSolver();
  ParallelSolver(const ParallelSolver&) = delete;
  ParallelSolver& operator=(const ParallelSolver&) = delete;

  const std::vector<WorkUnit>& units() const { return units_; }
  Backend backend() const { return backend_; }
  std::size_t target_units() const { return target_; }

  // Searches the selected units; `visit` may be null (count only).
  ParallelStats solve(UnitVisitor* visit, const ParallelOptions& options);
  // One unit alone, on the calling thread.
  UnitResult solve_unit(std::size_t unit, UnitVisitor* visit = nullptr);

 private:
  const Problem& problem_;
  Backend backend_;
  std::size_t target_;
  std::unique_ptr<detail::Engine> engine_;
  std::vector<WorkUnit> units_;
};

}  // namespace cubex
