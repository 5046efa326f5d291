// The search behind `cubex solve`: options (threads, backend, checkpoint/resume, shards,
// progress) turned into a cubex::SearchJob run (cubex/core/job.hpp), and the progress line.
#pragma once

#include <boost/program_options.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cubex/core/job.hpp"
#include "cubex/io/checkpoint.hpp"
#include "cubex/symmetry.hpp"

namespace cubex::cli {

struct SearchOptions {
  std::string threads;           // --threads N (0: all cores)
  std::string checkpoint;        // --checkpoint FILE
  std::string checkpoint_every;  // --checkpoint-every SECONDS
  std::string resume;            // --resume FILE
  std::string shard;             // --shard K/N
  std::string backend = "auto";  // --backend auto|links|bitset
  std::string progress;          // --progress[=SECONDS]: "" off
  bool mpi = false;              // --mpi: one rank of an MPI job (start_mpi())
  int rank = 0, ranks = 1;       // this process among the MPI job's (0 of 1 without --mpi)
  std::shared_ptr<void> mpi_session;
  // Filled by load_resume(): the checkpoint to go on from and how it was run.
  std::optional<JobState> saved;
  CheckpointRun saved_run;
};

// Adds --threads, --backend, --checkpoint, --checkpoint-every, --resume, --shard and --progress.
void add_search_options(boost::program_options::options_description& opts, SearchOptions& o);

// With --mpi, joins the MPI job (UsageError when cubex was built without MPI, or for options
// that the MPI mode does not take); rank and ranks are then set.
void start_mpi(SearchOptions& o, const boost::program_options::variables_map& vm);

// With --resume, reads the checkpoint (InputError when it is not a valid one).
void load_resume(SearchOptions& o);

struct SearchOutcome {
  JobResult job;
  nlohmann::json json;  // the "search" object of --json
};

// Counts (visit == nullptr) or lists the solutions of `pb` (with `sym`: of its restricted
// problem, judged, one per class). `limits.max_solutions` counts classes; `limits.stop` stops.
// `symmetry` names the mode for checkpoints. Throws UsageError for bad options and InputError
// for a checkpoint that does not belong to this search.
SearchOutcome run_search(const Problem& pb, const std::string& file, ClassVisitor* visit,
                         const SolveLimits& limits, SearchOptions& o, const SymmetricSolver* sym,
                         const std::string& symmetry);

}  // namespace cubex::cli
