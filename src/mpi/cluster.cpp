// cubex::mpi::run (cluster.hpp): one search over the ranks of an MPI job.
//
// Every rank runs a SearchJob with an exchange (job.hpp's WorkExchange), the Member below: it
// starts with no work and, polled about every millisecond by its job, talks to the coordinator.
// Rank 0 also runs the Coordinator, polled by the same loop; its own member reaches it through a
// local queue, the others through MPI. All MPI calls happen on the thread that called run().
//
// The messages (each a vector of 64-bit words, the first kMagic: the protocol and its version):
//   member -> coordinator                     coordinator -> member
//   kHello     tree identity, threads          kWork     a span to search
//   kWant      counts settled; now idle        kGive     hand a span to kDonate (split if need be)
//   kDonate    0, or 1 and a span               kReport   settle and send the counts (progress)
//   kReported  counts settled, works received, kSnap     set all work aside, send it, hold still
//              spans held
//   kSnapped   counts settled, spans held      kResume   go on after kSnap
//   kSolutions classes found (--all)           kQuit     end
//   kStop      this rank was told to stop
// Counts travel as differences (what was settled since the last message), so the coordinator's
// sum is the count of the work settled everywhere. A checkpoint is a consistent cut: during kSnap
// the coordinator hands out nothing, a member answers kSnapped only when its threads hold still,
// and what a member sent before its kSnapped (counts, donated spans) reaches the coordinator
// before it (MPI keeps the order of messages between two ranks). The checkpoint is then the
// counts received, the spans of the pool and the spans each member holds.
//
// Progress (rank 0's on_progress): the nodes left are estimated as in a one-process job
// (NodesLeftEstimate: a frontier of the work left at the first report, listed on rank 0, and
// samples of its subtrees searched there) over the work left: the pool, the spans each member
// held at its kReported, and the spans handed to a member that its kReported does not yet
// acknowledge (a member counts the kWork it received; rank 0 numbers those it sent). A span
// donated after a member's report lies inside a span that report holds: overlaps are merged.
#include "cubex/mpi/cluster.hpp"

#include <mpi.h>

#include "cubex/core/exchange.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <list>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace cubex::mpi {

Session::Session() {
  int init = 0;
  MPI_Initialized(&init);
  if (!init) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    owner_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

Session::~Session() {
  if (!owner_) return;
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

void Session::abort(int code) const {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();  // not reached
}

namespace {

using Words = std::vector<std::uint64_t>;
// The first word of every message: cubex's cluster protocol and its version (2: kReported holds
// the works received and the spans held).
constexpr std::uint64_t kMagicBase = 0xC0BE'0000, kVersion = 2;
constexpr std::uint64_t kMagic = kMagicBase | kVersion;

enum Tag : int {
  // to the coordinator
  kHello = 1,
  kWant,
  kDonate,
  kReported,
  kSnapped,
  kSolutions,
  kStop,
  // to a member
  kWork = 20,
  kGive,
  kReport,
  kSnap,
  kResume,
  kQuit,
};

struct Writer {
  Words w{kMagic};
  void u(std::uint64_t v) { w.push_back(v); }
  void d(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    w.push_back(b);
  }
  void text(const std::string& s) {
    u(s.size());
    for (std::size_t k = 0; k < s.size(); k += 8) {
      std::uint64_t b = 0;
      std::memcpy(&b, s.data() + k, std::min<std::size_t>(8, s.size() - k));
      w.push_back(b);
    }
  }
  void counts(const JobCounts& c, double weight) {
    for (std::uint64_t v : {c.unique, c.total, c.symmetric, c.solutions, c.nodes, c.updates}) u(v);
    d(weight);
  }
  void path(const TreePath& p) {
    u(p.size());
    for (std::uint32_t x : p) u(x);
  }
  void span(const TreeSpan& s) {
    u(s.to_end);
    d(s.weight);
    path(s.begin);
    path(s.end);
  }
};

struct Reader {
  const Words& w;
  std::size_t at = 1;
  std::uint64_t u() {
    if (at >= w.size()) throw std::runtime_error("cluster: a message ends too soon");
    return w[at++];
  }
  double d() {
    const std::uint64_t b = u();
    double v;
    std::memcpy(&v, &b, sizeof v);
    return v;
  }
  // A count of things of at least `words` words each (or of characters, 8 to a word).
  std::size_t size(std::size_t limit, double words = 1) {
    const std::uint64_t n = u();
    if (n > limit || n * words > static_cast<double>(w.size() - at)) {
      throw std::runtime_error("cluster: a malformed message");
    }
    return static_cast<std::size_t>(n);
  }
  std::string text() {
    const std::size_t n = size(std::size_t{1} << 20, 1.0 / 8);
    std::string s(n, '\0');
    for (std::size_t k = 0; k < n; k += 8) {
      const std::uint64_t b = u();
      std::memcpy(s.data() + k, &b, std::min<std::size_t>(8, n - k));
    }
    return s;
  }
  JobCounts counts(double& weight) {
    JobCounts c;
    c.unique = u();
    c.total = u();
    c.symmetric = u();
    c.solutions = u();
    c.nodes = u();
    c.updates = u();
    weight = d();
    return c;
  }
  TreePath path() {
    TreePath p(size(1u << 16));
    for (auto& x : p) x = static_cast<std::uint32_t>(u());
    return p;
  }
  TreeSpan span() {
    TreeSpan s;
    s.to_end = u() != 0;
    s.weight = d();
    s.begin = path();
    s.end = path();
    return s;
  }
  bool done() const { return at == w.size(); }
};

// Messages between ranks; a rank's messages to itself go through a queue.
class Net {
 public:
  explicit Net(int rank) : rank_(rank) {}
  ~Net() { finish(); }

  void send(int to, int tag, Words w) {
    if (to == rank_) {
      local_.push_back({tag, std::move(w)});
      return;
    }
    out_.push_back(Out{std::move(w), MPI_REQUEST_NULL});
    Out& o = out_.back();
    MPI_Isend(o.w.data(), static_cast<int>(o.w.size()), MPI_UINT64_T, to, tag, MPI_COMM_WORLD,
              &o.req);
  }
  void send(int to, int tag, Writer&& m) { send(to, tag, std::move(m.w)); }

  bool receive(int& from, int& tag, Words& w) {
    if (!local_.empty()) {
      from = rank_;
      tag = local_.front().first;
      w = std::move(local_.front().second);
      local_.pop_front();
      return true;
    }
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag) return false;
    int n = 0;
    MPI_Get_count(&st, MPI_UINT64_T, &n);
    w.assign(static_cast<std::size_t>(std::max(n, 0)), 0);
    MPI_Recv(w.data(), n, MPI_UINT64_T, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    from = st.MPI_SOURCE;
    tag = st.MPI_TAG;
    if (w.empty() || w[0] != kMagic) {  // (invalid_argument: a run set up wrong, exit 2)
      const bool ours = !w.empty() && (w[0] & ~std::uint64_t{0xFFFF}) == kMagicBase;
      const std::string version = std::to_string(w.empty() ? 0 : w[0] & 0xFFFF);
      const std::string theirs = ours ? "version " + version +
                                            " of the cluster protocol, this rank version " +
                                            std::to_string(kVersion)
                                      : "another cluster protocol";
      throw std::invalid_argument("rank " + std::to_string(from) + " speaks " + theirs +
                                  " (another cubex version?)");
    }
    return true;
  }

  void progress() {  // frees the buffers of the sends that are done
    for (auto it = out_.begin(); it != out_.end();) {
      int flag = 0;
      MPI_Test(&it->req, &flag, MPI_STATUS_IGNORE);
      it = flag ? out_.erase(it) : std::next(it);
    }
  }
  void finish() {
    for (Out& o : out_) MPI_Wait(&o.req, MPI_STATUS_IGNORE);
    out_.clear();
  }

 private:
  struct Out {
    Words w;
    MPI_Request req;
  };
  int rank_;
  std::list<Out> out_;  // (stable addresses while MPI holds them)
  std::deque<std::pair<int, Words>> local_;
};

std::string identity_text(const TreeIdentity& id) {
  return id.fingerprint + "|" + std::to_string(id.items) + "|" + std::to_string(id.options) + "|" +
         id.order + "|" + id.rule + "|" + id.judge;
}

using Clock = std::chrono::steady_clock;
Clock::duration secs(double s) {
  return std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(std::max(0.01, s)));
}

// Rank 0's coordinator: the pool of spans, who is idle, the counts received.
class Coordinator {
 public:
  Coordinator(Net& net, int ranks, const JobOptions& opt, ClassVisitor* visit,
              const TreeIdentity& id, const SearchJob& job)
      : net_(net),
        ranks_(ranks),
        opt_(opt),
        visit_(visit),
        id_(id),
        busy_(ranks, 0),
        giving_(ranks, 0),
        snapped_(ranks, 0),
        works_sent_(ranks, 0),
        handed_log_(ranks),
        job_(job),
        t0_(Clock::now()) {
    if (opt.resume) {
      const std::string d = id.difference(opt.resume->tree);
      if (!d.empty())
        throw std::invalid_argument("the saved state belongs to another search: " + d);
      base_ = *opt.resume;
      pool_ = base_.pending;
      done_ = base_.counts;
      weight_done_ = base_.weight_done;
    } else {
      base_.tree = id;
      // Several spans per rank to start from (the static cut, a few engine calls each), so
      // that every rank has work after one round trip instead of after rounds of splits.
      if (ranks > 1) pool_ = job.cut_spans(4 * static_cast<std::uint32_t>(ranks), opt.stop);
      if (pool_.empty()) pool_.push_back(TreeSpan{{}, {}, true, 1.0});
    }
    next_checkpoint_ = t0_ + secs(opt.checkpoint_seconds);
    next_progress_ = t0_ + secs(opt.progress_seconds);
  }

  bool ended() const { return ended_; }
  // Rank 0 reads its messages every 100 us when there are other ranks: they wait on it.
  bool answers_others() const { return ranks_ > 1; }

  void handle(int from, int tag, Reader& m) {
    double w = 0;
    switch (tag) {
      case kHello: {
        const std::string mine = identity_text(id_), theirs = m.text();
        threads_ += m.u();
        if (theirs != mine) {
          throw std::invalid_argument("rank " + std::to_string(from) +
                                      " searches another tree (its puzzle file, options or cubex "
                                      "differ): expected " +
                                      mine + ", found " + theirs);
        }
        ++hellos_;
        return;
      }
      case kWant:
        done_ += m.counts(w);
        weight_done_ += w;
        busy_[from] = 0;
        idle_.push_back(from);
        return;
      case kDonate:
        giving_[from] = 0;
        if (m.u()) {
          pool_.push_back(m.span());
          ++splits_;
        }
        return;
      case kReported: {
        done_ += m.counts(w);
        weight_done_ += w;
        // The kWork it had received: those handed to it before are in its spans (or done).
        const std::uint64_t works = m.u();
        auto& log = handed_log_[from];
        while (!log.empty() && log.front().first <= works) log.pop_front();
        const std::size_t n = m.size(m.w.size());
        for (std::size_t k = 0; k < n; ++k) reported_spans_.push_back(m.span());
        ++reported_;
        return;
      }
      case kSnapped: {
        done_ += m.counts(w);
        weight_done_ += w;
        const std::size_t n = m.size(m.w.size());
        for (std::size_t k = 0; k < n; ++k) held_.push_back(m.span());
        snapped_[from] = 1;
        return;
      }
      case kSolutions: {
        const std::size_t n = m.size(m.w.size());
        std::vector<OptionId> s;
        for (std::size_t k = 0; k < n; ++k) {
          const std::uint64_t orbit = m.u();
          s.resize(m.size(m.w.size()));
          for (auto& o : s) o = static_cast<OptionId>(m.u());
          if (visit_ && !(*visit_)(s, orbit)) stop_asked_ = true;  // (nobody reads)
        }
        return;
      }
      case kStop:
        stop_asked_ = true;
        return;
      default:
        throw std::runtime_error("cluster: unknown message " + std::to_string(tag));
    }
  }

  void step() {
    if (ended_) return;
    const auto now = Clock::now();
    if (phase_ == Phase::kRun) {
      if (stop_asked_ || (opt_.stop && opt_.stop->load())) {
        snapshot(true);
      } else if (opt_.on_checkpoint && now >= next_checkpoint_) {
        snapshot(false);
      }
    }
    if (phase_ == Phase::kSnap) {
      if (std::count(snapped_.begin(), snapped_.end(), 1) < ranks_) return;
      JobState st = state(held_);
      if (opt_.on_checkpoint) opt_.on_checkpoint(st);
      if (stopping_) {
        stopped_ = true;
        end(std::move(st));
        return;
      }
      for (int r = 0; r < ranks_; ++r) net_.send(r, kResume, Writer{});
      phase_ = Phase::kRun;
      next_checkpoint_ = Clock::now() + secs(opt_.checkpoint_seconds);
    }
    if (hellos_ < ranks_) return;
    // Work for the idle ranks: from the pool (heaviest first), else split by the busy ones.
    while (!idle_.empty() && !pool_.empty()) {
      auto heaviest = std::max_element(
          pool_.begin(), pool_.end(),
          [](const TreeSpan& a, const TreeSpan& b) { return a.weight < b.weight; });
      Writer m;
      m.span(*heaviest);
      const int r = idle_.front();
      idle_.pop_front();
      ++works_sent_[r];
      if (opt_.on_progress) handed_log_[r].emplace_back(works_sent_[r], *heaviest);
      *heaviest = std::move(pool_.back());
      pool_.pop_back();
      net_.send(r, kWork, std::move(m));
      busy_[r] = 1;
      ++handed_;
    }
    // Splits asked of busy ranks: one for each idle rank, and a reserve in the pool so that the
    // next rank to run dry gets work at once (one round trip, not two). Givers are drawn at
    // random: the lowest-numbered ranks would be split again and again, into ever smaller work.
    std::size_t giving = std::count(giving_.begin(), giving_.end(), 1);
    const std::size_t wanted = idle_.size() + reserve_;
    if (giving + pool_.size() < wanted) {
      candidates_.clear();
      for (int r = 0; r < ranks_; ++r)
        if (busy_[r] && !giving_[r]) candidates_.push_back(r);
      while (giving + pool_.size() < wanted && !candidates_.empty()) {
        const std::size_t k = rng_() % candidates_.size();
        const int r = candidates_[k];
        candidates_[k] = candidates_.back();
        candidates_.pop_back();
        net_.send(r, kGive, Writer{});
        giving_[r] = 1;
        ++giving;
      }
    }
    if (pool_.empty() && idle_.size() == static_cast<std::size_t>(ranks_) && giving == 0) {
      JobState st = state({});
      if (opt_.on_checkpoint) opt_.on_checkpoint(st);
      end(std::move(st));
      return;
    }
    if (opt_.on_progress) {
      if (!reporting_ && now >= next_progress_) {
        for (int r = 0; r < ranks_; ++r) net_.send(r, kReport, Writer{});
        reporting_ = true;
        reported_ = 0;
        reported_spans_.clear();
      }
      if (reporting_ && reported_ == ranks_) {
        reporting_ = false;
        opt_.on_progress(progress(false));
        next_progress_ = Clock::now() + secs(opt_.progress_seconds);
      }
    }
  }

  JobResult result() const {
    JobResult r;
    r.counts = done_;
    r.state = final_;
    r.complete = final_.complete();
    r.stopped = stopped_ && !r.complete;  // (as JobRunner's: a late stop lost nothing)
    r.threads = static_cast<unsigned>(threads_);
    r.seconds = std::chrono::duration<double>(Clock::now() - t0_).count();
    r.spans = handed_;
    r.splits = splits_;
    return r;
  }

 private:
  enum class Phase { kRun, kSnap };

  void snapshot(bool stopping) {
    stopping_ = stopping;
    phase_ = Phase::kSnap;
    std::fill(snapped_.begin(), snapped_.end(), 0);
    held_.clear();
    for (int r = 0; r < ranks_; ++r) net_.send(r, kSnap, Writer{});
  }

  JobState state(const std::vector<TreeSpan>& held) const {
    JobState st = base_;
    st.counts = done_;
    st.weight_done = weight_done_;
    st.seconds = base_.seconds + std::chrono::duration<double>(Clock::now() - t0_).count();
    st.nodes_left = held.empty() && pool_.empty() ? 0 : nodes_left();
    st.estimate_samples = base_.estimate_samples + (estimate_ ? estimate_->samples() : 0);
    st.pending = pool_;
    st.pending.insert(st.pending.end(), held.begin(), held.end());
    std::sort(st.pending.begin(), st.pending.end(),
              [](const TreeSpan& a, const TreeSpan& b) { return a.begin < b.begin; });
    return st;
  }

  // The work left as the last round of reports saw it (see the top of this file), in tree order,
  // overlaps merged.
  std::vector<TreeSpan> work_left() const {
    std::vector<TreeSpan> v = pool_;
    v.insert(v.end(), reported_spans_.begin(), reported_spans_.end());
    for (const auto& log : handed_log_)
      for (const auto& [seq, span] : log) v.push_back(span);
    std::sort(v.begin(), v.end(),
              [](const TreeSpan& a, const TreeSpan& b) { return a.begin < b.begin; });
    std::vector<TreeSpan> out;
    for (TreeSpan& s : v) {
      if (!s.to_end && !(s.begin < s.end)) continue;
      if (!out.empty() && (out.back().to_end || s.begin < out.back().end)) {
        TreeSpan& last = out.back();  // overlaps: one span to the later end
        if (s.to_end || (!last.to_end && last.end < s.end)) {
          last.end = s.end;
          last.to_end = s.to_end;
        }
        continue;
      }
      out.push_back(std::move(s));
    }
    return out;
  }

  // Nodes left (-1: not known): the last estimate less what was searched since; else the saved
  // one less what this run searched.
  double nodes_left() const {
    if (left_estimate_ >= 0)
      return std::max(0.0, left_estimate_ - static_cast<double>(done_.nodes - left_at_));
    if (base_.nodes_left >= 0)
      return std::max(0.0,
                      base_.nodes_left - static_cast<double>(done_.nodes - base_.counts.nodes));
    return -1;
  }

  // After a round of reports (end: the run is over). The estimator's CPU time on this thread is
  // a one-process job's (NodesLeftEstimate::listing_seconds, budget_seconds): the listing at the
  // first report (at most 0.05 s or 2% of the elapsed time), then samples for 2% of the elapsed
  // time plus 0.5 s (a quarter of the elapsed time at first).
  JobProgress progress(bool end) {
    JobProgress p;
    p.counts = done_;
    const double run = std::chrono::duration<double>(Clock::now() - t0_).count();
    p.elapsed = base_.seconds + run;
    p.busy = static_cast<unsigned>(std::count(busy_.begin(), busy_.end(), 1));
    p.pending = pool_.size();
    if (end) {
      p.fraction = final_.complete() ? 1 : shown_fraction_;
      p.eta = final_.complete() ? 0 : -1;
      return p;
    }
    const std::vector<TreeSpan> left = work_left();
    if (!estimate_ && !left.empty()) {
      estimate_ = std::make_unique<NodesLeftEstimate>(job_);
      estimate_->start(left, NodesLeftEstimate::listing_seconds(run));
      listed_at_ = done_.nodes;
    }
    if (estimate_ && estimate_->started() && !left.empty()) {
      const double budget = NodesLeftEstimate::budget_seconds(run) - estimate_->seconds();
      estimate_->sample(left, std::max(budget, estimate_->samples() == 0 ? 0.005 : 0.0), run);
    }
    const bool started = estimate_ && estimate_->started();
    double rest = started ? estimate_->nodes(left, done_.nodes - listed_at_) : -1;
    if (rest < 0) {  // no frontier: the estimated shares of the tree (engine.hpp)
      const double total = base_.weight_total > 0 ? base_.weight_total : 1;
      if (weight_done_ > 0)
        rest =
            static_cast<double>(done_.nodes) * std::max(0.0, total - weight_done_) / weight_done_;
    }
    if (rest < 0) return p;
    if (base_.nodes_left >= 0 && base_.estimate_samples > 0 && started) {
      // Resumed: start from the saved estimate (no jump); this run's samples take over as they
      // outnumber those behind it.
      if (prior_gain_ < 0 && rest > 0) {
        const double saved =
            std::max(0.0, base_.nodes_left - static_cast<double>(done_.nodes - base_.counts.nodes));
        prior_gain_ = saved / rest;
        prior_samples_ = estimate_->samples();
      }
      if (prior_gain_ >= 0) {
        const double k = static_cast<double>(base_.estimate_samples);
        const double n = static_cast<double>(estimate_->samples() - prior_samples_);
        rest *= 1 + (prior_gain_ - 1) * k / (k + n);
      }
    }
    left_estimate_ = rest;
    left_at_ = done_.nodes;
    const double done = static_cast<double>(done_.nodes);
    shown_fraction_ =
        std::clamp(std::max(shown_fraction_, done + rest > 0 ? done / (done + rest) : 0), 0.0, 1.0);
    p.fraction = shown_fraction_;
    // The rate of this run over its last half (a resumed run starts from the runs' before).
    const Mark mark{run, done_.nodes - base_.counts.nodes};
    if (marks_.size() >= 64) {
      for (std::size_t k = 0; 2 * k < marks_.size(); ++k) marks_[k] = marks_[2 * k];
      marks_.resize((marks_.size() + 1) / 2);
    }
    marks_.push_back(mark);
    Mark from{0, 0};
    for (const Mark& m : marks_) {
      if (m.wall >= 0.5 * run) {
        if (run - m.wall >= std::max(0.02, 0.1 * run)) from = m;
        break;
      }
    }
    const double mix = base_.seconds > 0 ? std::exp(-run / 5.0) : 0.0;
    const double nodes = static_cast<double>(mark.nodes - from.nodes) +
                         mix * static_cast<double>(base_.counts.nodes);
    const double secs = run - from.wall + mix * base_.seconds;
    if (nodes > 0 && secs > 0) p.eta = rest * secs / nodes;
    return p;
  }

  void end(JobState st) {
    final_ = std::move(st);
    ended_ = true;
    for (int r = 0; r < ranks_; ++r) net_.send(r, kQuit, Writer{});
    if (opt_.on_progress) opt_.on_progress(progress(true));
  }

  Net& net_;
  const int ranks_;
  const JobOptions& opt_;
  ClassVisitor* visit_;
  const TreeIdentity id_;
  JobState base_, final_;
  std::vector<TreeSpan> pool_, held_;
  JobCounts done_;
  double weight_done_ = 0;
  std::deque<int> idle_;
  std::vector<char> busy_, giving_, snapped_;
  std::vector<TreeSpan> reported_spans_;   // held by the members at their last kReported
  std::vector<std::uint64_t> works_sent_;  // kWork sent to each rank
  // The spans handed to each rank that its kReported has not acknowledged yet (with progress).
  std::vector<std::deque<std::pair<std::uint64_t, TreeSpan>>> handed_log_;
  const SearchJob& job_;
  std::unique_ptr<NodesLeftEstimate> estimate_;  // (made at the first report)
  std::uint64_t listed_at_ = 0;                  // done_.nodes when the frontier was listed
  double left_estimate_ = -1;                    // nodes left at the last report (-1: none yet)
  std::uint64_t left_at_ = 0;                    // done_.nodes then
  double prior_gain_ = -1;         // resumed: the saved estimate over this run's first one
  std::size_t prior_samples_ = 0;  // samples drawn when prior_gain_ was set
  double shown_fraction_ = 0;
  struct Mark {
    double wall;
    std::uint64_t nodes;  // searched in this run
  };
  std::vector<Mark> marks_;  // the reports' (thinned to every other one when 64 are kept)
  // Spans kept ready in the pool beyond the idle ranks' needs: one per 16 ranks (at least one
  // with two ranks or more).
  const std::size_t reserve_ = ranks_ > 1 ? 1 + static_cast<std::size_t>(ranks_) / 16 : 0;
  std::vector<int> candidates_;
  std::minstd_rand rng_{12345};
  int hellos_ = 0, reported_ = 0;
  std::uint64_t threads_ = 0, handed_ = 0, splits_ = 0;
  Phase phase_ = Phase::kRun;
  bool stopping_ = false, stopped_ = false, stop_asked_ = false, reporting_ = false;
  bool ended_ = false;
  Clock::time_point t0_, next_checkpoint_, next_progress_;
};

// Every rank's link between its job and the coordinator.
class Member final : public WorkExchange {
 public:
  Member(Net& net, Coordinator* coord, const JobOptions& opt, const TreeIdentity& id,
         unsigned threads)
      : net_(net), coord_(coord), stop_(opt.stop) {
    Writer hello;
    hello.text(identity_text(id));
    hello.u(threads);
    net_.send(0, kHello, std::move(hello));
  }

  // The visitor of this rank's job (threads call it one at a time): classes wait for the poll.
  bool found(std::span<const OptionId> s, std::uint64_t orbit) {
    std::lock_guard<std::mutex> lock(mu_);
    found_.push_back(orbit);
    found_.push_back(s.size());
    found_.insert(found_.end(), s.begin(), s.end());
    ++found_count_;
    return true;
  }

  bool poll(JobLink& link) override {
    net_.progress();
    int from = 0, tag = 0;
    Words w;
    while (net_.receive(from, tag, w)) {
      Reader m{w};
      if (tag < kWork) {
        if (!coord_) throw std::runtime_error("cluster: a coordinator's message reached a member");
        coord_->handle(from, tag, m);
        continue;
      }
      switch (tag) {
        case kWork:
          link.add(m.span());
          ++works_;
          want_sent_ = false;
          break;
        case kGive:
          owe_ = true;
          break;
        case kReport:
          reporting_ = true;
          link.settle();
          break;
        case kSnap:
          link.hold();
          snapping_ = true;
          paused_ = true;
          break;
        case kResume:
          link.release();
          paused_ = false;
          break;
        case kQuit:
          quit_ = true;
          break;
        default:
          throw std::runtime_error("cluster: unknown message " + std::to_string(tag));
      }
    }
    if (quit_) return false;
    if (snapping_ && link.held()) {
      Writer m = settled(link);
      const auto spans = link.spans();
      m.u(spans.size());
      for (const TreeSpan& s : spans) m.span(s);
      net_.send(0, kSnapped, std::move(m));
      snapping_ = false;
    }
    if (!paused_) {
      if (reporting_ && link.settled()) {
        const std::vector<TreeSpan> spans = link.spans();  // (before the counts: none is lost)
        Writer m = settled(link);
        m.u(works_);
        m.u(spans.size());
        for (const TreeSpan& s : spans) m.span(s);
        net_.send(0, kReported, std::move(m));
        reporting_ = false;
      }
      if (owe_) {
        TreeSpan s;
        if (link.take(s)) {
          Writer m;
          m.u(1);
          m.span(s);
          net_.send(0, kDonate, std::move(m));
          owe_ = false;
        } else if (link.idle()) {
          Writer m;
          m.u(0);
          net_.send(0, kDonate, std::move(m));
          owe_ = false;
        }
      }
      if (!want_sent_ && link.idle()) {
        net_.send(0, kWant, settled(link));
        want_sent_ = true;
      }
    }
    send_found();
    if (stop_ && stop_->load() && !stop_sent_) {
      net_.send(0, kStop, Writer{});
      stop_sent_ = true;
    }
    if (coord_) coord_->step();
    waiting_ = (want_sent_ && link.idle()) || owe_ || snapping_ || reporting_;
    return true;
  }

  // Polls every 100 us while this rank waits on a message, and on rank 0 (the others wait on
  // it); every millisecond while it just searches (a request to split is then answered within
  // about 1 ms, while the pool's reserve serves the rank that asked).
  unsigned next_poll_us() const override {
    return waiting_ || (coord_ && coord_->answers_others()) ? 100 : 1000;
  }

 private:
  // A message that starts with the counts settled since the last one (the classes found before
  // them go first).
  Writer settled(JobLink& link) {
    send_found();
    Writer m;
    double weight = 0;
    const JobCounts c = link.drain(weight);
    m.counts(c, weight);
    return m;
  }

  void send_found() {
    Writer m;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!found_count_) return;
      m.u(found_count_);
      m.w.insert(m.w.end(), found_.begin(), found_.end());
      found_.clear();
      found_count_ = 0;
    }
    net_.send(0, kSolutions, std::move(m));
  }

  Net& net_;
  Coordinator* coord_;
  const std::atomic<bool>* stop_;
  bool want_sent_ = false, owe_ = false, reporting_ = false, snapping_ = false, paused_ = false;
  bool quit_ = false, stop_sent_ = false, waiting_ = true;
  std::uint64_t works_ = 0;  // kWork received
  std::mutex mu_;            // guards found_
  Words found_;
  std::uint64_t found_count_ = 0;
};

}  // namespace

JobResult run(const Session& session, SearchJob& job, const JobOptions& options,
              ClassVisitor* visit) {
  if (options.ordered || options.max_classes || options.shard_count > 1) {
    throw std::invalid_argument(
        "a search over MPI ranks counts everything, unordered and unsharded: no order, limit "
        "or shard");
  }
  const TreeIdentity id = job.identity();
  Net net(session.rank());
  std::unique_ptr<Coordinator> coord;
  if (session.root())
    coord = std::make_unique<Coordinator>(net, session.size(), options, visit, id, job);
  const unsigned threads =
      options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  Member member(net, coord.get(), options, id, threads);
  JobOptions local;
  local.threads = threads;
  local.exchange = &member;
  auto found = [&](std::span<const OptionId> s, std::uint64_t orbit) {
    return member.found(s, orbit);
  };
  ClassVisitor forward(found);
  JobResult mine = job.run(local, visit ? &forward : nullptr);
  net.finish();
  return coord ? coord->result() : mine;
}

}  // namespace cubex::mpi
