// JobRunner (runner.hpp): the threads of a run, the spans they take and split, the solutions
// they find (in order when asked), stopping, limits and checkpoints.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "runner.hpp"

namespace cubex {

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
  emitted_.split += v.split;
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
    local.split += v.split;
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
  me.counts.split += v.split;
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
      c.split = emitted_.split;
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

JobResult SearchJob::run(const JobOptions& options, ClassVisitor* visit) {
  JobRunner runner(*this, options, visit);
  return runner.run();
}

}  // namespace cubex
