// The bitset backend: plain exact cover (every primary item 1..1, secondary items at most once)
// as bit operations on the set of live options.
//
// State at search level L is one bitset `live[L]` over the options (bit o set: option o is still
// compatible with the options chosen so far) and one bitset `open[L]` over the primary items not
// yet covered. Choosing option x gives the child
//     live[L+1] = live[L] & ~col[j] for every item j of x,     open[L+1] = open[L] - items(x),
// where col[j] is the set of options that contain j: this removes x and every option that
// conflicts with it, primary or secondary alike, with no branch on the item's kind. Nothing is
// undone on backtracking: the parent's level is still there. The number of ways to cover item i
// is popcount(live[L] & col[i]); the item with the fewest (ties: the first) is branched on, its
// options in increasing index order - without pruning, exactly the tree of the dancing-links
// backend, which the tests check node for node. Pruning (EngineTuning::prune, where
// bitset_prune_limit says it pays; choose.hpp, prune_choose) removes options before the choice:
// a smaller tree with the same solutions, named by its own choice rule.
//
// Colours (Knuth's XCC): an option that gives secondary item j colour c kills, instead of col[j],
// kill(j, c) = the options that contain j without colour c (another colour or none). Each entry
// of an option names the dense row it kills (opt_kill): the item's column, or the row of its
// (item, colour) pair after the columns. Uncoloured problems have no extra rows.
//
// col[i] is stored sparsely, as the (word, mask) pairs of its non-zero 64-bit words: an item met
// by few options (a piece of a polycube puzzle, whose placements are consecutive) costs a few
// words, not the width of the matrix.
//
// Tiny tables below a node (BitsetEngine::narrow_tiny): in a problem of at most 64 items without
// colours, the first node of a path with at most 64 live options renumbers them into one word,
// each option a 64-bit mask of its items; counts are byte lanes summed over the live options'
// masks. The same tree, plain or pruned.
//
// Narrower tables below a node (pruned trees, BitsetEngine::compact): deep in the tree few options
// are live, yet every row the search reads (columns, conflict rows) spans all options. The first
// node of a path whose live options fit in half the words renumbers them 0, 1, ... in order and
// builds tables of that width for its subtree (tl_[L]: the tables level L's options are numbered
// in). Items, counts and the order of options stay as they are: the same tree, faster.
//
// Files: kernels.hpp (the loops' types and choosers), avx2_kernels.hpp and avx512_kernels.hpp
// (the loops, each compiled for its instruction set), tables.hpp (Tables), engine_class.hpp
// (BitsetEngine) with choose.inc, descend.inc and search.inc (parts of its class body), and
// policy.cpp (where pruning applies, whether the backend does). This file is the one translation
// unit of the loops and the engine, in that order: GCC's inlining of the search loop depends on
// what the unit holds (with the kernels in files of their own, choose() and descend_live() were
// no longer inlined into it), so the unit holds what bitset.cpp held, and the same code comes
// out (the same function sizes in the object file).
#include <memory>

#include "../engine.hpp"

// The loops without AVX-512, the tables, the engine.
#include "avx2_kernels.hpp"
#include "engine_class.hpp"
#include "tables.hpp"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,avx2,bmi,bmi2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("popcnt,avx2,bmi,bmi2")
#endif

namespace cubex::detail {

std::unique_ptr<Engine> make_bitset_engine(const Problem& p, const EngineTuning& tuning) {
  return std::make_unique<BitsetEngine>(std::make_shared<const Tables>(p, tuning));
}

}  // namespace cubex::detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

// The AVX-512 loops and the choosers, after the engine (as in one file before).
#include "avx512_kernels.hpp"  // NOLINT(llvm-include-order)
