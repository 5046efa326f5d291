// cubex_schedule: how the search job's split-on-demand scheduling would scale past this machine.
//
//   build/cubex_schedule [--grain G] [--latency-us L] [--give-us C] [--coordinator-us S]
//                        [--mpi-poll-us P [--mpi-pick first|random|heaviest] [--mpi-reserve N|auto]
//                        [--mpi-precut K]] [--mpi-also P,first|random|heaviest,N|auto]...
//                        [--workers 2,16,64,1024] [--seeds N] FILE...
//   build/cubex_schedule --units N [--latency-us L] FILE...     (the old fixed-cut replay)
//   build/cubex_schedule --eta [--threads T] [--repeat N] FILE...
//
// Measured (CPU time of this thread, so that other processes on the machine count little). For
// each Knuth-format FILE the whole tree is searched once: T, the one-worker time. The tree is
// then measured as a hierarchy of pieces: the levels below the root are listed with cheap probes
// (one node each) down to the first level of 2 x G nodes or more, every node of it is searched
// alone (a span [node, next sibling), its path replayed first: SearchJob::search) and timed, and
// each piece still over T / G is measured the same way again, recursively, until every leaf of
// the hierarchy takes at most T / G (or 10 us, or lies 64 levels deep). The probe past a node's
// last child times the replay of its path. Checks (exit 1 when they fail): the leaves hold the
// tree's solutions, and their nodes plus the nodes expanded are the tree's nodes; the replay
// searches every leaf once.
//
// Modelled. The replay runs W workers over the measured pieces as the engine's scheduler does
// (src/core/job/, engine.hpp): worker 0 starts with the whole tree, the others idle. An idle
// worker asks; the request reaches the busy workers L/2 later (L: a round trip); one of those
// with untried pieces, drawn at random (in the engine, the first to poll its signal), gives the
// later half of its untried children at its shallowest level (the engine's rule, applied to the
// levels the hierarchy has), loses C (building and sending the span) and gives again one poll
// later at the earliest (a poll: the time of 64 nodes, from T and the node count); the span
// reaches the asker half a poll + C + L/2 later. A leaf costs its time alone less its parent's
// replay; a worker's first leaf after it receives a span costs its whole time alone (the replay
// of its path). A leaf is never split, which the engine would do: a pessimism. With
// --coordinator-us S (the columns with latency only), every hand-out also passes one central
// coordinator (MPI rank 0) that spends S on it, one at a time; by default there is none.
// With --mpi-poll-us P (the columns with latency only) the replay follows the protocol of
// cubex's MPI mode instead (src/mpi/; a worker is a rank of one thread). Every
// message takes L/2 (none from rank 0 to itself) and waits in its reader's inbox for the next
// poll of the reader's job, which polls every P (the first poll at a phase drawn from [0, P))
// and at once when its thread runs dry or has split its work (job.cpp's control loop is woken
// then). Every rank sends kHello at 0 and, at each poll while idle, kWant once. At a poll a rank
// reads its messages in the order sent, answers kGive (kDonate with nothing when idle; else its
// thread, asked, gives the later half of its untried children at its shallowest level one
// engine poll later, losing C, and the job wakes and sends it; with no untried piece between the
// hierarchy's levels it gives once it has one or has run dry: the engine would split inside the
// piece), then rank 0's coordinator takes its step: nothing before every kHello; spans from its
// pool to the idle ranks, heaviest first by the engine's estimated weight (a node's children
// share its weight equally); then kGive to busy ranks not giving, drawn at random (--mpi-pick
// random, the default), in rank order (first) or, a what-if, the rank holding the most
// estimated weight by the coordinator's account (heaviest), until the spans in the pool and the
// donations asked cover the idle ranks plus a reserve (--mpi-reserve, auto: 1 + ranks/16, none with
// one rank, as cluster.cpp). The protocol as first built: --mpi-poll-us 1000 --mpi-pick first
// --mpi-reserve 0. --coordinator-us S charges rank 0 S per message it reads as coordinator, one
// at a time. --mpi-also P,PICK,RESERVE adds columns for the protocol with those settings,
// replayed over the same measurement. --mpi-precut K (not in cluster.cpp: a what-if) starts the
// pool with the tree cut into K x ranks spans (the heaviest span cut into its children first).
// Standard error also gives, per column, when the last worker began work, and for the MPI
// protocol the messages sent, the kGive that found no untried piece, the empty kDonate.
// Not modelled: memory bandwidth and caches shared by the threads of one machine; that the engine
// does not split the levels of Algorithm M (multiplicities) that branch on an item again (a
// warning says so).
// Efficiency = work / (W x makespan), the worst of N random draws, where the work is the sum of
// the leaves' costs in a continuous run (T only serves as a check: the sum should be near it; on
// a busy machine it drifts by up to 10% either way).
//
// --units N: the replay of a fixed cut of N spans (SearchJob::cut), which cannot split a span (the
// figures before the hierarchy above; kept for comparison).
//
// --eta: how good the progress line's estimates are. Each FILE is searched (one thread unless
// --threads) with a progress report every 0.05 s, or every 1/40 of the run where that is shorter
// (at least every 0.005 s; a first run without reports measures the run's length). The first
// reports at or after 10%, 50% and 90% of the run's time give the relative error of the predicted
// time left (against the time the run then really took) and of the nodes left that the reported
// fraction stands for (nodes searched x (1 - f) / f, against the nodes the run then really
// searched); the last column is the worst of either over the reports from 10% to 90% of the run. A
// run too short to have such a report (one before the end) leaves its cell empty; a cell that no
// run filled says so ("no report (run too short)", or "no estimate in the reports"). With --repeat
// N each file is searched N times, run k with the estimate's seed k (JobOptions::estimate_seed:
// each run draws its own samples, so the median is over N draws, not one draw repeated), and each
// cell is the median error (by size); the column before the load counts the runs whose every
// report from 10% to 90% was within 25% in CPU time left and in nodes left. The time depends on
// the machine's load as well (the rate of the run so far is assumed to go on); the nodes do not. So
// each cell gives the time left twice: in wall seconds (the progress line's) and in the search
// threads' CPU seconds (JobProgress cpu_eta against the CPU time the threads then really used),
// which the load of a shared machine hardly moves: the latter is the estimator's own error. The
// last column is the 1-minute load average before and after the file's runs. ETA_RUNS=1 in the
// environment prints each run's errors to stderr, ETA_TRACE=1 every report (elapsed, CPU, cpu_eta,
// eta, run, CPU of the run, fraction, nodes, nodes of the run).
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "cubex/core/job.hpp"
#include "cubex/error.hpp"
#include "cubex/knuth/format.hpp"

namespace {

// CPU seconds of this thread: unlike wall time, not inflated by other processes on the machine.
double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Timed {
  double sec = 0;
  cubex::SolveStats st;
};

Timed timed_search(cubex::SearchJob& job, const cubex::TreeSpan& span) {
  const double t0 = cpu_now();
  Timed r;
  r.st = job.search(span);
  r.sec = cpu_now() - t0;
  return r;
}

// The subtree of the node `path` (the whole tree for the root).
cubex::TreeSpan subtree(const cubex::TreePath& path) {
  cubex::TreeSpan s;
  s.begin = path;
  if (!path.empty()) {
    s.end = path;
    ++s.end.back();
    s.to_end = false;
  }
  return s;
}

// ---- The measured hierarchy -----------------------------------------------------------------

// The node `path` alone (entered, its item chosen, no child searched): a cheap probe of whether
// the node exists, and for a node past the last child, of the time its parent's path replays in.
cubex::TreeSpan node_only(const cubex::TreePath& path) {
  cubex::TreeSpan s;
  s.begin = path;
  s.end = path;
  s.end.push_back(0);
  s.to_end = false;
  return s;
}

struct Piece {
  std::uint32_t first = 0, count = 0;  // its children (pieces first..first+count-1); 0: a leaf
  double sec = 0;     // a leaf: CPU seconds of its subtree searched alone (path replayed first)
  double replay = 0;  // expanded: CPU seconds of replaying its path (an empty probe below it)
  std::uint64_t nodes = 0, solutions = 0;
  double run = 0;  // a leaf: its cost in a continuous run (sec less the parent's replay)
};

struct Hierarchy {
  // pieces[0] is a frame above the root with one child, pieces[1], the root (the whole tree).
  std::vector<Piece> pieces;
  double whole = 0;  // T: CPU seconds of one continuous search of the whole tree
  std::uint64_t nodes = 0, solutions = 0;
  double threshold = 0;  // pieces longer than this were measured again as smaller ones
  std::size_t leaves = 0, expanded = 0, rounds = 0;
  double run_sum = 0, largest = 0;  // continuous seconds of all leaves; seconds of the longest
  double cost = 0;                  // CPU seconds the measuring took
};

// Measures the subtree of pieces[id] (the node `path`, `sec` seconds) again as smaller pieces.
// To keep the cost near one search of the subtree per round, the levels below the node are first
// listed with node_only() probes (a replay and one node each), down to the first level with about
// 2 x sec / threshold nodes; only the nodes of that level are searched whole and timed, and those
// still above the threshold go round again.
void expand(cubex::SearchJob& job, Hierarchy& h, std::uint32_t id, const cubex::TreePath& path,
            double sec) {
  constexpr std::size_t kMaxDepth = 64;
  const auto target = static_cast<std::size_t>(std::min(1e9, std::max(2.0, 2 * sec / h.threshold)));
  struct Open {
    std::uint32_t id;
    cubex::TreePath path;
  };
  std::vector<Open> level{{id, path}}, next;
  for (;;) {  // (the caller checked the node is above the threshold and not at kMaxDepth)
    next.clear();
    for (Open& o : level) {
      h.pieces[o.id].first = static_cast<std::uint32_t>(h.pieces.size());
      cubex::TreePath child = o.path;
      child.push_back(0);
      for (;; ++child.back()) {
        const Timed t = timed_search(job, node_only(child));
        if (t.st.nodes == 0) {  // past the last child: the time of replaying o.path
          h.pieces[o.id].replay = t.sec;
          break;
        }
        Piece c;  // a tree leaf (a solution or a dead end) unless it has children
        c.sec = t.sec;
        c.nodes = t.st.nodes;
        c.solutions = t.st.solutions;
        next.push_back({static_cast<std::uint32_t>(h.pieces.size()), child});
        h.pieces.push_back(c);
      }
      Piece& p = h.pieces[o.id];
      p.count = static_cast<std::uint32_t>(h.pieces.size()) - p.first;
      if (p.count) ++h.expanded;
    }
    // Only nodes with children go on down; the others stay leaves, measured by their probe.
    level.clear();
    for (Open& o : next) {
      const Piece& p = h.pieces[o.id];
      if (p.solutions == 0) level.push_back(std::move(o));
    }
    if (level.size() >= target || level.empty() || level[0].path.size() >= kMaxDepth) break;
  }
  ++h.rounds;
  // The nodes reached: searched whole and timed.
  for (Open& o : level) {
    Piece& p = h.pieces[o.id];
    if (p.count) continue;
    const Timed t = timed_search(job, subtree(o.path));
    p.sec = t.sec;
    p.nodes = t.st.nodes;
    p.solutions = t.st.solutions;
  }
  for (Open& o : level) {
    const Piece& p = h.pieces[o.id];
    if (!p.count && p.sec > h.threshold && o.path.size() < kMaxDepth)
      expand(job, h, o.id, o.path, p.sec);
  }
}

Hierarchy measure(cubex::SearchJob& job, double grain) {
  const double c0 = cpu_now();
  Hierarchy h;
  const Timed whole = timed_search(job, subtree({}));
  h.whole = whole.sec;
  h.nodes = whole.st.nodes;
  h.solutions = whole.st.solutions;
  // (Pieces under 10 us are not cut further: there the replay of a path is much of a piece.)
  h.threshold = std::max(h.whole / grain, 10e-6);
  h.pieces.resize(2);
  h.pieces[0].first = 1;
  h.pieces[0].count = 1;
  h.pieces[1].sec = whole.sec;
  h.pieces[1].nodes = whole.st.nodes;
  h.pieces[1].solutions = whole.st.solutions;
  if (h.pieces[1].sec > h.threshold) expand(job, h, 1, {}, h.whole);
  // A leaf's cost within a continuous run: its time alone less the replay of its parent's path
  // (a handed-over span's first leaf is charged its whole time alone instead).
  for (std::size_t k = 0; k < h.pieces.size(); ++k) {
    const Piece& p = h.pieces[k];
    for (std::uint32_t c = p.first; c < p.first + p.count; ++c) {
      Piece& leaf = h.pieces[c];
      if (!leaf.count) leaf.run = std::max(0.0, leaf.sec - p.replay);
    }
  }
  h.pieces[1].run = h.pieces[1].count ? 0 : h.whole;
  // Checks: the leaves hold every solution, and every node once (an expanded node is entered
  // by none of its children's searches).
  std::uint64_t nodes = 0, solutions = 0;
  for (std::size_t k = 1; k < h.pieces.size(); ++k) {
    const Piece& p = h.pieces[k];
    if (p.count) continue;
    ++h.leaves;
    nodes += p.nodes;
    solutions += p.solutions;
    h.run_sum += p.run;
    h.largest = std::max(h.largest, p.sec);
  }
  if (solutions != h.solutions || nodes + h.expanded != h.nodes) {
    std::fprintf(stderr,
                 "cubex_schedule: internal error: the pieces hold %llu solutions and %llu nodes, "
                 "the whole tree %llu and %llu\n",
                 static_cast<unsigned long long>(solutions),
                 static_cast<unsigned long long>(nodes + h.expanded),
                 static_cast<unsigned long long>(h.solutions),
                 static_cast<unsigned long long>(h.nodes));
    std::exit(1);
  }
  h.cost = cpu_now() - c0;
  return h;
}

// ---- The scheduler replayed over the hierarchy -----------------------------------------------

// How the MPI coordinator picks the busy rank asked to give.
enum Pick { kFirst, kRandom, kHeaviest };

struct Replay {
  double makespan = 0;
  std::uint64_t handouts = 0;
  std::size_t leaves = 0;  // leaves searched (each exactly once, checked)
  double busy = 0;         // worker time spent on leaves
  double ramp = 0;         // when the last worker began its first leaf
  // MPI: kGive read by a rank with no untried piece (it gives later), kDonate with nothing.
  std::uint64_t owed = 0, empty = 0;
  std::uint64_t messages = 0;  // MPI: messages sent
};

class Scheduler {
 public:
  // `latency`: a message round trip; `give_cost`: what a hand-over costs the giver; `poll`: how
  // often a busy worker looks at requests (the engine: every 64 nodes); `coordinator`: the time
  // a central coordinator spends on each hand-out (0: none, the askers reach the givers directly).
  // `mpi_poll` > 0: the protocol of cubex's MPI mode instead (src/mpi/): every hand-out
  // passes rank 0's coordinator, and every rank reads its messages once per `mpi_poll`.
  // `mpi_reserve`: the spans the coordinator keeps in its pool beyond the idle ranks' needs.
  Scheduler(const Hierarchy& h, unsigned workers, double latency, double give_cost, double poll,
            double coordinator, double mpi_poll, int mpi_pick, std::size_t mpi_reserve,
            std::uint64_t seed, std::size_t mpi_precut = 0)
      : p_(h.pieces),
        w_(workers),
        latency_(latency),
        give_(give_cost),
        poll_(poll),
        coordinator_(coordinator),
        mpi_poll_(mpi_poll),
        pick_(mpi_pick),
        reserve_(mpi_reserve),
        precut_(mpi_precut),
        rng_(seed) {
    if (mpi_poll_ > 0) {
      // The engine's estimate of each piece's weight (what a span carries, and what the
      // coordinator's "heaviest first" reads): a node's children share its weight equally.
      est_.assign(p_.size(), 1.0);
      for (std::size_t k = 1; k < p_.size(); ++k)
        for (std::uint32_t c = p_[k].first; c < p_[k].first + p_[k].count; ++c)
          est_[c] = est_[k] / p_[k].count;
      cbusy_.assign(workers, 0);
      giving_.assign(workers, 0);
      held_.assign(workers, 0.0);
      rank_.resize(workers);
    }
  }

  Replay run() {
    if (mpi_poll_ > 0) {
      // The coordinator's pool holds the whole tree. Every rank starts at 0 and sends kHello;
      // its job polls its messages first one poll period later (a phase drawn from [0, P): the
      // ranks do not start together), then every P, and at once whenever its thread runs dry
      // or has split its work. Its first poll sends kWant.
      pool_.push_back(Frame{0, 0, 1});
      // --mpi-precut N (not in cluster.cpp: a what-if): the pool starts with the tree cut into
      // N spans or more, the heaviest span (by the estimate) cut first, into its children.
      while (pool_.size() < precut_) {
        std::size_t best = pool_.size();
        for (std::size_t k = 0; k < pool_.size(); ++k) {
          const Frame& f = pool_[k];
          const bool cuttable = f.end - f.sib > 1 || p_[p_[f.piece].first + f.sib].count > 0;
          if (cuttable && (best == pool_.size() || weight(f) > weight(pool_[best]))) best = k;
        }
        if (best == pool_.size()) break;  // only single leaves left
        const Frame f = pool_[best];
        pool_[best] = pool_.back();
        pool_.pop_back();
        if (f.end - f.sib > 1) {
          for (std::uint32_t c = f.sib; c < f.end; ++c) pool_.push_back(Frame{f.piece, c, c + 1});
        } else {
          const std::uint32_t c = p_[f.piece].first + f.sib;
          pool_.push_back(Frame{c, 0, p_[c].count});
        }
      }
      std::uniform_real_distribution<double> phase(0.0, mpi_poll_);
      for (std::uint32_t k = 0; k < w_.size(); ++k) {
        const double first = phase(rng_);
        rank_[k].last_poll = first - mpi_poll_;
        rank_[k].tick_pending = true;
        push(first, k, rank_[k].tick, kTick);
      }
      for (std::uint32_t k = 0; k < w_.size(); ++k) send(0.0, k, 0, kHello);
    } else {  // worker 0 starts with the whole tree; the others ask at once
      w_[0].frames.push_back(Frame{0, 0, 1});
      start(0, 0.0);
      for (unsigned k = 1; k < w_.size(); ++k) idle(k, 0.0);
    }
    while (!events_.empty()) {
      const Event e = events_.top();
      events_.pop();
      Worker& w = w_[e.worker];
      switch (e.kind) {
        case kLeafDone:
          if (e.version != w.version) break;  // moved (it gave work away meanwhile)
          out_.makespan = std::max(out_.makespan, e.t);
          ++out_.leaves;
          if (advance(w)) {
            begin_leaf(e.worker, e.t, false);
          } else {
            idle(e.worker, e.t);
          }
          break;
        case kAsk:  // the request reaches the busy workers
          waiting_.push_back(e.worker);
          break;
        case kStart:
          start(e.worker, e.t);
          break;
        case kCoordinator:  // the coordinator is free again
          coordinator_event_ = false;
          break;
        case kPolled:  // it looks at requests again
          w.resting = false;
          update_donor(e.worker);
          break;
        // The MPI protocol.
        case kArrive: {  // a message reaches rank e.worker: it waits for the next poll
          const Message& m = messages_[e.version];
          Rank& r = rank_[m.to];
          r.inbox.push_back(e.version);
          if (!r.tick_pending) {  // the first poll after the message: last poll + n x P, n >= 1
            const double n = std::max(1.0, std::ceil((e.t - r.last_poll) / mpi_poll_));
            r.tick_pending = true;
            push(r.last_poll + n * mpi_poll_, m.to, r.tick, kTick);
          }
          break;
        }
        case kTick:  // a poll at the period's end
          if (e.version == rank_[e.worker].tick) mpi_poll(e.worker, e.t);
          break;
        case kSplit:  // its thread has split its work: the job wakes and sends it (kDonate)
          send(e.t, e.worker, 0, kDonate, e.version);
          mpi_poll(e.worker, e.t);
          break;
      }
      if (mpi_poll_ <= 0) serve(e.t);
    }
    return out_;
  }

 private:
  // The children `sib` (current) .. `end`-1 of piece `piece` are this level's share of the work.
  struct Frame {
    std::uint32_t piece, sib, end;
  };
  struct Worker {
    std::vector<Frame> frames;  // empty: idle
    bool busy = false;          // searching (not idle, not waiting for a span to arrive)
    double leaf_end = 0;
    std::uint32_t version = 0;
    std::int64_t donor = -1;  // its index in donors_, -1 when it cannot give now
    bool resting = false;     // gave at its last poll: gives again at the next
    bool owe = false;         // MPI: asked to give, had nothing to give yet
    bool started = false;     // has begun a leaf
  };
  enum Kind { kLeafDone, kAsk, kStart, kPolled, kCoordinator, kArrive, kTick, kSplit };
  // The MPI messages (cluster.cpp's tags).
  enum Tag { kHello, kWant, kDonate, kWork, kGive };
  static constexpr std::uint32_t kNone = UINT32_MAX;  // (an MPI message without a span)
  struct Event {
    double t;
    std::uint32_t worker, version;
    Kind kind;
    std::uint64_t seq = 0;  // events at the same time: in the order they were made
    bool operator>(const Event& o) const { return t > o.t || (t == o.t && seq > o.seq); }
  };
  struct Message {
    std::uint32_t from, to;
    Tag tag;
    std::uint32_t parcel;  // a span (parcels_), or kNone
  };
  // A rank's job as the exchange sees it: its messages not yet read, its last poll, the version
  // of its pending poll at the period's end, the member's flags (cluster.cpp's Member).
  struct Rank {
    std::vector<std::uint32_t> inbox;
    double last_poll = 0;
    std::uint32_t tick = 0;
    bool tick_pending = false, want_sent = false;
  };

  void push_event(Event e) {
    e.seq = seq_++;
    events_.push(e);
  }
  void push(double t, std::uint32_t k, std::uint32_t version, Kind kind) {
    push_event(Event{t, k, version, kind});
  }
  std::uint32_t current(const Worker& w) const {
    const Frame& f = w.frames.back();
    return p_[f.piece].first + f.sib;
  }
  // Goes down to the first leaf of the current piece.
  void descend(Worker& w) {
    for (std::uint32_t c = current(w); p_[c].count; c = current(w))
      w.frames.push_back(Frame{c, 0, p_[c].count});
  }
  // Moves to the next leaf of its share; false when the share is done.
  bool advance(Worker& w) {
    while (!w.frames.empty()) {
      Frame& f = w.frames.back();
      if (++f.sib < f.end) {
        descend(w);
        return true;
      }
      w.frames.pop_back();
    }
    return false;
  }
  // The shallowest level with untried children, or -1.
  static int givable(const Worker& w) {
    for (std::size_t l = 0; l < w.frames.size(); ++l)
      if (w.frames[l].end - w.frames[l].sib > 1) return static_cast<int>(l);
    return -1;
  }
  void update_donor(std::uint32_t k) {
    Worker& w = w_[k];
    const bool can = w.busy && !w.resting && givable(w) >= 0;
    if (can && w.donor < 0) {
      w.donor = static_cast<std::int64_t>(donors_.size());
      donors_.push_back(k);
    } else if (!can && w.donor >= 0) {
      const std::uint32_t last = donors_.back();
      donors_[static_cast<std::size_t>(w.donor)] = last;
      w_[last].donor = w.donor;
      donors_.pop_back();
      w.donor = -1;
    }
  }
  // A worker's first leaf after it receives a span costs its time alone (the replay of its path
  // included), the others their time within a continuous run.
  void begin_leaf(std::uint32_t k, double t, bool first) {
    Worker& w = w_[k];
    if (!w.started) {
      w.started = true;
      out_.ramp = std::max(out_.ramp, t);
    }
    const Piece& leaf = p_[current(w)];
    w.leaf_end = t + (first ? leaf.sec : leaf.run);
    out_.busy += first ? leaf.sec : leaf.run;
    push_event(Event{w.leaf_end, k, ++w.version, kLeafDone});
    update_donor(k);
    if (w.owe && givable(w) >= 0) donate(k, t);
  }
  void start(std::uint32_t k, double t) {
    Worker& w = w_[k];
    w.busy = true;
    descend(w);
    begin_leaf(k, t, true);
  }
  void idle(std::uint32_t k, double t) {
    w_[k].busy = false;
    update_donor(k);
    if (mpi_poll_ > 0) {  // its job wakes: kDonate with nothing if it owes one, and kWant
      mpi_poll(k, t);
      return;
    }
    push_event(Event{t + latency_ / 2, k, 0, kAsk});
  }

  // ---- The MPI protocol (src/mpi/). A message takes half the round trip (none from
  // rank 0 to itself: a local queue) and waits in the inbox for the reader's next poll.
  void send(double t, std::uint32_t from, std::uint32_t to, Tag tag, std::uint32_t parcel = kNone) {
    const auto id = static_cast<std::uint32_t>(messages_.size());
    messages_.push_back(Message{from, to, tag, parcel});
    ++out_.messages;
    push(t + (from == to ? 0.0 : latency_ / 2), to, id, kArrive);
  }
  // Rank k's job polls its exchange at time t (Member::poll): it reads its messages (rank 0's
  // coordinator those for it), answers a kGive and asks for work when idle, then rank 0's
  // coordinator takes its step.
  void mpi_poll(std::uint32_t k, double t) {
    Rank& r = rank_[k];
    Worker& w = w_[k];
    r.last_poll = t;
    ++r.tick;  // (a poll at the period's end still pending is this one)
    r.tick_pending = false;
    std::vector<std::uint32_t> inbox;
    inbox.swap(r.inbox);
    if (k == 0 && coordinator_ > 0) {
      // The coordinator reads its messages one at a time, `coordinator_` each; its step follows.
      std::size_t n = 0;
      for (const std::uint32_t id : inbox) n += messages_[id].tag <= kDonate;
      t += coordinator_ * static_cast<double>(n);
      r.last_poll = t;
    }
    for (const std::uint32_t id : inbox) {
      const Message m = messages_[id];
      switch (m.tag) {
        case kHello:
          ++hellos_;
          break;
        case kWant:
          cbusy_[m.from] = 0;
          idle_q_.push_back(m.from);
          break;
        case kDonate:
          giving_[m.from] = 0;
          --giving_count_;
          if (m.parcel != kNone) {
            pool_.push_back(parcels_[m.parcel]);
            held_[m.from] = std::max(0.0, held_[m.from] - weight(parcels_[m.parcel]));
          }
          break;
        case kWork:
          w.frames.assign(1, parcels_[m.parcel]);
          r.want_sent = false;
          start(k, t);
          break;
        case kGive:
          w.owe = true;
          break;
      }
    }
    if (w.owe) {
      if (!w.busy) {  // nothing to give
        w.owe = false;
        ++out_.empty;
        send(t, k, 0, kDonate);
      } else if (givable(w) >= 0) {
        donate(k, t);
      } else {
        ++out_.owed;
      }  // else it gives when it reaches untried children (the engine would split the leaf)
    }
    if (!r.want_sent && !w.busy) {
      r.want_sent = true;
      send(t, k, 0, kWant);
    }
    if (k == 0) coordinate(t);
  }
  // Rank k's thread is asked (kHungry) for work at time t: at its next engine poll it hands over
  // the later half of its untried children at its shallowest level, loses `give_` for it, and
  // its job wakes and sends the span (kSplit).
  void donate(std::uint32_t k, double t) {
    Worker& g = w_[k];
    g.owe = false;
    Frame& f = g.frames[static_cast<std::size_t>(givable(g))];
    const std::uint32_t rem = f.end - f.sib - 1;
    const std::uint32_t m = f.sib + 1 + rem / 2;
    const auto parcel = static_cast<std::uint32_t>(parcels_.size());
    parcels_.push_back(Frame{f.piece, m, f.end});
    f.end = m;
    ++out_.handouts;
    g.leaf_end += give_;
    push(g.leaf_end, k, ++g.version, kLeafDone);
    update_donor(k);
    push(t + poll_ + give_, k, parcel, kSplit);
  }
  // The engine's estimated weight of a span.
  double weight(const Frame& f) const {
    return f.end > f.sib ? (f.end - f.sib) * est_[p_[f.piece].first] : 0.0;
  }
  // Rank 0's coordinator's step at time t (Coordinator::step): nothing before every kHello;
  // work from its pool to the idle ranks (heaviest first); then kGive to busy ranks not already
  // giving, until the pool and the donations asked cover the idle ranks and the reserve: drawn
  // at random (kRandom), in rank order from rank 0 (kFirst: the protocol as first built), or
  // (kHeaviest, a what-if) the rank holding the most estimated weight by the coordinator's
  // account: what it was handed less what it donated since.
  void coordinate(double t) {
    if (hellos_ < w_.size()) return;
    while (!idle_q_.empty() && !pool_.empty()) {
      std::size_t best = 0;
      for (std::size_t k = 1; k < pool_.size(); ++k)
        if (weight(pool_[k]) > weight(pool_[best])) best = k;
      const auto parcel = static_cast<std::uint32_t>(parcels_.size());
      parcels_.push_back(pool_[best]);
      pool_[best] = pool_.back();
      pool_.pop_back();
      const std::uint32_t r = idle_q_.front();
      idle_q_.pop_front();
      cbusy_[r] = 1;
      held_[r] = weight(parcels_[parcel]);
      send(t, 0, r, kWork, parcel);
    }
    const std::size_t wanted = idle_q_.size() + reserve_;
    if (giving_count_ + pool_.size() >= wanted) return;
    candidates_.clear();
    for (std::uint32_t r = 0; r < w_.size(); ++r)
      if (cbusy_[r] && !giving_[r]) candidates_.push_back(r);
    std::size_t next = 0;  // (rank order)
    while (giving_count_ + pool_.size() < wanted && next < candidates_.size()) {
      std::uint32_t r;
      if (pick_ == kHeaviest) {
        std::size_t best = 0;
        for (std::size_t k = 1; k < candidates_.size(); ++k)
          if (held_[candidates_[k]] > held_[candidates_[best]]) best = k;
        r = candidates_[best];
        candidates_[best] = candidates_.back();
        candidates_.pop_back();
      } else if (pick_ == kRandom) {
        const std::size_t k = rng_() % candidates_.size();
        r = candidates_[k];
        candidates_[k] = candidates_.back();
        candidates_.pop_back();
      } else {
        r = candidates_[next++];
      }
      giving_[r] = 1;
      ++giving_count_;
      send(t, 0, r, kGive);
    }
  }
  // Hands work to the waiting workers while some busy worker has any to give.
  void serve(double t) {
    while (!waiting_.empty() && !donors_.empty()) {
      if (coordinator_free_ > t) {  // a central coordinator passes one hand-out at a time
        if (!coordinator_event_) push_event(Event{coordinator_free_, 0, 0, kCoordinator});
        coordinator_event_ = true;
        return;
      }
      coordinator_free_ = t + coordinator_;
      const std::uint32_t to = waiting_.front();
      waiting_.pop_front();
      std::uniform_int_distribution<std::size_t> pick(0, donors_.size() - 1);
      const std::uint32_t from = donors_[pick(rng_)];
      Worker& g = w_[from];
      Frame& f = g.frames[static_cast<std::size_t>(givable(g))];
      const std::uint32_t rem = f.end - f.sib - 1;
      const std::uint32_t m = f.sib + 1 + rem / 2;
      w_[to].frames.assign(1, Frame{f.piece, m, f.end});
      f.end = m;
      ++out_.handouts;
      // The giver loses `give_` (its current leaf ends that much later) and gives again at its
      // next poll at the earliest; on average a request waits half a poll for a giver to see it.
      g.leaf_end += give_;
      push_event(Event{g.leaf_end, from, ++g.version, kLeafDone});
      g.resting = true;
      update_donor(from);
      push_event(Event{t + poll_, from, 0, kPolled});
      push_event(Event{t + poll_ / 2 + give_ + latency_ / 2, to, 0, kStart});
    }
  }

  const std::vector<Piece>& p_;
  std::vector<Worker> w_;
  double latency_, give_, poll_, coordinator_, mpi_poll_;
  // The MPI protocol: each piece's estimated weight; the ranks; the coordinator's view (rank
  // busy, asked to give), its queue of idle ranks, its pool and reserve; the messages and the
  // spans they carry.
  int pick_;
  std::vector<double> held_;  // the coordinator's account of each rank's estimated weight
  std::size_t reserve_, precut_;
  std::vector<double> est_;
  std::vector<Rank> rank_;
  std::vector<char> cbusy_, giving_;
  std::size_t giving_count_ = 0, hellos_ = 0;
  std::deque<std::uint32_t> idle_q_;
  std::vector<std::uint32_t> candidates_;
  std::vector<Frame> pool_, parcels_;
  std::vector<Message> messages_;
  std::uint64_t seq_ = 0;
  double coordinator_free_ = 0;
  bool coordinator_event_ = false;
  std::mt19937_64 rng_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  std::deque<std::uint32_t> waiting_;
  std::vector<std::uint32_t> donors_;
  Replay out_;
};

// ---- The fixed cut (--units) ------------------------------------------------------------------

struct Sim {
  double makespan = 0;
  std::uint64_t handovers = 0;
};

// Workers hold ranges [a, b) of span indices; each finishes span after span. When one runs dry it
// takes the later half of the largest remaining range of another (by count of spans, as the
// engine halves children), paying `cost_us` of overhead.
Sim simulate(const std::vector<double>& work, unsigned workers, double cost) {
  struct W {
    std::size_t a = 0, b = 0;  // its spans
    double t = 0;              // time at which its current span ends (or it became idle)
  };
  std::vector<W> w(workers);
  w[0].b = work.size();
  Sim out;
  auto busy = [&](unsigned k) { return w[k].a < w[k].b; };
  std::size_t done = 0;
  std::vector<double> clock(workers, 0);
  while (done < work.size()) {
    // Idle workers take the later half of the most spans another has left.
    for (unsigned k = 0; k < workers; ++k) {
      if (busy(k)) continue;
      unsigned v = workers;
      std::size_t most = 1;
      for (unsigned j = 0; j < workers; ++j)
        if (w[j].b - w[j].a > most) most = w[j].b - w[j].a, v = j;
      if (v == workers) break;  // nobody has two spans left: nothing to hand over
      const std::size_t half = (w[v].b - w[v].a) / 2;
      w[k].b = w[v].b;
      w[k].a = w[v].b - half;
      w[v].b = w[k].a;
      clock[k] = std::max(clock[k], clock[v]) + cost;
      ++out.handovers;
    }
    // The busy worker with the earliest clock does its next span.
    unsigned best = workers;
    for (unsigned k = 0; k < workers; ++k)
      if (busy(k) && (best == workers || clock[k] < clock[best])) best = k;
    clock[best] += work[w[best].a++];
    ++done;
  }
  for (unsigned k = 0; k < workers; ++k) out.makespan = std::max(out.makespan, clock[k]);
  return out;
}

// ---- The time-left estimate (--eta) ----------------------------------------------------------

// One run of --eta: the errors at 10%, 50% and 90% of the run (time left in wall seconds, time
// left in the search's CPU seconds, nodes left) and the worst of each from 10% to 90%.
// Errors are NaN where the run had no report to measure them by (too short).
struct EtaRun {
  double seconds = 0, cpu = 0;
  double time[3] = {0, 0, 0}, cpu_time[3] = {0, 0, 0}, nodes[3] = {0, 0, 0};
  double worst_time = 0, worst_cpu = 0, worst_nodes = 0;
  bool reported[4] = {false, false, false, false};  // a report before the end (10/50/90%, worst)
};

EtaRun eta_run(cubex::SearchJob& job, unsigned threads, double interval, std::uint64_t seed) {
  struct Mark {
    double elapsed, eta, fraction, nodes, cpu, cpu_eta;
  };
  std::vector<Mark> marks;
  cubex::JobOptions opt;
  opt.threads = threads;
  opt.progress_seconds = interval;
  opt.estimate_seed = seed;
  opt.on_progress = [&](const cubex::JobProgress& p) {
    marks.push_back(
        {p.elapsed, p.eta, p.fraction, static_cast<double>(p.counts.nodes), p.cpu, p.cpu_eta});
  };
  const cubex::JobResult r = job.run(opt);
  const double total = r.seconds, nodes = static_cast<double>(r.counts.nodes);
  const double cpu = marks.empty() ? 0 : marks.back().cpu;  // the last report: at the end
  // Relative errors of the time left (wall, CPU) and of the nodes left the fraction stands for.
  auto time_error = [&](const Mark& m) {
    return (m.eta - (total - m.elapsed)) / (total - m.elapsed);
  };
  auto cpu_error = [&](const Mark& m) { return (m.cpu_eta - (cpu - m.cpu)) / (cpu - m.cpu); };
  auto node_error = [&](const Mark& m) {
    const double left = nodes - m.nodes;
    return (m.nodes * (1 - m.fraction) / m.fraction - left) / left;
  };
  auto usable = [&](const Mark& m) {
    return m.eta >= 0 && m.cpu_eta >= 0 && m.fraction > 0 && m.elapsed < total && m.nodes < nodes &&
           m.cpu < cpu;
  };
  if (std::getenv("ETA_TRACE")) {
    for (const Mark& m : marks)
      if (usable(m))
        std::fprintf(stderr, "T %.4f %.4f %.4f %.4f %.4f %.4f %.5f %.0f %.0f\n", m.elapsed, m.cpu,
                     m.cpu_eta, m.eta, total, cpu, m.fraction, m.nodes, nodes);
  }
  EtaRun out;
  out.seconds = total;
  out.cpu = cpu;
  const double at[3] = {0.1, 0.5, 0.9};
  for (int k = 0; k < 3; ++k) {
    auto m = std::find_if(marks.begin(), marks.end(),
                          [&](const Mark& x) { return x.elapsed >= at[k] * total && usable(x); });
    out.reported[k] = std::any_of(marks.begin(), marks.end(), [&](const Mark& x) {
      return x.elapsed >= at[k] * total && x.elapsed < total && x.nodes < nodes;
    });
    out.time[k] = m == marks.end() ? NAN : time_error(*m);
    out.cpu_time[k] = m == marks.end() ? NAN : cpu_error(*m);
    out.nodes[k] = m == marks.end() ? NAN : node_error(*m);
  }
  auto worse = [](double& worst, double e) {
    if (std::abs(e) > std::abs(worst)) worst = e;
  };
  bool any = false;
  for (const Mark& m : marks) {
    if (m.elapsed < 0.1 * total || m.elapsed > 0.9 * total) continue;
    any = true;
    out.reported[3] = out.reported[3] || (m.elapsed < total && m.nodes < nodes);
    if (!usable(m)) {
      out.worst_time = out.worst_cpu = out.worst_nodes = NAN;  // no estimate at all
      break;
    }
    worse(out.worst_time, time_error(m));
    worse(out.worst_cpu, cpu_error(m));
    worse(out.worst_nodes, node_error(m));
  }
  if (!any) out.worst_time = out.worst_cpu = out.worst_nodes = NAN;
  return out;
}

// The 1-minute load average (/proc/loadavg; -1 where there is none).
double load_average() {
  double l = -1;
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &l) != 1) l = -1;
    std::fclose(f);
  }
  return l;
}

int eta_table(const std::vector<std::string>& files, unsigned threads, unsigned repeat) {
  std::printf(
      "| file | run: wall / CPU (s) | at 10%% of the run: time left, wall / CPU; nodes left | at "
      "50%% | at 90%% | worst, 10%%-90%% | runs within 25%% throughout | load "
      "|\n|---|---|---|---|---|---|---|---|\n");
  auto median = [](std::vector<double> v) {  // of the runs that have the figure (NaN: none)
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
    std::sort(v.begin(), v.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
    return v.empty() ? NAN : v[v.size() / 2];  // by size: the middle error
  };
  for (const std::string& f : files) {
    const cubex::KnuthFile kf = cubex::read_knuth_file(f);
    cubex::SearchJob job(kf.problem);
    const double load_before = load_average();
    // The report interval: 0.05 s, or 1/40 of the run where that is shorter.
    cubex::JobOptions plain;
    plain.threads = threads;
    const double interval = std::clamp(job.run(plain).seconds / 40, 0.005, 0.05);
    std::vector<EtaRun> runs;
    for (unsigned k = 0; k < repeat; ++k) {
      runs.push_back(eta_run(job, threads, interval, k));  // run k: seed k
      if (std::getenv("ETA_RUNS")) {
        const EtaRun& r = runs.back();
        auto pct = [](double x) {  // "-" where the run had no report for it
          char b[16];
          if (std::isnan(x)) return std::string("-");
          std::snprintf(b, sizeof b, "%+.0f", 100 * x);
          return std::string(b);
        };
        std::fprintf(stderr, "  run %.2f/%.2f", r.seconds, r.cpu);
        for (int k2 = 0; k2 < 3; ++k2)
          std::fprintf(stderr, " | %s/%s/%s", pct(r.time[k2]).c_str(), pct(r.cpu_time[k2]).c_str(),
                       pct(r.nodes[k2]).c_str());
        std::fprintf(stderr, " | worst %s/%s/%s\n", pct(r.worst_time).c_str(),
                     pct(r.worst_cpu).c_str(), pct(r.worst_nodes).c_str());
      }
    }
    auto cell = [&](auto get) {
      std::vector<double> v;
      for (const EtaRun& r : runs) v.push_back(get(r));
      return median(v);
    };
    std::string row = f.substr(f.find_last_of('/') + 1);
    char buf[128];
    std::snprintf(buf, sizeof buf, " | %.2f / %.2f (reports every %.3f s)",
                  cell([](const EtaRun& r) { return r.seconds; }),
                  cell([](const EtaRun& r) { return r.cpu; }), interval);
    row += buf;
    auto triple = [&](int k, auto wall, auto cpu, auto nodes) {
      const double w = cell(wall), c = cell(cpu), n = cell(nodes);
      if (std::isnan(w) || std::isnan(c) || std::isnan(n)) {
        const bool reported =
            std::any_of(runs.begin(), runs.end(), [k](const EtaRun& r) { return r.reported[k]; });
        row += reported ? " | no estimate in the reports" : " | no report (run too short)";
      } else {
        std::snprintf(buf, sizeof buf, " | %+.0f%% / %+.0f%%; %+.0f%%", 100 * w, 100 * c, 100 * n);
        row += buf;
      }
    };
    for (int k = 0; k < 3; ++k) {
      triple(
          k, [k](const EtaRun& r) { return r.time[k]; },
          [k](const EtaRun& r) { return r.cpu_time[k]; },
          [k](const EtaRun& r) { return r.nodes[k]; });
    }
    triple(
        3, [](const EtaRun& r) { return r.worst_time; },
        [](const EtaRun& r) { return r.worst_cpu; }, [](const EtaRun& r) { return r.worst_nodes; });
    const auto within = std::count_if(runs.begin(), runs.end(), [](const EtaRun& r) {
      return std::abs(r.worst_cpu) <= 0.25 && std::abs(r.worst_nodes) <= 0.25;  // (NaN: no)
    });
    std::snprintf(buf, sizeof buf, " | %d of %zu", static_cast<int>(within), runs.size());
    row += buf;
    std::snprintf(buf, sizeof buf, " | %.1f-%.1f", load_before, load_average());
    row += buf;
    std::printf("| %s |\n", row.c_str());
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

namespace {

int fixed_cut_table(const std::vector<std::string>& files, std::uint32_t units, double latency_us) {
  std::printf(
      "| file | spans | largest span | work (s) | 2 | 16 | 64 | 1,024 | 64, +%g us | 1,024, +%g us "
      "|\n",
      latency_us, latency_us);
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& f : files) {
    const cubex::KnuthFile kf = cubex::read_knuth_file(f);
    cubex::SearchJob job(kf.problem);
    const auto starts = job.cut(units);
    std::vector<double> work;
    double total = 0;
    for (std::size_t k = 0; k < starts.size(); ++k) {
      cubex::TreeSpan s;
      s.begin = starts[k];
      if (k + 1 < starts.size()) {
        s.end = starts[k + 1];
        s.to_end = false;
      }
      const double sec = timed_search(job, s).sec;
      work.push_back(sec);
      total += sec;
    }
    const double largest = *std::max_element(work.begin(), work.end());
    // A hand-over between threads: the replay of a path, about a microsecond.
    const double replay = 1e-6;
    std::string row = f.substr(f.find_last_of('/') + 1);
    char buf[128];
    std::snprintf(buf, sizeof buf, " | %zu | %.2f%% | %.2f", starts.size(), 100 * largest / total,
                  total);
    row += buf;
    for (unsigned p : {2u, 16u, 64u, 1024u}) {
      const Sim s = simulate(work, p, replay);
      std::snprintf(buf, sizeof buf, " | %.1f%%", 100 * total / (p * s.makespan));
      row += buf;
    }
    for (unsigned p : {64u, 1024u}) {
      const Sim s = simulate(work, p, replay + latency_us * 1e-6);
      std::snprintf(buf, sizeof buf, " | %.1f%%", 100 * total / (p * s.makespan));
      row += buf;
    }
    std::printf("| %s |\n", row.c_str());
    std::fflush(stdout);
  }
  return 0;
}

// The MPI protocol's settings: poll period, how the giver is picked, the reserve (-1: 1 +
// ranks / 16, none with one rank, as cluster.cpp keeps).
struct Mpi {
  double poll_us = 0;
  int pick = kRandom;  // a Pick
  long reserve = -1;
  std::size_t reserve_for(unsigned ranks) const {
    if (reserve >= 0) return static_cast<std::size_t>(reserve);
    return ranks > 1 ? 1 + ranks / 16 : 0;
  }
  std::string label(double latency_us) const {
    char buf[128];
    std::snprintf(buf, sizeof buf, ", +%g us, MPI, polls %g us, %s giver, reserve %s", latency_us,
                  poll_us,
                  pick == kFirst    ? "first"
                  : pick == kRandom ? "random"
                                    : "heaviest",
                  reserve < 0 ? "1 + ranks/16" : std::to_string(reserve).c_str());
    return buf;
  }
};

struct Settings {
  double grain = 8192;
  double latency_us = 50;
  double give_us = 1;
  double coordinator_us = 0;
  Mpi mpi;
  std::vector<Mpi> mpi_also;  // further columns: the MPI protocol with other settings
  double mpi_precut = 0;      // > 0: the pool starts cut into this many spans x ranks (what-if)
  std::uint64_t seeds = 5;
  std::vector<unsigned> workers{2, 16, 64, 1024};
};

std::string with_commas(unsigned v) {
  std::string s = std::to_string(v);
  for (int k = static_cast<int>(s.size()) - 3; k > 0; k -= 3)
    s.insert(static_cast<std::size_t>(k), ",");
  return s;
}

int hierarchy_table(const std::vector<std::string>& files, const Settings& set) {
  // The groups of columns: no latency; the latency (with the coordinator or the MPI protocol
  // when asked); then the MPI protocol with each further setting (--mpi-also), all replayed over
  // the same measurement.
  struct Group {
    double latency_us, coordinator_us;
    Mpi mpi;
    std::string label;
    double precut = 0;
  };
  std::vector<Group> groups{{0, 0, Mpi{}, ""}};
  {
    char buf[64];
    std::snprintf(buf, sizeof buf, ", coordinator %g us a message", set.coordinator_us);
    const std::string coord = set.coordinator_us > 0 ? buf : "";
    if (set.mpi.poll_us > 0) {
      std::string label = set.mpi.label(set.latency_us) + coord;
      if (set.mpi_precut > 0) {
        std::snprintf(buf, sizeof buf, ", pool cut into %g x ranks", set.mpi_precut);
        label += buf;
      }
      groups.push_back({set.latency_us, set.coordinator_us, set.mpi, label, set.mpi_precut});
    } else if (set.coordinator_us > 0) {
      std::snprintf(buf, sizeof buf, ", +%g us, coordinator %g us", set.latency_us,
                    set.coordinator_us);
      groups.push_back({set.latency_us, set.coordinator_us, set.mpi, buf});
    } else {
      std::snprintf(buf, sizeof buf, ", +%g us", set.latency_us);
      groups.push_back({set.latency_us, 0, set.mpi, buf});
    }
    for (const Mpi& m : set.mpi_also)
      groups.push_back({set.latency_us, set.coordinator_us, m, m.label(set.latency_us) + coord});
  }
  std::string head = "| file | one worker (CPU s) | pieces | largest piece | pieces / one worker";
  std::string rule = "|---|---|---|---|---";
  for (const Group& g : groups) {
    for (unsigned w : set.workers) {
      head += " | " + with_commas(w) + g.label;
      rule += "|---";
    }
  }
  std::printf("%s |\n%s|\n", head.c_str(), rule.c_str());
  for (const std::string& f : files) {
    const cubex::KnuthFile kf = cubex::read_knuth_file(f);
    cubex::SearchJob job(kf.problem);
    const Hierarchy h = measure(job, set.grain);
    // The work: the leaves' costs in a continuous run, measured under the same load as the
    // replay's times (the one-worker time T, measured once, drifts with the machine's load). It
    // errs low: each leaf is charged less the replay of its parent's path and the walk past all
    // its siblings, and the expanded nodes' own cost is left out.
    const double work = h.run_sum;
    // The engine's busy workers look at requests every 64 nodes: the time of 64 nodes, on average.
    const double poll = 64 * h.whole / static_cast<double>(std::max<std::uint64_t>(h.nodes, 1));
    if (kf.problem.has_multiplicities()) {
      std::fprintf(stderr,
                   "cubex_schedule: warning: %s has multiplicities: the engine does not split the "
                   "levels of Algorithm M that branch on one item several times, the replay "
                   "does, so the figures are high\n",
                   f.c_str());
    }
    if (h.run_sum < 0.9 * h.whole || h.run_sum > 1.1 * h.whole) {
      std::fprintf(stderr,
                   "cubex_schedule: warning: %s: the pieces add up to %.2f times the one-worker "
                   "time (the tree is small, or the machine noisy): the figures are rough\n",
                   f.c_str(), h.run_sum / h.whole);
    }
    const std::string name = f.substr(f.find_last_of('/') + 1);
    std::fprintf(stderr,
                 "%s: %s backend, %llu solutions, %llu nodes; %zu pieces (%zu nodes expanded, "
                 "%zu rounds, threshold %.1f us); measuring took %.1f CPU s\n",
                 name.c_str(), job.backend() == cubex::Backend::kBitset ? "bitset" : "links",
                 static_cast<unsigned long long>(h.solutions),
                 static_cast<unsigned long long>(h.nodes), h.leaves, h.expanded, h.rounds,
                 1e6 * h.threshold, h.cost);
    char buf[160];
    std::snprintf(buf, sizeof buf, "| %s | %.2f | %zu | %.3f%% | %.3f", name.c_str(), h.whole,
                  h.leaves, 100 * h.largest / h.run_sum, h.run_sum / h.whole);
    std::string row = buf;
    for (const Group& g : groups) {
      for (unsigned w : set.workers) {
        // The givers are drawn at random: the worst of `seeds` draws is reported.
        Replay worst;
        double mean = 0;
        for (std::uint64_t seed = 1; seed <= set.seeds; ++seed) {
          const Replay r =
              Scheduler(h, w, 1e-6 * g.latency_us, 1e-6 * set.give_us, poll,
                        1e-6 * g.coordinator_us, 1e-6 * g.mpi.poll_us, g.mpi.pick,
                        g.mpi.reserve_for(w), seed, static_cast<std::size_t>(g.precut * w))
                  .run();
          // Every leaf searched once, and the workers not busier than the makespan allows.
          if (r.leaves != h.leaves || r.busy < h.run_sum * (1 - 1e-9) ||
              r.busy > w * r.makespan * (1 + 1e-9)) {
            std::fprintf(stderr,
                         "cubex_schedule: internal error: the replay with %u workers searched %zu "
                         "of %zu pieces\n",
                         w, r.leaves, h.leaves);
            std::exit(1);
          }
          if (r.makespan > worst.makespan) worst = r;
          mean += work / (w * r.makespan) / static_cast<double>(set.seeds);
        }
        std::snprintf(buf, sizeof buf, " | %.1f%%", 100 * work / (w * worst.makespan));
        row += buf;
        std::string mpi_note;
        if (g.mpi.poll_us > 0) {
          char note[160];
          std::snprintf(note, sizeof note,
                        "; %llu messages, %llu kGive found no untried piece, %llu kDonate empty",
                        static_cast<unsigned long long>(worst.messages),
                        static_cast<unsigned long long>(worst.owed),
                        static_cast<unsigned long long>(worst.empty));
          mpi_note = note;
        }
        std::fprintf(stderr,
                     "  %u workers%s: worst makespan %.4f s (%llu hand-outs, all busy after "
                     "%.4f s%s), efficiency %.1f%% (mean of %llu draws %.1f%%)\n",
                     w, g.label.c_str(), worst.makespan,
                     static_cast<unsigned long long>(worst.handouts), worst.ramp, mpi_note.c_str(),
                     100 * work / (w * worst.makespan), static_cast<unsigned long long>(set.seeds),
                     100 * mean);
      }
    }
    std::printf("%s |\n", row.c_str());
    std::fflush(stdout);
  }
  return 0;
}

[[noreturn]] void usage(const char* why) {
  std::fprintf(
      stderr,
      "cubex_schedule: %s\n"
      "usage: cubex_schedule [--grain G] [--latency-us L] [--give-us C] [--coordinator-us "
      "S] [--mpi-poll-us P [--mpi-pick first|random|heaviest] [--mpi-reserve N|auto]] [--mpi-also "
      "P,first|random|heaviest,N|auto]... [--workers 2,16,64,1024] [--seeds N] FILE...\n"
      "       cubex_schedule --units N [--latency-us L] FILE...\n"
      "       cubex_schedule --eta [--threads T] [--repeat N] FILE...\n",
      why);
  std::exit(2);
}

double number(const char* flag, const char* text) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end || !(v >= 0))
    usage((std::string(flag) + ": expected a number >= 0, found \"" + text + "\"").c_str());
  return v;
}

int pick(const char* flag, const std::string& v) {
  if (v != "first" && v != "random" && v != "heaviest")
    usage(
        (std::string(flag) + ": expected first, random or heaviest, found \"" + v + "\"").c_str());
  return v == "first" ? kFirst : v == "random" ? kRandom : kHeaviest;
}

long reserve(const char* flag, const std::string& v) {
  if (v == "auto") return -1;
  char* end = nullptr;
  const double n = std::strtod(v.c_str(), &end);
  if (v.empty() || *end || !(n >= 0) || n != std::floor(n) || n > 1e6)
    usage((std::string(flag) + ": expected auto or a whole number, found \"" + v + "\"").c_str());
  return static_cast<long>(n);
}

}  // namespace

int main(int argc, char** argv) {
  std::uint32_t units = 0;
  Settings set;
  std::vector<std::string> files;
  bool eta = false;
  unsigned threads = 1, repeat = 1;  // --eta
  for (int k = 1; k < argc; ++k) {
    const char* a = argv[k];
    const bool has_value = k + 1 < argc;
    if (!std::strcmp(a, "--eta")) {
      eta = true;
    } else if (!std::strcmp(a, "--threads") && has_value) {
      threads = static_cast<unsigned>(number(a, argv[++k]));
    } else if (!std::strcmp(a, "--repeat") && has_value) {
      repeat = std::max(1u, static_cast<unsigned>(number(a, argv[++k])));
    } else if (!std::strcmp(a, "--units") && has_value) {
      units = static_cast<std::uint32_t>(number(a, argv[++k]));
    } else if (!std::strcmp(a, "--latency-us") && has_value) {
      set.latency_us = number(a, argv[++k]);
    } else if (!std::strcmp(a, "--mpi-poll-us") && has_value) {
      set.mpi.poll_us = number(a, argv[++k]);
    } else if (!std::strcmp(a, "--mpi-pick") && has_value) {
      set.mpi.pick = pick(a, argv[++k]);
    } else if (!std::strcmp(a, "--mpi-precut") && has_value) {
      set.mpi_precut = number(a, argv[++k]);
    } else if (!std::strcmp(a, "--mpi-reserve") && has_value) {
      set.mpi.reserve = reserve(a, argv[++k]);
    } else if (!std::strcmp(a, "--mpi-also") && has_value) {
      // P,first|random|heaviest,N|auto
      const std::string v = argv[++k];
      const std::size_t c1 = v.find(','), c2 = c1 == std::string::npos ? c1 : v.find(',', c1 + 1);
      if (c2 == std::string::npos || v.find(',', c2 + 1) != std::string::npos)
        usage(("--mpi-also: expected POLL_US,first|random|heaviest,N|auto, found \"" + v + "\"")
                  .c_str());
      Mpi m;
      m.poll_us = number(a, v.substr(0, c1).c_str());
      if (m.poll_us <= 0) usage("--mpi-also: expected a poll period > 0");
      m.pick = pick(a, v.substr(c1 + 1, c2 - c1 - 1).c_str());
      m.reserve = reserve(a, v.substr(c2 + 1).c_str());
      set.mpi_also.push_back(m);
    } else if (!std::strcmp(a, "--coordinator-us") && has_value) {
      set.coordinator_us = number(a, argv[++k]);
    } else if (!std::strcmp(a, "--give-us") && has_value) {
      set.give_us = number(a, argv[++k]);
    } else if (!std::strcmp(a, "--grain") && has_value) {
      set.grain = number(a, argv[++k]);
      if (set.grain < 1) usage("--grain: expected a number >= 1");
    } else if (!std::strcmp(a, "--seeds") && has_value) {
      set.seeds = static_cast<std::uint64_t>(number(a, argv[++k]));
      if (set.seeds < 1) usage("--seeds: expected a number >= 1");
    } else if (!std::strcmp(a, "--workers") && has_value) {
      set.workers.clear();
      std::string list = argv[++k];
      for (std::size_t at = 0; at <= list.size();) {
        std::size_t comma = list.find(',', at);
        if (comma == std::string::npos) comma = list.size();
        const double w = number(a, list.substr(at, comma - at).c_str());
        if (w < 1 || w > 1e6) usage("--workers: expected numbers from 1 to 1,000,000");
        set.workers.push_back(static_cast<unsigned>(w));
        at = comma + 1;
      }
    } else if (a[0] == '-' && a[1] == '-') {
      usage((std::string("unknown option or missing value: ") + a).c_str());
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) usage("no FILE given");
  try {
    for (const std::string& f : files)
      cubex::read_knuth_file(f);  // all readable: else print nothing
    if (eta) return eta_table(files, threads, repeat);
    if (units) return fixed_cut_table(files, units, set.latency_us);
    return hierarchy_table(files, set);
  } catch (const cubex::InputError& e) {
    std::fprintf(stderr, "cubex_schedule: %s\n", e.what());
    return 2;
  }
}
