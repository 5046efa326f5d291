// JobLink (cubex/core/exchange.hpp): a running job as a WorkExchange sees it.
#include <mutex>
#include <vector>

#include "runner.hpp"

namespace cubex {

// ---------------------------------------------------------------------------------------------
// JobLink: the runner as a WorkExchange sees it (called on the runner's calling thread, unlocked).

namespace {
JobCounts minus(const JobCounts& a, const JobCounts& b) {
  JobCounts c;
  c.unique = a.unique - b.unique;
  c.total = a.total - b.total;
  c.symmetric = a.symmetric - b.symmetric;
  c.split = a.split - b.split;
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

}  // namespace cubex
