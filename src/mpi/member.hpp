// The cluster's member (cluster.cpp), on every rank: the WorkExchange that links the rank's job
// to the coordinator (rank 0's own member reaches it through the local queue).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "coordinator.hpp"
#include "cubex/core/exchange.hpp"
#include "cubex/core/job.hpp"
#include "net.hpp"
#include "wire.hpp"

namespace cubex::mpi::detail {

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

}  // namespace cubex::mpi::detail
