// cubex/library/designer.hpp - the puzzle designer's questions (docs/library-puzzles.md): is the
// solution unique, which placements does every solution use, and how does a batch of puzzles
// compare (one CSV row per file). The solve layer's --unique, --forced, --check and --csv call
// these.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/library/library.hpp"
#include "cubex/options.hpp"
#include "cubex/puzzle.hpp"

namespace cubex::library {

// --unique: solves (through the solve layer, with `options`: threads, symmetry) until a second
// class of solutions is listed.
struct UniqueVerdict {
  std::uint64_t classes = 0;  // classes met: 0, 1, or 2 (the search stopped there)
  bool complete = true;       // false: stopped from outside before an answer
  std::uint64_t nodes = 0;
  // "unique", "not unique (at least 2 classes)" or "no solution" (the JSON's counts.unique_verdict
  // has "unique", "not unique" or "none"; "unknown" when stopped).
  std::string text() const;
  std::string json_value() const;
};
UniqueVerdict unique_verdict(const Puzzle& puzzle, Options options);

// --forced: the options that every solution uses, from one pass over all the solutions (every
// solution, with the symmetry "none": a placement is forced only if each symmetric copy is too).
struct Forced {
  std::uint64_t solutions = 0;
  std::vector<OptionId> options;  // in every solution (sorted); empty when there is none
  std::vector<OptionId> first;    // the first solution found (empty when there is none)
  bool complete = true;
  std::uint64_t nodes = 0;
};
Forced forced_options(const Puzzle& puzzle, Options options);
// The forced options as people read them (Puzzle::option_label), and the pieces they fix: each
// voxel placement's piece (solution_json's "placements"[0]["piece"]) whose every copy is forced.
struct ForcedReport {
  std::vector<std::string> placements;
  std::vector<std::string> fixed_pieces;
};
ForcedReport describe_forced(const Puzzle& puzzle, const Forced& forced);

// --check: the counts against a library entry's "expect" (nullopt counts are not compared).
struct CheckResult {
  bool agree = true;
  std::string text;  // "agree: total 9,356, unique 2,339 (Knuth ...)" or what differs
};
CheckResult check_counts(const Expect& expect, std::uint64_t total, std::uint64_t unique);

// --csv: one row per file.
std::string csv_header();
struct CsvRow {
  std::string file, name, kind;
  std::uint64_t items = 0, options = 0, total = 0, unique = 0, symmetric = 0, nodes = 0;
  double seconds = 0;
  bool complete = false;
  std::string error;  // non-empty: the file could not be read or solved (the counts are empty)
};
std::string csv_line(const CsvRow& row);
// A CSV field: quoted when it holds a comma, quote or line break.
std::string csv_field(const std::string& s);

}  // namespace cubex::library
