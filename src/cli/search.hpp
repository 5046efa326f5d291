// The search behind `cubex solve`: threads, progress line, checkpoint/resume and shards
// (cubex/core/parallel.hpp), kept apart from cmd_solve.cpp so that the command only adds the
// options and calls run_search().
#pragma once

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "cubex/core/solver.hpp"
#include "cubex/symmetry.hpp"

namespace cubex::cli {

struct SearchOptions {
  unsigned threads = 0;    // 0: all cores
  std::string checkpoint;  // --checkpoint FILE
  std::string resume;      // --resume FILE
  std::string shard;       // --shard K/N
};

// Adds --threads, --checkpoint, --resume and --shard to a command's options.
void add_search_options(boost::program_options::options_description& opts, SearchOptions& o);

// Counts up to symmetry: classes, the solutions they hold, the symmetric classes. Without a
// symmetry group every solution is its own class.
struct Tally {
  std::uint64_t unique = 0, total = 0, symmetric = 0;
};

struct SearchOutcome {
  SolveStats st;
  Tally tally;
  unsigned threads = 1;
  nlohmann::json json;  // the "search" object of --json: units, shard, fingerprint, backend
};

// Counts (visit == nullptr) or visits the solutions of `pb`. With one thread, no checkpoint,
// resume or shard and no terminal for progress, this is a plain Solver run; otherwise the tree
// is cut into work units. `file` names the puzzle in checkpoints. Throws UsageError for bad
// options and InputError for a checkpoint that does not fit the puzzle.
// With `sym`, the search runs on sym->restricted(), each solution found is judged, and only the
// canonical ones count as classes and reach `visit` (as options of `pb`, with their class size);
// `limits.max_solutions` then counts classes. Without it every solution has class size 1.
SearchOutcome run_search(const Problem& pb, const std::string& file, OrbitVisitor* visit,
                         const SolveLimits& limits, const SearchOptions& o,
                         const SymmetricSolver* sym = nullptr);

// A fingerprint of the matrix (items with their ranges, options): checkpoints and shard results
// of one puzzle carry the same one.
std::string problem_fingerprint(const Problem& pb);

}  // namespace cubex::cli
