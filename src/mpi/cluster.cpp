// cubex::mpi::run (cluster.hpp): one search over the ranks of an MPI job.
//
// Every rank runs a SearchJob with an exchange (job.hpp's WorkExchange), the Member below: it
// starts with no work and, polled about every millisecond by its job, talks to the coordinator.
// Rank 0 also runs the Coordinator, polled by the same loop; its own member reaches it through a
// local queue, the others through MPI. All MPI calls happen on the thread that called run().
//
// The messages (each a vector of 64-bit words, the first kMagic: the protocol and its version):
//   member -> coordinator                     coordinator -> member
//   kHello     tree identity, threads          kWork     a span to search
//   kWant      counts settled; now idle        kGive     hand a span to kDonate (split if need be)
//   kDonate    0, or 1 and a span               kReport   settle and send the counts (progress)
//   kReported  counts settled, works received, kSnap     set all work aside, send it, hold still
//              spans held
//   kSnapped   counts settled, spans held      kResume   go on after kSnap
//   kSolutions classes found (--all)           kQuit     end
//   kStop      this rank was told to stop
// Counts travel as differences (what was settled since the last message), so the coordinator's
// sum is the count of the work settled everywhere. A checkpoint is a consistent cut: during kSnap
// the coordinator hands out nothing, a member answers kSnapped only when its threads hold still,
// and what a member sent before its kSnapped (counts, donated spans) reaches the coordinator
// before it (MPI keeps the order of messages between two ranks). The checkpoint is then the
// counts received, the spans of the pool and the spans each member holds.
//
// Progress (rank 0's on_progress): the nodes left are estimated as in a one-process job
// (NodesLeftEstimate: a frontier of the work left at the first report, listed on rank 0, and
// samples of its subtrees searched there) over the work left: the pool, the spans each member
// held at its kReported, and the spans handed to a member that its kReported does not yet
// acknowledge (a member counts the kWork it received; rank 0 numbers those it sent). A span
// donated after a member's report lies inside a span that report holds: overlaps are merged.
//
// Files: wire.hpp (the messages' format, no MPI), net.hpp (MPI), coordinator.hpp, member.hpp.
#include "cubex/mpi/cluster.hpp"

#include <mpi.h>

#include <algorithm>
#include <memory>
#include <span>
#include <stdexcept>
#include <thread>

#include "coordinator.hpp"
#include "member.hpp"
#include "net.hpp"

namespace cubex::mpi {

Session::Session() {
  int init = 0;
  MPI_Initialized(&init);
  if (!init) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    owner_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

Session::~Session() {
  if (!owner_) return;
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

void Session::abort(int code) const {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();  // not reached
}

using detail::Coordinator;
using detail::Member;
using detail::Net;

JobResult run(const Session& session, SearchJob& job, const JobOptions& options,
              ClassVisitor* visit) {
  if (options.ordered || options.max_classes || options.shard_count > 1) {
    throw std::invalid_argument(
        "a search over MPI ranks counts everything, unordered and unsharded: no order, limit "
        "or shard");
  }
  const TreeIdentity id = job.identity();
  Net net(session.rank());
  std::unique_ptr<Coordinator> coord;
  if (session.root())
    coord = std::make_unique<Coordinator>(net, session.size(), options, visit, id, job);
  const unsigned threads =
      options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  Member member(net, coord.get(), options, id, threads);
  JobOptions local;
  local.threads = threads;
  local.exchange = &member;
  auto found = [&](std::span<const OptionId> s, std::uint64_t orbit) {
    return member.found(s, orbit);
  };
  ClassVisitor forward(found);
  JobResult mine = job.run(local, visit ? &forward : nullptr);
  net.finish();
  return coord ? coord->result() : mine;
}

}  // namespace cubex::mpi
