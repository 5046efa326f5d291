// The progress reports of a run (JobRunner::progress, runner.hpp) and their estimate of the nodes
// left (src/core/estimate.hpp); NodesLeftEstimate, the same estimate for a search whose work is
// spread elsewhere.
#include <algorithm>
#include <cmath>
#include <mutex>
#include <vector>

#include "runner.hpp"

namespace cubex {

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

}  // namespace cubex
