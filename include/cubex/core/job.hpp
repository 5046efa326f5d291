// cubex/core/job.hpp - one search over all cores: counts up to a judge (symmetry), limits, a stop
// flag, progress, checkpoints that resume exactly, and static shards for clusters.
//
//   cubex::SearchJob job(problem);                    // the tree of cubex::Solver
//   cubex::JobOptions opt;
//   opt.threads = 4;
//   cubex::JobResult r = job.run(opt);               // r.counts.total solutions
//
// How the work is cut. The search tree (solver.hpp) is a line of nodes in depth-first order, and
// every piece of work is an interval of that line, a TreeSpan. A run starts with one span (the
// whole tree, or what a checkpoint left). When a thread is idle, a running thread hands it the
// later half of its untried children at its shallowest level: no fixed cut, so every thread stays
// busy to the end and no cut can explode. Stopping (the stop flag, a limit, a periodic checkpoint)
// turns each running span into the part searched and the part left; a checkpoint (JobState) is the
// counts of the searched parts and the list of spans left, so a resumed run repeats nothing.
//
// Identity. A JobState names its tree (TreeIdentity): the problem's fingerprint, the option order
// and choice rule, the judge, and the shard. A state resumes only on the tree it names; a state
// of another tree is refused. Dancing links and the bitset backend without pruning walk one tree
// (choice rule "mrv-first/1"), so a state of one resumes on the other; where the bitset backend
// prunes (EngineTuning::prune, "mrv-first+prune16/1") its tree is smaller and its states resume
// only on the bitset backend pruning.
//
// Threads. Each thread searches, counts and judges on its own; results are combined when a span
// ends. The visitor, when there is one, is called one solution at a time (never concurrently);
// with `ordered` it sees the solutions in the order of a one-thread run, through a bounded buffer.
// A SearchJob may be run again, but not by two threads at once; the Problem and the judge must
// outlive it and not change.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/core/solver.hpp"

namespace cubex {

namespace detail {
class FrontierEstimate;
class Engine;
}  // namespace detail
class JobRunner;
class WorkExchange;

// A node of the search tree: the child index taken at each level from the root.
using TreePath = std::vector<std::uint32_t>;

// The nodes N with begin <= N < end in depth-first order (`to_end`: no upper bound).
struct TreeSpan {
  TreePath begin;
  TreePath end;
  bool to_end = true;
  double weight = 0;  // estimated share of the whole tree (for progress only)
};

// Decides what a solution stands for when counting up to symmetry (cubex::SymmetricSolver is
// one). judge() is called from several threads at once: it must be const and thread-safe.
class SolutionJudge {
 public:
  struct Verdict {
    std::uint64_t orbit = 0;  // solutions the class holds; 0: not the class's representative
    bool symmetric = false;   // fixed by an element that moves items
    // The class is two classes up to a subgroup of index 2 that the judge marks (the rotations
    // of a group with reflections: SymmetricSolver::set_subgroup); always false without one.
    bool split = false;
  };
  virtual ~SolutionJudge() = default;
  // `out` receives the solution as callers see it (for symmetry: options of the full problem).
  virtual Verdict judge(std::span<const OptionId> solution, std::vector<OptionId>& out) const = 0;
  // A short text that changes whenever the verdicts could (e.g. the group and its hash).
  virtual std::string identity() const = 0;
};

// Calls visit(solution, orbit_size): once per class with a judge, once per solution without.
class ClassVisitor {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, ClassVisitor>>>
  ClassVisitor(F&& f)  // NOLINT: implicit by design, like SolutionVisitor
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* obj, std::span<const OptionId> s, std::uint64_t n) -> bool {
          return (*static_cast<std::remove_reference_t<F>*>(obj))(s, n);
        }) {}
  bool operator()(std::span<const OptionId> s, std::uint64_t n) const { return call_(obj_, s, n); }

 private:
  void* obj_;
  bool (*call_)(void*, std::span<const OptionId>, std::uint64_t);
};

struct JobCounts {
  std::uint64_t unique = 0;     // classes (solutions, without a judge)
  std::uint64_t total = 0;      // solutions the classes stand for
  std::uint64_t symmetric = 0;  // classes a symmetry fixes
  std::uint64_t split = 0;      // classes that are two up to the judge's subgroup (Verdict)
  std::uint64_t solutions = 0;  // solutions the search met (of the searched problem)
  std::uint64_t nodes = 0;      // search-tree nodes entered
  std::uint64_t updates = 0;    // backend work (see SolveStats)
  JobCounts& operator+=(const JobCounts& o);
};

// Everything that shapes the tree and its counts. Two states (checkpoints, shard results) can be
// combined only when their identities agree (shards: all but the shard index).
struct TreeIdentity {
  std::string fingerprint;  // the problem: items, ranges, options
  std::uint64_t items = 0, options = 0;
  std::string order;      // search_order: "sorted" or "input"
  std::string rule;       // the item choice rule and its version
  std::string judge;      // SolutionJudge::identity(), "" without
  std::uint32_t cut = 0;  // the static cut of shards (units), 0 without shards
  std::uint32_t shard_index = 0, shard_count = 1;
  // "" when equal, else the first difference in words ("judge: expected X, found Y").
  std::string difference(const TreeIdentity& other, bool ignore_shard_index = false) const;
};

// A resumable state: the settled counts and the spans still to search, in tree order.
struct JobState {
  static constexpr int kVersion = 2;
  TreeIdentity tree;
  JobCounts counts;
  std::vector<TreeSpan> pending;
  double weight_total = 1;  // this shard's share of the tree
  double weight_done = 0;   // of it, settled
  double seconds = 0;       // wall time spent by the runs so far
  // The progress estimate (src/core/estimate.hpp): estimated nodes in `pending` (-1: not
  // known) and the number of sampled subtrees behind it.
  double nodes_left = -1;
  std::uint64_t estimate_samples = 0;
  bool complete() const { return pending.empty(); }
};

struct JobProgress {
  JobCounts counts;     // settled so far (this run and the runs before a resume)
  double fraction = 0;  // estimated share of this shard's tree searched (0..1, never falls)
  double elapsed = 0;   // seconds, this run and the runs before
  double eta = -1;      // seconds left (-1: not known yet)
  // The search threads' CPU time in this run (seconds, the thread CPU clocks; the estimate's own
  // work is not in it) and the estimate of what is left of it (-1: not known yet). On a shared
  // machine the wall time follows the load; these much less. (Not measured under MPI: 0, -1.)
  double cpu = 0;
  double cpu_eta = -1;
  unsigned busy = 0;        // threads searching
  std::size_t pending = 0;  // spans waiting
};

struct JobOptions {
  unsigned threads = 0;  // 0: all cores
  // Stop after this many classes (solutions, without a judge): the counts are then exactly
  // min(max_classes, all). With `ordered`, they are the first ones of a one-thread run.
  std::uint64_t max_classes = 0;
  const std::atomic<bool>* stop = nullptr;  // set from outside (a signal) to stop cleanly
  // The visitor sees the solutions in one-thread order; at most about `order_buffer` option
  // indices of solutions found ahead of their turn are held (threads wait beyond that).
  bool ordered = false;
  std::size_t order_buffer = std::size_t{1} << 20;
  // Static shards: this run searches shard `shard_index` of `shard_count` of a fixed cut of
  // `cut` units (the same on every machine), units k with k % shard_count == shard_index.
  std::uint32_t shard_index = 0, shard_count = 1;
  std::uint32_t cut = 4096;
  const JobState* resume = nullptr;  // go on from here (its identity must match)
  // Called on the calling thread about every `progress_seconds`, and once at the end.
  std::function<void(const JobProgress&)> on_progress;
  double progress_seconds = 0.25;
  // The progress estimate draws its samples of the tree in an order fixed by this seed: runs with
  // the same seed draw the same ones (0: the default order). Measuring the estimate's error takes
  // several seeds (cubex_schedule --eta).
  std::uint64_t estimate_seed = 0;
  // Called on the calling thread with a resumable state every `checkpoint_seconds` and at the
  // end (also after a stop or a failure); the threads first set their work aside so that the
  // state holds all the work done.
  std::function<void(const JobState&)> on_checkpoint;
  double checkpoint_seconds = 60;
  // A search spread over processes (see WorkExchange, cubex/core/exchange.hpp): the job starts
  // with no work, takes what the exchange brings and runs until the exchange ends it. The
  // exchange then owns the stop flag, progress and checkpoints (stop, on_progress and
  // on_checkpoint are not used), and resume, shards, `ordered` and max_classes are refused.
  WorkExchange* exchange = nullptr;
};

struct JobResult {
  JobCounts counts;       // this run and the runs before (resume)
  bool complete = false;  // the whole shard was searched
  bool stopped = false;   // the stop flag ended it before the shard was searched
  bool limited = false;   // max_classes or the visitor ended it
  unsigned threads = 0;
  double seconds = 0;        // this run
  std::uint64_t spans = 0;   // spans searched in this run (pieces of work)
  std::uint64_t splits = 0;  // times work was handed to an idle thread
  JobState state;            // resumable (complete() when the shard is done)
};

class SearchJob {
 public:
  // The tree of `problem` (with `judge`, solutions are judged and counted as classes). Throws
  // std::invalid_argument when `backend` does not apply (see Solver).
  explicit SearchJob(const Problem& problem, const SolutionJudge* judge = nullptr,
                     Backend backend = Backend::kAuto);
  // The same with the bitset backend's tuning (cubex/core/tuning.hpp).
  SearchJob(const Problem& problem, const SolutionJudge* judge, Backend backend,
            const EngineTuning& tuning);
  SearchJob(Problem&&, const SolutionJudge* = nullptr, Backend = Backend::kAuto) = delete;
  SearchJob(Problem&&, const SolutionJudge*, Backend, const EngineTuning&) = delete;
  ~SearchJob();
  SearchJob(const SearchJob&) = delete;
  SearchJob& operator=(const SearchJob&) = delete;

  // Searches (and visits, `visit` may be null). Throws std::invalid_argument when
  // `options.resume` belongs to another tree or shard; rethrows the first exception of a
  // worker (or of the visitor) after stopping the others and reporting the state through
  // on_checkpoint.
  JobResult run(const JobOptions& options, ClassVisitor* visit = nullptr);

  // The identity of this job's tree for a shard (cut 0 and 0/1: no shards).
  TreeIdentity identity(std::uint32_t cut = 0, std::uint32_t shard_index = 0,
                        std::uint32_t shard_count = 1) const;
  // The static cut: the start paths of `units` consecutive spans covering the tree (the first
  // is the root), deterministic; bounded work (a few times `units` engine calls, none deeper
  // than 64 levels). Stops early, with fewer units, when `stop` is set.
  std::vector<TreePath> cut(std::uint32_t units, const std::atomic<bool>* stop = nullptr) const;
  // The same cut as spans (consecutive, covering the tree), with their estimated weights.
  std::vector<TreeSpan> cut_spans(std::uint32_t units,
                                  const std::atomic<bool>* stop = nullptr) const;
  // Searches one span on the calling thread (benchmarks, tests).
  SolveStats search(const TreeSpan& span, SolutionVisitor* visit = nullptr);

  Backend backend() const { return backend_; }
  const EngineTuning& tuning() const { return tuning_; }
  const Problem& problem() const { return problem_; }
  const SolutionJudge* judge() const { return judge_; }

 private:
  friend class JobRunner;
  friend class NodesLeftEstimate;
  const Problem& problem_;
  const SolutionJudge* judge_;
  Backend backend_;
  EngineTuning tuning_;
  std::unique_ptr<detail::Engine> proto_;
};

// The progress line's estimate of the nodes left (src/core/estimate.hpp) for a search whose
// work is spread elsewhere (the MPI coordinator): the frontier of all the work there will be is
// listed once, its subtrees are sampled on the calling thread, and the nodes in any part of that
// work (spans within it) are estimated from the samples inside that part.
class NodesLeftEstimate {
 public:
  explicit NodesLeftEstimate(const SearchJob& job);
  ~NodesLeftEstimate();
  NodesLeftEstimate(const NodesLeftEstimate&) = delete;
  NodesLeftEstimate& operator=(const NodesLeftEstimate&) = delete;

  // Lists the frontier of `work` (spans in tree order, not overlapping; about 65,536 nodes or
  // `seconds` of CPU time). Returns whether one was listed (not when `work` is empty).
  bool start(const std::vector<TreeSpan>& work, double seconds);
  bool started() const;
  // Searches subtrees of frontier nodes inside `left` for about `seconds` of CPU time: spread
  // evenly over them early in a run, toward the end of the work later (`elapsed`: the seconds
  // the run has taken; src/core/estimate.hpp).
  void sample(const std::vector<TreeSpan>& left, double seconds, double elapsed = 0);
  // The nodes in `left` (spans within the work listed, in tree order, not overlapping; -1: not
  // known yet). `searched`: the nodes searched since start() (a weak prior, with the frontier
  // nodes no longer in `left`).
  double nodes(const std::vector<TreeSpan>& left, std::uint64_t searched) const;
  std::size_t samples() const;
  double seconds() const;  // CPU time spent in start() and sample()
  // The CPU seconds a one-process job lets its estimate spend by `elapsed` seconds of a run:
  // on the first listing (listing_seconds), and on everything by then (budget_seconds).
  static double listing_seconds(double elapsed);
  static double budget_seconds(double elapsed);

 private:
  std::unique_ptr<detail::Engine> engine_;
  std::unique_ptr<detail::FrontierEstimate> frontier_;
};

// A 64-bit fingerprint (16 hex digits) of a problem's items, ranges and options.
std::string problem_fingerprint(const Problem& problem);

}  // namespace cubex
