// cubex/distributor.hpp - a search run somewhere else: the hook of the MPI mode.
//
// The solve layer (cubex/solve.hpp) makes the search job and its options; a Distributor, when
// Options::distributor names one, runs that job over several processes instead of on this one's
// threads (cubex/mpi/distributor.hpp is the MPI one). The solve layer stays free of MPI.
#pragma once

#include "cubex/core/job.hpp"

namespace cubex {

class Distributor {
 public:
  virtual ~Distributor() = default;
  // Runs `job` with `options` (which it may change: only one process reports progress and
  // writes checkpoints) and returns the result of the whole spread search.
  virtual JobResult run(SearchJob& job, JobOptions& options, ClassVisitor* visit) = 0;
  // The processes that take part.
  virtual int ranks() const = 0;
};

}  // namespace cubex
