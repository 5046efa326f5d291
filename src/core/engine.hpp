// The interface the search engines implement (dlx.hpp: dancing links, the general path and the
// reference; bitset/: live-option bitsets, the fast path for plain exact cover; bitset_mult.cpp:
// the same with multiplicities).
//
// The tree. At every node the primary item with the fewest remaining options is chosen (ties: the
// first item), and its children are that item's options in one fixed order, `search_order()`
// below. Dancing links and the bitset engines without pruning walk this same tree node for node;
// the bitset engine pruning (EngineTuning::prune, bitset_prune_limit) first removes the options
// that conflict with every live option of some item, which gives a smaller tree with the same
// solutions, named by its own choice rule. A node is named by its path from the root, the list of
// child indices taken at each level; the root is the empty path.
//
// Intervals. The nodes of the tree in depth-first (preorder) order are ordered as their paths
// are lexicographically (an ancestor before its descendants). `run(span, ...)` searches the nodes
// N with `span.begin <= N < span.end`: it replays the path `begin` (skipping the siblings before
// it at each level), then goes on depth first, backing up past `begin`'s ancestors, until the
// next node would not be below `end`. A path need not name an existing node: an index past the
// last child simply means "after these children". Every piece of work of the parallel layer
// (job.hpp) is such an interval, so threads, checkpoints and shards only ever cut a line.
//
// Control. A run given a Control polls `signal` every few dozen nodes, before entering a node:
//   kYield:  stop now; `RunResult::rest` receives the start of what was not searched (the span
//            [rest, end) is the remainder), `complete` is false.
//   kHungry: a thread is idle: hand it the later half of the untried children at the shallowest
//            level that has some, through `give`, and stop before them (the run's own `end`
//            moves there). Only plain levels are split (a level of Algorithm M's "tweak" mode
//            keeps its children), so what is given away always follows what is kept.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cubex/core/job.hpp"
#include "cubex/core/problem.hpp"
#include "cubex/core/solver.hpp"

namespace cubex::detail {

struct Control {
  enum : std::uint32_t { kYield = 1, kHungry = 2 };
  std::atomic<std::uint32_t>* signal = nullptr;
  // Offers [begin, end) of estimated weight `weight` to an idle thread; false when none wants it.
  bool (*give)(void* ctx, TreeSpan&& span) = nullptr;
  void* ctx = nullptr;
  // Depth-limited runs only (never reached by a search): called with the path of every node met
  // at the depth limit (the progress estimate, estimate.hpp, lists them).
  void (*frontier)(void* ctx, TreePath&& path) = nullptr;
};

struct RunResult {
  SolveStats st;
  std::uint64_t frontier = 0;  // nodes met at the depth limit (not searched)
  // When stopped by kYield, the visitor or a limit: where the rest of the span starts, and its
  // estimated weight (a share of the whole tree).
  bool has_rest = false;
  TreePath rest;
  double rest_weight = 0;
  double given_weight = 0;  // estimated weight handed to other threads (kHungry)
};

class Engine {
 public:
  virtual ~Engine() = default;
  // Searches the nodes of `span` (see above). `depth` > 0: nodes deeper than `depth` levels are
  // not searched but counted in `frontier` (used to count children when cutting the tree).
  virtual RunResult run(const TreeSpan& span, std::uint32_t depth, SolutionVisitor* visit,
                        const SolveLimits& limits, const Control* control) = 0;
  // An independent engine for another thread (shares read-only tables where it can).
  virtual std::unique_ptr<Engine> clone() const = 0;
  // This engine will make many short runs (the progress estimate's listings and samples): setting
  // up what pays back only over a long run (the narrower tables of the bitset backend's pruned
  // trees) is not worth it. The tree and its node counts are the same.
  virtual void for_short_runs() {}
};

// The tuning's enums under their old names (cubex/core/tuning.hpp).
using cubex::BitsetMrv;
using cubex::BitsetPrune;
// The bitset backend's pruning limit for this problem under `tuning`: items with at most this
// many live options prune (0: none). It shapes the tree, so it is part of the tree's identity
// (choice_rule).
std::uint32_t bitset_prune_limit(const Problem& p, const EngineTuning& tuning = {});
// The item choice rule of an engine, with its version: "mrv-first/1" (dancing links, and the
// bitset backend without pruning), "mrv-first+prune16/1" (the bitset backend pruning).
std::string choice_rule(const Problem& p, Backend backend, const EngineTuning& tuning = {});

// The order in which a chosen item's options become children: for plain exact cover, the
// options sorted by their sorted item lists (primary items first, in the problem's order), which
// keeps options that die together in the same bitset words; with multiplicities, the problem's
// order (the tree of Knuth's dlx3). Entry k is the problem's index of the k-th option.
std::vector<OptionId> search_order(const Problem& p);
// "sorted" or "input": which of the two orders above applies (part of the tree's identity).
const char* search_order_name(const Problem& p);

// kAuto picks a bitset backend (bitset_mult.cpp with multiplicities), when the CPU has POPCNT, AVX2
// and BMI2, and its tables stay small (items x options / 8 bytes); otherwise dancing links.
// The bitset engines take `tuning` (resolved once, into the loops of their tables).
std::unique_ptr<Engine> make_engine(const Problem& p, Backend backend,
                                    const EngineTuning& tuning = {});
Backend resolve_backend(const Problem& p, Backend backend);

// Estimated weight of the children [from, to) of a node whose children each weigh `child`.
inline double range_weight(std::uint32_t from, std::uint32_t to, std::uint32_t kids, double child) {
  const std::uint32_t hi = to < kids ? to : kids;
  return hi > from ? (hi - from) * child : 0.0;
}

// The span bookkeeping both engines share. A frame (one per level of the current path) has
//   sib:  the index of the child being searched,
//   end:  no child at or past this index belongs to the span,
//   kids: the number of children (an estimate under Algorithm M's tweaking),
//   onb:  the path to this frame's node is a proper prefix of the span's end.
struct SpanCursor {
  TreePath end;
  bool to_end = true;
  // Levels below this one have no untried child in the span (donate() found none there). A
  // frame's untried children only ever shrink while its node stays; entering a node at level L
  // starts new frames from L on, so enter() lowers it to L. So a long forced path is not walked
  // again at each donation: a node's cost does not grow with the depth of the path.
  // bare_weight: the product of 1/kids over the levels below bare_at (<= bare_below), the weight
  // of a child at level bare_at, for donate() to start there.
  std::int64_t bare_below = 0, bare_at = 0;
  double bare_weight = 1;

  void start(const TreeSpan& s) {
    end = s.end;
    to_end = s.to_end;
    bare_below = bare_at = 0;
    bare_weight = 1;
  }
  // Fills the bounds of a new frame at `level` from its parent's.
  template <class Frame>
  void bound(Frame* frame, std::int64_t level) const {
    Frame& f = frame[level];
    const std::size_t L = static_cast<std::size_t>(level);
    f.onb = !to_end && L < end.size() &&
            (level == 0 || (frame[level - 1].onb && frame[level - 1].sib == end[L - 1]));
    f.end = !f.onb ? UINT32_MAX : L + 1 == end.size() ? end[L] : end[L] + 1;
  }
  // The path of the node at `level` (frames 0..level-1), its last index raised by `bump`.
  template <class Frame>
  static TreePath path(const Frame* frame, std::int64_t level, std::uint32_t bump = 0) {
    TreePath p(static_cast<std::size_t>(level));
    for (std::int64_t l = 0; l < level; ++l) p[static_cast<std::size_t>(l)] = frame[l].sib;
    if (level > 0) p.back() += bump;
    return p;
  }
  // The estimated weight of what follows the child being searched at each level (and of that
  // child too when `with_current`, the deepest level only).
  template <class Frame>
  static double rest_weight(const Frame* frame, std::int64_t level, bool with_current) {
    double child = 1, w = 0;
    for (std::int64_t l = 0; l < level; ++l) {
      child /= frame[l].kids ? frame[l].kids : 1;
      const bool cur = with_current && l == level - 1;
      w += range_weight(frame[l].sib + (cur ? 0 : 1), frame[l].end, frame[l].kids, child);
    }
    return w;
  }
  // Records where the rest of the span starts: at the node at `level` itself (stopped before
  // entering it) or after it (stopped after visiting a solution there).
  template <class Frame>
  static void set_rest(RunResult& r, const Frame* frame, std::int64_t level, bool after) {
    r.has_rest = true;
    r.rest = path(frame, level, after ? 1 : 0);
    if (after && level == 0) r.rest = {1};  // the root was a solution: nothing follows
    r.rest_weight = rest_weight(frame, level, !after);
  }
  // The checks before entering the node at `level` (not an ancestor being replayed): every 64th
  // node, the control's kYield (stop) and kHungry (donate); then the stop flag and the node
  // limit. True when the run must stop there: the rest is set and the stats are incomplete.
  template <class Frame, class Remaining>
  bool stop_before_node(Frame* frame, std::int64_t level, const Control* ctl, std::uint32_t& poll,
                        const SolveLimits& limits, RunResult& r, Remaining remaining) {
    SolveStats& st = r.st;
    if (ctl && (++poll & 63) == 0) {
      const std::uint32_t sig = ctl->signal->load(std::memory_order_relaxed);
      if (sig & Control::kYield) return stop(r, frame, level);
      if (sig & Control::kHungry) {
        ctl->signal->fetch_and(~std::uint32_t{Control::kHungry}, std::memory_order_relaxed);
        donate(frame, level, remaining, *ctl, r);
      }
    }
    if (limits.stop && ((st.nodes + 1) & 1023) == 0 &&
        limits.stop->load(std::memory_order_relaxed)) {
      return stop(r, frame, level);
    }
    if (limits.max_nodes && st.nodes >= limits.max_nodes)
      return stop(r, frame, level);  // one more would pass it
    return false;
  }
  // The first steps at the node the loop is about to enter at `level`, the same in every
  // engine's loop (dlx.hpp, bitset/search.inc, bitset_mult.cpp). While `replay` (the loop still
  // descends along the span's first node, whose path has `begin_len` entries), an ancestor of
  // that node is branched on without being counted; a node at depth `limit` is counted in
  // r.frontier (and handed to ctl->frontier), not entered; else stop_before_node's checks, and
  // the node is counted. `solved()`: the node has no open item. Returns what the loop does next:
  // kBranch (branch on the node's item), kBackup, kSolution (a solution, counted: the loop
  // visits it, then stop_after_solution) or kStop (the rest is set).
  enum class Step { kBranch, kBackup, kSolution, kStop };
  template <class Frame, class Solved, class Remaining>
  Step enter(Frame* frame, std::int64_t level, bool& replay, std::int64_t begin_len,
             std::int64_t limit, Solved solved, const Control* ctl, std::uint32_t& poll,
             const SolveLimits& limits, RunResult& r, Remaining remaining) {
    if (level < bare_below) bare_below = level;
    if (replay && level < begin_len) return solved() ? Step::kBackup : Step::kBranch;
    replay = false;
    if (level == limit) {
      ++r.frontier;
      if (ctl && ctl->frontier) ctl->frontier(ctl->ctx, path(frame, level));
      return Step::kBackup;
    }
    if (stop_before_node(frame, level, ctl, poll, limits, r, remaining)) return Step::kStop;
    ++r.st.nodes;
    if (!solved()) return Step::kBranch;
    ++r.st.solutions;
    return Step::kSolution;
  }
  // After a solution at `level` was counted and, with a visitor, visited (`go_on`: what the
  // visitor said): true when the run must stop there (the visitor said so or the solution limit
  // is reached); the rest starts after the node.
  template <class Frame>
  static bool stop_after_solution(const Frame* frame, std::int64_t level, bool go_on,
                                  const SolveLimits& limits, RunResult& r) {
    if (go_on && !(limits.max_solutions && r.st.solutions >= limits.max_solutions)) return false;
    set_rest(r, frame, level, true);
    r.st.complete = false;
    return true;
  }
  template <class Frame>
  static bool stop(RunResult& r, const Frame* frame, std::int64_t level) {
    set_rest(r, frame, level, false);
    r.st.complete = false;
    return true;
  }

  // kHungry: gives away the later half of the untried children of the shallowest level that has
  // some. remaining(l) counts the untried children of level l (UINT32_MAX: unknown, which stops
  // the search for a level: what is given must follow everything kept).
  template <class Frame, class Remaining>
  void donate(Frame* frame, std::int64_t level, Remaining remaining, const Control& ctl,
              RunResult& r) {
    if (bare_at > bare_below) {
      bare_at = 0;
      bare_weight = 1;
    }
    for (; bare_at < bare_below && bare_at < level; ++bare_at)
      bare_weight /= frame[bare_at].kids ? frame[bare_at].kids : 1;
    double child = bare_weight;
    for (std::int64_t L = bare_at; L < level; ++L) {
      Frame& f = frame[L];
      child /= f.kids ? f.kids : 1;
      std::uint32_t rem = remaining(L);
      if (rem == UINT32_MAX) return;
      const std::uint32_t room = f.end - f.sib - 1;  // children left before the end bound
      if (rem > room) rem = room;
      if (rem == 0) {
        if (L == bare_at) {  // nothing to give below L + 1 either
          bare_below = bare_at = L + 1;
          bare_weight = child;
        }
        continue;
      }
      const std::uint32_t m = f.sib + 1 + rem / 2;
      TreeSpan d;
      d.begin = path(frame, L + 1);
      d.begin.back() = m;
      d.end = end;
      d.to_end = to_end;
      d.weight = range_weight(m, m + (rem - rem / 2), f.kids, child);
      const double w = d.weight;
      TreePath new_end = d.begin;
      if (!ctl.give(ctl.ctx, std::move(d))) return;
      r.given_weight += w;
      end = std::move(new_end);
      to_end = false;
      for (std::int64_t l = 0; l < L; ++l) {
        frame[l].onb = true;
        frame[l].end = frame[l].sib + 1;
      }
      f.onb = true;
      f.end = m;
      return;
    }
  }
};

}  // namespace cubex::detail
