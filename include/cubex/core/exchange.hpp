// cubex/core/exchange.hpp - a search spread over processes: how a running SearchJob trades spans
// with the others (cubex's MPI mode, src/mpi, is one such exchange). A job given an exchange
// (JobOptions::exchange) starts with no work, takes what the exchange brings and runs until the
// exchange ends it.
#pragma once

#include <vector>

#include "cubex/core/job.hpp"

namespace cubex {

// The running job as a WorkExchange sees it: only valid inside WorkExchange::poll().
class JobLink {
 public:
  bool idle() const;        // no span pending or running here
  void add(TreeSpan span);  // work from elsewhere (disjoint from all the work here)
  // Work for elsewhere: true with the last pending span, when there is one. Otherwise false, and
  // a running thread is asked to split its work, so that a later call finds a pending span.
  bool take(TreeSpan& out);
  // The counts settled here since the last call, and the weight of the spans they settled.
  JobCounts drain(double& weight);
  // The running threads set their work aside (and go on): after settle(), settled() becomes
  // true once every thread has, so drain() holds all the work done until then.
  void settle();
  bool settled() const;
  // hold(): the threads set their work aside and start nothing until release(); held() becomes
  // true when they have. spans(): the spans here, in tree order (all pending once held).
  void hold();
  bool held() const;
  void release();
  std::vector<TreeSpan> spans() const;

 private:
  friend class JobRunner;
  explicit JobLink(JobRunner& r) : r_(&r) {}
  JobRunner* r_;
};

// Links the jobs of a search spread over processes (cubex's MPI mode, src/mpi, is one). The job
// calls poll() on its calling thread about every millisecond, and never from two threads at once;
// poll() moves spans in and out through the link and returns false to end the run.
class WorkExchange {
 public:
  virtual ~WorkExchange() = default;
  virtual bool poll(JobLink& link) = 0;
  // How soon to poll again, in microseconds (asked after each poll; 100 to 10,000).
  virtual unsigned next_poll_us() const { return 1000; }
};

}  // namespace cubex
