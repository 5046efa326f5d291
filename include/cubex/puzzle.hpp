// cubex/puzzle.hpp - what a puzzle front end gives the CLI.
//
// A front end reads a file, compiles it to one exact-cover Problem, and maps the options of a
// solution back to something a person understands (placements, a drawing). The core never sees
// this interface; the CLI, the tests and the benchmarks use it to treat every kind alike.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/limits.hpp"
#include "cubex/puzzle/assembly.hpp"
#include "cubex/puzzle/scene.hpp"
#include "cubex/symmetry.hpp"

namespace cubex {

class Puzzle {
 public:
  virtual ~Puzzle() = default;

  // Short name of the kind: "exact-cover", "voxel", "happy-cube".
  virtual std::string kind() const = 0;
  // The puzzle's own name (from the file), or the file name.
  virtual std::string name() const = 0;
  // The compiled exact-cover matrix.
  virtual const Problem& problem() const = 0;
  // What the front end noticed while reading, one line each, printed before the counts:
  // "pieces A and B are congruent: counted as identical", "warning: piece 'X' is not connected...",
  // which of several problems of a BurrTools file is solved.
  virtual std::vector<std::string> notes() const { return {}; }
  // Why the puzzle can have no solution, found without searching (the cells do not add up, a
  // piece fits nowhere, a checkerboard count...); empty when only the search can tell. The CLI
  // then reports 0 solutions with this reason and does not search.
  virtual std::string infeasible() const { return {}; }
  // One solution as a JSON object, e.g. {"options": [...]} or {"placements": [...]}.
  virtual nlohmann::json solution_json(std::span<const OptionId> solution) const = 0;
  // One solution drawn as text for the terminal (ends with a newline).
  virtual std::string solution_text(std::span<const OptionId> solution) const = 0;
  // The same drawing for a colour terminal: each piece's letters on its own colour (ANSI escapes;
  // the colours of render::assign_colours, as in the pictures). By default the plain text.
  virtual std::string coloured_solution_text(std::span<const OptionId> solution) const {
    return solution_text(solution);
  }
  // Re-checks one solution in the JSON form of solution_json() from scratch, without the
  // compiled Problem's options (an independent path: it must not trust the compiler). Returns
  // an empty string when the solution is valid, otherwise what is wrong ("placements[2]: ...").
  virtual std::string verify_solution(const nlohmann::json& solution) const = 0;
  // The puzzle's symmetry group under `mode`, acting on the problem's items (symmetry.hpp):
  // the container's rotations, plus its reflections where the pieces allow them. A kind without
  // geometry (a Knuth-format matrix) has the identity alone. Polls `watch` (cubex/stop.hpp):
  // throws Interrupted once its stop flag is set.
  virtual CubeGroup symmetry_group(SymmetryMode mode, const Watch& watch = {}) const {
    (void)mode;
    (void)watch;
    return {trivial_group(problem().num_items()), {0}, {}};
  }
  // The items that stand for pieces (one per piece, or per set of identical pieces), with the
  // piece's name: the symmetry group permutes them (a reflection swaps a chiral piece with its
  // mirror twin), and `--json` lists that permutation for every element. Empty for kinds
  // without pieces (a Knuth-format matrix).
  virtual std::vector<std::pair<std::string, ItemId>> piece_items() const { return {}; }
  // The geometry of one solution for pictures (render/): `solution` is in the JSON form of
  // solution_json() and verify_solution() accepted it. nullopt for kinds that have no geometry
  // (Knuth's exact-cover files).
  virtual std::optional<render::Scene> scene(const nlohmann::json& /*solution*/) const {
    return std::nullopt;
  }
  // Items to branch on first when the solutions are counted by memo, without listing them
  // (cubex/core/memo.hpp, count_classes_by_memo in symmetry.hpp). Empty (the default): the
  // puzzle is counted by search. A kind whose partial solutions often leave the same state says
  // which items keep the states few (the Happy Cube front end: its faces, neighbour after
  // neighbour).
  virtual std::vector<ItemId> memo_order() const { return {}; }
  // Whether counting by memo is likely to pay, for `--count-by auto` (cubex/solve.hpp): kNever
  // (the default: counted by search unless --count-by memo asks); kTrial: it may (voxel puzzles
  // of a few shapes in many copies, such as domino tilings; Knuth files, whose shape is not
  // known), and each way is tried briefly, the memo's sub-problems met again against the
  // search's estimated tree (docs/memo.md); kAlways: the memo counts (Happy Cube structures).
  enum class MemoHint { kNever, kTrial, kAlways };
  virtual MemoHint memo_hint() const { return MemoHint::kNever; }
  // One line naming option o for people (a comment in `cubex compile --dlx` output), e.g.
  // "piece L rotation 5 offset [0,1,0]". By default "option o" (0-based).
  virtual std::string option_label(OptionId o) const { return "option " + std::to_string(o); }
  // Counts the file records itself (BurrTools saves its assemblies and solutions); nullopt
  // when it records none.
  struct RecordedCounts {
    std::string source;                       // "BurrTools"
    std::optional<std::uint64_t> assemblies;  // up to symmetry, as cubex's "unique"
    std::optional<std::uint64_t> solutions;   // assemblies that can also be taken apart
  };
  virtual std::optional<RecordedCounts> recorded_counts() const { return std::nullopt; }
  // The pieces of a solution as the disassembler takes them (cubex/disassembly): nullopt for
  // kinds without pieces on the cube grid.
  virtual std::optional<disassembly::Input> assembly(std::span<const OptionId> /*solution*/) const {
    return std::nullopt;
  }

  // The file the puzzle was read from ("" for one built in memory); load() sets it.
  const std::string& file() const { return file_; }
  void set_file(std::string file) { file_ = std::move(file); }

 private:
  std::string file_;
};

// How to read a file, where a format has choices.
struct LoadOptions {
  std::string problem;  // BurrTools: the problem to solve, by name or 1-based index ("": first)
  Limits limits;        // what the readers may read and build (cubex/limits.hpp)
};

// Reads a puzzle file, choosing the format by its extension from the table of formats
// (cubex/formats.hpp). Throws InputError for unreadable or malformed files and unknown extensions.
std::unique_ptr<Puzzle> load_puzzle(const std::string& path, const LoadOptions& options = {});

// The exact-cover front end: a Problem read from Knuth's format, solutions as lists of options.
std::unique_ptr<Puzzle> load_exact_cover(const std::string& path, const Limits& limits = {});
// The same for a file already parsed (parse_knuth); `name` is what name() returns.
struct KnuthFile;
std::unique_ptr<Puzzle> make_exact_cover(KnuthFile file, std::string name);

}  // namespace cubex
