// The search behind `cubex solve`: threads, progress line, checkpoint/resume and shards
// (cubex/core/parallel.hpp), kept apart from cmd_solve.cpp so that the command only adds the
// options and calls run_search().
#pragma once

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "cubex/core/solver.hpp"

namespace cubex::cli {

struct SearchOptions {
  unsigned threads = 0;    // 0: all cores
  std::string checkpoint;  // --checkpoint FILE
  std::string resume;      // --resume FILE
  std::string shard;       // --shard K/N
};

// Adds --threads, --checkpoint, --resume and --shard to a command's options.
void add_search_options(boost::program_options::options_description& opts, SearchOptions& o);

struct SearchOutcome {
  SolveStats st;
  unsigned threads = 1;
  nlohmann::json json;  // the "search" object of --json: units, shard, fingerprint, backend
};

// Counts (visit == nullptr) or visits the solutions of `pb`. With one thread, no checkpoint,
// resume or shard and no terminal for progress, this is a plain Solver run; otherwise the tree
// is cut into work units. `file` names the puzzle in checkpoints. Throws UsageError for bad
// options and InputError for a checkpoint that does not fit the puzzle.
SearchOutcome run_search(const Problem& pb, const std::string& file, SolutionVisitor* visit,
                         const SolveLimits& limits, const SearchOptions& o);

// A fingerprint of the matrix (items with their ranges, options): checkpoints and shard results
// of one puzzle carry the same one.
std::string problem_fingerprint(const Problem& pb);

}  // namespace cubex::cli
