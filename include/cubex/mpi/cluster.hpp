// cubex/mpi/cluster.hpp - one search over the processes of an MPI job (built with -DCUBEX_MPI=ON).
//
//   cubex::mpi::Session mpi;                        // MPI_Init_thread, unless done already
//   cubex::SearchJob job(problem);
//   cubex::JobOptions opt;
//   opt.threads = 4;                                 // on every process
//   cubex::JobResult r = cubex::mpi::run(mpi, job, opt);
//   if (mpi.root()) print(r.counts.total);
//
// Every process (rank) runs the same job with its threads. Rank 0 also coordinates: it hands
// out spans of the tree on demand (a rank that runs dry gets a span from the pool, or a busy rank
// is asked to split its work, as threads do within one machine), gathers the counts, calls the
// visitor with the solutions of every rank (in the order they arrive), and calls on_progress and
// on_checkpoint. A checkpoint holds the work of every rank (the ranks set their work aside for
// it), so it resumes exactly, on any number of ranks or in a plain one-process run.
#pragma once

#include "cubex/core/job.hpp"

namespace cubex::mpi {

// MPI for the lifetime of the object: MPI_Init_thread (MPI_THREAD_FUNNELED: only the thread that
// calls run() talks to MPI) when nobody has yet, MPI_Finalize at the end when it did.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }
  // Ends every process of the job with `code` (MPI_Abort): for an error on one rank only.
  [[noreturn]] void abort(int code) const;

 private:
  int rank_ = 0, size_ = 1;
  bool owner_ = false;
};

// Runs `job` on every rank; every rank must call it, with the same problem, judge and options
// (checked: a rank whose tree differs ends the run with std::invalid_argument on rank 0). Uses
// options.threads, stop (any rank's stop flag stops all: rank 0 saves a checkpoint first),
// resume (rank 0's), on_progress, progress_seconds, on_checkpoint and checkpoint_seconds (rank 0);
// `ordered`, max_classes and shards are refused (std::invalid_argument). `visit` (rank 0's is
// called; on the others it only says that solutions are wanted) sees the classes unordered.
// The result is rank 0's: the counts of the whole search; the other ranks get their own share.
// On an exception the other ranks may still wait for this one: call session.abort().
JobResult run(const Session& session, SearchJob& job, const JobOptions& options,
              ClassVisitor* visit = nullptr);

}  // namespace cubex::mpi
