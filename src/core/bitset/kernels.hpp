// The bitset backend's loops as functions that its tables choose once (engine.cpp, Tables):
// their types, the constants they share, and the functions that pick one for a table's width
// and the engine's tuning (EngineTuning: avx512, avx2_rows, list_bits, prune_fix). The AVX-512
// loops are in avx512_kernels.hpp, the AVX2 and plain ones in avx2_kernels.hpp; each file
// compiles its loops for its instruction set (a target pragma around them), and the choosers
// (at the end of avx512_kernels.hpp) for any CPU: they look at the CPU before they hand out a
// loop.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

// (Declared for CPUs with POPCNT, AVX2 and BMI2, as the engine that calls them: the choosers
// defined in avx512_kernels.hpp take that target from these declarations; they run only once
// bitset_supported has seen those parts.)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,avx2,bmi,bmi2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("popcnt,avx2,bmi,bmi2")
#endif

namespace cubex::detail {

// (An anonymous namespace: each file that includes this one has its own copy, with internal
// linkage, as the compiler had them when they were one file.)
namespace {  // NOLINT(cert-dcl59-cpp, google-build-namespaces)

// Tables::lane: the item counts in a 16-bit lane (kLong), or has no count (kNoLane: narrowed
// tables, the item is covered).
constexpr std::uint32_t kLong = 0x80000000u;
constexpr std::uint32_t kNoLane = 0x7FFFFFFFu;
// Mask lists (BitsetEngine::lists_) for problems of at most this many options: each level keeps
// a list of its live options' masks (8 bytes an option).
constexpr std::uint32_t kListMax = 8192;
constexpr std::uint32_t kPruneBelow = 16;  // Tables::prune, when it applies
// (conflict_all's AVX-512 listing takes up to 16 options of a word at a time: an item checked
// with more live options would lose some of them, as a scratch build with 24 showed.)
static_assert(kPruneBelow <= 16, "conflict_all lists at most 16 options per word");
constexpr std::uint32_t kPruneMax = 64;              // (the largest Tables::prune + 1)
constexpr std::uint32_t kOptsRoom = kPruneMax + 64;  // remove_conflicting's list of options
constexpr std::size_t kConflictBytes = std::size_t{32} << 20;  // largest Tables::conflict
constexpr std::size_t kPruneMinOptions = 1024;                 // bitset_prune_limit

// The pruning fixpoint's next pass checks the items with at most this many options (0: it is
// done): after a pass that removed options, 1 again; else the limit doubles up to `prune`.
inline std::uint32_t next_limit(std::uint32_t lim, bool removed, std::uint32_t prune) {
  if (removed) return 1;
  return lim < prune ? std::min(lim * 2, prune) : 0;
}

}  // namespace

// Byte-lane counts with AVX-512 (avx512_kernels.hpp, compiled for AVX-512BW): c1 = c0 minus, for
// each of the n options listed, a one in every lane its mask word sets.
using SubtractMasksFn = void (*)(const std::uint64_t* src, const std::uint64_t* dst,
                                 const std::uint32_t* nz, std::uint32_t nzc,
                                 const std::uint64_t* masks, std::uint32_t stride,
                                 const std::uint8_t* c0, std::uint8_t* c1, const std::uint16_t* d0,
                                 std::uint16_t* d1);
SubtractMasksFn subtract_masks_for(std::uint32_t w8, std::uint32_t w16, bool avx512);
// The same in place, for the options listed as words: bits kill[r] of word word[r], r < n.
// Returns whether a count reached 0 (an open item with no option left: covered items and the
// padding hold 0xFF / 0xFFFF, which no option lowers).
using SubtractListFn = bool (*)(const std::uint64_t* kill, const std::uint32_t* word,
                                std::uint32_t n, const std::uint64_t* masks, std::uint32_t stride,
                                std::uint8_t* c8, std::uint16_t* c16);
SubtractListFn subtract_list_for(std::uint32_t w8, std::uint32_t w16, bool avx512);
// Pruning's test of one item with AVX-512 (see BitsetEngine::remove_conflicting): acc = the live
// options, not in col, that conflict with all n options of live & col (conflict rows of `words`
// words); returns whether acc has any. opts: room for n + 64 entries.
using ConflictAllFn = bool (*)(const std::uint64_t* live, const std::uint64_t* col, std::uint32_t n,
                               const std::uint64_t* conflict, std::uint32_t words,
                               std::uint32_t* opts, std::uint64_t* acc);
// (avx512: EngineTuning::avx512 of the tables; nullptr where the CPU lacks a part.)
ConflictAllFn conflict_all_for(std::uint32_t words, bool avx512, bool bits);

// One node's pruning fixpoint (BitsetEngine::prune_choose) with AVX-512, its live options, counts
// and last checks held in registers: what prune_choose's loop reads and writes, in and out.
struct PruneNode {
  std::uint64_t* live;  // the node's live options (`words` words)
  std::uint32_t words;
  const std::uint64_t* dense;     // Tables::dense, conflict, optmask (mstride words an option)
  const std::uint64_t* conflict;  // and the lanes' items
  const std::uint64_t* optmask;
  std::uint32_t mstride;
  const std::uint32_t* lane_item8;
  const std::uint32_t* lane_item16;
  std::uint8_t* c8;  // the counts and last checks (byte and 16-bit lanes)
  std::uint16_t* c16;
  std::uint8_t* k8;
  std::uint16_t* k16;
  std::uint32_t prune;
  bool changed;  // out: options were removed
};
// Returns the open item left without options (a dead end), or UINT32_MAX.
using PruneFixFn = std::uint32_t (*)(PruneNode& p);
// For rows of at most 32 words (four vectors) and the counts of at most two byte-lane vectors
// and one 16-bit one (else nullptr: prune_choose's general loop).
PruneFixFn prune_fix_for(std::uint32_t words, std::uint32_t w8, std::uint32_t w16, bool avx512);
// remove_listed's first step with AVX-512: the non-zero words of acc (`words` of them, zero
// where live is) listed in order, their bits in d and their indices in sw (room for whole
// vectors), and taken off live; returns how many words, *dead how many options. d may be acc
// (each vector is read before anything is written over it).
using TakeWordsFn = std::uint32_t (*)(const std::uint64_t* acc, std::uint32_t words,
                                      std::uint64_t* live, std::uint64_t* d, std::uint32_t* sw,
                                      std::uint32_t* dead);
TakeWordsFn take_words_for(bool avx512);
// choose() by popcounts with AVX-512 VPOPCNTQ for rows of at most 16 vectors: the first open
// item with the fewest live options; *best gets their number.
using ChooseDenseFn = std::uint32_t (*)(const std::uint64_t* live, const std::uint64_t* dense,
                                        std::uint32_t words, const std::uint64_t* open,
                                        std::uint32_t pwords, std::uint32_t* best);
ChooseDenseFn choose_dense_for(std::uint32_t words, bool avx512);
// Tiny tables (BitsetEngine::narrow_tiny), options as 64-bit masks of their items.
// counts(): the counts of the 64 items over the options of `live` into out[64], 0xFF for the
// items not in `open`. choose(): the same, then the first item of `open` with the fewest (*best:
// their number). row(): the options a < n whose mask meets `bits`.
using TinyCountsFn = void (*)(const std::uint64_t* imask, std::uint64_t live, std::uint64_t open,
                              std::uint8_t* out);
using TinyChooseFn = std::uint32_t (*)(const std::uint64_t* imask, std::uint64_t live,
                                       std::uint64_t open, std::uint32_t* best);
using TinyRowFn = std::uint64_t (*)(const std::uint64_t* imask, std::uint32_t n,
                                    std::uint64_t bits);
TinyCountsFn tiny_counts_for(bool avx512);
TinyChooseFn tiny_choose_for(bool avx512);
TinyRowFn tiny_row_for(bool avx512);
// narrow_tiny's listing with AVX-512 (else nullptr): the live options of the nzc words nz[q] into
// glob, their item masks (from imask) into masks, 8 at a time (room for 16 and 8 more).
using TinyListFn = void (*)(const std::uint64_t* imask, const std::uint64_t* live,
                            const std::uint32_t* nz, std::uint32_t nzc, std::uint32_t* glob,
                            std::uint64_t* masks);
TinyListFn tiny_list_for(bool avx512);
// Mask lists (BitsetEngine: the plain tree of a problem of at most 64 items without colours, whose
// option numbers fit the bits above its items): a node's live options as a list of their masks,
// option o as its items' bits and o << shift. choose(): the first item of `open` with the fewest
// options of the n in `list` (*best: their number). filter(): out = the options of `list` that
// meet no item of x (x: items only), in order; returns how many, and in *any the items they meet.
using ListChooseFn = std::uint32_t (*)(const std::uint64_t* list, std::uint32_t n,
                                       std::uint64_t open, std::uint32_t* best);
using ListFilterFn = std::uint32_t (*)(const std::uint64_t* list, std::uint32_t n, std::uint64_t x,
                                       std::uint64_t* out, std::uint64_t* any);
// row(): the bits of out (whole words) = the options of `list` that meet item i.
using ListRowFn = void (*)(const std::uint64_t* list, std::uint32_t n, std::uint32_t i,
                           std::uint64_t* out);
ListChooseFn list_choose_for(bool avx512);
ListFilterFn list_filter_for(bool avx512);
ListRowFn list_row_for(bool avx512);
// descend_live's bitsets with AVX-512 for rows of at most 16 vectors: dst = src less the k rows
// of dense listed in kills, every word written; the indices of its non-zero words into nz1
// (room for 8 more); returns how many.
using DescendDenseFn = std::uint32_t (*)(const std::uint64_t* src, std::uint64_t* dst,
                                         const std::uint64_t* dense, const std::uint32_t* kills,
                                         std::uint32_t k, std::uint32_t words, std::uint32_t* nz1);
DescendDenseFn descend_dense_for(std::uint32_t words, bool avx512);

}  // namespace cubex::detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
