// cubex/core/tuning.hpp - how the bitset backend searches: which loops and tables it uses, and
// whether it prunes. A value given to a Solver or a SearchJob (the default everywhere else); the
// engine resolves it once, when its tables are built, into the loops each table runs.
//
// Only `prune` and `mrv` change the tree (pruning removes options before an item is chosen, so a
// pruned tree has fewer nodes; its choice rule, part of a checkpoint's identity, says so). Every
// other field changes only the loops that walk the tree: the same nodes, counts and solutions in
// the same order. The defaults are what cubex runs; tests set the others to compare the loops.
#pragma once

#include <cstdint>

namespace cubex {

// How the bitset backend finds the item with the fewest options: kScan counts them with
// popcounts at every node, kCounts keeps the counts per level and decrements them for every
// option that dies; kAuto picks by the average column length (and lets pruning apply).
enum class BitsetMrv { kAuto, kScan, kCounts };

// Pruning in the bitset backend (a smaller tree, the same solutions): kAuto prunes where it pays
// (detail::bitset_prune_limit); kOff gives the plain tree, node for node the tree of dancing
// links; kOn prunes any problem the byte-lane counts fit (tests run it on small ones).
enum class BitsetPrune { kAuto, kOff, kOn };

struct EngineTuning {
  BitsetPrune prune = BitsetPrune::kAuto;
  BitsetMrv mrv = BitsetMrv::kAuto;  // anything but kAuto turns pruning off
  // Counts mode: byte lanes on or off, and the longest column counted in a byte lane (at most
  // 254; longer columns count in 16-bit lanes).
  bool bytes = true;
  std::uint32_t short_max = 254;
  // The vector loops: false turns off the AVX-512 loops (the AVX2 ones run, as on CPUs without
  // AVX-512); avx2_rows false also turns off the AVX2 loops that hold rows of up to 64 words in
  // registers (the child's live options, pruning's test), which then run word by word, as they
  // do for longer rows.
  bool avx512 = true;
  bool avx2_rows = true;
  // Pruned trees: the first node of a path whose live options fit in half the words of the
  // problem's tables renumbers them and searches below it with tables that narrow (the same
  // tree); only where the tables have at least this many words (16: 1024 options).
  std::uint32_t compact_words = 16;
  // Pruning's test with AVX-512 on rows of up to 32 words lists an item's options bit by bit;
  // false: with vpcompressb, as longer rows do.
  bool list_bits = true;
  // Pruning's fixpoint with AVX-512 on rows of up to 32 words (and up to two vectors of byte
  // lanes and one of 16-bit lanes) runs with the node's live options, counts and last checks in
  // registers; false: in the general loop.
  bool prune_fix = true;
  // The plain tree of a problem with at most 64 items (no colours) renumbers the live options of
  // a node with at most 64 of them into one word, each option a mask of its items (tiny tables).
  bool tiny = true;
  // Below such a node (and below any node of the mask lists) that is not being replayed, the
  // plain tree runs in a loop of its own; false: in the general loop.
  bool tiny_run = true;
  // The plain tree of a problem with at most 64 items (no colours) whose option numbers fit above
  // its items' bits (at most 8,192 options) keeps each level's live options as a list of their
  // masks (tiny tables are then not used).
  bool lists = true;
};

}  // namespace cubex
