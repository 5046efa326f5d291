// baselines.hpp - the same exact-cover matrix solved by a MILP solver (CBC) and a SAT solver
// (CaDiCaL) beside the dancing-links core, and the Happy Cube seed's own integer program.
//
// Every function takes the compiled Problem of a puzzle and either stops at the first solution
// (`all == false`) or enumerates them all (MILP: one no-good cut per solution found, re-solved
// from scratch; SAT: one blocking clause per solution, solved incrementally), within a time
// limit. Solutions are handed to a visitor as sorted option lists; the caller verifies them.
//
// Built only with -DCUBEX_BASELINES=ON (needs coinor-libcbc-dev and libcadical-dev).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/happycube/model.hpp"

namespace cubex::baselines {

using Solution = std::vector<OptionId>;  // sorted option indices
// Called once per solution found; return false to stop.
using Visit = std::function<bool(const Solution&)>;

struct Run {
  // The question was answered within the limit: for a first-solution run, a solution was found
  // or none exists; for an enumeration, every solution was found.
  bool finished = false;
  std::uint64_t solutions = 0;  // solutions handed to the visitor
  double seconds = 0;  // wall clock, including building the solver's model from the Problem
  bool stopped_by_visitor = false;
};

// Dancing links (cubex::Solver), for reference under the same conditions.
Run dlx_run(const Problem& pb, bool all, double limit_s, const Visit& visit);

// The 0/1 program: one binary variable per option, lo <= sum <= hi per primary item (an equality
// row for plain exact cover), sum <= 1 per secondary item, zero objective; CbcMain1 "-solve" with
// the log off.
Run cbc_run(const Problem& pb, bool all, double limit_s, const Visit& visit);

// The CNF: one variable per option; per primary item an at-least-one clause and an at-most-one
// encoding (pairwise for rows of at most kPairwiseMax options, a sequential counter above);
// items with a range lo..hi other than 1..1 get a sequential counter with both directions; per
// secondary item an at-most-one encoding.
inline constexpr std::size_t kPairwiseMax = 6;
Run cadical_run(const Problem& pb, bool all, double limit_s, const Visit& visit);

// The CNF's size, for the table.
struct CnfSize {
  int variables = 0;
  std::uint64_t clauses = 0;
};
CnfSize cnf_size(const Problem& pb);

// The Happy Cube seed's model, built from the plates and the faces (not from the compiled
// options): binary x[piece, place, flip, turns] for every physical piece (copies counted apart)
// and all 4 turns x (2 sides, or 1 when the piece may not flip); one row per piece and per place;
// one exactly-one row per border point of the shell: on a single cube these are the complement
// rows x_a + x_b = 1 for the 3 middle cells of each of the 12 edges and the exactly-one rows of
// the 8 corners. Objective: the number of flipped plates plus the number of plates turned by a
// half turn (2 quarter turns). Each solution found is mapped to the compiled Problem's options
// (piece type, face, oriented grid), so it can be compared with the other solvers. Enumeration
// cuts off each cube found as a whole (every assignment that lays the same grids on the same
// faces), so symmetric plates and identical copies do not repeat a cube.
struct SeedRun {
  Run run;
  int variables = 0, rows = 0;
  double first_cost = -1;  // objective of the first (optimal) solution; -1 if none
  std::string error;       // a seed solution that maps to no option set (a bug)
};
SeedRun happy_seed_run(const happycube::Model& model, bool all, double limit_s, const Visit& visit);

}  // namespace cubex::baselines
