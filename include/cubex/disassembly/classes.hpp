// cubex/disassembly/classes.hpp - taking apart the assemblies of a puzzle, one per symmetry class
// (a class comes apart or not as a whole): on several threads, in batches as the search finds
// them, with the counts and the levels, and the classes handed on in the order found or with the
// highest level first.
//
// It knows nothing of puzzles or of the solve layer: `assembly` turns a solution (options) into
// the disassembler's input, and `deliver` receives each class with its result.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/disassembly/disassembler.hpp"

namespace cubex::disassembly {

struct Counts {
  std::uint64_t apart = 0;          // solutions that come apart (their classes' sizes added)
  std::uint64_t apart_unique = 0;   // classes that come apart
  std::uint64_t locked_unique = 0;  // classes that do not
  std::uint64_t cut_unique = 0;     // classes whose search outgrew the memory bound (unknown)
  std::uint64_t no_pieces = 0;      // solutions the puzzle has no pieces for (not voxel)
  std::uint64_t lifts_all_but_one = 0;        // classes apart where a part is lifted off one piece
  std::map<std::vector<int>, std::uint64_t> levels;  // classes per level
  std::vector<int> hardest;         // the highest level (empty: none came apart)
  std::string cut_message;          // why the first cut search was cut
  std::uint64_t positions = 0;      // positions visited, over all searches
};

// Whether level a is higher than b: more moves for the first separation, then for the next...
bool higher(const std::vector<int>& a, const std::vector<int>& b);
// "4.9.3"
std::string level_text(const std::vector<int>& level);

// The "disassembly" object of a solution in JSON: {"level": [4, 9, 3], "moves": [{"pieces":
// [0, 2], "direction": "+x", "distance": 1, "separates": false}, ...]} (pieces are indices into
// the solution's placements), and "lifts_all_but_one" where it holds.
nlohmann::json to_json(const Result& r);

class Classes {
 public:
  using Assembly = std::function<std::optional<Input>(std::span<const OptionId>)>;
  // Called with each class (its solution, class size, result) to pass on; return false to stop.
  using Deliver = std::function<bool(std::span<const OptionId>, std::uint64_t, const Result&)>;

  // threads: 0 all cores. keep_locked: deliver the classes that do not come apart too.
  // by_level: deliver at the end, the highest level first (else as they are taken apart).
  Classes(Assembly assembly, unsigned threads, bool keep_locked, bool by_level,
          Limits limits = {});
  ~Classes();

  // One class found; taken apart with the others of its batch. False when `deliver` said stop.
  bool add(std::span<const OptionId> solution, std::uint64_t orbit, const Deliver& deliver);
  // Takes apart what is left and delivers it (all of it with by_level). False when stopped.
  bool finish(const Deliver& deliver);

  const Counts& counts() const { return counts_; }

 private:
  struct Item {
    std::vector<OptionId> solution;
    std::uint64_t orbit = 1;
    Result result;
    std::uint64_t order = 0;
  };
  bool flush(const Deliver& deliver);
  void run_batch();

  Assembly assembly_;
  unsigned threads_;
  bool keep_locked_, by_level_;
  Limits limits_;
  std::vector<Item> batch_;
  std::vector<Item> kept_;  // by_level: the classes to deliver at the end
  std::vector<std::unique_ptr<Workspace>> workspaces_;
  Counts counts_;
  std::uint64_t seen_ = 0;
  bool stopped_ = false;
};

}  // namespace cubex::disassembly
