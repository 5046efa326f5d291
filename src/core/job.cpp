// SearchJob (job.hpp): spans of the search tree handed to a pool of threads, split on demand.
//
// The runner keeps every span of the run in one map keyed by its first node, which is tree
// (depth-first) order: pending spans, running ones and, when solutions are wanted in order,
// finished ones whose solutions wait for their turn. A thread takes the earliest pending span.
// An idle thread raises kHungry on the busy ones; the first to see it hands over the later half
// of its untried children (engine.hpp) through give(), which inserts the new span right after
// the giver's. A stop, a limit or a tick (progress, checkpoint) raises kYield: each engine ends
// its span where it stands and reports where the rest starts; the rest becomes a pending span.
#include "cubex/core/job.hpp"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "cubex/core/exchange.hpp"
#include "engine.hpp"
#include "estimate.hpp"

namespace cubex {

JobCounts& JobCounts::operator+=(const JobCounts& o) {
  unique += o.unique;
  total += o.total;
  symmetric += o.symmetric;
  solutions += o.solutions;
  nodes += o.nodes;
  updates += o.updates;
  return *this;
}

std::string TreeIdentity::difference(const TreeIdentity& o, bool ignore_shard_index) const {
  auto text = [](const std::string& s) { return "\"" + s + "\""; };
  auto num = [](std::uint64_t v) { return std::to_string(v); };
  auto diff = [](const char* what, const std::string& mine, const std::string& theirs) {
    return std::string(what) + ": expected " + mine + ", found " + theirs;
  };
  if (fingerprint != o.fingerprint || items != o.items || options != o.options) {
    return diff(
        "puzzle", text(fingerprint) + " (" + num(items) + " items, " + num(options) + " options)",
        text(o.fingerprint) + " (" + num(o.items) + " items, " + num(o.options) + " options)");
  }
  if (order != o.order) return diff("option order", text(order), text(o.order));
  if (rule != o.rule) return diff("choice rule", text(rule), text(o.rule));
  if (judge != o.judge) {
    return diff("symmetry", judge.empty() ? "none" : text(judge),
                o.judge.empty() ? "none" : text(o.judge));
  }
  if (cut != o.cut) return diff("cut (units of the shard split)", num(cut), num(o.cut));
  if (shard_count != o.shard_count)
    return diff("shard count", num(shard_count), num(o.shard_count));
  if (!ignore_shard_index && shard_index != o.shard_index) {
    return diff("shard", num(shard_index) + "/" + num(shard_count),
                num(o.shard_index) + "/" + num(o.shard_count));
  }
  return {};
}

std::string problem_fingerprint(const Problem& pb) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a, 64 bits
  auto mix = [&](std::uint64_t v) {
    for (int k = 0; k < 8; ++k) {
      h ^= (v >> (8 * k)) & 0xFF;
      h *= 1099511628211ULL;
    }
  };
  mix(pb.num_items());
  for (const Item& it : pb.items()) {
    for (char c : it.name) mix(static_cast<unsigned char>(c));
    mix(it.primary);
    mix(it.lo);
    mix(it.hi);
  }
  mix(pb.num_options());
  for (OptionId o = 0; o < pb.num_options(); ++o) {
    mix(pb.option(o).size());
    for (ItemId i : pb.option(o)) mix(i);
  }
  if (pb.has_colours()) {  // (uncoloured problems keep the fingerprint they always had)
    for (ColourId c = 1; c <= pb.num_colours(); ++c)
      for (char ch : pb.colour_name(c)) mix(static_cast<unsigned char>(ch));
    for (OptionId o = 0; o < pb.num_options(); ++o)
      for (ColourId c : pb.option_colours(o)) mix(c);
  }
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, h);
  return buf;
}

SearchJob::SearchJob(const Problem& problem, const SolutionJudge* judge, Backend backend)
    : SearchJob(problem, judge, backend, EngineTuning{}) {}

SearchJob::SearchJob(const Problem& problem, const SolutionJudge* judge, Backend backend,
                     const EngineTuning& tuning)
    : problem_(problem),
      judge_(judge),
      backend_(detail::resolve_backend(problem, backend)),
      tuning_(tuning),
      proto_(detail::make_engine(problem, backend_, tuning_)) {}

SearchJob::~SearchJob() = default;

TreeIdentity SearchJob::identity(std::uint32_t cut, std::uint32_t shard_index,
                                 std::uint32_t shard_count) const {
  TreeIdentity id;
  id.fingerprint = problem_fingerprint(problem_);
  id.items = problem_.num_items();
  id.options = problem_.num_options();
  id.order = detail::search_order_name(problem_);
  id.rule = detail::choice_rule(problem_, backend_, tuning_);
  id.judge = judge_ ? judge_->identity() : "";
  id.cut = cut;
  id.shard_index = shard_index;
  id.shard_count = shard_count;
  return id;
}

SolveStats SearchJob::search(const TreeSpan& span, SolutionVisitor* visit) {
  return proto_->run(span, 0, visit, {}, nullptr).st;
}

namespace {

struct CutPiece {
  TreePath start;  // its first node
  TreePath node;   // the children lo..hi-1 of this node (and the nodes from start down to it)
  std::uint32_t lo = 0, hi = 0;
  double weight = 0;
};

constexpr std::size_t kMaxCutDepth = 64;

// The static cut (cut() and shards): pieces of the tree, heaviest split first.
std::vector<CutPiece> cut_pieces(detail::Engine& engine, std::uint32_t units,
                                 const std::atomic<bool>* stop) {
  // Children of `node`: the nodes one level below it, met by a depth-limited run of its subtree.
  auto children = [&](const TreePath& node) -> std::uint32_t {
    TreeSpan s;
    s.begin = node;
    if (!node.empty()) {
      s.end = node;
      ++s.end.back();
      s.to_end = false;
    }
    const auto r = engine.run(s, static_cast<std::uint32_t>(node.size() + 1), nullptr, {}, nullptr);
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(r.frontier, UINT32_MAX - 1));
  };
  auto heavier = [](const CutPiece& a, const CutPiece& b) {
    if (a.weight != b.weight) return a.weight < b.weight;
    return a.start > b.start;
  };
  std::vector<CutPiece> open, done;
  open.push_back(CutPiece{{}, {}, 0, children({}), 1.0});
  std::size_t expansions = 0;
  while (!open.empty() && open.size() + done.size() < units &&
         expansions < std::size_t{4} * units + 64 && !(stop && stop->load())) {
    std::pop_heap(open.begin(), open.end(), heavier);
    CutPiece p = std::move(open.back());
    open.pop_back();
    if (p.hi - p.lo >= 2) {  // halve the range of children
      const std::uint32_t mid = p.lo + (p.hi - p.lo) / 2;
      const double w = p.weight / (p.hi - p.lo);
      CutPiece right{p.node, p.node, mid, p.hi, w * (p.hi - mid)};
      right.start.push_back(mid);
      p.hi = mid;
      p.weight = w * (mid - p.lo);
      open.push_back(std::move(p));
      std::push_heap(open.begin(), open.end(), heavier);
      open.push_back(std::move(right));
      std::push_heap(open.begin(), open.end(), heavier);
      continue;
    }
    if (p.hi == p.lo || p.node.size() + 1 >= kMaxCutDepth) {
      done.push_back(std::move(p));
      continue;
    }
    TreePath child = p.node;  // one child: the piece becomes its children
    child.push_back(p.lo);
    ++expansions;
    const std::uint32_t k = children(child);
    if (k == 0) {
      done.push_back(std::move(p));
      continue;
    }
    p.node = std::move(child);
    p.lo = 0;
    p.hi = k;
    open.push_back(std::move(p));
    std::push_heap(open.begin(), open.end(), heavier);
  }
  for (auto& p : open) done.push_back(std::move(p));
  std::sort(done.begin(), done.end(),
            [](const CutPiece& a, const CutPiece& b) { return a.start < b.start; });
  return done;
}

}  // namespace

std::vector<TreePath> SearchJob::cut(std::uint32_t units, const std::atomic<bool>* stop) const {
  std::vector<TreePath> starts;
  for (auto& s : cut_spans(units, stop)) starts.push_back(std::move(s.begin));
  return starts;
}

std::vector<TreeSpan> SearchJob::cut_spans(std::uint32_t units,
                                           const std::atomic<bool>* stop) const {
  auto engine = proto_->clone();
  const auto pieces = cut_pieces(*engine, std::max<std::uint32_t>(units, 1), stop);
  std::vector<TreeSpan> spans;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    TreeSpan s;
    s.begin = pieces[k].start;
    if (k + 1 < pieces.size()) {
      s.end = pieces[k + 1].start;
      s.to_end = false;
    }
    s.weight = pieces[k].weight;
    spans.push_back(std::move(s));
  }
  return spans;
}

// ---------------------------------------------------------------------------------------------

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

bool JobRunner::give(void* ctx, TreeSpan&& span) {
  Worker& w = *static_cast<Worker*>(ctx);
  JobRunner& r = *w.run;
  std::lock_guard<std::mutex> lock(r.mu_);
  if (r.halted_ || r.idle_ + (r.wanted_ ? 1 : 0) <= r.pending_) return false;
  Slot& mine = w.slot->second;
  mine.span.end = span.begin;
  mine.span.to_end = false;
  mine.span.weight = std::max(0.0, mine.span.weight - span.weight);
  TreePath key = span.begin;
  Slot s;
  s.span = std::move(span);
  r.slots_.emplace(std::move(key), std::move(s));
  ++r.pending_;
  ++r.splits_;
  r.cv_.notify_all();
  return true;
}

void JobRunner::halt(bool by_limit) {  // under mu_
  if (!halted_) {
    halted_ = true;
    if (by_limit) limited_ = true;
  }
  for (auto& w : workers_) w->signal.fetch_or(detail::Control::kYield);
  cv_.notify_all();
}

void JobRunner::yield_all() {  // under mu_
  ++epoch_;
  for (auto& w : workers_)
    if (w->busy) w->signal.fetch_or(detail::Control::kYield);
}

void JobRunner::settle(const JobCounts& c, double weight) {  // under mu_
  settled_ += c;
  weight_settled_ += weight;
}

bool JobRunner::emit(std::span<const OptionId> s, const SolutionJudge::Verdict& v) {  // under mu_
  if (halted_) return false;
  ++emitted_.unique;
  emitted_.total += v.orbit;
  emitted_.symmetric += v.symmetric;
  bool go = (*visit_)(s, v.orbit);
  if (opt_.max_classes && emitted_.unique >= opt_.max_classes) go = false;
  if (!go) halt(true);
  return go;
}

// Ordered: hands the buffered solutions of the spans at the front to the visitor, in order, and
// settles the finished ones; the first span not finished becomes the front (it emits directly).
void JobRunner::advance_front() {  // under mu_
  while (!slots_.empty()) {
    Slot& f = slots_.begin()->second;
    if (!f.front) {
      f.front = true;
      std::size_t at = 0;
      for (std::size_t k = 0; k < f.sizes.size(); ++k) {
        if (!emit(std::span<const OptionId>(f.buffer).subspan(at, f.sizes[k]), f.verdicts[k]))
          break;
        at += f.sizes[k];
      }
      buffered_ -= std::min(buffered_, f.buffer.size());
      f.buffer = {};
      f.sizes = {};
      f.verdicts = {};
      cv_.notify_all();
    }
    if (f.state != State::kDone || halted_) return;
    settle(f.counts, f.done_weight);
    slots_.erase(slots_.begin());
  }
}

bool JobRunner::on_solution(Worker& w, std::span<const OptionId> s, std::vector<OptionId>& buf,
                            JobCounts& local) {
  SolutionJudge::Verdict v{1, false};
  std::span<const OptionId> out = s;
  if (const SolutionJudge* judge = job_.judge_) {
    v = judge->judge(s, buf);
    if (!v.orbit) return true;
    out = buf;
  }
  if (!ordered_) {
    if (opt_.max_classes && accepted_.fetch_add(1) >= opt_.max_classes) {
      w.rejected = true;
      std::lock_guard<std::mutex> lock(mu_);
      halt(true);
      return false;
    }
    ++local.unique;
    local.total += v.orbit;
    local.symmetric += v.symmetric;
    bool go = true;
    if (visit_) {
      std::lock_guard<std::mutex> lock(mu_);
      if (halted_) return false;
      go = (*visit_)(out, v.orbit);
      if (!go) halt(true);
    }
    if (opt_.max_classes && accepted_.load() >= opt_.max_classes) {
      std::lock_guard<std::mutex> lock(mu_);
      halt(true);
      return false;
    }
    return go;
  }
  std::unique_lock<std::mutex> lock(mu_);
  Slot& me = w.slot->second;
  ++me.counts.unique;
  me.counts.total += v.orbit;
  me.counts.symmetric += v.symmetric;
  if (me.front) return emit(out, v);
  me.buffer.insert(me.buffer.end(), out.begin(), out.end());
  me.sizes.push_back(static_cast<std::uint32_t>(out.size()));
  me.verdicts.push_back(v);
  buffered_ += out.size();
  while (!halted_ && !me.front && buffered_ > opt_.order_buffer) {
    const Slot& f = slots_.begin()->second;
    if (f.state == State::kPending) {  // nobody runs the front: stop here and go run it
      return false;
    }
    cv_.wait(lock);
  }
  return !halted_;
}

void JobRunner::worker(unsigned k) {
  Worker& w = *workers_[k];
  auto engine = job_.proto_->clone();
  detail::Control ctl;
  ctl.signal = &w.signal;
  ctl.give = &JobRunner::give;
  ctl.ctx = &w;
  std::vector<OptionId> buf;
  JobCounts local;
  auto visit = [&](std::span<const OptionId> s) { return on_solution(w, s, buf, local); };
  SolutionVisitor sv(visit);
  const bool need_visitor = visit_ || job_.judge_ || opt_.max_classes;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    // The earliest pending span; idle (asking the busy threads for work) while there is none.
    Slots::iterator it = slots_.end();
    while (!halted_) {
      if (pending_ > 0 && !paused_) {
        for (it = slots_.begin(); it != slots_.end() && it->second.state != State::kPending; ++it) {
        }
        break;
      }
      // Nothing pending, nothing running: the work is done (with an exchange: more may come).
      if (busy_ == 0 && !ex_) break;
      ++idle_;
      for (auto& o : workers_)
        if (o->busy) o->signal.fetch_or(detail::Control::kHungry);
      cv_.wait_for(lock, std::chrono::milliseconds(5));
      --idle_;
    }
    if (halted_ || it == slots_.end()) break;
    Slot& s = it->second;
    s.state = State::kRunning;
    s.epoch = epoch_;
    --pending_;
    ++busy_;
    ++spans_;
    w.slot = it;
    w.busy = true;
    w.rejected = false;
    w.signal.store(halted_ ? std::uint32_t{detail::Control::kYield} : 0u);
    const TreeSpan span = s.span;
    local = {};
    lock.unlock();
    detail::RunResult r;
    bool failed = false;
    const double cpu_start = detail::thread_cpu_seconds();
    try {
      r = engine->run(span, 0, need_visitor ? &sv : nullptr, {}, &ctl);
    } catch (...) {
      failed = true;
      lock.lock();
      if (!error_) error_ = std::current_exception();
      halt(false);
      lock.unlock();
    }
    lock.lock();
    cpu_ += detail::thread_cpu_seconds() - cpu_start;
    w.busy = false;
    --busy_;
    Slot& me = w.slot->second;
    if (failed) {  // its work is lost: the whole span is pending again
      me.state = State::kPending;
      me.buffer = {};
      me.sizes = {};
      me.verdicts = {};
      me.counts = {};
      ++pending_;
      cv_.notify_all();
      continue;
    }
    JobCounts c = local;
    if (!need_visitor) c.unique = c.total = r.st.solutions;  // no judge: a class per solution
    c.solutions = r.st.solutions;
    c.nodes = r.st.nodes;
    c.updates = r.st.updates;
    searched_ += c;
    if (w.rejected && r.has_rest && !r.rest.empty() && r.rest.back() > 0) {
      --r.rest.back();  // the solution refused at the limit was not counted: it stays to do
    }
    if (r.has_rest && r.rest == me.span.begin) {  // stopped before doing anything
      me.state = State::kPending;
      ++pending_;
      cv_.notify_all();
      continue;
    }
    const double done_weight = std::max(0.0, me.span.weight - r.rest_weight);
    if (r.has_rest) {  // the rest of the span is pending
      if (me.span.to_end || r.rest < me.span.end) {
        Slot rest;
        rest.span.begin = r.rest;
        rest.span.end = me.span.end;
        rest.span.to_end = me.span.to_end;
        rest.span.weight = r.rest_weight;
        TreePath key = r.rest;
        slots_.emplace(std::move(key), std::move(rest));
        ++pending_;
      }
      me.span.end = r.rest;
      me.span.to_end = false;
    }
    me.span.weight = done_weight;
    me.state = State::kDone;
    if (!ordered_) {
      settle(c, done_weight);
      slots_.erase(w.slot);
    } else {
      c.unique = c.total = c.symmetric = 0;  // counted per solution in on_solution
      me.counts += c;
      me.done_weight = done_weight;
      if (w.slot == slots_.begin()) {
        try {  // the visitor runs here for the solutions that waited
          advance_front();
        } catch (...) {
          if (!error_) error_ = std::current_exception();
          halt(false);
        }
      }
    }
    cv_.notify_all();
  }
  ++exited_;
  cv_.notify_all();
}

JobState JobRunner::snapshot() {  // under mu_
  JobState st = base_;
  st.counts += settled_;
  st.weight_done = base_.weight_done + weight_settled_;
  st.seconds = base_.seconds + elapsed();
  st.nodes_left = nodes_left();
  st.estimate_samples = base_.estimate_samples + frontier_.samples();
  st.pending.clear();
  for (const auto& [key, s] : slots_) {
    if (s.span.to_end || s.span.begin < s.span.end) st.pending.push_back(s.span);
  }
  // A finished run: counts as a one-thread run gives them.
  return st;
}

// Nodes left to search (-1: not known): the last estimate less what was searched since; else the
// saved one less what this run searched.
double JobRunner::nodes_left() const {  // under mu_
  if (slots_.empty()) return 0;
  if (left_estimate_ >= 0) {
    return std::max(0.0, left_estimate_ - static_cast<double>(searched_.nodes - left_at_nodes_));
  }
  if (base_.nodes_left >= 0)
    return std::max(0.0, base_.nodes_left - static_cast<double>(searched_.nodes));
  return -1;
}

// The fraction and the time left come from nodes: those searched (exact), those left (estimated
// from the frontier of the work left and samples of its subtrees, estimate.hpp) and the rate of
// this run. The frontier is listed at the first report; the samples are searched on this thread,
// unlocked, for about 2% of the elapsed time; the search threads never wait for them.
JobProgress JobRunner::progress() {  // under mu_
  JobProgress p;
  auto left = [this] {
    std::vector<TreeSpan> v;
    for (const auto& [key, s] : slots_)
      if (s.state != State::kDone && (s.span.to_end || s.span.begin < s.span.end))
        v.push_back(s.span);
    return v;
  };
  std::vector<TreeSpan> spans = left();
  const double before = elapsed();
  // The rates are measured between reports (the threads have just set their work aside, so the
  // nodes and their CPU time are up to date), from the report after the first listing of the
  // frontier on (the listing slows the search, on a busy machine much).
  const Mark mark{before, cpu_, searched_.nodes};
  if (rate_from_.wall < 0 && frontier_tried_) rate_from_ = mark;
  if (marks_.size() >= 64) {
    for (std::size_t k = 0; 2 * k < marks_.size(); ++k) marks_[k] = marks_[2 * k];
    marks_.resize((marks_.size() + 1) / 2);
  }
  marks_.push_back(mark);
  // The estimate's CPU time (on this thread): the first listing of the frontier (at most 0.05 s,
  // detail::estimate_listing_budget), then 2% of the elapsed time plus 0.5 s (a quarter of the
  // elapsed time at first, detail::estimate_budget) for samples and for deeper listings (once the
  // samples cover a quarter of the frontier left, a finer frontier gives more for the same time).
  const bool build = !spans.empty() && !frontier_tried_;
  double budget = spans.empty() ? 0
                                : detail::estimate_budget(before) - frontier_.seconds() -
                                      (frontier_.build_seconds() - first_listing_seconds_);
  const bool deepen = !build && frontier_.built() && budget > 0 &&
                      frontier_.size() < (std::size_t{1} << 18) &&
                      4 * samples_left_ >= frontier_left_;
  if (build || budget > 0) {
    const std::uint64_t listed_at = searched_.nodes;
    if (!probe_engine_) {
      probe_engine_ = job_.proto_->clone();
      probe_engine_->for_short_runs();
    }
    bool listed = false;
    mu_.unlock();  // the threads go on meanwhile (the work left only shrinks)
    try {
      if (build) {
        const std::size_t target = std::min<std::size_t>(
            std::size_t{1} << 18, std::max<std::size_t>(std::size_t{1} << 16, 32 * spans.size()));
        listed =
            frontier_.build(*probe_engine_, spans, target, detail::estimate_listing_budget(before));
        first_listing_seconds_ = frontier_.build_seconds();
        budget = std::max(budget, 0.005);
      } else if (deepen) {
        const double spent = frontier_.build_seconds();
        listed = frontier_.build(*probe_engine_, spans, 4 * frontier_left_, budget,
                                 frontier_.depth() + 1);
        budget -= frontier_.build_seconds() - spent;
      }
      if (budget > 0)
        frontier_.sample(*probe_engine_, spans, budget, detail::estimate_toward_end(before));
    } catch (...) {
      mu_.lock();
      throw;
    }
    mu_.lock();
    frontier_tried_ = true;
    if (listed) {
      frontier_at_nodes_ = listed_at;
      frontier_size_ = frontier_.size();
    }
    spans = left();
  }
  // The report, as things stand now.
  p.counts = base_.counts;
  p.counts += settled_;
  const double run = elapsed();
  p.elapsed = base_.seconds + run;
  p.busy = busy_;
  p.pending = pending_;
  p.cpu = cpu_;
  const std::uint64_t now = searched_.nodes;
  if (spans.empty()) {
    p.fraction = slots_.empty() ? 1 : shown_fraction_;
    p.eta = p.cpu_eta = slots_.empty() ? 0 : -1;
    return p;
  }
  double rest = -1;
  if (frontier_.built()) {
    // The mean size of the frontier subtrees finished since the listing (a weak prior).
    const std::size_t in_left = frontier_.count_left(spans);
    const double finished = static_cast<double>(frontier_size_ - std::min(frontier_size_, in_left));
    const double mean =
        finished >= 1 ? static_cast<double>(now - frontier_at_nodes_) / finished : -1;
    const auto r = frontier_.nodes(spans, mean);
    rest = r.nodes;
    samples_left_ = r.samples;
    frontier_left_ = r.left;
  }
  if (rest < 0) {  // no frontier: the estimated shares of the tree (engine.hpp)
    const double total = base_.weight_total > 0 ? base_.weight_total : 1;
    const double done = base_.weight_done + weight_settled_;
    if (done > 0) rest = static_cast<double>(p.counts.nodes) * std::max(0.0, total - done) / done;
  }
  if (rest < 0) return p;
  if (base_.nodes_left >= 0 && base_.estimate_samples > 0) {
    // Resumed: start from the saved estimate (no jump), and let this run's samples take over as
    // they outnumber those behind it.
    if (prior_gain_ < 0 && rest > 0) {
      const double saved = std::max(0.0, base_.nodes_left - static_cast<double>(now));
      prior_gain_ = saved / rest;
      prior_samples_ = frontier_.samples();
    }
    if (prior_gain_ >= 0) {
      const double k = static_cast<double>(base_.estimate_samples);
      const double n = static_cast<double>(frontier_.samples() - prior_samples_);
      rest *= 1 + (prior_gain_ - 1) * k / (k + n);
    }
  }
  left_estimate_ = rest;
  left_at_nodes_ = now;
  const double done = static_cast<double>(base_.counts.nodes + now);
  const double fraction = done + rest > 0 ? done / (done + rest) : 0;
  shown_fraction_ = std::clamp(std::max(shown_fraction_, fraction), 0.0, 1.0);
  p.fraction = shown_fraction_;
  // The time left: the nodes left x the CPU time per node (the search threads' clocks, over the
  // run: steady whatever the load; a resumed run starts from the runs' before, wall time per
  // node, and lets its own take over), then over the CPU seconds the search gets per second (as
  // measured over the last half of the run since the report after the first listing, which
  // slows the search on a busy machine: the recent load, and fewer busy threads at the end). The
  // estimate is of the mark; the search went on while it was made.
  const double mix = base_.seconds > 0 ? std::exp(-run / 5.0) : 0.0;
  const double per_node_nodes =
      static_cast<double>(mark.nodes) + mix * static_cast<double>(base_.counts.nodes);
  const double per_node_secs = mark.cpu + mix * base_.seconds;
  if (per_node_nodes <= 0 || per_node_secs <= 0) return p;
  p.cpu_eta = rest * per_node_secs / per_node_nodes;
  Mark from{0, 0, 0};  // the whole run
  const double window = std::max(0.02, 0.1 * mark.wall);
  if (rate_from_.wall >= 0 && mark.wall - rate_from_.wall >= window) {
    from = rate_from_;
    for (const Mark& m : marks_) {
      if (m.wall >= std::max(rate_from_.wall, 0.5 * mark.wall)) {
        if (mark.wall - m.wall >= window) from = m;
        break;
      }
    }
  }
  const double speed = (mark.cpu - from.cpu) / (mark.wall - from.wall);
  if (speed > 0) p.eta = std::max(0.0, p.cpu_eta / speed - (run - before));
  return p;
}

JobResult JobRunner::run() {
  t0_ = std::chrono::steady_clock::now();
  const JobOptions& o = opt_;
  if (o.shard_count == 0 || o.shard_index >= o.shard_count) {
    throw std::invalid_argument("the shard index must be below the shard count");
  }
  if (o.threads > 4096) throw std::invalid_argument("at most 4096 threads");
  const bool sharded = o.shard_count > 1;
  if (ex_ && (o.resume || sharded || o.ordered || o.max_classes)) {
    throw std::invalid_argument(
        "a search spread over processes brings its own work: no resume, shard, order or limit");
  }
  const TreeIdentity id =
      job_.identity(sharded ? std::max<std::uint32_t>(o.cut, 1) : 0, o.shard_index, o.shard_count);
  if (o.resume) {
    const std::string d = id.difference(o.resume->tree);
    if (!d.empty()) throw std::invalid_argument("the saved state belongs to another search: " + d);
    base_ = *o.resume;
  } else {
    base_.tree = id;
    if (ex_) {
      // no work until the exchange brings some
    } else if (!sharded) {
      base_.pending.push_back(TreeSpan{{}, {}, true, 1.0});
    } else {
      auto spans = job_.cut_spans(id.cut, o.stop);
      if (o.stop && o.stop->load()) {
        halted_ = true;
        stopped_ = true;
      }
      base_.weight_total = 0;
      for (std::size_t k = o.shard_index; k < spans.size(); k += o.shard_count) {
        base_.weight_total += spans[k].weight;
        base_.pending.push_back(std::move(spans[k]));
      }
    }
  }
  for (const TreeSpan& s : base_.pending) {
    TreePath key = s.begin;
    Slot slot;
    slot.span = s;
    slots_.emplace(std::move(key), std::move(slot));
  }
  pending_ = slots_.size();
  if (ordered_ && !slots_.empty()) slots_.begin()->second.front = true;

  unsigned threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = std::max(1u, threads);
  for (unsigned k = 0; k < threads; ++k) {
    workers_.push_back(std::make_unique<Worker>());
    workers_.back()->run = this;
  }
  std::vector<std::thread> pool;
  {
    std::unique_lock<std::mutex> lock(mu_);
    try {
      for (unsigned k = 0; k < threads; ++k) pool.emplace_back(&JobRunner::worker, this, k);
    } catch (...) {  // no thread could be started: stop those that were
      if (!error_) error_ = std::current_exception();
      halt(false);
    }
    const auto now = [] { return std::chrono::steady_clock::now(); };
    const auto secs = [](double s) {
      return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(s));
    };
    const bool ticking = static_cast<bool>(o.on_progress);
    auto next_progress = now() + secs(std::max(0.01, o.progress_seconds));
    auto next_checkpoint = now() + secs(std::max(0.01, o.checkpoint_seconds));
    std::uint64_t tick_epoch = 0;
    bool tick_pending = false, checkpoint_due = false;
    JobLink link(*this);
    unsigned wait_us = 10000;  // (an exchange says how soon: messages from elsewhere wait for it)
    while (exited_ < pool.size()) {
      cv_.wait_for(lock, std::chrono::microseconds(wait_us));
      if (ex_) {  // the exchange owns stopping, progress and checkpoints
        if (halted_) continue;
        bool go = false;
        lock.unlock();
        try {
          go = ex_->poll(link);
        } catch (...) {
          lock.lock();
          if (!error_) error_ = std::current_exception();
          halt(false);
          continue;
        }
        wait_us = std::clamp(ex_->next_poll_us(), 100u, 10000u);
        lock.lock();
        if (!go) halt(false);
        continue;
      }
      if (o.stop && o.stop->load(std::memory_order_relaxed) && !halted_) {
        stopped_ = true;
        halt(false);
      }
      if (halted_) continue;
      const auto t = now();
      if (!tick_pending &&
          ((ticking && t >= next_progress) || (o.on_checkpoint && t >= next_checkpoint))) {
        checkpoint_due = o.on_checkpoint && t >= next_checkpoint;
        yield_all();  // the threads set their work aside: the counts include it
        tick_epoch = epoch_;
        tick_pending = true;
      }
      if (tick_pending) {
        bool waiting = false;
        for (auto& w : workers_)
          if (w->busy && w->slot->second.epoch < tick_epoch) waiting = true;
        if (waiting && now() - t < secs(0.5)) continue;
        tick_pending = false;
        // The callbacks run unlocked; what they throw ends the run like a worker's failure.
        try {
          if (ticking) {
            const JobProgress p = progress();
            lock.unlock();
            o.on_progress(p);
            lock.lock();
            next_progress = now() + secs(std::max(0.01, o.progress_seconds));
          }
          if (checkpoint_due) {
            const JobState st = snapshot();
            lock.unlock();
            o.on_checkpoint(st);
            lock.lock();
            next_checkpoint = now() + secs(std::max(0.01, o.checkpoint_seconds));
          }
        } catch (...) {
          if (!lock.owns_lock()) lock.lock();
          if (!error_) error_ = std::current_exception();
          halt(false);
        }
      }
    }
  }
  for (auto& t : pool) t.join();

  JobResult res;
  {
    std::lock_guard<std::mutex> lock(mu_);
    res.state = snapshot();
    res.counts = base_.counts;
    if (ordered_) {
      JobCounts c = searched_;
      c.unique = emitted_.unique;
      c.total = emitted_.total;
      c.symmetric = emitted_.symmetric;
      res.counts += c;
    } else {
      res.counts += searched_;
    }
    res.complete = res.state.complete();
    res.stopped = stopped_ && !res.complete;  // (a stop after the last node lost nothing)
    res.limited = limited_ && !res.complete;
    res.threads = static_cast<unsigned>(workers_.size());
    res.seconds = elapsed();
    res.spans = spans_;
    res.splits = splits_;
  }
  if (o.on_progress && !error_ && !ex_) {
    std::unique_lock<std::mutex> lock(mu_);
    const JobProgress p = progress();
    lock.unlock();
    o.on_progress(p);
  }
  // The state is saved even after a failure (the failed span is pending again); a failure of
  // the saving itself must not hide the first error.
  if (o.on_checkpoint && !ex_) {
    try {
      o.on_checkpoint(res.state);
    } catch (...) {
      if (!error_) throw;
    }
  }
  if (error_) std::rethrow_exception(error_);
  return res;
}

// ---------------------------------------------------------------------------------------------
// JobLink: the runner as a WorkExchange sees it (called on the runner's calling thread, unlocked).

namespace {
JobCounts minus(const JobCounts& a, const JobCounts& b) {
  JobCounts c;
  c.unique = a.unique - b.unique;
  c.total = a.total - b.total;
  c.symmetric = a.symmetric - b.symmetric;
  c.solutions = a.solutions - b.solutions;
  c.nodes = a.nodes - b.nodes;
  c.updates = a.updates - b.updates;
  return c;
}
}  // namespace

bool JobLink::idle() const {
  std::lock_guard<std::mutex> lock(r_->mu_);
  return r_->pending_ == 0 && r_->busy_ == 0;
}

void JobLink::add(TreeSpan span) {
  std::lock_guard<std::mutex> lock(r_->mu_);
  if (!span.to_end && !(span.begin < span.end)) return;  // empty
  TreePath key = span.begin;
  JobRunner::Slot slot;
  slot.span = std::move(span);
  if (!r_->slots_.emplace(std::move(key), std::move(slot)).second) {
    throw std::logic_error("JobLink::add: a span that overlaps the work here");
  }
  ++r_->pending_;
  r_->cv_.notify_all();
}

bool JobLink::take(TreeSpan& out) {
  std::lock_guard<std::mutex> lock(r_->mu_);
  JobRunner& r = *r_;
  // A pending span goes when it is not all the work here (the threads may not have started it).
  if (r.pending_ > 0 && !r.paused_ && (r.busy_ > 0 || r.pending_ > 1)) {
    for (auto it = r.slots_.end(); it != r.slots_.begin();) {
      --it;
      if (it->second.state != JobRunner::State::kPending) continue;
      out = std::move(it->second.span);
      r.slots_.erase(it);
      --r.pending_;
      r.wanted_ = false;
      return true;
    }
  }
  r.wanted_ = (r.busy_ > 0 || r.pending_ > 0) && !r.paused_;
  if (r.wanted_) {
    for (auto& w : r.workers_)
      if (w->busy) w->signal.fetch_or(detail::Control::kHungry);
  }
  return false;
}

JobCounts JobLink::drain(double& weight) {
  std::lock_guard<std::mutex> lock(r_->mu_);
  const JobCounts c = minus(r_->settled_, r_->drained_);
  r_->drained_ = r_->settled_;
  weight = r_->weight_settled_ - r_->weight_drained_;
  r_->weight_drained_ = r_->weight_settled_;
  return c;
}

void JobLink::settle() {
  std::lock_guard<std::mutex> lock(r_->mu_);
  r_->yield_all();
  r_->settle_epoch_ = r_->epoch_;
}

bool JobLink::settled() const {
  std::lock_guard<std::mutex> lock(r_->mu_);
  for (const auto& w : r_->workers_)
    if (w->busy && w->slot->second.epoch < r_->settle_epoch_) return false;
  return true;
}

void JobLink::hold() {
  std::lock_guard<std::mutex> lock(r_->mu_);
  r_->paused_ = true;
  r_->yield_all();
}

bool JobLink::held() const {
  std::lock_guard<std::mutex> lock(r_->mu_);
  return r_->paused_ && r_->busy_ == 0;
}

void JobLink::release() {
  std::lock_guard<std::mutex> lock(r_->mu_);
  r_->paused_ = false;
  r_->cv_.notify_all();
}

std::vector<TreeSpan> JobLink::spans() const {
  std::lock_guard<std::mutex> lock(r_->mu_);
  std::vector<TreeSpan> out;
  for (const auto& [key, s] : r_->slots_)
    if (s.span.to_end || s.span.begin < s.span.end) out.push_back(s.span);
  return out;
}

NodesLeftEstimate::NodesLeftEstimate(const SearchJob& job)
    : engine_(job.proto_->clone()), frontier_(std::make_unique<detail::FrontierEstimate>()) {
  engine_->for_short_runs();
}
NodesLeftEstimate::~NodesLeftEstimate() = default;

bool NodesLeftEstimate::start(const std::vector<TreeSpan>& work, double seconds) {
  if (work.empty()) return false;
  return frontier_->build(*engine_, work, std::size_t{1} << 16, seconds);
}
double NodesLeftEstimate::listing_seconds(double elapsed) {
  return detail::estimate_listing_budget(elapsed);
}
double NodesLeftEstimate::budget_seconds(double elapsed) {
  return detail::estimate_budget(elapsed);
}
bool NodesLeftEstimate::started() const {
  return frontier_->built();
}
void NodesLeftEstimate::sample(const std::vector<TreeSpan>& left, double seconds, double elapsed) {
  frontier_->sample(*engine_, left, seconds, detail::estimate_toward_end(elapsed));
}
double NodesLeftEstimate::nodes(const std::vector<TreeSpan>& left, std::uint64_t searched) const {
  if (left.empty()) return 0;
  if (!frontier_->built()) return -1;
  const std::size_t in_left = frontier_->count_left(left);
  const double finished =
      static_cast<double>(frontier_->size() - std::min(frontier_->size(), in_left));
  return frontier_->nodes(left, finished >= 1 ? static_cast<double>(searched) / finished : -1)
      .nodes;
}
std::size_t NodesLeftEstimate::samples() const {
  return frontier_->samples();
}
double NodesLeftEstimate::seconds() const {
  return frontier_->seconds() + frontier_->build_seconds();
}

JobResult SearchJob::run(const JobOptions& options, ClassVisitor* visit) {
  JobRunner runner(*this, options, visit);
  return runner.run();
}

}  // namespace cubex
