// SearchJob (job.hpp): spans of the search tree handed to a pool of threads, split on demand.
//
// The runner keeps every span of the run in one map keyed by its first node, which is tree
// (depth-first) order: pending spans, running ones and, when solutions are wanted in order,
// finished ones whose solutions wait for their turn. A thread takes the earliest pending span.
// An idle thread raises kHungry on the busy ones; the first to see it hands over the later half
// of its untried children (engine.hpp) through give(), which inserts the new span right after
// the giver's. A stop, a limit or a tick (progress, checkpoint) raises kYield: each engine ends
// its span where it stands and reports where the rest starts; the rest becomes a pending span.
//
// Files: runner.cpp (the threads, ordered output, stopping, checkpoints), progress.cpp (the
// progress reports and their estimate), exchange.cpp (JobLink, for a WorkExchange).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "../engine.hpp"
#include "../estimate.hpp"
#include "cubex/core/exchange.hpp"
#include "cubex/core/job.hpp"

namespace cubex {

class JobRunner {
 public:
  JobRunner(SearchJob& job, const JobOptions& opt, ClassVisitor* visit)
      : job_(job),
        opt_(opt),
        visit_(visit),
        ordered_(visit && opt.ordered),
        frontier_(opt.estimate_seed) {
    frontier_.set_stop(opt.stop);
  }

  JobResult run();

 private:
  friend class JobLink;
  enum class State { kPending, kRunning, kDone };
  struct Slot {
    TreeSpan span;
    State state = State::kPending;
    std::uint64_t epoch = 0;  // tick at which it started running
    bool front = false;       // ordered: its solutions go straight to the visitor
    // Ordered: what it found, waiting to be emitted, and its counts (settled when emitted).
    std::vector<OptionId> buffer;
    std::vector<std::uint32_t> sizes;
    std::vector<SolutionJudge::Verdict> verdicts;
    JobCounts counts;
    double done_weight = 0;
  };
  using Slots = std::map<TreePath, Slot>;
  struct alignas(64) Worker {
    JobRunner* run = nullptr;
    std::atomic<std::uint32_t> signal{0};
    Slots::iterator slot;
    bool busy = false;
    bool rejected = false;  // its last solution was refused at the limit (not counted)
  };

  static bool give(void* ctx, TreeSpan&& span);
  void worker(unsigned k);
  void halt(bool by_limit);
  void yield_all();
  void settle(const JobCounts& c, double weight);
  void advance_front();
  bool emit(std::span<const OptionId> s, const SolutionJudge::Verdict& v);
  bool on_solution(Worker& w, std::span<const OptionId> s, std::vector<OptionId>& buf,
                   JobCounts& local);
  JobState snapshot();
  JobProgress progress();
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

  SearchJob& job_;
  const JobOptions& opt_;
  ClassVisitor* visit_;
  const bool ordered_;
  std::chrono::steady_clock::time_point t0_;

  std::mutex mu_;  // guards everything below (and the visitor)
  std::condition_variable cv_;
  Slots slots_;
  std::size_t pending_ = 0;
  std::vector<std::unique_ptr<Worker>> workers_;
  unsigned busy_ = 0, idle_ = 0, exited_ = 0;
  std::uint64_t epoch_ = 0;
  JobState base_;       // the state the run started from
  JobCounts settled_;   // settled in this run
  JobCounts searched_;  // nodes and solutions of everything searched in this run
  double cpu_ = 0;      // the search threads' CPU seconds in this run
  JobCounts emitted_;   // ordered: classes handed to the visitor
  double weight_settled_ = 0;
  std::size_t buffered_ = 0;
  std::uint64_t spans_ = 0, splits_ = 0;
  std::atomic<bool> halted_{false};
  bool stopped_ = false, limited_ = false;
  std::exception_ptr error_;
  std::atomic<std::uint64_t> accepted_{0};  // unordered max_classes
  // With an exchange (JobLink): threads hold still, a split is wanted elsewhere, what was drained.
  WorkExchange* const ex_ = opt_.exchange;
  bool paused_ = false, wanted_ = false;
  std::uint64_t settle_epoch_ = 0;
  JobCounts drained_;
  double weight_drained_ = 0;
  // The progress estimate (progress()): the frontier of the work left and samples of it.
  double nodes_left() const;
  detail::FrontierEstimate frontier_;
  std::unique_ptr<detail::Engine> probe_engine_;
  bool frontier_tried_ = false;
  std::uint64_t frontier_at_nodes_ = 0;  // searched_.nodes when the frontier was listed
  std::size_t frontier_size_ = 0;
  double first_listing_seconds_ = 0;
  std::size_t samples_left_ = 0, frontier_left_ = 0;  // at the last progress()
  double left_estimate_ = -1;        // nodes left at the last progress() (-1: none yet)
  std::uint64_t left_at_nodes_ = 0;  // searched_.nodes then
  double prior_gain_ = -1;           // resumed: the saved estimate over this run's first one
  std::size_t prior_samples_ = 0;    // samples drawn when prior_gain_ was set
  double shown_fraction_ = 0;
  // The reports' marks (wall seconds of this run, search CPU seconds, nodes searched): the one
  // after the first listing of the frontier (wall -1: none yet), and some recent ones (thinned
  // to every other one when 64 are kept).
  struct Mark {
    double wall = 0, cpu = 0;
    std::uint64_t nodes = 0;
  };
  Mark rate_from_{-1, 0, 0};
  std::vector<Mark> marks_;
};

}  // namespace cubex
