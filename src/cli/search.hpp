// What `cubex solve` adds around the solve layer (cubex/solve.hpp): the MPI mode's start (in
// cubex-mpi, the session; in cubex, running cubex-mpi in its place) and the progress line.
#pragma once

#include <boost/program_options.hpp>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "cubex/solve.hpp"

namespace cubex::cli {

// One rank of an MPI job (--mpi), or the only process.
struct MpiRank {
  bool on = false;      // --mpi
  int rank = 0, ranks = 1;
  std::shared_ptr<void> session;              // the MPI session (cubex-mpi only)
  std::unique_ptr<Distributor> distributor;   // runs the search over the ranks
  bool root() const { return rank == 0; }
  // Ends every rank with `status` when there are several (an error on this one: the others
  // would wait for it), after printing `message`; returns when this is the only process.
  void fail(const std::string& message, int status) const;
};

// With --mpi, joins the MPI job: in cubex-mpi, the session; in cubex, runs cubex-mpi in this
// process's place (UsageError when there is none, or for options that the MPI mode does not take).
void start_mpi(MpiRank& mpi, const boost::program_options::variables_map& vm,
               const Options& options);

// The progress line for Options::on_progress: on a terminal, redrawn in place every quarter
// second once the run has taken `after` seconds (a shorter run shows none); with --progress
// SECONDS (`every` > 0), a new line every so many seconds (for logs), from the start.
// Returns an empty function when neither applies. `finish()` wipes a line left on the terminal.
struct ProgressLine {
  std::function<void(const Progress&)> report;
  double seconds = 0.25;  // how often to call report
  std::shared_ptr<std::size_t> width = std::make_shared<std::size_t>(0);
  void finish() const;
};
ProgressLine progress_line(double every, double after = 1);

// The progress of the phases before the search (reading and compiling, the symmetry group: the
// board of cubex/stop.hpp, which they post to), with --progress SECONDS (`every` > 0): once they
// have run `after` seconds, a line every SECONDS on a thread of its own, e.g.
// "progress: preparing: finding the symmetries  41%  elapsed 0:03". stop() (or the destructor)
// ends it before the search's own progress lines begin.
class PhaseLine {
 public:
  PhaseLine(double every, double after);
  ~PhaseLine();
  PhaseLine(const PhaseLine&) = delete;
  PhaseLine& operator=(const PhaseLine&) = delete;
  // The board to pass as Options::phases (null without --progress).
  PhaseBoard* board() { return every_ > 0 ? &board_ : nullptr; }
  void stop();

 private:
  double every_;
  PhaseBoard board_;
  std::mutex mu_;
  std::condition_variable changed_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace cubex::cli
