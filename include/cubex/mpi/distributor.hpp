// cubex/mpi/distributor.hpp - the MPI mode as a cubex::Distributor for the solve layer.
//
//   cubex::mpi::Session session;
//   cubex::mpi::ClusterDistributor spread(session);
//   cubex::Options opt;
//   opt.distributor = &spread;          // every rank calls cubex::solve with the same options
//   cubex::Result r = cubex::solve(*puzzle, opt);   // rank 0 has the counts of all
#pragma once

#include "cubex/distributor.hpp"
#include "cubex/mpi/cluster.hpp"

namespace cubex::mpi {

class ClusterDistributor final : public Distributor {
 public:
  explicit ClusterDistributor(const Session& session) : session_(session) {}
  JobResult run(SearchJob& job, JobOptions& options, ClassVisitor* visit) override {
    if (!session_.root()) {  // rank 0 reports and saves for all
      options.on_progress = nullptr;
      options.on_checkpoint = nullptr;
    }
    return mpi::run(session_, job, options, visit);
  }
  int ranks() const override { return session_.size(); }

 private:
  const Session& session_;
};

}  // namespace cubex::mpi
