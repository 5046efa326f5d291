// cubex_schedule: how the search job's split-on-demand scheduling would scale past this machine.
//
//   build/cubex_schedule [--grain G] [--latency-us L] [--give-us C] [--coordinator-us S]
//                        [--mpi-poll-us P [--mpi-pick first|random]] [--workers 2,16,64,1024]
//                        [--seeds N] FILE...
//   build/cubex_schedule --units N [--latency-us L] FILE...     (the old fixed-cut replay)
//   build/cubex_schedule --eta FILE...
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
// (src/core/job.cpp, engine.hpp): worker 0 starts with the whole tree, the others idle. An idle
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
// cubex's MPI mode instead (src/mpi/cluster.cpp; a worker is a rank of one thread): rank 0's
// coordinator holds a pool (at first the whole tree) and hands out nothing before it has read
// every rank's first message (kHello); an idle rank sends kWant; the coordinator
// sends work from its pool (heaviest first), or kGive to as many busy ranks (in rank order, or
// from a random one with --mpi-pick random) as ranks wait; a busy rank answers kDonate with the
// later half of its untried children one engine poll later (or, with no untried piece between
// the hierarchy's levels, once it has one or has run dry: the engine would split inside the
// piece), which the coordinator passes on as kWork. Every message takes L/2 and is then read at
// the reader's next poll, a wait drawn uniformly from [0, P) (the job polls its exchange about
// every millisecond).
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
// --eta: how good the progress line's estimate of the time left is. Each FILE is searched on one
// thread with a progress report every 0.05 s; at the first report past 10%, 50% and 90% of the
// tree (by the estimate) the predicted time left is compared with the time the run then really
// took; the table gives the relative error.
#include <time.h>

#include <algorithm>
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
#include "cubex/io/knuth.hpp"

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

struct Replay {
  double makespan = 0;
  std::uint64_t handouts = 0;
  std::size_t leaves = 0;  // leaves searched (each exactly once, checked)
  double busy = 0;         // worker time spent on leaves
};

class Scheduler {
 public:
  // `latency`: a message round trip; `give_cost`: what a hand-over costs the giver; `poll`: how
  // often a busy worker looks at requests (the engine: every 64 nodes); `coordinator`: the time
  // a central coordinator spends on each hand-out (0: none, the askers reach the givers directly).
  // `mpi_poll` > 0: the protocol of cubex's MPI mode instead (src/mpi/cluster.cpp): every hand-out
  // passes rank 0's coordinator, and every rank reads its messages once per `mpi_poll`.
  Scheduler(const Hierarchy& h, unsigned workers, double latency, double give_cost, double poll,
            double coordinator, double mpi_poll, bool mpi_random, std::uint64_t seed)
      : p_(h.pieces),
        w_(workers),
        latency_(latency),
        give_(give_cost),
        poll_(poll),
        coordinator_(coordinator),
        mpi_poll_(mpi_poll),
        mpi_random_(mpi_random),
        rng_(seed) {
    if (mpi_poll_ > 0) {
      sub_.assign(p_.size(), 0.0);  // each piece's work, for the coordinator's heaviest first
      for (std::size_t k = p_.size(); k-- > 0;) {
        if (!p_[k].count) sub_[k] = p_[k].run;
        for (std::uint32_t c = p_[k].first; c < p_[k].first + p_[k].count; ++c) sub_[k] += sub_[c];
      }
      cbusy_.assign(workers, 0);
      giving_.assign(workers, 0);
    }
  }

  Replay run() {
    if (mpi_poll_ > 0) {  // the coordinator's pool holds the whole tree; every rank asks
      pool_.push_back(Frame{0, 0, 1});
      for (unsigned k = 0; k < w_.size(); ++k) idle(k, 0.0);
      // It hands out nothing before every rank's kHello (sent with its kWant) has been read.
      gate_ = last_sent_;
      events_.push(Event{gate_, 0, 0, kCoordinator});
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
        case kCoordinator:  // the coordinator is free again (MPI: has every kHello)
          coordinator_event_ = false;
          if (mpi_poll_ > 0) coordinate(e.t);
          break;
        case kPolled:  // it looks at requests again
          w.resting = false;
          update_donor(e.worker);
          break;
        // The MPI protocol.
        case kWant:  // reaches the coordinator: an idle rank
          cbusy_[e.worker] = 0;
          idle_q_.push_back(e.worker);
          coordinate(e.t);
          break;
        case kGive:  // reaches a rank: hand over work, through the coordinator
          if (!w.busy) {
            donate(e.worker, e.t, false);
          } else if (givable(w) >= 0) {
            donate(e.worker, e.t + poll_, true);  // a thread splits at its next poll
          } else {
            w.owe = true;  // (the engine would split inside the leaf; the replay cannot)
          }
          break;
        case kDonate:  // reaches the coordinator, a span or none
          giving_[e.worker] = 0;
          --giving_count_;
          if (e.version != kNone) pool_.push_back(parcels_[e.version]);
          coordinate(e.t);
          break;
        case kWork:  // reaches a rank
          w.frames.assign(1, parcels_[e.version]);
          start(e.worker, e.t);
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
  };
  enum Kind { kLeafDone, kAsk, kStart, kPolled, kCoordinator, kWant, kGive, kDonate, kWork };
  static constexpr std::uint32_t kNone = UINT32_MAX;  // (an MPI message without a span)
  struct Event {
    double t;
    std::uint32_t worker, version;
    Kind kind;
    bool operator>(const Event& o) const { return t > o.t; }
  };

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
    const Piece& leaf = p_[current(w)];
    w.leaf_end = t + (first ? leaf.sec : leaf.run);
    out_.busy += first ? leaf.sec : leaf.run;
    events_.push(Event{w.leaf_end, k, ++w.version, kLeafDone});
    update_donor(k);
    if (w.owe && givable(w) >= 0) donate(k, t + poll_, true);
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
    if (mpi_poll_ > 0) {  // kWant (and kDonate with nothing when it owes one)
      if (w_[k].owe) donate(k, t, false);
      send(t, k, kWant);
      return;
    }
    events_.push(Event{t + latency_ / 2, k, 0, kAsk});
  }

  // ---- The MPI protocol: a message's arrival and read (a one-way trip, then the wait for the
  // reader's next poll, uniform in [0, mpi_poll)).
  void send(double t, std::uint32_t k, Kind kind, std::uint32_t parcel = kNone) {
    std::uniform_real_distribution<double> wait(0.0, mpi_poll_);
    const double at = t + latency_ / 2 + wait(rng_);
    last_sent_ = std::max(last_sent_, at);
    events_.push(Event{at, k, parcel, kind});
  }
  // Rank k answers kGive at time t: the later half of its untried children, or nothing.
  void donate(std::uint32_t k, double t, bool split) {
    Worker& g = w_[k];
    g.owe = false;
    std::uint32_t parcel = kNone;
    if (split) {
      Frame& f = g.frames[static_cast<std::size_t>(givable(g))];
      const std::uint32_t rem = f.end - f.sib - 1;
      const std::uint32_t m = f.sib + 1 + rem / 2;
      parcel = static_cast<std::uint32_t>(parcels_.size());
      parcels_.push_back(Frame{f.piece, m, f.end});
      f.end = m;
      ++out_.handouts;
      g.leaf_end += give_;
      events_.push(Event{g.leaf_end, k, ++g.version, kLeafDone});
      update_donor(k);
      t += give_;
    }
    send(t, k, kDonate, parcel);
  }
  double weight(const Frame& f) const {
    double w = 0;
    for (std::uint32_t c = f.sib; c < f.end; ++c) w += sub_[p_[f.piece].first + c];
    return w;
  }
  // Rank 0's coordinator reads a message at time t: work from its pool to the idle ranks
  // (heaviest first), then kGive to as many busy ranks as ranks wait, in rank order from rank 0
  // (as cluster.cpp does) or, with `mpi_random`, from a rank drawn at random.
  void coordinate(double t) {
    if (t < gate_) return;
    while (!idle_q_.empty() && !pool_.empty()) {
      std::size_t best = 0;
      for (std::size_t k = 1; k < pool_.size(); ++k)
        if (weight(pool_[k]) > weight(pool_[best])) best = k;
      const std::uint32_t parcel = static_cast<std::uint32_t>(parcels_.size());
      parcels_.push_back(pool_[best]);
      pool_[best] = pool_.back();
      pool_.pop_back();
      const std::uint32_t r = idle_q_.front();
      idle_q_.pop_front();
      cbusy_[r] = 1;
      send(t, r, kWork, parcel);
    }
    const auto n = static_cast<std::uint32_t>(w_.size());
    const std::uint32_t from = mpi_random_ ? static_cast<std::uint32_t>(rng_() % n) : 0;
    for (std::uint32_t k = 0; k < n && giving_count_ < idle_q_.size(); ++k) {
      const std::uint32_t r = (from + k) % n;
      if (cbusy_[r] && !giving_[r]) {
        giving_[r] = 1;
        ++giving_count_;
        send(t, r, kGive);
      }
    }
  }
  // Hands work to the waiting workers while some busy worker has any to give.
  void serve(double t) {
    while (!waiting_.empty() && !donors_.empty()) {
      if (coordinator_free_ > t) {  // a central coordinator passes one hand-out at a time
        if (!coordinator_event_) events_.push(Event{coordinator_free_, 0, 0, kCoordinator});
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
      events_.push(Event{g.leaf_end, from, ++g.version, kLeafDone});
      g.resting = true;
      update_donor(from);
      events_.push(Event{t + poll_, from, 0, kPolled});
      events_.push(Event{t + poll_ / 2 + give_ + latency_ / 2, to, 0, kStart});
    }
  }

  const std::vector<Piece>& p_;
  std::vector<Worker> w_;
  double latency_, give_, poll_, coordinator_, mpi_poll_;
  // The MPI protocol: each piece's work; the coordinator's view (rank busy, asked to give), its
  // queue of idle ranks and its pool; the spans in messages.
  bool mpi_random_;
  std::vector<double> sub_;
  std::vector<char> cbusy_, giving_;
  std::size_t giving_count_ = 0;
  double gate_ = 0, last_sent_ = 0;  // when every kHello has been read; the latest arrival
  std::deque<std::uint32_t> idle_q_;
  std::vector<Frame> pool_, parcels_;
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

int eta_table(const std::vector<std::string>& files) {
  std::printf("| file | run (s) | error at 10%% | at 50%% | at 90%% |\n|---|---|---|---|---|\n");
  for (const std::string& f : files) {
    const cubex::KnuthFile kf = cubex::read_knuth_file(f);
    cubex::SearchJob job(kf.problem);
    struct Mark {
      double fraction, elapsed, eta;
    };
    std::vector<Mark> marks;
    cubex::JobOptions opt;
    opt.threads = 1;
    opt.progress_seconds = 0.05;
    opt.on_progress = [&](const cubex::JobProgress& p) {
      marks.push_back({p.fraction, p.elapsed, p.eta});
    };
    const cubex::JobResult r = job.run(opt);
    std::string row = f.substr(f.find_last_of('/') + 1);
    char buf[64];
    std::snprintf(buf, sizeof buf, " | %.2f", r.seconds);
    row += buf;
    for (double at : {0.1, 0.5, 0.9}) {
      auto m = std::find_if(marks.begin(), marks.end(),
                            [&](const Mark& k) { return k.fraction >= at && k.eta >= 0; });
      if (m == marks.end()) {
        row += " | -";
        continue;
      }
      const double actual = r.seconds - m->elapsed;
      std::snprintf(buf, sizeof buf, " | %+.0f%% (%.2f s vs %.2f s)",
                    actual > 0 ? 100 * (m->eta - actual) / actual : 0.0, m->eta, actual);
      row += buf;
    }
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

struct Settings {
  double grain = 8192;
  double latency_us = 50;
  double give_us = 1;
  double coordinator_us = 0;
  double mpi_poll_us = 0;
  bool mpi_random = false;
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
  std::string head = "| file | one worker (CPU s) | pieces | largest piece | pieces / one worker";
  std::string rule = "|---|---|---|---|---";
  for (int lat = 0; lat < 2; ++lat) {
    for (unsigned w : set.workers) {
      head += " | " + with_commas(w);
      if (lat) {
        char buf[64];
        if (set.mpi_poll_us > 0) {
          std::snprintf(buf, sizeof buf, ", +%g us, MPI, polls %g us%s", set.latency_us,
                        set.mpi_poll_us, set.mpi_random ? ", random giver" : "");
        } else if (set.coordinator_us > 0) {
          std::snprintf(buf, sizeof buf, ", +%g us, coordinator %g us", set.latency_us,
                        set.coordinator_us);
        } else {
          std::snprintf(buf, sizeof buf, ", +%g us", set.latency_us);
        }
        head += buf;
      }
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
    for (int lat = 0; lat < 2; ++lat) {
      for (unsigned w : set.workers) {
        // The givers are drawn at random: the worst of `seeds` draws is reported.
        Replay worst;
        double mean = 0;
        for (std::uint64_t seed = 1; seed <= set.seeds; ++seed) {
          const Replay r = Scheduler(h, w, lat ? 1e-6 * set.latency_us : 0.0, 1e-6 * set.give_us,
                                     poll, lat ? 1e-6 * set.coordinator_us : 0.0,
                                     lat ? 1e-6 * set.mpi_poll_us : 0.0, set.mpi_random, seed)
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
        std::fprintf(stderr,
                     "  %u workers, latency %g us: worst makespan %.4f s (%llu hand-outs), "
                     "efficiency %.1f%% (mean of %llu draws %.1f%%)\n",
                     w, lat ? set.latency_us : 0.0, worst.makespan,
                     static_cast<unsigned long long>(worst.handouts),
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
  std::fprintf(stderr,
               "cubex_schedule: %s\n"
               "usage: cubex_schedule [--grain G] [--latency-us L] [--give-us C] [--coordinator-us "
               "S] [--mpi-poll-us P [--mpi-pick first|random]] [--workers 2,16,64,1024] [--seeds "
               "N] FILE...\n"
               "       cubex_schedule --units N [--latency-us L] FILE...\n"
               "       cubex_schedule --eta FILE...\n",
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

}  // namespace

int main(int argc, char** argv) {
  std::uint32_t units = 0;
  Settings set;
  std::vector<std::string> files;
  bool eta = false;
  for (int k = 1; k < argc; ++k) {
    const char* a = argv[k];
    const bool has_value = k + 1 < argc;
    if (!std::strcmp(a, "--eta")) {
      eta = true;
    } else if (!std::strcmp(a, "--units") && has_value) {
      units = static_cast<std::uint32_t>(number(a, argv[++k]));
    } else if (!std::strcmp(a, "--latency-us") && has_value) {
      set.latency_us = number(a, argv[++k]);
    } else if (!std::strcmp(a, "--mpi-poll-us") && has_value) {
      set.mpi_poll_us = number(a, argv[++k]);
    } else if (!std::strcmp(a, "--mpi-pick") && has_value) {
      const std::string v = argv[++k];
      if (v != "first" && v != "random") usage("--mpi-pick: expected first or random");
      set.mpi_random = v == "random";
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
    if (eta) return eta_table(files);
    if (units) return fixed_cut_table(files, units, set.latency_us);
    return hierarchy_table(files, set);
  } catch (const cubex::InputError& e) {
    std::fprintf(stderr, "cubex_schedule: %s\n", e.what());
    return 2;
  }
}
