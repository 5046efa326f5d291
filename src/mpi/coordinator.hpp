// The cluster's coordinator (cluster.cpp), on rank 0: the pool of spans, who is idle, the counts
// received, progress and checkpoints of the whole search.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubex/core/exchange.hpp"
#include "cubex/core/job.hpp"
#include "net.hpp"
#include "wire.hpp"

namespace cubex::mpi::detail {

using Clock = std::chrono::steady_clock;
inline Clock::duration secs(double s) {
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

}  // namespace cubex::mpi::detail
