// cubex/core/memo.hpp - counting exact covers by remembering sub-problems, without visiting each
// solution.
//
// Once some options are chosen, what is left to count depends only on which items they cover
// (how often, for items with a multiplicity, and with which colour, for coloured secondary
// items), not on which options covered them. The counter below searches as Algorithm X does and
// remembers the count of every such state in a hash table: a state met again is not searched
// again. The item branched on depends on the state alone: with an order that lists every
// primary item of range 1..1, the first one not yet covered (a front end that knows the geometry
// gives a sweep that keeps the frontier small: a box's cells along its longest axis); otherwise
// an item with no or one live option, then the first uncovered item of the order, then the item
// with the fewest options. Where many partial solutions leave the same state (a Happy Cube shell:
// plates on distant faces do not interact), this counts billions of solutions in the time of a few
// million states. Where they rarely do (most voxel puzzles) it only costs memory; the table has a
// byte budget.
//
// It also counts the solutions that an item permutation g (or every element of a group of them)
// fixes (g must map options onto options): those are unions of whole orbits of options under g,
// and correspond one to one to the exact covers of a smaller problem whose items and options are
// the orbits (the quotient).
// Burnside's lemma turns such counts into the number of classes up to a group (symmetry.hpp).
//
// Applies to problems in which every option covers at least one primary item of range 1..1
// (exact cover with secondary items and colours, and Algorithm M's multiplicities on items every
// option also shares with such an item, as the piece items of puzzles are). Otherwise
// memo_applies() says why not. Counts are exact at any size (BigCount): the table's values
// start one or two words wide and the count starts again twice as wide after an overflow.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "cubex/core/bigcount.hpp"
#include "cubex/core/problem.hpp"
#include "cubex/core/solver.hpp"

namespace cubex {

// What a count has done so far (MemoLimits::on_progress).
struct MemoProgress {
  std::uint64_t states = 0;  // sub-problems counted
  std::uint64_t hits = 0;    // sub-problems answered from the table
  std::size_t bytes = 0;     // the table's size
  // The share of the search done (0..1): the walk's place in its tree, each level's child index
  // over its number of children (a sub-problem answered from the table is done at once). An
  // estimate, as a search's; it does not fall.
  double fraction = 0;
};

struct MemoLimits {
  std::size_t max_bytes = std::size_t{1} << 30;  // the hash table's budget (1 GiB)
  const std::atomic<bool>* stop = nullptr;       // set from outside to stop
  // Called on the counting thread every 4,096 sub-problems counted (when set; with threads, see
  // `threads`).
  std::function<void(const MemoProgress&)> on_progress;
  // Items of range 1..1 to branch on first, in this order (the first one not yet covered). When
  // it lists them all, that item alone is branched on; otherwise only when no item is down to
  // one live option, and once the order is covered the item with the fewest options. A front end
  // that knows which items keep the states few (a Happy Cube's faces, neighbour after
  // neighbour; a box's cells, sweeping along its longest axis) says so.
  std::span<const ItemId> order;
  // Stop once this many sub-problems are counted (0: no limit): a trial that tells whether the
  // memo pays (states met again, `hits`, against states counted), or a count bounded in time.
  // A limit within `alone` is counted on the calling thread; a larger one counts the threads'
  // sub-problems together (they add theirs 4,096 at a time).
  std::uint64_t max_states = 0;
  // Threads that count (1: the calling thread alone). With more, the calling thread counts
  // alone for `alone` sub-problems first (a count that ends within them is as on one thread,
  // its states included); then the first levels of the tree are walked breadth first into
  // distinct states, each with the number of ways to reach it, and the threads take those
  // states in turn and count them with one table that they share (no lock: a slot is claimed
  // with an atomic operation), seeded with the first table, within max_bytes together.
  // on_progress is then called on the calling thread about every 50 ms, with the share of those
  // states counted.
  unsigned threads = 1;
  std::uint64_t alone = std::uint64_t{1} << 18;  // 0: on the threads from the start
};

struct MemoCount {
  bool complete = false;        // false: see `why`
  std::string why;              // why it stopped: the byte budget, the stop flag
  BigCount count;               // solutions (when complete)
  std::uint64_t states = 0;     // sub-problems counted and remembered (the search nodes)
  std::uint64_t hits = 0;       // sub-problems met again and answered from the table
  std::size_t bytes = 0;        // the table's largest size
  std::size_t value_words = 1;  // 64-bit words per count in the table
  unsigned threads = 1;         // threads that counted (MemoLimits::threads, or fewer where the
                                // tree's first levels have fewer states)
  double seconds = 0;
};

// An empty string when the counter applies to `problem`, otherwise why not.
std::string memo_applies(const Problem& problem);

// The number of solutions of `problem` fixed by the item permutation `perm` (perm[i] is the image
// of item i; an empty span is the identity: all solutions). Throws ProblemError when memo_applies()
// is not empty, `perm` is not a permutation of the items that keeps their ranges and maps every
// option onto an option, or two options cover the same items.
MemoCount memo_count(const Problem& problem, std::span<const ItemId> perm = {},
                     const MemoLimits& limits = {});

// The number of solutions of `problem` fixed by every permutation in `perms` (so by the group they
// generate): the exact covers of the quotient whose items are the orbits of items under that
// group. Throws as memo_count().
MemoCount memo_count_fixed(const Problem& problem, std::span<const std::vector<ItemId>> perms,
                           const MemoLimits& limits = {});

// Visits the solutions of `problem` fixed by `perm` (options sorted), without memo: for
// permutations that fix few solutions. Stops after `max_solutions` (0: no limit) or when the
// visitor returns false. Throws as memo_count().
SolveStats memo_solve_fixed(const Problem& problem, std::span<const ItemId> perm,
                            SolutionVisitor visit, std::uint64_t max_solutions = 0,
                            std::span<const ItemId> order = {});

}  // namespace cubex
