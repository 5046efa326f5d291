// The progress estimate of a search job (job.hpp): how many nodes of the search tree are left.
//
// The work left is a set of spans (intervals of the depth-first line of nodes). The nodes at a
// depth D of those spans are listed (the frontier; D is the first depth with at least `target`
// nodes, as far as a time budget allows; the caller lists a deeper one later when the samples
// cover much of it). Every node below the frontier lies in the subtree of one frontier node, so
// the nodes left are about
//     (frontier nodes left) x (mean size of a frontier node's subtree) + (shallower nodes left),
// where the frontier nodes left and the shallower nodes left are counted exactly (the list is in
// tree order) and the mean size comes from samples: frontier nodes left, spread evenly over them
// (later in a run, drawn more often toward the end and weighed back) and searched to the end on
// a clone of the engine. A sample stays valid while its node is left, and the mean is taken over
// the samples still left; that is what makes the estimate follow a tree whose late subtrees are
// heavier than its early ones, where Knuth-style shares of the tree (each
// child of a node weighing the same) and the mean of the subtrees searched so far are both far off
// (bedlam_sym's last tenth holds its heaviest subtrees). The mean of the subtrees finished, which
// the caller measures, stands in only while no sample is left. Samples cost real search work: the
// caller spends a small share of the elapsed time on them.
//
// The nodes above the frontier in the work left are counted exactly from the levels listed on
// the way down to it. On a tree whose frontier subtrees all have one size (e.g. a uniform tree)
// the estimate is exact up to half a frontier subtree per span that starts inside one.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <vector>

#include "cubex/core/job.hpp"

namespace cubex::detail {

class Engine;

// CPU seconds of the calling thread (CLOCK_THREAD_CPUTIME_ID).
double thread_cpu_seconds();

// The CPU seconds the estimate may have spent on samples and deeper listings by `elapsed`
// seconds of a run (the first listing aside, which takes at most kEstimateListing): a quarter of
// the elapsed time until that reaches kEstimateStart, plus kEstimateShare of it throughout; a run
// of T seconds spends at most kEstimateStart + kEstimateShare x T. The nodes-left estimate rests
// on the samples' mean, whose error falls as one over the square root of their number:
// - at 10% of a one-second run (pent6x10) a quarter of the elapsed time buys about 700 samples of
//   subtrees whose sizes spread 2.6 times their mean (a standard error of about 9%; a tenth of it
//   bought about 200, and errors up to +76% were seen);
// - bedlam_sym's random-path samples (estimate.cpp, probe) spread far more, and its last tenth
//   holds its heaviest subtrees: with 0.05 s of early samples (before 25 Nov 2026) its nodes left
//   were off by 25-50% for most of a 20 s run; 0.5 s (2.5% of that run) brings them within 25%.
//   A run of an hour spends 0.01% of its time on that start.
inline constexpr double kEstimateShare = 0.02, kEstimateStart = 0.5, kEstimateRamp = 0.25;
inline constexpr double kEstimateListing = 0.05;  // the first listing, at most (or 2% of the run)
// Samples are spread evenly over the work left while the start is spent, toward the end of the
// tree after (FrontierEstimate::sample).
inline bool estimate_toward_end(double elapsed) {
  return elapsed >= kEstimateStart / kEstimateRamp;
}
double estimate_budget(double elapsed);
// The CPU seconds the first listing may take at a report `elapsed` seconds into a run:
// kEstimateListing, but no more than twice the run so far (at least 1 ms), or 2% of the run.
double estimate_listing_budget(double elapsed);

// Knuth's estimate of the nodes of a whole search tree (TAOCP 7.2.2, "estimating the running
// time"): down a random path from the root, a node with c_1 children, then one of them with c_2,
// ..., stands for 1 + c_1 + c_1 c_2 + ... nodes; the mean over `paths` such paths is unbiased, and
// usually low on trees whose size hides in rare heavy branches (a typical path misses them).
// The paths come from `seed`. Returns -1 when the stop flag cut it short.
double random_paths_nodes(Engine& engine, std::size_t paths, std::uint64_t seed,
                          const std::atomic<bool>* stop = nullptr);

class FrontierEstimate {
 public:
  // `seed` (JobOptions::estimate_seed) fixes the order of the draws and the random paths.
  explicit FrontierEstimate(std::uint64_t seed = 0);
  // Lists the frontier of `left` (spans in tree order, not overlapping): depths `from_depth`,
  // `from_depth` + 1, ... until one has `target` nodes or more, or `seconds` of CPU time are
  // spent (the deepest listed is kept, its samples start afresh), or the tree ends. Returns
  // whether a new frontier was listed.
  // A level whose listing passes kListNodes nodes, kListFrontier frontier nodes or four times
  // `seconds` (at least 10 ms), or that the stop flag cuts short, is not kept.
  bool build(Engine& engine, const std::vector<TreeSpan>& left, std::size_t target, double seconds,
             std::uint32_t from_depth = 1);
  // The stop flag (JobOptions::stop) that every listing and sample polls: once it is set, they
  // end within about a thousand nodes and keep nothing of the part they were doing.
  void set_stop(const std::atomic<bool>* stop) { stop_ = stop; }
  static constexpr std::uint64_t kListNodes = std::uint64_t{1} << 23;
  static constexpr std::size_t kListFrontier = std::size_t{1} << 21;
  // A sample searches at most this many nodes of a subtree whole; past them it goes down a
  // random path instead (probe), so that one sample of a wide tree stays short.
  static constexpr std::uint64_t kSampleNodes = std::uint64_t{1} << 16;
  bool built() const { return depth_ > 0; }
  std::uint32_t depth() const { return depth_; }
  std::size_t size() const { return count_; }

  // Draws frontier nodes inside `left` and searches their subtrees, until `seconds` of CPU time
  // are spent (at least one when one is left). Returns how many. The draws are spread evenly
  // over the frontier nodes left, or, `toward_end`, with a density that falls as one over the
  // distance to the end of the frontier (plus a tenth of it): a sample stays valid until the
  // search reaches it, so a late one serves every later report, and the reports near the end
  // of a run, which had the fewest samples left, get many more (bedlam_sym's last tenth holds
  // its heaviest subtrees). nodes() weighs each sample by one over the density of all the draws
  // so far at its place, so the mean stays that of the nodes left (a ratio estimator).
  std::size_t sample(Engine& engine, const std::vector<TreeSpan>& left, double seconds,
                     bool toward_end = false);

  struct Result {
    double nodes = -1;        // estimated nodes in `left` (-1: not known)
    std::size_t left = 0;     // frontier nodes in `left`
    std::size_t samples = 0;  // samples behind the mean (those inside `left`)
  };
  // `left` must lie within the spans listed (the work left only shrinks). `done_mean`: the
  // measured mean size of the frontier subtrees finished (< 0: not known), used only while no
  // sample lies in `left`. A sample of a frontier node the search is inside (a span of `left`
  // starts in its subtree) still counts, and half its size stands for what is left of it.
  Result nodes(const std::vector<TreeSpan>& left, double done_mean) const;
  // Frontier nodes inside `left`.
  std::size_t count_left(const std::vector<TreeSpan>& left) const;
  std::size_t samples() const { return sizes_.size(); }
  double seconds() const { return seconds_; }  // spent in sample()
  double build_seconds() const { return build_seconds_; }

 private:
  // The index ranges [lo, hi) of the frontier nodes inside each span of `left`.
  std::vector<std::pair<std::size_t, std::size_t>> ranges(const std::vector<TreeSpan>& left) const;
  TreePath node(std::size_t k) const;
  std::size_t first_not_before(const TreePath& p) const;

  std::uint32_t depth_ = 0;
  std::size_t count_ = 0;
  std::vector<std::uint32_t> paths_;  // count_ paths of depth_ entries each, in tree order
  double shallow_ = 0;                // nodes above the frontier in the spans listed
  // The nodes listed at each level above the frontier (levels_[j]: depth j + 1, in tree order;
  // kept while they go from depth 1 to the frontier's): the nodes above the frontier in the work
  // left are counted, not taken as the frontier's share of them (a pruned tree has a third of
  // its nodes above the frontier, a quarter of them in the last tenth of pent6x10_sym's).
  std::vector<std::vector<std::uint32_t>> levels_;
  double shallow_before(const TreePath& p) const;
  double shallow_left(const std::vector<TreeSpan>& left) const;
  std::vector<std::size_t> index_;  // samples: frontier index ...
  std::vector<double> sizes_;       // ... and nodes of its subtree
  double sizes_sum_ = 0;            // (of sizes_)
  // The chance that the draws so far took frontier node k, summed over them (for a node left
  // now, which was left at every draw), is even_ + toward_ x log(d / (d - 1)), d = count_ - k +
  // tail(). An even draw adds one over the nodes then left to even_. A draw toward the end picks
  // a point x of density 1 / (count_ + tail() - x) / z over the nodes left (z: the integral of
  // the first factor over them) and takes node floor(x), whose chance is the integral over
  // [k, k + 1), log(d / (d - 1)) / z; it adds 1 / z to toward_.
  double even_ = 0, toward_ = 0;
  double tail() const { return 0.1 * static_cast<double>(count_) + 1; }
  double weight(std::size_t k) const {
    const double d = static_cast<double>(count_ - k) + tail();
    return 1 / (even_ + toward_ * std::log(d / (d - 1)));
  }
  std::uint64_t rng_ = 0x9E3779B97F4A7C15ull;  // the random paths of probe()
  // The nodes of p's subtree, estimated; -1 when the stop flag cut it short.
  double probe(Engine& engine, TreePath p);
  bool stopped() const { return stop_ && stop_->load(std::memory_order_relaxed); }
  const std::atomic<bool>* stop_ = nullptr;
  double seconds_ = 0, build_seconds_ = 0;
  double level_seconds_ = 0, growth_ = 4;  // the last level listed: its cost, its growth
  double phase_ = 0;
};

}  // namespace cubex::detail
