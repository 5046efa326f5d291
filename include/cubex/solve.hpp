// cubex/solve.hpp - the one place that decides how a puzzle is answered.
//
// Every client (the CLI, the Python module, a C++ program) asks here, and gets the same answer:
//   1. the pre-search checks: a puzzle whose front end proves it has no solution (the cells do
//      not add up, a piece fits nowhere) is answered without searching, with the reason;
//   2. counting by memo (cubex/core/memo.hpp) where the puzzle asks for it and only counts are
//      wanted, else (or when the memo gives up) the search;
//   3. the symmetry group: solutions counted and listed one per class, with the class sizes;
//   4. the search on all threads, with progress, stop, checkpoints, resume and shards, or spread
//      over processes (a Distributor: the MPI mode);
//   5. the result, as numbers (Result) and as the JSON of `cubex solve --json` (result_json.hpp).
//
//   auto puzzle = cubex::load("puzzles/voxel/soma.json");
//   cubex::Counts c = cubex::count(*puzzle);              // 11520 solutions, 240 classes
//   cubex::solve(*puzzle, opt, [&](const cubex::Solution& s) { ...; return true; });
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "cubex/disassembly/classes.hpp"
#include "cubex/distributor.hpp"
#include "cubex/options.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/symmetry.hpp"

namespace cubex {

// A count of solutions: exact at any size (counting by memo passes 2^64: the domino tilings
// of 16x16 are 2,444,888,770,250,892,795,802,079,170,816). Printed with <<, compared with ==
// (also with integers), whatever its width. In JSON a number when it is below 2^53 (exact in
// every JSON reader), else a string of decimal digits.
using Count = BigCount;
void to_json(nlohmann::json& j, const BigCount& n);
// Reads a number or a string of decimal digits; throws nlohmann::json::type_error otherwise.
void from_json(const nlohmann::json& j, BigCount& n);

struct Counts {
  Count total = 0;      // every solution
  Count unique = 0;     // classes up to the symmetry group (= total with the group of order 1)
  Count symmetric = 0;  // classes whose solutions some symmetry that moves cells maps to itself
  std::size_t group_order = 1;
  bool complete = true;  // false: stopped early (a limit, the stop flag); counts so far
  bool operator==(const Counts&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Counts& c);

// A solution as a client sees it.
struct Solution {
  std::span<const OptionId> options;  // options of puzzle.problem(), sorted
  std::uint64_t index = 0;            // 1, 2, ... in the order listed
  std::uint64_t class_index = 0;      // 1, 2, ... the class it belongs to
  std::uint64_t orbit = 1;            // solutions in its class
  std::size_t element = 0;            // the group element that maps the class's first onto it
  // With Options::disassemble: how the class comes apart (status kApart), or not (--keep-locked).
  const disassembly::Result* disassembly = nullptr;
};
// Called once per solution listed; return false to stop.
using SolutionSink = std::function<bool(const Solution&)>;

// What solve() found.
struct Result {
  Counts counts;
  std::uint64_t listed = 0;  // solutions passed to the sink
  bool interrupted = false;  // the stop flag ended it
  // With `interrupted`: the phase before the search that the stop ended (cubex/stop.hpp:
  // "finding the symmetries"); nothing was searched and no checkpoint written. Null when the
  // search ran.
  const char* stopped_in = nullptr;
  bool limited = false;      // the limit (or the sink) ended it
  std::uint64_t nodes = 0;    // search-tree nodes (by memo: sub-problems counted)
  std::uint64_t updates = 0;  // backend work
  double seconds = 0;         // this run
  double total_seconds = 0;   // this run and the runs it resumed
  unsigned threads = 0;
  // How the answer was found: "checks" (no solution, proved before searching: see
  // `infeasible`), "memo" or "search".
  std::string method;
  std::string infeasible;          // why there is no solution, when method is "checks"
  std::vector<std::string> notes;  // what the front end noticed, one line each
  std::uint64_t memo_states = 0;   // by memo: sub-problems counted
  std::size_t memo_bytes = 0;      // by memo: the largest table
  // How the count was chosen (Options::count_by): "asked" (--count-by), or what the automatic
  // choice saw; "" when it did not count.
  std::string memo_why;
  bool resumed = false;            // went on from Options::resume
  std::string checkpoint_error;    // the last checkpoint that could not be written ("" if none)
  nlohmann::json search;           // the "search" object of --json (backend, tree, spans...)
  // With Options::disassemble: how many classes come apart, their levels.
  std::optional<disassembly::Counts> disassembly;
  // The classes up to rotations alone, where the puzzle records counts of its own (BurrTools,
  // which counts so when it keeps mirror solutions), the symmetry is automatic and its group
  // has reflections, and the run finished (not a shard's, nor one that resumed a checkpoint
  // without them); the summary and JSON print it beside them. Counted by the same run: a class
  // up to the whole group is two classes up to its rotations when no reflection fixes its
  // solutions, else one (by memo: Burnside's lemma over the rotations alone).
  struct RotationCounts {
    Count unique = 0;
    // With Options::disassemble, of the classes that come apart (absent when the run resumed a
    // checkpoint: it takes apart only the classes it finds itself).
    std::optional<Count> apart_unique;
  };
  std::optional<RotationCounts> rotations;
};

// A solve decided but not yet run: the symmetry group, the checkpoint to resume, the JSON
// header. Clients that stream output (the CLI) open it, write the header, then run(). A stop
// (Options::stop) while the group is found leaves the plan with the identity alone, and run()
// returns an interrupted Result at once (Result::stopped_in).
class Plan {
 public:
  // Throws Error (usage) for options that do not apply, (input) for a --resume checkpoint
  // that is not a valid one or belongs to another search. `puzzle` must outlive the plan.
  Plan(const Puzzle& puzzle, Options options);
  ~Plan();
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  const Puzzle& puzzle() const { return puzzle_; }
  const Options& options() const { return options_; }
  // The mode used (the option, or what --resume's checkpoint says).
  Symmetry symmetry() const { return symmetry_; }
  const CubeGroup& group() const { return group_; }
  // Elements of the group that move no item (a flat puzzle's mid-plane mirror).
  std::size_t kernel() const;
  // The matrix the search walks (`cubex compile --dlx` writes it): with a group of order > 1,
  // the problem with an anchor item's options cut to one per class (`anchored()`: one was
  // found); otherwise the puzzle's problem. original_option() maps its options back.
  const Problem& searched() const;
  bool anchored() const;
  OptionId original_option(OptionId o) const;
  // The keys of --json before the solutions: puzzle, mode, expand, symmetry.
  // `mode` is "count", "first" or "all" as the client names what it asked for.
  nlohmann::json header_json(const std::string& mode) const;
  // Solves: counts and lists (sink may be empty: count only). Runs once.
  Result run(const SolutionSink& sink = {});

 private:
  const Puzzle& puzzle_;
  Options options_;
  Symmetry symmetry_ = Symmetry::automatic;
  CubeGroup group_;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reads a puzzle file of any supported format (by its extension: cubex/formats.hpp), with
// options.problem (BurrTools) and options.max_nodes. Throws Error (input, limit).
std::unique_ptr<Puzzle> load(const std::filesystem::path& path, const Options& options = {});

// Counts the solutions (in total, up to symmetry, symmetric), on options.threads threads.
Counts count(const Puzzle& puzzle, const Options& options = {});

// Solves with everything the options say, passing each solution listed to `sink` (count only
// when empty). The distributor, when given, runs the search (the MPI mode).
Result solve(const Puzzle& puzzle, const Options& options = {}, const SolutionSink& sink = {});

// The keys of --json after the solutions: counts, stats, search, notes (and recorded,
// infeasible where there are).
nlohmann::json footer_json(const Plan& plan, const Result& result);
// One whole --json document (header, the solutions given, footer), for programs that hold
// their solutions; `solutions` are solution_json() objects.
nlohmann::json result_json(const Plan& plan, const Result& result, const std::string& mode,
                           const nlohmann::json& solutions = nlohmann::json::array());
// 1234567 -> "1,234,567"
std::string with_commas(std::uint64_t n);
std::string with_commas(const BigCount& n);

// The summary as `cubex solve` prints it (title, notes, counts, nodes), lines ending in '\n'.
std::string summary_text(const Plan& plan, const Result& result);

}  // namespace cubex
