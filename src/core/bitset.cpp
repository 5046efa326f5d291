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
// options in increasing index order - exactly the tree of the dancing-links backend, which the
// tests check node for node.
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
#include <immintrin.h>
#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstring>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine.hpp"
#include "list_word.hpp"

// Everything up to the matching pop is compiled for CPUs with POPCNT, AVX2 and BMI2; make_bitset
// below checks the CPU at run time before using it. (GCC and clang spell this differently.)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,avx2,bmi,bmi2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("popcnt,avx2,bmi,bmi2")
#endif

namespace cubex::detail {

namespace {

constexpr std::uint32_t kLong = 0x80000000u;    // Tables::lane: the item counts in a 16-bit lane
constexpr std::uint32_t kNoLane = 0x7FFFFFFFu;  // Tables::lane: no count (narrowed: covered)
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

// Byte-lane counts with AVX-512 (defined at the end of this file, compiled for AVX-512BW): c1 =
// c0 minus, for each of the n options listed, a one in every lane its mask word sets.
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

namespace {

// Tiny tables on CPUs without AVX-512 (see TinyCountsFn): the counts in bytes, option by option.
void tiny_counts_scalar(const std::uint64_t* imask, std::uint64_t live, std::uint64_t open,
                        std::uint8_t* out) {
  for (int i = 0; i < 64; ++i) out[i] = open >> i & 1 ? 0 : 0xFF;
  for (; live; live &= live - 1)
    for (std::uint64_t b = imask[__builtin_ctzll(live)] & open; b; b &= b - 1)
      ++out[__builtin_ctzll(b)];
}

// The first item of `open` with the smallest count; *best gets it.
template <class Count>
std::uint32_t tiny_fewest(const Count* count, std::uint64_t open, std::uint32_t* best) {
  std::uint32_t chosen = 0;
  *best = UINT32_MAX;
  for (; open; open &= open - 1) {
    const auto i = static_cast<std::uint32_t>(__builtin_ctzll(open));
    if (count[i] < *best) *best = count[i], chosen = i;
  }
  return chosen;
}

std::uint32_t tiny_choose_scalar(const std::uint64_t* imask, std::uint64_t live, std::uint64_t open,
                                 std::uint32_t* best) {
  std::uint8_t count[64];
  tiny_counts_scalar(imask, live, open, count);
  return tiny_fewest(count, open, best);
}

// Mask lists on CPUs without AVX-512 (see ListChooseFn): AVX2, 32 items to a vector.
// Byte k of the result is 0xFF where bit k of m is set.
inline __m256i bit_bytes(std::uint32_t m) {
  const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2,
                                          2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
  const __m256i bit = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ull));
  const __m256i v = _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(m)), spread);
  return _mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit);
}

std::uint32_t list_choose_avx2(const std::uint64_t* list, std::uint32_t n, std::uint64_t open,
                               std::uint32_t* best) {
  if (n > 255) {  // (counts past a byte: one item at a time)
    std::uint32_t count[64] = {};
    for (std::uint32_t a = 0; a < n; ++a)
      for (std::uint64_t b = list[a] & open; b; b &= b - 1) ++count[__builtin_ctzll(b)];
    return tiny_fewest(count, open, best);
  }
  __m256i lo = _mm256_setzero_si256(), hi = _mm256_setzero_si256();  // items 0-31, 32-63
  for (std::uint32_t a = 0; a < n; ++a) {  // (0xFF is -1: subtracting adds one)
    lo = _mm256_sub_epi8(lo, bit_bytes(static_cast<std::uint32_t>(list[a])));
    hi = _mm256_sub_epi8(hi, bit_bytes(static_cast<std::uint32_t>(list[a] >> 32)));
  }
  lo = _mm256_or_si256(lo, bit_bytes(~static_cast<std::uint32_t>(open)));  // not open: 0xFF
  hi = _mm256_or_si256(hi, bit_bytes(~static_cast<std::uint32_t>(open >> 32)));
  // As fewest_byte: keys count * 256 + item, the smallest first.
  const __m256i iota = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                        17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
  const __m256i iota_hi = _mm256_add_epi8(iota, _mm256_set1_epi8(32));
  const __m256i k = _mm256_min_epu16(
      _mm256_min_epu16(_mm256_unpacklo_epi8(iota, lo), _mm256_unpackhi_epi8(iota, lo)),
      _mm256_min_epu16(_mm256_unpacklo_epi8(iota_hi, hi), _mm256_unpackhi_epi8(iota_hi, hi)));
  const __m128i q =
      _mm_minpos_epu16(_mm_min_epu16(_mm256_castsi256_si128(k), _mm256_extracti128_si256(k, 1)));
  const auto key = static_cast<std::uint32_t>(_mm_extract_epi16(q, 0));
  *best = key >> 8;
  return key & 0xFF;
}

// The kept options of four, moved to the front: for each 4-bit mask of those kept, the 32-bit
// lanes to take (_mm256_permutevar8x32_epi32), two per option.
struct KeepFront {
  alignas(32) std::uint32_t idx[16][8];
};
constexpr KeepFront keep_front() {
  KeepFront t{};
  for (unsigned k = 0; k < 16; ++k) {
    unsigned c = 0;
    for (unsigned j = 0; j < 4; ++j)
      if (k >> j & 1) t.idx[k][2 * c] = 2 * j, t.idx[k][2 * c + 1] = 2 * j + 1, ++c;
  }
  return t;
}
constexpr KeepFront kKeepFront = keep_front();

std::uint32_t list_filter_avx2(const std::uint64_t* list, std::uint32_t n, std::uint64_t x,
                               std::uint64_t* out, std::uint64_t* any) {
  const __m256i xs = _mm256_set1_epi64x(static_cast<long long>(x));
  __m256i u = _mm256_setzero_si256();
  std::uint32_t c = 0, a = 0;
  for (; a + 4 <= n; a += 4) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(list + a));
    const __m256i kept = _mm256_cmpeq_epi64(_mm256_and_si256(v, xs), _mm256_setzero_si256());
    const auto keep = static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(kept)));
    _mm256_storeu_si256(
        reinterpret_cast<__m256i*>(out + c),
        _mm256_permutevar8x32_epi32(
            v, _mm256_load_si256(reinterpret_cast<const __m256i*>(kKeepFront.idx[keep]))));
    c += static_cast<std::uint32_t>(__builtin_popcount(keep));
    u = _mm256_or_si256(u, _mm256_and_si256(v, kept));
  }
  const __m128i h = _mm_or_si128(_mm256_castsi256_si128(u), _mm256_extracti128_si256(u, 1));
  std::uint64_t any_kept = static_cast<std::uint64_t>(_mm_cvtsi128_si64(h)) |
                           static_cast<std::uint64_t>(_mm_extract_epi64(h, 1));
  for (; a < n; ++a) {  // (the last options, one by one)
    const std::uint64_t m = list[a];
    out[c] = m;
    c += (m & x) == 0;
    any_kept |= (m & x) == 0 ? m : 0;
  }
  *any = any_kept;
  return c;
}

void list_row_scalar(const std::uint64_t* list, std::uint32_t n, std::uint32_t i,
                     std::uint64_t* out) {
  for (std::uint32_t w = 0; w * 64 < n; ++w) {
    std::uint64_t r = 0;
    for (std::uint32_t a = w * 64, e = std::min(n, a + 64); a < e; ++a)
      r |= (list[a] >> i & 1) << (a - w * 64);
    out[w] = r;
  }
}

std::uint64_t tiny_row_scalar(const std::uint64_t* imask, std::uint32_t n, std::uint64_t bits) {
  std::uint64_t r = 0;
  for (std::uint32_t a = 0; a < n; ++a) r |= std::uint64_t{(imask[a] & bits) != 0} << a;
  return r;
}

// The AVX2 loops below hold rows of 4-word vectors; the last vector of a row may be partial.
// tail_mask(tw): the lanes of a vector that hold its first tw words (1..4), for maskload.
inline __m256i tail_mask(std::uint32_t tw) {
  return _mm256_cmpgt_epi64(_mm256_set1_epi64x(tw), _mm256_set_epi64x(3, 2, 1, 0));
}
// Vector v of the words at p, of n vectors in all: the last one loaded with the mask `tail`.
inline __m256i load_vector(const std::uint64_t* p, int v, int n, __m256i tail) {
  return v == n - 1 ? _mm256_maskload_epi64(reinterpret_cast<const long long*>(p + 4 * v), tail)
                    : _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 4 * v));
}

// Pruning's test of one item on CPUs without AVX-512 (see conflict_all_for): rows of at most 8
// vectors of 4 words (2048 options), WV of them, held in registers; each of the item's options
// (the set bits of live & col, found word by word) has its conflict row ANDed in as it is found,
// with no test for an empty result on the way. The last vector of a row is loaded with a mask
// where `words` is not a multiple of 4.
template <int WV>
bool conflict_all_avx2(const std::uint64_t* live, const std::uint64_t* col, std::uint32_t n,
                       const std::uint64_t* conflict, std::uint32_t words, std::uint32_t* opts,
                       std::uint64_t* acc) {
  (void)n;
  const std::uint32_t tw = words - 4 * (WV - 1);  // words in the last vector: 1..4
  const __m256i tail = tail_mask(tw);
  auto load = [&](const std::uint64_t* p, int v) { return load_vector(p, v, WV, tail); };
  __m256i a[WV];
  alignas(32) std::uint64_t mine[WV * 4];
  std::uint32_t left = 0;  // the non-zero words of mine
  for (int v = 0; v < WV; ++v) {
    const __m256i l = load(live, v), c = load(col, v);
    a[v] = _mm256_andnot_si256(c, l);
    const __m256i m = _mm256_and_si256(l, c);
    _mm256_store_si256(reinterpret_cast<__m256i*>(mine) + v, m);
    const auto zero = static_cast<std::uint32_t>(
        _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(m, _mm256_setzero_si256()))));
    left |= (zero ^ 0xF) << (4 * v);
  }
  // The options listed first (list_word8), then one loop over them: one exit to predict.
  std::uint32_t* end = opts;
  for (; left; left &= left - 1) {
    const auto w = static_cast<std::uint32_t>(__builtin_ctz(left));
    end = list_word8(mine[w], w, end);
  }
  for (const std::uint32_t* o = opts; o < end; ++o) {
    const std::uint64_t* row = conflict + std::size_t{*o} * words;
    for (int v = 0; v < WV; ++v) a[v] = _mm256_and_si256(a[v], load(row, v));
  }
  __m256i any = a[0];
  for (int v = 1; v < WV; ++v) any = _mm256_or_si256(any, a[v]);
  for (int v = 0; v < WV; ++v) _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc) + v, a[v]);
  return !_mm256_testz_si256(any, any);
}

// Longer rows (up to 16 vectors), in two parts of at most 8 vectors (AVX2 has 16 registers):
// the options listed first, then each part ANDed over all of them in registers. Returns the OR
// of the part's result. CV: the part's vectors; w0: its first word; the last part masked.
template <int CV>
__m256i conflict_part_avx2(const std::uint64_t* live, const std::uint64_t* col,
                           const std::uint32_t* opts, std::uint32_t n,
                           const std::uint64_t* conflict, std::uint32_t words, std::uint32_t w0,
                           std::uint64_t* acc) {
  const bool last = w0 + 4 * CV >= words;
  const std::uint32_t tw = words - (w0 + 4 * (CV - 1));  // words in the last vector if `last`
  const __m256i tail = tail_mask(last ? tw : 4);
  auto load = [&](const std::uint64_t* p, int v) { return load_vector(p + w0, v, CV, tail); };
  __m256i a[CV];
  for (int v = 0; v < CV; ++v) a[v] = _mm256_andnot_si256(load(col, v), load(live, v));
  for (std::uint32_t j = 0; j < n; ++j) {
    const std::uint64_t* row = conflict + std::size_t{opts[j]} * words;
    for (int v = 0; v < CV; ++v) a[v] = _mm256_and_si256(a[v], load(row, v));
  }
  __m256i any = a[0];
  for (int v = 1; v < CV; ++v) any = _mm256_or_si256(any, a[v]);
  for (int v = 0; v < CV; ++v) _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc + w0) + v, a[v]);
  return any;
}

template <int WV>
bool conflict_all_avx2_parts(const std::uint64_t* live, const std::uint64_t* col, std::uint32_t n,
                             const std::uint64_t* conflict, std::uint32_t words,
                             std::uint32_t* opts, std::uint64_t* acc) {
  static_assert(WV > 8 && WV <= 16);
  std::uint32_t k = 0;
  for (std::uint32_t w = 0; w < words && k < n; ++w)
    for (std::uint64_t b = live[w] & col[w]; b; b &= b - 1)
      opts[k++] = w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(b));
  constexpr int kFirst = (WV + 1) / 2;
  const __m256i any = _mm256_or_si256(
      conflict_part_avx2<kFirst>(live, col, opts, n, conflict, words, 0, acc),
      conflict_part_avx2<WV - kFirst>(live, col, opts, n, conflict, words, 4 * kFirst, acc));
  return !_mm256_testz_si256(any, any);
}

template <std::size_t... I>
constexpr std::array<ConflictAllFn, sizeof...(I)> conflict_avx2_table(std::index_sequence<I...>) {
  return {(I < 8 ? &conflict_all_avx2<static_cast<int>(I < 8 ? I + 1 : 1)>
                 : &conflict_all_avx2_parts<static_cast<int>(I < 8 ? 9 : I + 1)>)...};
}

// conflict_all_for's AVX2 form, for rows of at most 64 words (else nullptr: the word loop).
ConflictAllFn conflict_all_avx2_for(std::uint32_t words, bool rows) {
  if (!rows || words == 0 || words > 64) return nullptr;
  constexpr auto fixed = conflict_avx2_table(std::make_index_sequence<16>{});
  return fixed[(words + 3) / 4 - 1];
}

// descend_dense_for's AVX2 form (rows of at most 16 vectors of 4 words): dst = src less the k
// rows of dense listed in kills, every word written (the last vector with a mask); the indices
// of its non-zero words into nz1 (room for 4 more), returns how many.
template <int WV>
std::uint32_t descend_dense_avx2(const std::uint64_t* src, std::uint64_t* dst,
                                 const std::uint64_t* dense, const std::uint32_t* kills,
                                 std::uint32_t k, std::uint32_t words, std::uint32_t* nz1) {
  // kIndices[m]: the positions of the set bits of m (4 bits), as 32-bit lanes.
  alignas(16) static constexpr std::uint32_t kIndices[16][4] = {
      {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0},
      {1, 2, 0, 0}, {0, 1, 2, 0}, {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
      {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
  const std::uint32_t tw = words - 4 * (WV - 1);
  const __m256i tail = tail_mask(tw);
  std::uint32_t c = 0;
  for (int v = 0; v < WV; ++v) {
    __m256i a = load_vector(src, v, WV, tail);
    for (std::uint32_t r = 0; r < k; ++r)
      a = _mm256_andnot_si256(load_vector(dense + std::size_t{kills[r]} * words, v, WV, tail), a);
    if (v == WV - 1)
      _mm256_maskstore_epi64(reinterpret_cast<long long*>(dst + 4 * v), tail, a);
    else
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 4 * v), a);
    const auto zero = static_cast<unsigned>(
        _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(a, _mm256_setzero_si256()))));
    const unsigned nzm = ~zero & 0xF;  // (masked-off lanes load as zero)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(nz1 + c),
                     _mm_add_epi32(_mm_load_si128(reinterpret_cast<const __m128i*>(kIndices[nzm])),
                                   _mm_set1_epi32(4 * v)));
    c += static_cast<std::uint32_t>(__builtin_popcount(nzm));
  }
  return c;
}

template <std::size_t... I>
constexpr std::array<DescendDenseFn, sizeof...(I)> descend_avx2_table(std::index_sequence<I...>) {
  return {&descend_dense_avx2<static_cast<int>(I) + 1>...};
}

DescendDenseFn descend_dense_avx2_for(std::uint32_t words, bool rows) {
  if (!rows || words == 0 || words > 64) return nullptr;
  constexpr auto fixed = descend_avx2_table(std::make_index_sequence<16>{});
  return fixed[(words + 3) / 4 - 1];
}

struct Tables {
  std::uint32_t m = 0;                   // options
  std::uint32_t words = 0;               // 64-bit words of an option bitset
  std::uint32_t n1 = 0;                  // primary items (internal ids 0..n1-1; secondaries follow)
  std::uint32_t pwords = 0;              // 64-bit words of a primary-item bitset
  std::vector<std::uint32_t> col_start;  // per internal item: its (word, mask) pairs
  std::vector<std::uint32_t> col_word;
  std::vector<std::uint64_t> col_mask;
  std::vector<std::uint32_t> opt_start;  // per option: its internal items
  std::vector<std::uint32_t> opt_items;
  std::vector<std::uint32_t> opt_kill;  // per option entry: the dense row it kills (see top)
  std::vector<std::uint64_t> dense;     // col[i] as `words` words, item after item
  std::vector<OptionId> order;          // internal option -> the problem's option
  bool incremental = false;             // MRV from counts kept per level (else popcounts)
  std::uint32_t cstride = 0;            // primary items rounded up to 16
  std::vector<std::uint16_t> optvec;    // counts mode, n1 <= 256: options as count vectors
  // Counts mode in byte lanes: an item met by at most kShortMax options counts in a byte lane,
  // a longer one in a 16-bit lane; each option as a byte vector and a 16-bit vector.
  std::uint32_t s8 = 0, s16 = 0;          // lanes of each kind, rounded up to whole vectors
  std::uint32_t short_max = 0;            // EngineTuning::short_max
  std::vector<std::uint32_t> item_len;    // (set_lanes: options per primary item, kept to reuse)
  std::vector<std::uint32_t> lane;        // per primary item: its lane (kLong set: 16-bit)
  std::vector<std::uint32_t> lane_item8;  // per lane: its item (padding: UINT32_MAX)
  std::vector<std::uint32_t> lane_item16;
  std::vector<std::uint8_t> optv8;
  std::vector<std::uint16_t> optv16;
  std::uint32_t mstride = 0;            // the same as bit masks (AVX-512): s8 / 64 + s16 / 32
  std::vector<std::uint64_t> optmask;   // words, 64 byte lanes or 32 16-bit lanes per word
  SubtractMasksFn masks_fn = nullptr;   // the AVX-512 loop over optmask (else optv8, optv16)
  SubtractListFn list_fn = nullptr;     // its in-place form for a list of options (pruning)
  ConflictAllFn conflict_fn = nullptr;  // pruning's test of an item in registers, where it runs
  PruneFixFn fix_fn = nullptr;          // pruning's whole fixpoint in registers, where it runs
  TakeWordsFn take_fn = nullptr;        // remove_listed's listing with AVX-512, where it runs
  ChooseDenseFn choose_fn = nullptr;    // choose_scan with AVX-512, where it runs
  DescendDenseFn descend_fn = nullptr;  // descend_live's bitsets in registers, where it runs
  // Pruning (see BitsetEngine::prune): items with at most `prune` live options remove the options
  // that conflict with all of them; conflict[o] = the options that cannot go with option o.
  std::uint32_t prune = 0;
  std::vector<std::uint64_t> conflict;
  std::vector<std::uint32_t> prim_start;  // per option: its primary items
  std::vector<std::uint32_t> prim_items;
  // Tiny tables: where every item fits one 64-bit word (and no colours), imask[o] is option
  // o's items as bits. The tables of narrow_tiny() (tiny: at most 64 live options of a node,
  // numbered 0, 1, ...) keep glob[a], option a's index in `base`, whose item lists and order
  // they use; their one-word rows are filled in when first read (dense[i]: item i's options,
  // when rows_have has bit i; conflict[a]: the options that meet a, when conf_have has bit a).
  std::uint32_t items = 0;  // primary and secondary
  std::vector<std::uint64_t> imask;
  bool tiny = false;
  const Tables* base = nullptr;
  std::vector<std::uint32_t> glob;
  mutable std::uint64_t rows_have = 0, conf_have = 0;
  TinyChooseFn tiny_choose = nullptr;
  TinyRowFn tiny_row = nullptr;
  TinyCountsFn tiny_counts = nullptr;
  TinyListFn tiny_list = nullptr;
  // Mask lists (BitsetEngine::lists_), where the option numbers fit above the items' bits:
  // lmask[o] = imask[o] | o << lshift, the root's list.
  std::vector<std::uint64_t> lmask;
  std::uint32_t lshift = 0;
  std::uint64_t litems = 0;  // the items' bits
  ListChooseFn list_choose = nullptr;
  ListFilterFn list_filter = nullptr;
  ListRowFn list_row = nullptr;
  bool avx512 = false;  // the tuning: which loops (EngineTuning::avx512, avx2_rows)
  bool avx2_rows = false;
  bool list_bits = false;  // EngineTuning::list_bits
  bool fix = false;        // EngineTuning::prune_fix
  EngineTuning tuning;     // the problem's tables: what they were built with

  // The loops that take rows of `words` words: the child's live options, choose() by popcounts,
  // pruning's test (only with counts in byte lanes).
  void pick_row_loops() {
    choose_fn = choose_dense_for(words, avx512);
    descend_fn = descend_dense_for(words, avx512);
    if (!descend_fn) descend_fn = descend_dense_avx2_for(words, avx2_rows);
    conflict_fn = nullptr;
    take_fn = prune ? take_words_for(avx512) : nullptr;
    if (prune && s8 + s16 > 0) {
      conflict_fn = conflict_all_for(words, avx512, list_bits);
      if (!conflict_fn) conflict_fn = conflict_all_avx2_for(words, avx2_rows);
    }
    fix_fn = prune && list_fn && list_bits && fix ? prune_fix_for(words, s8 / 64, s16 / 32, avx512)
                                                  : nullptr;
  }

  // The counts' lanes (counts mode in byte lanes): an item met by at most short_max options
  // counts in a byte lane, a longer one in a 16-bit lane, each kind in item order; each option
  // as bit masks for the AVX-512 loop where the CPU has it and `masks`, else as byte and 16-bit
  // vectors for the AVX2 one, whose 16-bit lanes need only fill 256-bit vectors (pentominoes'
  // 14 long items: one vector per option instead of two). False, and nothing set, where they do
  // not fit: more than 256 short items or 64 long ones.
  //
  // Narrowed tables (compact_from) pass the problem's tables as `root`: an item met by none of
  // their options (covered already: the node has no empty item when it narrows) gets no lane
  // (kNoLane), and where the lanes do not fit, the items keep the root's kinds of lane.
  bool set_lanes(bool masks, const Tables* root = nullptr) {
    std::vector<std::uint32_t>& len = item_len;
    len.assign(n1, 0);
    for (std::uint32_t i : prim_items) ++len[i];
    if (!lanes_for(len, masks, root != nullptr)) {
      if (!root) return false;
      for (std::uint32_t i = 0; i < n1; ++i)
        if (len[i] > 0) len[i] = root->lane[i] & kLong ? short_max + 1 : 1;
      lanes_for(len, masks, true);  // (a subset of the root's lanes: they fit)
    }
    return true;
  }

  // set_lanes() for the given lengths; `drop`: no lane where the length is 0.
  bool lanes_for(const std::vector<std::uint32_t>& len, bool masks, bool drop) {
    std::uint32_t nshort = 0, nlong = 0;
    for (std::uint32_t i = 0; i < n1; ++i)
      if (!drop || len[i] > 0) (len[i] <= short_max ? nshort : nlong) += 1;
    if ((nshort + 31) / 32 > 8 || nlong > 64) return false;
    s8 = (nshort + 63) / 64 * 64;  // whole 512-bit vectors
    s16 = (nlong + 31) / 32 * 32;
    masks_fn = subtract_masks_for(s8 / 64, s16 / 32, masks && avx512);
    list_fn = subtract_list_for(s8 / 64, s16 / 32, masks && avx512);
    if (!masks_fn) s16 = (nlong + 15) / 16 * 16;
    lane.resize(n1);
    lane_item8.assign(s8, UINT32_MAX);
    lane_item16.assign(s16, UINT32_MAX);
    std::uint32_t a = 0, b = 0;
    for (std::uint32_t i = 0; i < n1; ++i) {
      if (drop && len[i] == 0) {
        lane[i] = kNoLane;
      } else if (len[i] <= short_max) {
        lane_item8[a] = i;
        lane[i] = a++;
      } else {
        lane_item16[b] = i;
        lane[i] = kLong | b++;
      }
    }
    mstride = s8 / 64 + s16 / 32;
    optmask.assign(masks_fn ? std::size_t{m} * mstride : 0, 0);
    optv8.assign(masks_fn ? 0 : std::size_t{m} * s8, 0);
    optv16.assign(masks_fn ? 0 : std::size_t{m} * s16, 0);
    for (OptionId o = 0; o < m; ++o) {
      std::uint64_t* mk = optmask.data() + (masks_fn ? std::size_t{o} * mstride : 0);
      for (std::uint32_t r = prim_start[o]; r < prim_start[o + 1]; ++r) {
        const std::uint32_t l = lane[prim_items[r]], l16 = l & ~kLong;
        if (masks_fn && (l & kLong)) mk[s8 / 64 + l16 / 32] |= std::uint64_t{1} << l16 % 32;
        if (masks_fn && !(l & kLong)) mk[l / 64] |= std::uint64_t{1} << l % 64;
        if (!masks_fn && (l & kLong)) optv16[std::size_t{o} * s16 + l16] = 1;
        if (!masks_fn && !(l & kLong)) optv8[std::size_t{o} * s8 + l] = 1;
      }
    }
    return true;
  }

  Tables() = default;  // (compact_from fills it)

  // The tables of a node's residual problem (BitsetEngine::compact): t's live options (the bits
  // of live, in the words nz[0..nzc) ) renumbered 0, 1, ... in order, each row of t (columns,
  // kill rows, conflict rows) keeping only their bits; the items, lanes and loops as in t.
  // Pruning's tables only (the counts mode's optvec and the sparse columns stay empty). The
  // vectors keep their capacity from one call to the next.
  void compact_from(const Tables& t, const std::uint64_t* live, const std::uint32_t* nz,
                    std::uint32_t nzc, const std::uint64_t* open) {
    n1 = t.n1;
    pwords = t.pwords;
    incremental = t.incremental;
    cstride = t.cstride;
    short_max = t.short_max;
    prune = t.prune;
    avx512 = t.avx512;
    avx2_rows = t.avx2_rows;
    list_bits = t.list_bits;
    fix = t.fix;
    std::uint32_t n = 0, entries = 0, prims = 0;
    for (std::uint32_t q = 0; q < nzc; ++q) {
      for (std::uint64_t b = live[nz[q]]; b; b &= b - 1) {
        const std::uint32_t o = nz[q] * 64 + static_cast<std::uint32_t>(__builtin_ctzll(b));
        ++n;
        entries += t.opt_start[o + 1] - t.opt_start[o];
        prims += t.prim_start[o + 1] - t.prim_start[o];
      }
    }
    m = n;
    words = (m + 63) / 64;
    order.resize(m);
    items = t.items;  // (tiny tables below narrow from these: the options' item masks too)
    imask.resize(t.imask.empty() ? 0 : std::size_t{words} * 64);  // (tiny_list reads whole words)
    tiny_choose = t.tiny_choose;
    tiny_row = t.tiny_row;
    tiny_counts = t.tiny_counts;
    tiny_list = t.tiny_list;
    opt_start.resize(m + 1);
    opt_items.resize(entries);
    opt_kill.resize(entries);
    prim_start.resize(m + 1);
    prim_items.resize(prims);
    std::uint32_t k = 0, e = 0, pe = 0;
    opt_start[0] = prim_start[0] = 0;
    for (std::uint32_t q = 0; q < nzc; ++q) {
      for (std::uint64_t b = live[nz[q]]; b; b &= b - 1, ++k) {
        const std::uint32_t o = nz[q] * 64 + static_cast<std::uint32_t>(__builtin_ctzll(b));
        order[k] = t.order[o];
        if (!t.imask.empty()) imask[k] = t.imask[o];
        for (std::uint32_t r = t.opt_start[o]; r < t.opt_start[o + 1]; ++r, ++e) {
          opt_items[e] = t.opt_items[r];
          opt_kill[e] = t.opt_kill[r];
        }
        opt_start[k + 1] = e;
        for (std::uint32_t r = t.prim_start[o]; r < t.prim_start[o + 1]; ++r)
          prim_items[pe++] = t.prim_items[r];
        prim_start[k + 1] = pe;
      }
    }
    // The counts' lanes again, from the items' live options: an item that counted in a 16-bit
    // lane (Bedlam's cells met by more than 254 options) usually fits a byte lane here, and the
    // items already covered (none of the live options meets them: the node has no empty item
    // when it narrows) have none, so each option that dies costs fewer vectors (pentominoes: 72
    // items, 54 open after three pieces, one 64-lane mask instead of two). Where the lanes do
    // not fit, the root's kinds.
    if (t.s8 + t.s16 > 0) {
      set_lanes(t.masks_fn != nullptr, &t);
    } else {
      s8 = s16 = mstride = 0;
      masks_fn = nullptr;
      list_fn = nullptr;
    }
    // Each row keeps the bits of the live options, packed: pext word by word. A covered primary
    // item's row has none (its options are dead) and is never read again: left at zero.
    const std::size_t rows = t.dense.size() / t.words;
    dense.assign(rows * words, 0);
    for (std::size_t r = 0; r < rows; ++r) {
      if (r < n1 && !(open[r / 64] >> (r % 64) & 1)) continue;
      const std::uint64_t* src = t.dense.data() + r * t.words;
      std::uint64_t* dst = dense.data() + r * words;
      std::uint32_t bit = 0;
      for (std::uint32_t q = 0; q < nzc; ++q) {
        const std::uint64_t l = live[nz[q]];
        const std::uint64_t v = _pext_u64(src[nz[q]], l);
        const std::uint32_t sh = bit % 64, pc = static_cast<std::uint32_t>(__builtin_popcountll(l));
        dst[bit / 64] |= v << sh;
        if (sh + pc > 64) dst[bit / 64 + 1] |= v >> (64 - sh);
        bit += pc;
      }
    }
    build_conflict_rows();
    pick_row_loops();
  }

  // conflict[o]: the options that cannot go with option o, the OR of the dense rows it kills.
  // Eight words at a time are ORed in registers over the rows and stored once, the last up to
  // eight with masked loads (ORing each row into memory word by word took most of a narrowing's
  // 30 us on pent6x10).
  void build_conflict_rows() {
    conflict.assign(std::size_t{m} * words, 0);
    const __m256i lanes = _mm256_setr_epi64x(0, 1, 2, 3);
    for (std::uint32_t w = 0; w < words; w += 8) {
      const auto n = static_cast<long long>(std::min<std::uint32_t>(8, words - w));
      const __m256i ma = _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), lanes);
      const __m256i mb = _mm256_cmpgt_epi64(_mm256_set1_epi64x(n - 4), lanes);
      for (std::uint32_t o = 0; o < m; ++o) {
        __m256i a = _mm256_setzero_si256(), b = _mm256_setzero_si256();
        for (std::uint32_t q = opt_start[o]; q < opt_start[o + 1]; ++q) {
          const auto* k = reinterpret_cast<const long long*>(
              dense.data() + (std::size_t{opt_kill[q]} * words) + w);
          a = _mm256_or_si256(a, _mm256_maskload_epi64(k, ma));
          b = _mm256_or_si256(b, _mm256_maskload_epi64(k + 4, mb));
        }
        auto* row = reinterpret_cast<long long*>(conflict.data() + (std::size_t{o} * words) + w);
        _mm256_maskstore_epi64(row, ma, a);
        _mm256_maskstore_epi64(row + 4, mb, b);
      }
    }
  }

  Tables(const Problem& p, const EngineTuning& tu) : tuning(tu) {
    std::vector<std::uint32_t> internal(p.num_items());
    for (ItemId i = 0; i < p.num_items(); ++i)
      if (p.item(i).primary) internal[i] = n1++;
    std::uint32_t n = n1;
    for (ItemId i = 0; i < p.num_items(); ++i)
      if (!p.item(i).primary) internal[i] = n++;
    items = n;
    m = static_cast<std::uint32_t>(p.num_options());
    words = (m + 63) / 64;
    pwords = (n1 + 63) / 64;

    // Internal option order: the engines' common order (engine.hpp), sorted item lists (pieces,
    // then cells in a polycube file), so that options dying together share words and an item's
    // options share few words.
    order = search_order(p);
    opt_start.reserve(m + 1);
    opt_start.push_back(0);
    std::vector<std::vector<OptionId>> by_item(n);
    // Rows n, n+1, ...: the (item, colour) pairs met, in order of first use.
    std::vector<std::pair<std::uint32_t, ColourId>> pairs;
    std::unordered_map<std::uint64_t, std::uint32_t> pair_row;
    for (OptionId o = 0; o < m; ++o) {
      const auto items = p.option(order[o]);
      const auto colours = p.option_colours(order[o]);
      for (std::size_t k = 0; k < items.size(); ++k) {
        const std::uint32_t i = internal[items[k]];
        opt_items.push_back(i);
        by_item[i].push_back(o);
        if (colours[k] == 0) {
          opt_kill.push_back(i);
          continue;
        }
        const std::uint64_t key = std::uint64_t{i} << 32 | colours[k];
        auto [it, fresh] = pair_row.emplace(key, n + static_cast<std::uint32_t>(pairs.size()));
        if (fresh) pairs.emplace_back(i, colours[k]);
        opt_kill.push_back(it->second);
      }
      opt_start.push_back(static_cast<std::uint32_t>(opt_items.size()));
    }
    col_start.reserve(n + 1);
    col_start.push_back(0);
    for (std::uint32_t i = 0; i < n; ++i) {
      for (OptionId o : by_item[i]) {  // increasing o: one pair per non-zero word
        const std::uint32_t w = o / 64;
        if (col_word.size() == col_start.back() || col_word.back() != w) {
          col_word.push_back(w);
          col_mask.push_back(0);
        }
        col_mask.back() |= std::uint64_t{1} << (o % 64);
      }
      col_start.push_back(static_cast<std::uint32_t>(col_word.size()));
    }
    prim_start.push_back(0);
    for (OptionId o = 0; o < m; ++o) {
      for (std::uint32_t q = opt_start[o]; q < opt_start[o + 1]; ++q)
        if (opt_items[q] < n1) prim_items.push_back(opt_items[q]);
      prim_start.push_back(static_cast<std::uint32_t>(prim_items.size()));
    }
    // Kept counts cost a decrement per primary item of every option that dies; popcounts cost
    // a scan of every open item's words. Long columns (a piece's placements die together when
    // one is chosen) favour popcounts; short ones (y25: 36 options per cell) favour counts.
    prune = bitset_prune_limit(p, tu);
    avx512 = tu.avx512;
    avx2_rows = tu.avx2_rows;
    list_bits = tu.list_bits;
    fix = tu.prune_fix;
    switch (prune ? BitsetMrv::kCounts : tu.mrv) {
      case BitsetMrv::kAuto:
        incremental = n1 > 0 && prim_items.size() <= std::size_t{64} * n1 && m < 0xFFFF;
        break;
      case BitsetMrv::kScan:
        incremental = false;
        break;
      case BitsetMrv::kCounts:
        incremental = m < 0xFFFF;
        break;
    }
    // Counts mode in byte lanes (up to 256 short items and 64 long ones): a killed option costs
    // a subtraction per 32 items instead of per 16.
    short_max = tu.short_max;
    // (Pruning always counts in byte lanes: bitset_prune_limit checks that they fit.)
    cstride = (n1 + 15) / 16 * 16;
    const bool bytes = incremental && (tu.bytes || prune) && set_lanes(true);
    if (!bytes && incremental && cstride <= 256) {
      // Counts mode with at most 256 primary items: each option as a vector of 16-bit ones at
      // its primary items, subtracted 16 lanes at a time from counts held in registers.
      optvec.assign(std::size_t{m} * cstride, 0);
      for (OptionId o = 0; o < m; ++o)
        for (std::uint32_t r = prim_start[o]; r < prim_start[o + 1]; ++r)
          optvec[std::size_t{o} * cstride + prim_items[r]] = 1;
    }
    dense.assign((std::size_t{n} + pairs.size()) * words, 0);
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::uint32_t p = col_start[i]; p < col_start[i + 1]; ++p)
        dense[std::size_t{i} * words + col_word[p]] = col_mask[p];
    // kill(j, c): col[j] less the options that give j colour c.
    for (std::size_t r = 0; r < pairs.size(); ++r) {
      const auto [j, c] = pairs[r];
      std::uint64_t* row = dense.data() + ((n + r) * words);
      std::memcpy(row, dense.data() + (std::size_t{j} * words), sizeof(std::uint64_t) * words);
      for (OptionId o : by_item[j]) {
        const auto items = p.option(order[o]);
        const auto colours = p.option_colours(order[o]);
        for (std::size_t k = 0; k < items.size(); ++k)
          if (internal[items[k]] == j && colours[k] == c)
            row[o / 64] &= ~(std::uint64_t{1} << (o % 64));
      }
    }
    pick_row_loops();
    if (prune) build_conflict_rows();
    if (items <= 64 && pairs.empty()) {
      imask.assign(std::size_t{words} * 64, 0);  // (tiny_list reads whole words)
      for (OptionId o = 0; o < m; ++o)
        for (std::uint32_t q = opt_start[o]; q < opt_start[o + 1]; ++q)
          imask[o] |= std::uint64_t{1} << opt_items[q];
      tiny_choose = tiny_choose_for(avx512);
      tiny_row = tiny_row_for(avx512);
      tiny_counts = tiny_counts_for(avx512);
      tiny_list = tiny_list_for(avx512);
      const auto id_bits = static_cast<std::uint32_t>(std::bit_width(std::uint32_t{m - 1}));
      if (m > 0 && m <= kListMax && items + id_bits <= 64) {
        lshift = items;
        litems = items == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << items) - 1;
        lmask.resize(std::size_t{m});
        for (OptionId o = 0; o < m; ++o) lmask[o] = imask[o] | std::uint64_t{o} << lshift;
        list_choose = list_choose_for(avx512);
        list_filter = list_filter_for(avx512);
        list_row = list_row_for(avx512);
      }
    }
  }

  // narrow_tiny(): the tiny tables of the n live options of a node (1 to 64) whose tables are b.
  void tiny_from(const Tables& b, const std::uint64_t* live, const std::uint32_t* nz,
                 std::uint32_t nzc, std::uint32_t n) {
    m = n;
    words = 1;
    n1 = b.n1;
    pwords = b.pwords;
    items = b.items;
    tiny = true;
    base = &b;
    tiny_choose = b.tiny_choose;
    tiny_row = b.tiny_row;
    tiny_counts = b.tiny_counts;
    prune = b.prune;
    glob.resize(64 + 16);  // (room for any n, and whole vectors past it: no allocation after
    imask.resize(64 + 8);  // the first narrowing at a level)
    dense.resize(std::max<std::size_t>(dense.size(), items));
    conflict.resize(64);
    rows_have = conf_have = 0;
    if (b.tiny_list) {
      b.tiny_list(b.imask.data(), live, nz, nzc, glob.data(), imask.data());
      return;
    }
    std::uint32_t a = 0;
    for (std::uint32_t q = 0; q < nzc; ++q) {
      for (std::uint64_t bits = live[nz[q]]; bits; bits &= bits - 1, ++a) {
        const std::uint32_t o = nz[q] * 64 + static_cast<std::uint32_t>(__builtin_ctzll(bits));
        glob[a] = o;
        imask[a] = b.imask[o];
      }
    }
  }

  // Tiny tables: item i's row, and option a's conflict row, made when first read. (Tiny tables
  // belong to one engine and are never const objects: tiny_pool_, read through const pointers.)
  std::uint64_t row(std::uint32_t i) const {
    if (!(rows_have >> i & 1)) {
      const_cast<std::uint64_t&>(dense[i]) = tiny_row(imask.data(), m, std::uint64_t{1} << i);
      rows_have |= std::uint64_t{1} << i;
    }
    return dense[i];
  }
  std::uint64_t conflict_of(std::uint32_t a) const {
    if (!(conf_have >> a & 1)) {
      const_cast<std::uint64_t&>(conflict[a]) = tiny_row(imask.data(), m, imask[a]);
      conf_have |= std::uint64_t{1} << a;
    }
    return conflict[a];
  }
};

class BitsetEngine final : public Engine {
 public:
  explicit BitsetEngine(std::shared_ptr<const Tables> t) : t_(std::move(t)) {
    const std::size_t levels = std::size_t{t_->n1} + 2;
    live_.assign(levels * t_->words, 0);
    nz_.assign(levels * t_->words + 8, 0);  // (descend_fn writes whole vectors of indices)
    nzc_.assign(levels, 0);
    cstride_ = t_->cstride;  // whole 16-lane vectors; padding stays 0xFFFF
    if (!t_->optvec.empty())
      subtract_ = kill_table(std::make_index_sequence<16>{})[cstride_ / 16 - 1];
    cnt_.assign(levels * cstride_, 0xFFFF);
    if (t_->s8 + t_->s16 > 0) {
      bytes_ = true;
      // Each level's lanes, room for those of narrower tables (compact(): as many 16-bit lanes at
      // most, the rest of the items in byte lanes).
      stride8_ = std::max(t_->s8, std::min<std::uint32_t>(256, (t_->n1 + 63) / 64 * 64));
      stride16_ = t_->s16;
      cnt8_.assign(levels * stride8_, 0xFF);  // padding and covered items: 0xFF / 0xFFFF
      cnt16_.assign(levels * stride16_, 0xFFFF);
      if (t_->prune)
        chk8_.assign(levels * stride8_, 0xFF), chk16_.assign(levels * stride16_, 0xFFFF);
      if (t_->prune) lanes8_.resize(stride8_), lanes16_.resize(stride16_);
    }
    incremental_ = t_->incremental;
    lists_ = t_->tuning.lists && !t_->prune && !t_->lmask.empty();
    tiny_ = t_->tuning.tiny && t_->words > 1 && !t_->imask.empty() && !lists_;  // (lists instead)
    if (lists_) {
      lstride_ = (t_->m + 8 + 7) / 8 * 8;  // (list_filter stores whole vectors)
      list_.assign(levels * lstride_, 0);
      listn_.assign(levels, 0);
      ldead_.assign(levels, 0);
      rwords_ = (t_->m + 63) / 64;
      rows_.assign(levels * rwords_, 0);
    }
    open_.assign(levels * t_->pwords, 0);
    stride_ = t_->words;
    tiny_run_ = t_->tuning.tiny_run;
    compact_words_ = t_->tuning.compact_words;
    tl_.assign(levels, t_.get());
    pool_.resize(levels);
    tiny_pool_.resize(levels);
    dead_.assign((t_->words + 7) / 8 * 8, 0);
    listed_.assign(std::size_t{t_->m} + 8, 0);     // (list_word8 writes up to 7 past the end)
    surv_.assign((t_->words + 7) / 8 * 8 + 8, 0);  // (take_fn stores whole vectors)
    open_n_.assign(levels, 0);
    frame_.resize(levels);
    chosen_.resize(levels);
    out_.resize(levels);
  }

  std::unique_ptr<Engine> clone() const override { return std::make_unique<BitsetEngine>(t_); }
  void for_short_runs() override { compact_words_ = UINT32_MAX; }

  RunResult run(const TreeSpan& span, std::uint32_t depth, SolutionVisitor* visit,
                const SolveLimits& limits, const Control* control) override {
    const auto t0 = std::chrono::steady_clock::now();
    RunResult r = search(span, depth, visit, limits, control);
    r.st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }

 private:
  struct Frame {
    std::uint32_t item;  // the item branched on
    std::uint32_t p;     // current (word, mask) pair of col[item]
    std::uint64_t bits;  // candidates left in that word
    std::uint32_t sib;   // index of the child being searched
    std::uint32_t end;   // children from this index on are outside the span
    std::uint32_t kids;  // number of children
    bool onb;            // this node is an ancestor of the span's end
  };

  // Untried children of frame `l` after the current one.
  std::uint32_t remaining(std::int64_t l) const {
    const std::size_t L = static_cast<std::size_t>(l), S = stride_;
    const Tables& t = *tl_[L];
    const std::size_t W = t.words;
    const Frame& f = frame_[L];
    std::uint32_t n = static_cast<std::uint32_t>(__builtin_popcountll(f.bits));
    if (lists_) {
      for (std::uint32_t q = f.p + 1; q * 64 < listn_[L]; ++q)
        n += static_cast<std::uint32_t>(__builtin_popcountll(rows_[L * rwords_ + q]));
      return n;
    }
    for (std::uint32_t q = f.p + 1; q < nzc_[L]; ++q) {
      const std::uint32_t w = nz_[L * S + q];
      n += static_cast<std::uint32_t>(
          __builtin_popcountll(live_[L * S + w] & t.dense[f.item * W + w]));
    }
    return n;
  }

  // The primary item with the fewest live options at `level`; `best` gets their number.
  std::uint32_t choose(std::uint32_t level, std::uint32_t& best) {
    const Tables& t = *tl_[level];
    if (lists_) {
      if (ldead_[level]) return best = 0;
      return t.list_choose(list_.data() + std::size_t{level} * lstride_, listn_[level],
                           open_[level], &best);
    }
    if (t.tiny && t.prune) return prune_tiny(level, best);
    if (t.tiny) {
      const std::uint32_t i =
          t.tiny_choose(t.imask.data(), live_[level * stride_], open_[level * t.pwords], &best);
      if (best) t.row(i);  // (the frame reads it)
      return i;
    }
    if (t.prune) return prune_choose(level, best);
    if (bytes_) return choose_bytes(level, best);
    if (t.choose_fn && !incremental_)
      return t.choose_fn(live_.data() + (std::size_t{level} * stride_), t.dense.data(), t.words,
                         open_.data() + (std::size_t{level} * t.pwords), t.pwords, &best);
    if (incremental_) {
      // The first smallest count, 16 lanes at a time.
      const std::uint16_t* cnt = cnt_.data() + (std::size_t{level} * cstride_);
      __m256i mv = _mm256_set1_epi16(-1);
      for (std::uint32_t i = 0; i < cstride_; i += 16)
        mv = _mm256_min_epu16(mv, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(cnt + i)));
      __m128i m8 = _mm_min_epu16(_mm256_castsi256_si128(mv), _mm256_extracti128_si256(mv, 1));
      m8 = _mm_minpos_epu16(m8);  // lane 0: the minimum
      const std::uint16_t m = static_cast<std::uint16_t>(_mm_extract_epi16(m8, 0));
      best = m;
      const __m256i want = _mm256_set1_epi16(static_cast<short>(m));
      for (std::uint32_t i = 0;; i += 16) {
        const __m256i eq =
            _mm256_cmpeq_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(cnt + i)), want);
        const auto bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(eq));
        if (bits) return i + static_cast<std::uint32_t>(__builtin_ctz(bits)) / 2;
      }
    }
    return choose_scan(level, best);
  }

  // prune_choose() on tiny tables: the same fixpoint (it does not depend on the order of the
  // checks), each check an AND of words; then the first open item with the fewest options.
  std::uint32_t prune_tiny(std::uint32_t level, std::uint32_t& best) {
    const Tables& t = *tl_[level];
    std::uint64_t live = live_[level * stride_];
    const std::uint64_t open = open_[level * t.pwords];
    alignas(64) std::uint8_t cnt[64];
    std::uint8_t last[64];
    std::memset(last, 0xFF, sizeof last);
    for (bool again = true; again;) {
      again = false;
      t.tiny_counts(t.imask.data(), live, open, cnt);
      for (std::uint64_t b = open; b; b &= b - 1) {
        const auto i = static_cast<std::uint32_t>(__builtin_ctzll(b));
        if (cnt[i] > t.prune) continue;
        t.row(i);
        const std::uint64_t mine = live & t.dense[i];
        const auto n = static_cast<std::uint32_t>(__builtin_popcountll(mine));
        if (n == 0) {  // a dead end
          live_[level * stride_] = live;
          best = 0;
          return i;
        }
        if (n == last[i]) continue;
        last[i] = static_cast<std::uint8_t>(n);
        std::uint64_t acc = live & ~mine;
        for (std::uint64_t y = mine; y && acc; y &= y - 1)
          acc &= t.conflict_of(static_cast<std::uint32_t>(__builtin_ctzll(y)));
        if (acc) {
          live &= ~acc;
          again = true;
        }
      }
    }
    live_[level * stride_] = live;
    nzc_[level] = live != 0;
    const std::uint32_t chosen = tiny_fewest(cnt, open, &best);  // (cnt: the last pass's)
    if (best) t.row(chosen);
    return chosen;
  }

  // choose() by popcounts.
  std::uint32_t choose_scan(std::uint32_t level, std::uint32_t& best) const {
    const Tables& t = *tl_[level];
    const std::size_t W = t.words;
    const std::uint64_t* live = live_.data() + (level * stride_);
    const std::uint32_t* nz = nz_.data() + (level * stride_);
    const std::uint32_t nzc = nzc_[level];
    const std::uint64_t* open = open_.data() + (std::size_t{level} * t.pwords);
    std::uint32_t chosen = 0;
    best = UINT32_MAX;
    for (std::uint32_t w = 0; w < t.pwords; ++w) {
      for (std::uint64_t bits = open[w]; bits; bits &= bits - 1) {
        const std::uint32_t i = w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(bits));
        // Counting walks i's non-zero words or the live non-zero words, whichever are fewer,
        // and stops as soon as i cannot beat the best so far.
        std::uint32_t c = 0;
        const std::uint32_t p0 = t.col_start[i], p1 = t.col_start[i + 1];
        if (p1 - p0 <= nzc) {
          for (std::uint32_t p = p0; p < p1 && c < best; ++p)
            c += static_cast<std::uint32_t>(
                __builtin_popcountll(live[t.col_word[p]] & t.col_mask[p]));
        } else {
          const std::uint64_t* col = t.dense.data() + (i * W);
          for (std::uint32_t q = 0; q < nzc && c < best; ++q)
            c += static_cast<std::uint32_t>(__builtin_popcountll(live[nz[q]] & col[nz[q]]));
        }
        if (c < best) {
          best = c;
          chosen = i;
          if (c == 0) return chosen;
        }
      }
    }
    return chosen;
  }

  // choose() with pruning. An option that conflicts with every live option of an open item j
  // cannot be in any solution below this node (it would leave j uncoverable). Every item with at
  // most t.prune live options removes such options from live_[level]; removing them shrinks
  // other items' lists, which are checked again, until none removes any. The result does not
  // depend on the order (options only ever go), so it is the same whichever path reaches the
  // node. What an item removes depends only on its list, so an item is checked again only when
  // its count has changed since its last check: chk8_/chk16_ hold each item's count at that
  // check (0xFF / 0xFFFF: never), inherited from the parent. The counts are kept in byte lanes
  // (descend_live), so the items to check are found by comparing two vectors, and the MRV
  // choice that follows, on the smaller live set, is choose_bytes: a smaller tree, the same
  // solutions.
  std::uint32_t prune_choose(std::uint32_t level, std::uint32_t& best) {
    const Tables& t = *tl_[level];
    std::uint64_t* live = live_.data() + (level * stride_);
    std::uint32_t* nz = nz_.data() + (level * stride_);
    const std::uint32_t nzc = nzc_[level];
    std::uint8_t* c8 = cnt8_.data() + (std::size_t{level} * stride8_);
    std::uint16_t* c16 = cnt16_.data() + (std::size_t{level} * stride16_);
    std::uint8_t* k8 = chk8_.data() + (std::size_t{level} * stride8_);
    std::uint16_t* k16 = chk16_.data() + (std::size_t{level} * stride16_);
    std::uint32_t opts[kOptsRoom];
    bool changed = false;
    if (const std::uint32_t e = empty_item(level); e != UINT32_MAX) {  // emptied by the parent
      best = 0;
      return e;
    }
    if (t.fix_fn) {  // the same passes in registers (AVX-512)
      PruneNode node{.live = live,
                     .words = t.words,
                     .dense = t.dense.data(),
                     .conflict = t.conflict.data(),
                     .optmask = t.optmask.data(),
                     .mstride = t.mstride,
                     .lane_item8 = t.lane_item8.data(),
                     .lane_item16 = t.lane_item16.data(),
                     .c8 = c8,
                     .c16 = c16,
                     .k8 = k8,
                     .k16 = k16,
                     .prune = t.prune,
                     .changed = false};
      if (const std::uint32_t e = t.fix_fn(node); e != UINT32_MAX) {
        best = 0;
        return e;
      }
      changed = node.changed;
    } else {
      // Items with fewer options first (cheaper, and what they remove shrinks longer lists):
      // the limit doubles up to t.prune while nothing is removed, and starts again at 1 after.
      for (std::uint32_t lim = 1;;) {
        bool again = false;
        const __m256i lim8 = _mm256_set1_epi8(static_cast<char>(lim));
        const __m256i lim16 = _mm256_set1_epi16(static_cast<short>(lim));
        // One pass over the items whose count is at most t.prune and differs from their last
        // check's, 32 byte lanes (16 16-bit lanes) at a time.
        for (std::uint32_t v = 0; v < t.s8 + t.s16 * 2; v += 32) {
          std::uint32_t todo;
          if (v < t.s8) {
            const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c8 + v));
            const __m256i k = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(k8 + v));
            const __m256i small = _mm256_cmpeq_epi8(_mm256_min_epu8(c, lim8), c);
            todo = static_cast<std::uint32_t>(_mm256_movemask_epi8(small)) &
                   ~static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(c, k)));
          } else {
            const std::uint32_t u = (v - t.s8) / 2;
            const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c16 + u));
            const __m256i k = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(k16 + u));
            const __m256i small = _mm256_cmpeq_epi16(_mm256_min_epu16(c, lim16), c);
            todo = static_cast<std::uint32_t>(_mm256_movemask_epi8(small)) &
                   ~static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi16(c, k))) &
                   0x55555555u;  // one bit per 16-bit lane
          }
          for (; todo; todo &= todo - 1) {
            const std::uint32_t b = static_cast<std::uint32_t>(__builtin_ctz(todo));
            const bool wide = v >= t.s8;
            const std::uint32_t l = wide ? (v - t.s8 + b) / 2 : v + b;
            const std::uint32_t i = wide ? t.lane_item16[l] : t.lane_item8[l];
            // (It may have dropped in this pass, but not to 0: empty_item() checks after every
            // removal.)
            const std::uint32_t n = wide ? c16[l] : c8[l];
            if (wide)
              k16[l] = static_cast<std::uint16_t>(n);
            else
              k8[l] = static_cast<std::uint8_t>(n);
            const std::uint32_t dead = remove_conflicting(level, i, n, opts);
            if (n == 1) {
              // i's one option x is forced: every option sharing an item with x is gone now, so
              // each of x's items has x alone, and checking it would remove nothing more.
              const std::uint32_t x = opts[0];
              for (std::uint32_t q = t.prim_start[x]; q < t.prim_start[x + 1]; ++q) {
                const std::uint32_t lj = t.lane[t.prim_items[q]];
                if (lj & kLong)
                  k16[lj & ~kLong] = 1;
                else
                  k8[lj] = 1;
              }
            }
            if (!dead) continue;
            if (emptied_) {
              best = 0;  // a dead end: the rest of the fixpoint would not change that
              return i;
            }
            changed = again = true;
          }
        }
        if (!(lim = next_limit(lim, again, t.prune))) break;
      }
    }
    if (changed) {  // drop the words that became empty
      std::uint32_t c = 0;
      for (std::uint32_t q = 0; q < nzc; ++q) {
        nz[c] = nz[q];
        c += live[nz[q]] != 0;
      }
      nzc_[level] = c;
    }
    return choose_bytes(level, best);
  }

  // The first open item (in lane order) with no live option left at `level`, or UINT32_MAX.
  std::uint32_t empty_item(std::uint32_t level) const {
    const Tables& t = *tl_[level];
    const std::uint8_t* c8 = cnt8_.data() + (std::size_t{level} * stride8_);
    const std::uint16_t* c16 = cnt16_.data() + (std::size_t{level} * stride16_);
    const __m256i zero = _mm256_setzero_si256();
    for (std::uint32_t v = 0; v < t.s8; v += 32) {
      const auto bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(
          _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(c8 + v)), zero)));
      if (bits) return t.lane_item8[v + static_cast<std::uint32_t>(__builtin_ctz(bits))];
    }
    for (std::uint32_t v = 0; v < t.s16; v += 16) {
      const auto bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(
          _mm256_cmpeq_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(c16 + v)), zero)));
      if (bits) return t.lane_item16[v + static_cast<std::uint32_t>(__builtin_ctz(bits)) / 2];
    }
    return UINT32_MAX;
  }

  // Removes from live_[level] the options that conflict with all n live options of item i (and
  // takes them off the counts); returns how many went.
  std::uint32_t remove_conflicting(std::uint32_t level, std::uint32_t i, std::uint32_t n,
                                   std::uint32_t* opts) {
    const Tables& t = *tl_[level];
    const std::size_t W = t.words;
    std::uint64_t* live = live_.data() + (level * stride_);
    // i's live options.
    const std::uint64_t* col = t.dense.data() + (i * W);
    std::uint64_t* acc = dead_.data();
    if (t.conflict_fn) {
      if (!t.conflict_fn(live, col, n, t.conflict.data(), t.words, opts, acc)) return 0;
      return remove_listed(level, acc);
    }
    std::uint32_t k = 0, w = 0;
    for (; w + 4 <= W && k < n; w += 4) {  // four words at a time, the non-zero ones listed
      const __m256i v =
          _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(live + w)),
                           _mm256_loadu_si256(reinterpret_cast<const __m256i*>(col + w)));
      auto nonzero = static_cast<std::uint32_t>(
          _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(v, _mm256_setzero_si256()))));
      for (nonzero ^= 0xF; nonzero; nonzero &= nonzero - 1) {
        const std::uint32_t wq = w + static_cast<std::uint32_t>(__builtin_ctz(nonzero));
        for (std::uint64_t b = live[wq] & col[wq]; b; b &= b - 1)
          opts[k++] = wq * 64 + static_cast<std::uint32_t>(__builtin_ctzll(b));
      }
    }
    for (; w < W && k < n; ++w)
      for (std::uint64_t b = live[w] & col[w]; b; b &= b - 1)
        opts[k++] = w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(b));
    // The options that conflict with all of them: live, not i's, in every conflict row (whole
    // rows, option after option, while any is left; the rows are short enough to AND whole).
    std::uint64_t any = 0;
    {
      const std::uint64_t* row = t.conflict.data() + (opts[0] * W);
      for (std::uint32_t w = 0; w < W; ++w) {
        acc[w] = live[w] & ~col[w] & row[w];
        any |= acc[w];
      }
    }
    for (std::uint32_t j = 1; j < n && any; ++j) {
      const std::uint64_t* row = t.conflict.data() + (opts[j] * W);
      any = 0;
      for (std::uint32_t w = 0; w < W; ++w) {
        acc[w] &= row[w];
        any |= acc[w];
      }
    }
    if (!any) return 0;
    return remove_listed(level, acc);
  }

  // Removes the options of acc (dense, words) from live_[level] and its counts; returns how many.
  std::uint32_t remove_listed(std::uint32_t level, std::uint64_t* acc) {
    const Tables& t = *tl_[level];
    std::uint64_t* live = live_.data() + (level * stride_);
    const std::uint32_t* nz = nz_.data() + (level * stride_);
    const std::uint32_t nzc = nzc_[level];
    // d[r] is word sw[r]: the words holding options to remove.
    std::uint64_t* d = acc;
    std::uint32_t* sw = surv_.data();
    std::uint32_t ns = 0, dead = 0;
    if (t.take_fn) {
      ns = t.take_fn(acc, t.words, live, d, sw, &dead);
    } else {
      for (std::uint32_t q = 0; q < nzc; ++q) {
        const std::uint32_t wq = nz[q];
        d[ns] = acc[wq];  // (ns <= q <= wq: acc[wq] is read before anything is written over it)
        sw[ns] = wq;
        ns += d[ns] != 0;
      }
      for (std::uint32_t r = 0; r < ns; ++r) {
        live[sw[r]] &= ~d[r];
        dead += static_cast<std::uint32_t>(__builtin_popcountll(d[r]));
      }
    }
    std::uint8_t* c8 = cnt8_.data() + (std::size_t{level} * stride8_);
    std::uint16_t* c16 = cnt16_.data() + (std::size_t{level} * stride16_);
    if (t.list_fn) {
      emptied_ = t.list_fn(d, sw, ns, t.optmask.data(), t.mstride, c8, c16);
    } else {
      (this->*listed_fns_[t.s8 / 32 * 5 + t.s16 / 16])(level, d, sw, ns);
      emptied_ = empty_item(level) != UINT32_MAX;
    }
    return dead;
  }

  // choose() in byte lanes: the smallest count over both kinds of lanes, then the first item
  // with that count (lanes follow the item order within each kind).
  std::uint32_t choose_bytes(std::uint32_t level, std::uint32_t& best) const {
    const Tables& t = *tl_[level];
    const std::uint8_t* c8 = cnt8_.data() + (std::size_t{level} * stride8_);
    const std::uint16_t* c16 = cnt16_.data() + (std::size_t{level} * stride16_);
    std::uint32_t m = 0xFFFF;
    if (t.s8) {
      __m256i mv = _mm256_set1_epi8(-1);
      for (std::uint32_t i = 0; i < t.s8; i += 32)
        mv = _mm256_min_epu8(mv, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c8 + i)));
      __m128i m8 = _mm_min_epu8(_mm256_castsi256_si128(mv), _mm256_extracti128_si256(mv, 1));
      m8 = _mm_min_epu8(m8, _mm_srli_epi16(m8, 8));  // low byte of each 16-bit lane: a pair's min
      m8 = _mm_minpos_epu16(_mm_and_si128(m8, _mm_set1_epi16(0xFF)));
      const std::uint32_t b = static_cast<std::uint32_t>(_mm_extract_epi16(m8, 0));
      if (b != 0xFF) m = b;
    }
    if (t.s16) {
      __m256i mv = _mm256_set1_epi16(-1);
      for (std::uint32_t i = 0; i < t.s16; i += 16)
        mv = _mm256_min_epu16(mv, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c16 + i)));
      __m128i m8 = _mm_min_epu16(_mm256_castsi256_si128(mv), _mm256_extracti128_si256(mv, 1));
      m8 = _mm_minpos_epu16(m8);
      const std::uint32_t b = static_cast<std::uint32_t>(_mm_extract_epi16(m8, 0));
      if (b < m) m = b;
    }
    best = m;
    std::uint32_t item = UINT32_MAX;
    if (m < 0xFF) {
      const __m256i want = _mm256_set1_epi8(static_cast<char>(m));
      for (std::uint32_t i = 0; i < t.s8; i += 32) {
        const __m256i eq =
            _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(c8 + i)), want);
        const auto bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(eq));
        if (bits) {
          item = t.lane_item8[i + static_cast<std::uint32_t>(__builtin_ctz(bits))];
          break;
        }
      }
    }
    const __m256i want = _mm256_set1_epi16(static_cast<short>(m));
    for (std::uint32_t i = 0; i < t.s16; i += 16) {
      const __m256i eq =
          _mm256_cmpeq_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(c16 + i)), want);
      const auto bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(eq));
      if (bits) {
        const std::uint32_t j =
            t.lane_item16[i + static_cast<std::uint32_t>(__builtin_ctz(bits)) / 2];
        if (j < item) item = j;
        break;
      }
    }
    return item;
  }

  // Below a node whose live options fill few of its table's words, every row the search reads
  // (the columns, the conflict rows of pruning's test) is mostly zeros. When the live options
  // fit in at most half the words, they are renumbered 0, 1, ... in order (the node's residual
  // problem: the same items, only its live options) and the node and its descendants use tables
  // of that width. The order of the options, the items and the counts stay as they are, so the
  // tree, its node counts and the order of the solutions do not change.
  void compact(std::uint32_t level) {
    const Tables& t = *tl_[level];
    std::uint64_t* live = live_.data() + (std::size_t{level} * stride_);
    std::uint32_t* nz = nz_.data() + (std::size_t{level} * stride_);
    const std::uint32_t nzc = nzc_[level];
    std::uint32_t n = 0;
    for (std::uint32_t q = 0; q < nzc; ++q)
      n += static_cast<std::uint32_t>(__builtin_popcountll(live[nz[q]]));
    const std::uint32_t words = (n + 63) / 64;
    if (words * 2 > t.words) return;
    if (!pool_[level]) pool_[level] = std::make_unique<Tables>();
    Tables& c = *pool_[level];
    c.compact_from(t, live, nz, nzc, open_.data() + std::size_t{level} * t.pwords);
    relane(level, t, c);
    for (std::uint32_t w = 0; w < words; ++w) {
      live[w] = ~std::uint64_t{0};
      nz[w] = w;
    }
    if (n % 64) live[words - 1] = (std::uint64_t{1} << (n % 64)) - 1;
    nzc_[level] = words;
    tl_[level] = &c;
  }

  // How many primary items option x of `level` has.
  std::uint32_t prims(std::uint32_t level, std::uint32_t x) const {
    const Tables& t = *tl_[level];
    if (lists_)
      return static_cast<std::uint32_t>(
          __builtin_popcountll(list_[std::size_t{level} * lstride_ + x] & open_[level]));
    if (t.tiny) return static_cast<std::uint32_t>(__builtin_popcountll(t.imask[x] & open_[level]));
    return t.prim_start[x + 1] - t.prim_start[x];
  }

  // Below a node with at most 64 live options (in a problem of at most 64 items, no colours):
  // its options renumbered 0, 1, ... in order, each a 64-bit mask of its items. Counting an
  // item's options is then a byte lane's sum over the live options, a child's live options one
  // AND, a pruning check one AND per option. The same tree: the order of the options, the items
  // and the counts stay as they are.
  void narrow_tiny(std::uint32_t level) {
    const std::uint64_t* live = live_.data() + (std::size_t{level} * stride_);
    const std::uint32_t* nz = nz_.data() + (std::size_t{level} * stride_);
    std::uint32_t n = 0;
    for (std::uint32_t q = 0, e = nzc_[level]; q < e && n <= 64; ++q)
      n += static_cast<std::uint32_t>(__builtin_popcountll(live[nz[q]]));
    if (n == 0 || n > 64) return;
    if (!tiny_pool_[level]) tiny_pool_[level] = std::make_unique<Tables>();
    Tables& c = *tiny_pool_[level];
    c.tiny_from(*tl_[level], live, nz, nzc_[level], n);
    live_[std::size_t{level} * stride_] = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
    nz_[std::size_t{level} * stride_] = 0;
    nzc_[level] = 1;
    tl_[level] = &c;
  }

  // compact(): the counts of `level` and its last checks (byte and 16-bit lanes of t) moved to
  // the lanes of c, where the items that now have at most short_max live options count in byte
  // lanes and the covered ones have none (an item only ever moves from a 16-bit lane to a byte
  // lane; padding keeps 0xFF / 0xFFFF, as does a check not made yet; a check was made at a
  // count of at most t.prune).
  void relane(std::uint32_t level, const Tables& t, const Tables& c) {
    auto move = [&](std::uint8_t* b, std::uint16_t* w) {
      std::fill_n(lanes8_.begin(), c.s8, 0xFF);
      std::fill_n(lanes16_.begin(), c.s16, 0xFFFF);
      for (std::uint32_t i = 0; i < t.n1; ++i) {
        const std::uint32_t l = t.lane[i], to = c.lane[i];
        if (to == kNoLane) continue;  // covered
        const std::uint32_t v = l & kLong ? w[l & ~kLong] : b[l];
        if (to & kLong)
          lanes16_[to & ~kLong] = static_cast<std::uint16_t>(v);
        else
          lanes8_[to] = static_cast<std::uint8_t>(std::min<std::uint32_t>(v, 0xFF));
      }
      std::copy_n(lanes8_.begin(), c.s8, b);
      std::copy_n(lanes16_.begin(), c.s16, w);
    };
    move(cnt8_.data() + (std::size_t{level} * stride8_),
         cnt16_.data() + (std::size_t{level} * stride16_));
    move(chk8_.data() + (std::size_t{level} * stride8_),
         chk16_.data() + (std::size_t{level} * stride16_));
  }

  // Level `level + 1` = level `level` with option x chosen.
  void descend(std::uint32_t level, std::uint32_t x) {
    descend_open(level, x);
    descend_live(level, x);
  }

  // The open items of level `level + 1`: those of `level` less x's. A child that covers every
  // open item is a solution and needs no live options: the search gives it only this step.
  // Without that, a node with many children that are solutions (a million options of one item)
  // would rewrite every live word once per child: quadratic.
  void descend_open(std::uint32_t level, std::uint32_t x) {
    tl_[level + 1] = tl_[level];  // the child's options are numbered as its parent's
    if (lists_) {                 // (x's open items: its item bits less the covered ones)
      const std::uint64_t o = open_[level], xs = list_[std::size_t{level} * lstride_ + x] & o;
      open_[level + 1] = o & ~xs;
      open_n_[level + 1] = open_n_[level] - static_cast<std::uint32_t>(__builtin_popcountll(xs));
      return;
    }
    if (tl_[level]->tiny) {  // (one word of primary items; x's are open, the others are not)
      const std::uint64_t o = open_[level], xs = tl_[level]->imask[x] & o;
      open_[level + 1] = o & ~xs;
      open_n_[level + 1] = open_n_[level] - static_cast<std::uint32_t>(__builtin_popcountll(xs));
      return;
    }
    const Tables& t = *tl_[level];
    open_n_[level + 1] = open_n_[level] - (t.prim_start[x + 1] - t.prim_start[x]);
    std::uint64_t* open = open_.data() + (std::size_t{level + 1} * t.pwords);
    if (t.pwords == 1) {  // (one word: x's bits gathered, one store instead of a chain of them)
      std::uint64_t covered = 0;
      for (std::uint32_t q = t.prim_start[x], e = t.prim_start[x + 1]; q < e; ++q)
        covered |= std::uint64_t{1} << t.prim_items[q];
      open[0] = open[-1] & ~covered;
      return;
    }
    std::memcpy(open, open - t.pwords, sizeof(std::uint64_t) * t.pwords);
    for (std::uint32_t q = t.prim_start[x], e = t.prim_start[x + 1]; q < e; ++q) {
      const std::uint32_t j = t.prim_items[q];
      open[j / 64] &= ~(std::uint64_t{1} << (j % 64));
    }
  }

  // Mask lists: the list of level `level + 1` (open: its open items), x chosen at `level`.
  void list_down(std::uint32_t level, std::uint32_t x, std::uint64_t open) {
    std::uint64_t* src = list_.data() + std::size_t{level} * lstride_;
    std::uint64_t any;
    listn_[level + 1] =
        t_->list_filter(src, listn_[level], src[x] & t_->litems, src + lstride_, &any);
    ldead_[level + 1] = (open & ~any) != 0;
    updates_ += listn_[level + 1];  // (the words of the new list)
  }

  // The live options (and their counts) of level `level + 1`, x chosen at `level`.
  void descend_live(std::uint32_t level, std::uint32_t x) {
    const Tables& t = *tl_[level];
    if (lists_) {
      list_down(level, x, open_[level + 1]);
      return;
    }
    const std::size_t W = t.words, S = stride_;
    const std::uint64_t* src = live_.data() + (level * S);
    std::uint64_t* dst = live_.data() + ((level + 1) * S);
    const std::uint32_t* nz = nz_.data() + (level * S);
    std::uint32_t* nz1 = nz_.data() + ((level + 1) * S);
    if (t.tiny) {  // (tiny tables keep no counts: choose() sums them)
      dst[0] = src[0] & ~t.conflict_of(x);
      nz1[0] = 0;
      nzc_[level + 1] = dst[0] != 0;
      updates_ += 1;
      return;
    }
    const std::uint32_t* items = t.opt_items.data() + (t.opt_start[x]);
    const std::uint32_t* kills = t.opt_kill.data() + (t.opt_start[x]);
    const std::uint32_t k = t.opt_start[x + 1] - t.opt_start[x];
    if (t.descend_fn) {
      nzc_[level + 1] = t.descend_fn(src, dst, t.dense.data(), kills, k, t.words, nz1);
    } else {
      std::memset(dst, 0, sizeof(std::uint64_t) * W);  // every word valid: zero unless in nz
      std::uint32_t c = 0;
      for (std::uint32_t q = 0, e = nzc_[level]; q < e; ++q) {
        const std::uint32_t w = nz[q];
        std::uint64_t v = src[w];
        for (std::uint32_t r = 0; r < k; ++r) v &= ~t.dense[kills[r] * W + w];
        dst[w] = v;
        nz1[c] = w;
        c += v != 0;
      }
      nzc_[level + 1] = c;
    }
    updates_ += nzc_[level];
    if (t.prune) {  // the child starts from the parent's checks (either kind may have no lanes)
      if (t.s8)
        std::memcpy(chk8_.data() + (std::size_t{level + 1} * stride8_),
                    chk8_.data() + (std::size_t{level} * stride8_), t.s8);
      if (t.s16)
        std::memcpy(chk16_.data() + (std::size_t{level + 1} * stride16_),
                    chk16_.data() + (std::size_t{level} * stride16_),
                    sizeof(std::uint16_t) * t.s16);
    }
    if (bytes_) {
      if (t.masks_fn) {
        t.masks_fn(src, dst, nz, nzc_[level], t.optmask.data(), t.mstride,
                   cnt8_.data() + (std::size_t{level} * stride8_),
                   cnt8_.data() + (std::size_t{level + 1} * stride8_),
                   cnt16_.data() + (std::size_t{level} * stride16_),
                   cnt16_.data() + (std::size_t{level + 1} * stride16_));
      } else {
        (this->*bytes_fns_[t.s8 / 32 * 5 + t.s16 / 16])(level, src, dst);
      }
      std::uint8_t* c8 = cnt8_.data() + (std::size_t{level + 1} * stride8_);
      std::uint16_t* c16 = cnt16_.data() + (std::size_t{level + 1} * stride16_);
      for (std::uint32_t q = 0; q < k; ++q) {
        if (items[q] >= t.n1) continue;
        const std::uint32_t l = t.lane[items[q]];
        if (l & kLong)
          c16[l & ~kLong] = 0xFFFF;
        else
          c8[l] = 0xFF;
      }
      return;
    }
    if (incremental_) {
      const std::uint16_t* c0 = cnt_.data() + (std::size_t{level} * cstride_);
      std::uint16_t* c1 = cnt_.data() + (std::size_t{level + 1} * cstride_);
      if (!t.optvec.empty()) {
        (this->*subtract_)(level, src, dst, c0, c1);
        for (std::uint32_t q = 0; q < k; ++q)
          if (items[q] < t.n1) c1[items[q]] = 0xFFFF;
        return;
      }
      std::memcpy(c1, c0, sizeof(std::uint16_t) * cstride_);
      for (std::uint32_t q = 0, e = nzc_[level]; q < e; ++q) {
        const std::uint32_t w = nz[q];
        for (std::uint64_t kill = src[w] & ~dst[w]; kill; kill &= kill - 1) {
          const std::uint32_t o = w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(kill));
          for (std::uint32_t r = t.prim_start[o], re = t.prim_start[o + 1]; r < re; ++r)
            --c1[t.prim_items[r]];
        }
      }
      for (std::uint32_t q = 0; q < k; ++q)
        if (items[q] < t.n1) c1[items[q]] = 0xFFFF;
    }
  }

  // c1 = c0 minus the count vector of every option that died between src and dst (NV vectors of
  // 16 counts, kept in registers).
  template <int NV>
  void subtract_killed(std::uint32_t level, const std::uint64_t* src, const std::uint64_t* dst,
                       const std::uint16_t* c0, std::uint16_t* c1) const {
    const Tables& t = *tl_[level];
    __m256i acc[NV];
    for (int v = 0; v < NV; ++v)
      acc[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c0) + v);
    const std::uint32_t* nz = nz_.data() + (std::size_t{level} * stride_);
    const std::uint16_t* vecs = t.optvec.data();
    for (std::uint32_t q = 0, e = nzc_[level]; q < e; ++q) {
      const std::uint32_t w = nz[q];
      for (std::uint64_t kill = src[w] & ~dst[w]; kill; kill &= kill - 1) {
        const std::uint32_t o = w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(kill));
        const __m256i* ov = reinterpret_cast<const __m256i*>(vecs + std::size_t{o} * NV * 16);
        for (int v = 0; v < NV; ++v) acc[v] = _mm256_sub_epi16(acc[v], _mm256_loadu_si256(ov + v));
      }
    }
    for (int v = 0; v < NV; ++v) _mm256_storeu_si256(reinterpret_cast<__m256i*>(c1) + v, acc[v]);
  }

  // d8, d16 = c8, c16 minus the byte and 16-bit vectors of each option that for_each_option
  // hands to its argument (N8 vectors of 32 byte lanes, N16 of 16 16-bit lanes, kept in
  // registers; d may be c).
  template <int N8, int N16, class ForEachOption>
  void subtract_vectors(const Tables& t, const std::uint8_t* c8, const std::uint16_t* c16,
                        std::uint8_t* d8, std::uint16_t* d16, ForEachOption for_each_option) const {
    __m256i a8[N8 ? N8 : 1], a16[N16 ? N16 : 1];
    for (int v = 0; v < N8; ++v)
      a8[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c8) + v);
    for (int v = 0; v < N16; ++v)
      a16[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c16) + v);
    const std::uint8_t* v8 = t.optv8.data();
    const std::uint16_t* v16 = t.optv16.data();
    for_each_option([&](std::uint32_t o) {
      const __m256i* o8 = reinterpret_cast<const __m256i*>(v8 + std::size_t{o} * N8 * 32);
      for (int v = 0; v < N8; ++v) a8[v] = _mm256_sub_epi8(a8[v], _mm256_loadu_si256(o8 + v));
      const __m256i* o16 = reinterpret_cast<const __m256i*>(v16 + std::size_t{o} * N16 * 16);
      for (int v = 0; v < N16; ++v) a16[v] = _mm256_sub_epi16(a16[v], _mm256_loadu_si256(o16 + v));
    });
    for (int v = 0; v < N8; ++v) _mm256_storeu_si256(reinterpret_cast<__m256i*>(d8) + v, a8[v]);
    for (int v = 0; v < N16; ++v) _mm256_storeu_si256(reinterpret_cast<__m256i*>(d16) + v, a16[v]);
  }

  // The byte-lane counts of level `level + 1`: level `level`'s minus the vectors of every option
  // that died.
  template <int N8, int N16>
  void subtract_bytes(std::uint32_t level, const std::uint64_t* src, const std::uint64_t* dst) {
    const Tables& t = *tl_[level];
    const std::uint32_t* nz = nz_.data() + (std::size_t{level} * stride_);
    const std::uint32_t nzc = nzc_[level];
    subtract_vectors<N8, N16>(t, cnt8_.data() + (std::size_t{level} * stride8_),
                              cnt16_.data() + (std::size_t{level} * stride16_),
                              cnt8_.data() + (std::size_t{level + 1} * stride8_),
                              cnt16_.data() + (std::size_t{level + 1} * stride16_), [&](auto sub) {
                                std::uint32_t* end = listed_.data();  // (listed first: one loop)
                                for (std::uint32_t q = 0; q < nzc; ++q) {
                                  const std::uint32_t w = nz[q];
                                  if (const std::uint64_t k = src[w] & ~dst[w])
                                    end = list_word8(k, w, end);
                                }
                                for (const std::uint32_t* o = listed_.data(); o < end; ++o) sub(*o);
                              });
  }

  // remove_listed's counts on CPUs without AVX-512: the counts of `level` less the vectors of
  // the options listed as words (bits d[r] of word sw[r], r < ns), in place.
  template <int N8, int N16>
  void subtract_listed(std::uint32_t level, const std::uint64_t* d, const std::uint32_t* sw,
                       std::uint32_t ns) {
    const Tables& t = *tl_[level];
    std::uint8_t* c8 = cnt8_.data() + (std::size_t{level} * stride8_);
    std::uint16_t* c16 = cnt16_.data() + (std::size_t{level} * stride16_);
    subtract_vectors<N8, N16>(t, c8, c16, c8, c16, [&](auto sub) {
      std::uint32_t* end = listed_.data();  // (listed first: one loop)
      for (std::uint32_t r = 0; r < ns; ++r) end = list_word8(d[r], sw[r], end);
      for (const std::uint32_t* o = listed_.data(); o < end; ++o) sub(*o);
    });
  }

  using SubtractListedFn = void (BitsetEngine::*)(std::uint32_t, const std::uint64_t*,
                                                  const std::uint32_t*, std::uint32_t);
  template <std::size_t... I>
  static constexpr std::array<SubtractListedFn, sizeof...(I)> listed_table(
      std::index_sequence<I...>) {
    return {&BitsetEngine::subtract_listed<static_cast<int>(I / 5), static_cast<int>(I % 5)>...};
  }

  using SubtractBytesFn = void (BitsetEngine::*)(std::uint32_t, const std::uint64_t*,
                                                 const std::uint64_t*);
  template <std::size_t... I>
  static constexpr std::array<SubtractBytesFn, sizeof...(I)> bytes_table(
      std::index_sequence<I...>) {
    return {&BitsetEngine::subtract_bytes<static_cast<int>(I / 5), static_cast<int>(I % 5)>...};
  }

  using SubtractFn = void (BitsetEngine::*)(std::uint32_t, const std::uint64_t*,
                                            const std::uint64_t*, const std::uint16_t*,
                                            std::uint16_t*) const;
  template <std::size_t... I>
  static constexpr std::array<SubtractFn, sizeof...(I)> kill_table(std::index_sequence<I...>) {
    return {&BitsetEngine::subtract_killed<static_cast<int>(I) + 1>...};
  }

  // Moves frame `level` to its next candidate; false when there is none.
  bool next(std::uint32_t level, std::uint32_t& x) {
    Frame& f = frame_[level];
    if (lists_) {
      while (f.bits == 0) {
        if (++f.p * 64 >= listn_[level]) return false;
        f.bits = rows_[std::size_t{level} * rwords_ + f.p];
      }
      x = f.p * 64 + static_cast<std::uint32_t>(__builtin_ctzll(f.bits));
      f.bits &= f.bits - 1;
      return true;
    }
    const Tables& t = *tl_[level];
    const std::size_t W = t.words, S = stride_;
    while (f.bits == 0) {
      if (++f.p >= nzc_[level]) return false;
      const std::uint32_t w = nz_[level * S + f.p];
      f.bits = live_[level * S + w] & t.dense[f.item * W + w];
    }
    x = nz_[level * S + f.p] * 64 + static_cast<std::uint32_t>(__builtin_ctzll(f.bits));
    f.bits &= f.bits - 1;
    return true;
  }

  void start_frame(std::uint32_t level, std::uint32_t item) {
    Frame& f = frame_[level];
    if (lists_) {
      std::uint64_t* row = rows_.data() + std::size_t{level} * rwords_;
      t_->list_row(list_.data() + std::size_t{level} * lstride_, listn_[level], item, row);
      f.item = item;
      f.p = 0;
      f.bits = row[0];
      f.sib = 0;
      return;
    }
    const std::size_t W = tl_[level]->words, S = stride_;
    f.item = item;
    f.p = 0;
    f.bits = nzc_[level]
                 ? live_[level * S + nz_[level * S]] & tl_[level]->dense[item * W + nz_[level * S]]
                 : 0;
    f.sib = 0;
  }

  bool report(SolutionVisitor& visit, std::uint32_t level) {
    for (std::uint32_t l = 0; l < level; ++l)
      out_[l] = lists_ ? t_->order[list_[std::size_t{l} * lstride_ + chosen_[l]] >> t_->lshift]
                : tl_[l]->tiny ? tl_[l]->base->order[tl_[l]->glob[chosen_[l]]]
                               : tl_[l]->order[chosen_[l]];
    return visit(std::span<const OptionId>(out_.data(), level));
  }

  bool is_open_empty(std::uint32_t level) const {
    const std::uint64_t* open = open_.data() + (std::size_t{level} * t_->pwords);
    for (std::uint32_t w = 0; w < t_->pwords; ++w)
      if (open[w]) return false;
    return true;
  }

  // The subtree of the node at `top` (entered and counted, not replaying, no depth limit) in one
  // loop: search()'s steps with the representation's inlined (tiny_run, list_run). The same
  // tree, frames, checks and visits, so spans, donations, limits and stops work as there. True
  // when the run must stop (the rest is set); false when the subtree is done. `rep` gives:
  //   branch(level, open): frame_[level] set up for its item's options, false at a dead end;
  //   items(level, x): option x's items; down(level, x, open): level + 1 below x (open: its open
  //   items, not none); up(level): back at `level` from below.
  template <class Rep>
  bool own_run(const std::uint32_t top, SpanCursor& cur, SolutionVisitor* visit,
               const SolveLimits& limits, const Control* ctl, std::uint32_t& poll, RunResult& r,
               Rep rep) {
    SolveStats& st = r.st;
    std::uint32_t level = top;
    std::uint64_t open = open_[level];
    auto remaining_fn = [&](std::int64_t l) { return remaining(l); };
  branch:
    if (!rep.branch(level, open)) goto backup;
    cur.bound(frame_.data(), level);
    frame_[level].sib = UINT32_MAX;  // incremented to 0 by the first child
  try_next : {
    Frame& f = frame_[level];
    const std::uint32_t sib = f.sib + 1;  // (wraps to 0 for the first child)
    std::uint32_t x;
    if (sib >= f.end || !next(level, x)) goto backup;
    f.sib = sib;
    chosen_[level] = x;
    open &= ~rep.items(level, x);
    open_[level + 1] = open;
    if (open) rep.down(level, x, open);
    ++level;
  }
    // enter:
    if (cur.stop_before_node(frame_.data(), level, ctl, poll, limits, r, remaining_fn)) return true;
    ++st.nodes;
    if (open) goto branch;
    ++st.solutions;
    if (SpanCursor::stop_after_solution(frame_.data(), level, !visit || report(*visit, level),
                                        limits, r))
      return true;
  backup:
    if (level == top) return false;
    --level;
    open = open_[level];
    rep.up(level);
    goto try_next;
  }

  // own_run() on tiny tables (those of `top`; one word of primary items): the live word of the
  // level being searched in a register, each level's kept in live_ for the way back.
  [[gnu::noinline]] bool tiny_run(std::uint32_t top, SpanCursor& cur, SolutionVisitor* visit,
                                  const SolveLimits& limits, const Control* ctl,
                                  std::uint32_t& poll, RunResult& r) {
    struct Tiny {
      BitsetEngine& e;
      const Tables& t;
      std::uint64_t live;
      bool branch(std::uint32_t level, std::uint64_t open) {
        std::uint32_t best;
        const std::uint32_t i = t.tiny_choose(t.imask.data(), live, open, &best);
        if (best == 0) return false;
        Frame& f = e.frame_[level];
        f.item = i;
        f.p = 0;
        f.bits = live & t.row(i);
        f.kids = best;
        e.live_[level * e.stride_] = live;  // (next() and remaining() read word 0 of one)
        e.nz_[level * e.stride_] = 0;
        e.nzc_[level] = 1;
        return true;
      }
      std::uint64_t items(std::uint32_t, std::uint32_t x) const { return t.imask[x]; }
      void down(std::uint32_t level, std::uint32_t x, std::uint64_t) {
        live &= ~t.conflict_of(x);
        ++e.updates_;
        e.tl_[level + 1] = &t;
      }
      void up(std::uint32_t level) { live = e.live_[level * e.stride_]; }
    } rep{*this, *tl_[top], live_[top * stride_]};
    return own_run(top, cur, visit, limits, ctl, poll, r, rep);
  }

  // own_run() on mask lists. (Both kept out of search(): inlined there, the loop runs slower.)
  [[gnu::noinline]] bool list_run(std::uint32_t top, SpanCursor& cur, SolutionVisitor* visit,
                                  const SolveLimits& limits, const Control* ctl,
                                  std::uint32_t& poll, RunResult& r) {
    struct Lists {
      BitsetEngine& e;
      const std::uint64_t* list;  // (list_ and lstride_ in registers)
      std::size_t stride;
      ListChooseFn choose;
      bool branch(std::uint32_t level, std::uint64_t open) {
        if (e.ldead_[level]) return false;
        std::uint32_t best;
        const std::uint32_t i = choose(list + level * stride, e.listn_[level], open, &best);
        e.start_frame(level, i);
        e.frame_[level].kids = best;
        return true;
      }
      std::uint64_t items(std::uint32_t level, std::uint32_t x) const {
        return list[level * stride + x];
      }
      void down(std::uint32_t level, std::uint32_t x, std::uint64_t open) {
        e.list_down(level, x, open);
      }
      void up(std::uint32_t) {}
    } rep{*this, list_.data(), lstride_, t_->list_choose};
    return own_run(top, cur, visit, limits, ctl, poll, r, rep);
  }

  RunResult search(const TreeSpan& span, std::uint32_t depth, SolutionVisitor* visit,
                   const SolveLimits& limits, const Control* ctl) {
    const Tables& t = *t_;
    RunResult r;
    SolveStats& st = r.st;
    updates_ = 0;
    if (!span.to_end && !(span.begin < span.end)) return r;  // empty
    // Level 0: every option live, every primary item open.
    tl_[0] = &t;
    std::fill_n(live_.begin(), t.words, ~std::uint64_t{0});
    if (t.m % 64) live_[t.words - 1] = (std::uint64_t{1} << (t.m % 64)) - 1;
    for (std::uint32_t w = 0; w < t.words; ++w) nz_[w] = w;
    nzc_[0] = t.words;
    std::fill_n(cnt_.begin(), t.n1, 0);  // (the padding keeps 0xFFFF)
    for (std::uint32_t o = 0; o < t.m; ++o)
      for (std::uint32_t r = t.prim_start[o]; r < t.prim_start[o + 1]; ++r) ++cnt_[t.prim_items[r]];
    if (bytes_) {
      std::fill_n(cnt8_.begin(), t.s8, 0xFF);
      std::fill_n(cnt16_.begin(), t.s16, 0xFFFF);
      for (std::uint32_t i = 0; i < t.n1; ++i) {
        const std::uint32_t l = t.lane[i];
        if (l & kLong)
          cnt16_[l & ~kLong] = cnt_[i];
        else
          cnt8_[l] = static_cast<std::uint8_t>(cnt_[i]);
      }
    }
    std::fill_n(open_.begin(), t.pwords, ~std::uint64_t{0});
    std::fill_n(chk8_.begin(), t.prune ? t.s8 : 0, 0xFF);  // nothing checked yet
    std::fill_n(chk16_.begin(), t.prune ? t.s16 : 0, 0xFFFF);
    open_n_[0] = t.n1;
    if (t.n1 % 64) open_[t.pwords - 1] = (std::uint64_t{1} << (t.n1 % 64)) - 1;
    if (lists_) {  // (every option, and whether an item has none)
      std::uint64_t any;
      listn_[0] = t.list_filter(t.lmask.data(), t.m, 0, list_.data(), &any);
      ldead_[0] = (open_[0] & ~any) != 0;
    }

    const std::span<const std::uint32_t> begin(span.begin);
    const std::uint32_t begin_len = static_cast<std::uint32_t>(begin.size());
    const std::uint32_t limit = depth ? depth : UINT32_MAX;
    SpanCursor cur;
    cur.start(span);
    bool replay = begin_len > 0;  // still descending along span.begin
    std::uint32_t poll = 0;
    std::uint32_t level = 0;
    std::uint32_t x;
  enter:
    if (replay && level < begin_len) {  // an ancestor of the span's first node: not counted
      if (is_open_empty(level)) goto backup;
      goto branch;
    }
    replay = false;
    if (level == limit) {
      ++r.frontier;
      if (ctl && ctl->frontier) ctl->frontier(ctl->ctx, SpanCursor::path(frame_.data(), level));
      goto backup;
    }
    if (cur.stop_before_node(frame_.data(), level, ctl, poll, limits, r,
                             [&](std::int64_t l) { return remaining(l); }))
      goto done;
    ++st.nodes;
    if (is_open_empty(level)) {
      ++st.solutions;
      if (SpanCursor::stop_after_solution(frame_.data(), level, !visit || report(*visit, level),
                                          limits, r))
        goto done;
      goto backup;
    }
  branch : {
    std::uint32_t best;
    if (tiny_ && !tl_[level]->tiny) narrow_tiny(level);
    if (!replay && limit == UINT32_MAX && tiny_run_) {
      if (lists_) {
        if (list_run(level, cur, visit, limits, ctl, poll, r)) goto done;
        goto backup;
      }
      if (tl_[level]->tiny && !t.prune) {
        if (tiny_run(level, cur, visit, limits, ctl, poll, r)) goto done;
        goto backup;
      }
    }
    const std::uint32_t i = choose(level, best);
    if (best == 0) goto backup;
    if (t.prune && tl_[level] == &t && t.words >= compact_words_) compact(level);
    start_frame(level, i);
    frame_[level].kids = best;
    cur.bound(frame_.data(), level);
    frame_[level].sib = UINT32_MAX;  // incremented to 0 by the first child
  }
  try_next : {
    Frame& f = frame_[level];
    const std::uint32_t sib = f.sib + 1;  // (wraps to 0 for the first child)
    if (sib >= f.end || !next(level, x)) goto backup;
    f.sib = sib;
    if (replay && sib < begin[level]) goto try_next;  // replaying: skip to begin's child
    chosen_[level] = x;
    if (open_n_[level] == prims(level, x)) {
      descend_open(level, x);  // a solution (a live option's primary items are all open)
    } else {
      descend(level, x);
    }
    ++level;
    goto enter;
  }
  backup:
    replay = false;
    if (level == 0) goto done;
    --level;
    goto try_next;

  done:
    st.updates = updates_;
    return r;
  }

  std::shared_ptr<const Tables> t_;
  // The tables each level's options are numbered in: t_ until compact() renumbers a node's live
  // options; its descendants inherit them. pool_[L] holds the tables compacted at level L.
  std::vector<const Tables*> tl_;
  std::vector<std::unique_ptr<Tables>> pool_;
  std::vector<std::unique_ptr<Tables>> tiny_pool_;  // the tiny tables narrowed at level L
  std::uint32_t stride_ = 0;          // words per level in live_ and nz_ (t_'s option words)
  std::uint32_t compact_words_ = 0;   // EngineTuning::compact_words
  std::vector<std::uint64_t> live_;   // one bitset per level
  std::vector<std::uint32_t> nz_;     // per level: the indices of its non-zero live words
  std::vector<std::uint32_t> nzc_;    // per level: how many
  std::vector<std::uint16_t> cnt_;    // per level: live options of each primary item (incremental)
  std::uint32_t cstride_ = 0;         // cnt_ entries per level
  SubtractFn subtract_ = nullptr;     // subtract_killed<cstride_ / 16>, when it applies
  bool bytes_ = false;                // counts in byte lanes (Tables::s8, s16)
  std::vector<std::uint8_t> cnt8_;    // per level: the byte lanes
  std::vector<std::uint16_t> cnt16_;  // per level: the 16-bit lanes
  std::uint32_t stride8_ = 0, stride16_ = 0;  // cnt8_, chk8_ (cnt16_, chk16_): lanes per level
  // The AVX2 loops of the byte-lane counts, subtract_bytes<s8 / 32, s16 / 16> and
  // subtract_listed<...>, by the lanes of each level's tables (per engine: no mutable table).
  std::array<SubtractBytesFn, 45> bytes_fns_ = bytes_table(std::make_index_sequence<45>{});
  std::array<SubtractListedFn, 45> listed_fns_ = listed_table(std::make_index_sequence<45>{});
  std::vector<std::uint8_t> lanes8_;  // (compact(): the counts in the new lanes)
  std::vector<std::uint16_t> lanes16_;
  bool incremental_ = false;
  bool tiny_ = false;  // the search narrows to tiny tables (narrow_tiny)
  bool tiny_run_ = false;  // EngineTuning::tiny_run
  // Mask lists (the plain tree, Tables::lmask): each level's live options as a list of their
  // masks (list_, lstride_ per level, listn_ of them), ldead_: an open item has none; rows_:
  // the positions in its list of the options of the item a level branches on (rwords_ words).
  bool lists_ = false;
  std::vector<std::uint64_t> list_;
  std::uint32_t lstride_ = 0, rwords_ = 0;
  std::vector<std::uint32_t> listn_;
  std::vector<std::uint8_t> ldead_;
  std::vector<std::uint64_t> rows_;
  bool emptied_ = false;               // remove_listed: an open item has no option left
  std::vector<std::uint32_t> listed_;  // scratch of the AVX2 count loops: the options, listed
  std::vector<std::uint64_t> open_;
  std::vector<std::uint8_t> chk8_;     // per level: each item's count at its last check
  std::vector<std::uint16_t> chk16_;   // (pruning; see prune_choose)
  std::vector<std::uint64_t> dead_;    // prune_choose: the options an item removes
  std::vector<std::uint32_t> surv_;    // prune_choose: the words dead_ holds
  std::vector<std::uint32_t> open_n_;  // per level: how many primary items are open
  std::vector<Frame> frame_;
  std::vector<std::uint32_t> chosen_;  // internal options chosen at each level
  std::vector<OptionId> out_;          // the same as the problem's options
  std::uint64_t updates_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_bitset_engine(const Problem& p, const EngineTuning& tuning) {
  return std::make_unique<BitsetEngine>(std::make_shared<const Tables>(p, tuning));
}

}  // namespace cubex::detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

// The AVX-512 loop of the byte-lane counts (see BitsetEngine::subtract_bytes).
#if defined(__clang__)
#pragma clang attribute push(                                                                  \
    __attribute__((                                                                            \
        target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vpopcntdq,bmi,bmi2"))), \
    apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vpopcntdq,bmi,bmi2")
#endif

namespace cubex::detail {
namespace {

// Takes one option off the counts: one from each lane of its items, whose bits are mk (W8 words
// for the byte lanes a8, then W16 for the 16-bit lanes a16, as Tables::optmask).
template <int W8, int W16>
inline void take_off(__m512i* a8, __m512i* a16, const std::uint64_t* mk) {
  const __m512i one8 = _mm512_set1_epi8(1), one16 = _mm512_set1_epi16(1);
  for (int v = 0; v < W8; ++v) a8[v] = _mm512_mask_sub_epi8(a8[v], mk[v], a8[v], one8);
  for (int v = 0; v < W16; ++v)
    a16[v] = _mm512_mask_sub_epi16(a16[v], static_cast<__mmask32>(mk[W8 + v]), a16[v], one16);
}

// list_word() for the words w of `words` whose bit w is set in `which`; returns the count.
inline std::uint32_t list_bits(const std::uint64_t* words, std::uint64_t which,
                               std::uint32_t* out) {
  std::uint32_t n = 0;
  for (; which; which &= which - 1) {
    const std::uint32_t w = static_cast<std::uint32_t>(__builtin_ctzll(which));
    n += list_word(words[w], w, out + n);
  }
  return n;
}

template <int W8, int W16>
void subtract_masks(const std::uint64_t* src, const std::uint64_t* dst, const std::uint32_t* nz,
                    std::uint32_t nzc, const std::uint64_t* masks, std::uint32_t stride,
                    const std::uint8_t* c0, std::uint8_t* c1, const std::uint16_t* d0,
                    std::uint16_t* d1) {
  __m512i a8[W8 ? W8 : 1], a16[W16 ? W16 : 1];
  for (int v = 0; v < W8; ++v) a8[v] = _mm512_loadu_si512(c0 + 64 * v);
  for (int v = 0; v < W16; ++v) a16[v] = _mm512_loadu_si512(d0 + 32 * v);
  alignas(64) std::uint32_t idx[256 + 64];  // the killed options, listed (list_word)
  std::uint32_t n = 0;
  auto flush = [&]() {
    for (std::uint32_t j = 0; j < n; ++j)
      take_off<W8, W16>(a8, a16, masks + std::size_t{idx[j]} * stride);
    n = 0;
  };
  for (std::uint32_t q = 0; q < nzc; ++q) {
    const std::uint32_t w = nz[q];
    if (const std::uint64_t kill = src[w] & ~dst[w]) n += list_word(kill, w, idx + n);
    if (n >= 256) flush();
  }
  flush();
  for (int v = 0; v < W8; ++v) _mm512_storeu_si512(c1 + 64 * v, a8[v]);
  for (int v = 0; v < W16; ++v) _mm512_storeu_si512(d1 + 32 * v, a16[v]);
}

template <std::size_t... I>
constexpr std::array<SubtractMasksFn, sizeof...(I)> masks_table(std::index_sequence<I...>) {
  return {&subtract_masks<static_cast<int>(I / 3), static_cast<int>(I % 3)>...};
}

template <int W8, int W16>
bool subtract_list(const std::uint64_t* kill, const std::uint32_t* word, std::uint32_t n,
                   const std::uint64_t* masks, std::uint32_t stride, std::uint8_t* c8,
                   std::uint16_t* c16) {
  __m512i a8[W8 ? W8 : 1], a16[W16 ? W16 : 1];
  for (int v = 0; v < W8; ++v) a8[v] = _mm512_loadu_si512(c8 + 64 * v);
  for (int v = 0; v < W16; ++v) a16[v] = _mm512_loadu_si512(c16 + 32 * v);
  for (std::uint32_t r = 0; r < n; ++r) {
    for (std::uint64_t k = kill[r]; k; k &= k - 1) {
      const std::uint32_t o = word[r] * 64 + static_cast<std::uint32_t>(__builtin_ctzll(k));
      take_off<W8, W16>(a8, a16, masks + std::size_t{o} * stride);
    }
  }
  std::uint64_t zero = 0;
  for (int v = 0; v < W8; ++v) {
    _mm512_storeu_si512(c8 + 64 * v, a8[v]);
    zero |= _mm512_testn_epi8_mask(a8[v], a8[v]);
  }
  for (int v = 0; v < W16; ++v) {
    _mm512_storeu_si512(c16 + 32 * v, a16[v]);
    zero |= _mm512_testn_epi16_mask(a16[v], a16[v]);
  }
  return zero != 0;
}

// The n set bits of live & col (the options of an item), a word's at once, into opts.
inline void list_options(const std::uint64_t* live, const std::uint64_t* col, std::uint32_t n,
                         std::uint32_t words, std::uint32_t* opts) {
  const __m512i iota = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
      40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
      17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  std::uint32_t k = 0;
  for (std::uint32_t w = 0; w < words && k < n; w += 8) {
    const auto m = static_cast<__mmask8>(words - w >= 8 ? 0xFF : (1u << (words - w)) - 1);
    const __m512i v = _mm512_and_si512(_mm512_maskz_loadu_epi64(m, live + w),
                                       _mm512_maskz_loadu_epi64(m, col + w));
    alignas(64) std::uint64_t vw[8];
    _mm512_store_si512(vw, v);
    for (unsigned nzm = _mm512_test_epi64_mask(v, v); nzm; nzm &= nzm - 1) {
      const unsigned j = static_cast<unsigned>(__builtin_ctz(nzm));
      const std::uint64_t bits = vw[j];
      alignas(64) std::uint8_t idx[64];  // the positions of its set bits, in order
      _mm512_store_si512(idx, _mm512_maskz_compress_epi8(bits, iota));
      const __m512i base = _mm512_set1_epi32(static_cast<int>((w + j) * 64));
      const auto pc = static_cast<std::uint32_t>(__builtin_popcountll(bits));
      for (std::uint32_t c = 0; c < pc; c += 16) {  // (k + c + 16 <= n + 64: within opts)
        const __m128i part = _mm_load_si128(reinterpret_cast<const __m128i*>(idx + c));
        _mm512_storeu_si512(opts + k + c,
                            _mm512_add_epi32(_mm512_maskz_cvtepu8_epi32(0xFFFF, part), base));
      }
      k += pc;
    }
  }
}

// Rows of at most 16 vectors (8192 options), WV of them, held in registers: each of the item's
// options (the set bits of live & col) has its row ANDed in as it is found, with no test for an
// empty result on the way (cheaper than the branches it would save). kBits (rows of up to 4
// vectors): the options found with tzcnt, word by word, so that the next row can be loaded a
// cycle or two after the last (pent6x10 0.422 -> 0.397 s, bedlam_sym 7.36 -> 6.80 s); otherwise
// by vpcompressb, their indices taken from lane 0 one by one (faster on longer rows).
template <int WV, bool kBits>
bool conflict_all(const std::uint64_t* live, const std::uint64_t* col, std::uint32_t n,
                  const std::uint64_t* conflict, std::uint32_t words, std::uint32_t* opts,
                  std::uint64_t* acc) {
  (void)n;
  const auto tail = static_cast<__mmask8>(words % 8 ? (1u << (words % 8)) - 1 : 0xFF);
  auto mask = [&](int v) { return v == WV - 1 ? tail : static_cast<__mmask8>(0xFF); };
  __m512i a[WV];
  alignas(64) std::uint64_t mine[WV * 8];
  unsigned nonzero[WV];
  for (int v = 0; v < WV; ++v) {
    const __m512i l = _mm512_maskz_loadu_epi64(mask(v), live + 8 * v);
    const __m512i c = _mm512_maskz_loadu_epi64(mask(v), col + 8 * v);
    a[v] = _mm512_maskz_andnot_epi64(0xFF, c, l);
    const __m512i mv = _mm512_and_si512(l, c);
    _mm512_store_si512(mine + 8 * v, mv);
    nonzero[v] = _mm512_test_epi64_mask(mv, mv);
  }
  auto and_row = [&](std::uint32_t o) {
    const std::uint64_t* row = conflict + std::size_t{o} * words;
    for (int v = 0; v < WV; ++v)
      a[v] = _mm512_and_si512(a[v], _mm512_maskz_loadu_epi64(mask(v), row + 8 * v));
  };
  if constexpr (kBits) {
    static_assert(WV <= 8, "one 64-bit mask of the non-zero words");
    std::uint64_t left = 0;  // (one loop over them: a loop per vector lost the gain)
    for (int v = 0; v < WV; ++v) left |= std::uint64_t{nonzero[v]} << (8 * v);
    std::uint32_t j = 0;
    for (; left; left &= left - 1) {
      const std::uint32_t w = static_cast<std::uint32_t>(__builtin_ctzll(left));
      for (std::uint64_t bits = mine[w]; bits; bits &= bits - 1) {
        const std::uint32_t o = w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(bits));
        opts[j++] = o;
        and_row(o);
      }
    }
  } else {
    const __m512i iota = _mm512_set_epi8(
        63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
        40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
        17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    // widen: byte k to 32-bit lane k (with the mask that keeps every fourth byte); next: lane k+1
    // to lane k.
    const __m512i widen =
        _mm512_set_epi8(0, 0, 0, 15, 0, 0, 0, 14, 0, 0, 0, 13, 0, 0, 0, 12, 0, 0, 0, 11, 0, 0, 0,
                        10, 0, 0, 0, 9, 0, 0, 0, 8, 0, 0, 0, 7, 0, 0, 0, 6, 0, 0, 0, 5, 0, 0, 0, 4,
                        0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0);
    const __m512i next = _mm512_set_epi32(0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
    std::uint32_t j = 0;
    for (int u = 0; u < WV; ++u) {
      for (unsigned nzm = nonzero[u]; nzm; nzm &= nzm - 1) {
        const std::uint32_t w =
            8 * static_cast<std::uint32_t>(u) + static_cast<std::uint32_t>(__builtin_ctz(nzm));
        const std::uint64_t bits = mine[w];
        // The positions of its set bits as 32-bit lanes of idx, taken from lane 0 one by one.
        __m512i idx =
            _mm512_add_epi32(_mm512_maskz_permutexvar_epi8(0x1111111111111111ull, widen,
                                                           _mm512_maskz_compress_epi8(bits, iota)),
                             _mm512_set1_epi32(static_cast<int>(w * 64)));
        if (j == 0) opts[0] = static_cast<std::uint32_t>(_mm512_cvtsi512_si32(idx));
        for (std::uint32_t c = static_cast<std::uint32_t>(__builtin_popcountll(bits)); c;
             --c, ++j) {
          const auto o = static_cast<std::uint32_t>(_mm512_cvtsi512_si32(idx));
          idx = _mm512_maskz_permutexvar_epi32(0xFFFF, next, idx);
          and_row(o);
        }
      }
    }
  }
  __m512i any = a[0];
  for (int v = 1; v < WV; ++v) any = _mm512_or_si512(any, a[v]);
  for (int v = 0; v < WV; ++v) _mm512_storeu_si512(acc + 8 * v, a[v]);
  return _mm512_test_epi64_mask(any, any) != 0;
}

// prune_choose's fixpoint (the same passes, checks and order) with the node's live options, counts
// and last checks in registers: rows of WV vectors, W8 vectors of byte lanes and W16 of 16-bit
// lanes. A check ANDs the conflict rows of the item's options (listed bit by bit, as
// conflict_all<WV, true>), removes what is left from the live options and takes each removed
// option's lanes off the counts, all without leaving the registers; prune_choose's loop did the
// same through three calls and memory.
template <int WV, int W8, int W16>
std::uint32_t prune_fix(PruneNode& p) {
  static_assert(WV <= 4 && W8 + W16 > 0, "rows of at most 4 vectors, some lanes");
  const std::uint32_t words = p.words;
  const auto tail = static_cast<__mmask8>(words % 8 ? (1u << (words % 8)) - 1 : 0xFF);
  auto mask = [&](int v) { return v == WV - 1 ? tail : static_cast<__mmask8>(0xFF); };
  __m512i live[WV], c8[W8 ? W8 : 1], k8[W8 ? W8 : 1], c16[W16 ? W16 : 1], k16[W16 ? W16 : 1];
  for (int v = 0; v < WV; ++v) live[v] = _mm512_maskz_loadu_epi64(mask(v), p.live + 8 * v);
  for (int v = 0; v < W8; ++v) {
    c8[v] = _mm512_loadu_si512(p.c8 + 64 * v);
    k8[v] = _mm512_loadu_si512(p.k8 + 64 * v);
  }
  for (int v = 0; v < W16; ++v) {
    c16[v] = _mm512_loadu_si512(p.c16 + 32 * v);
    k16[v] = _mm512_loadu_si512(p.k16 + 32 * v);
  }
  const __m512i one8 = _mm512_set1_epi8(1), one16 = _mm512_set1_epi16(1);
  alignas(64) std::uint64_t mine[WV * 8], kill[WV * 8];
  alignas(64) std::uint32_t idx[WV * 512 + 64];
  std::uint32_t dead_end = UINT32_MAX;
  bool changed = false, again = false;
  // Checks item i: returns false at a dead end.
  auto check = [&](std::uint32_t i, bool forced) {
    const std::uint64_t* col = p.dense + std::size_t{i} * words;
    __m512i a[WV];
    std::uint64_t left = 0;
    for (int v = 0; v < WV; ++v) {
      const __m512i c = _mm512_maskz_loadu_epi64(mask(v), col + 8 * v);
      a[v] = _mm512_maskz_andnot_epi64(0xFF, c, live[v]);
      const __m512i m = _mm512_and_si512(live[v], c);
      _mm512_store_si512(mine + 8 * v, m);
      left |= std::uint64_t{_mm512_test_epi64_mask(m, m)} << (8 * v);
    }
    const std::uint32_t n = list_bits(mine, left, idx);
    for (std::uint32_t j = 0; j < n; ++j) {
      const std::uint64_t* row = p.conflict + std::size_t{idx[j]} * words;
      for (int v = 0; v < WV; ++v)
        a[v] = _mm512_and_si512(a[v], _mm512_maskz_loadu_epi64(mask(v), row + 8 * v));
    }
    if (forced) {  // (prune_choose: the items of i's one option have it alone, marked checked)
      const std::uint64_t* mk = p.optmask + std::size_t{idx[0]} * p.mstride;
      for (int v = 0; v < W8; ++v) k8[v] = _mm512_mask_mov_epi8(k8[v], mk[v], one8);
      for (int v = 0; v < W16; ++v)
        k16[v] = _mm512_mask_mov_epi16(k16[v], static_cast<__mmask32>(mk[W8 + v]), one16);
    }
    std::uint64_t gone = 0;
    for (int v = 0; v < WV; ++v) {
      live[v] = _mm512_maskz_andnot_epi64(0xFF, a[v], live[v]);
      _mm512_store_si512(kill + 8 * v, a[v]);
      gone |= std::uint64_t{_mm512_test_epi64_mask(a[v], a[v])} << (8 * v);
    }
    const bool removed = gone != 0;
    const std::uint32_t nk = list_bits(kill, gone, idx);
    for (std::uint32_t j = 0; j < nk; ++j)
      take_off<W8, W16>(c8, c16, p.optmask + std::size_t{idx[j]} * p.mstride);
    if (!removed) return true;
    std::uint64_t zero = 0;
    for (int v = 0; v < W8; ++v) zero |= _mm512_testn_epi8_mask(c8[v], c8[v]);
    for (int v = 0; v < W16; ++v) zero |= _mm512_testn_epi16_mask(c16[v], c16[v]);
    if (zero) {
      dead_end = i;
      return false;
    }
    changed = again = true;
    return true;
  };
  // One pass's H-th group of 32 byte lanes (H < 2 * W8) or 16 16-bit lanes, as prune_choose's:
  // its items to check taken when the group starts. False at a dead end.
  auto group = [&]<int H>(std::uint32_t lim) {
    if constexpr (H < 2 * W8) {
      constexpr int r = H / 2, base = 32 * (H % 2);
      const __mmask64 small =
          _mm512_cmple_epu8_mask(c8[r], _mm512_set1_epi8(static_cast<char>(lim)));
      auto todo =
          static_cast<std::uint32_t>((small & _mm512_cmpneq_epi8_mask(c8[r], k8[r])) >> base);
      for (; todo; todo &= todo - 1) {
        const std::uint32_t l = base + static_cast<std::uint32_t>(__builtin_ctz(todo));
        const __mmask64 bit = __mmask64{1} << l;
        const bool forced = (_mm512_cmpeq_epi8_mask(c8[r], one8) & bit) != 0;
        k8[r] = _mm512_mask_mov_epi8(k8[r], bit, c8[r]);
        if (!check(p.lane_item8[64 * r + l], forced)) return false;
      }
    } else {
      constexpr int r = (H - 2 * W8) / 2, base = 16 * (H % 2);
      const __mmask32 small =
          _mm512_cmple_epu16_mask(c16[r], _mm512_set1_epi16(static_cast<short>(lim)));
      auto todo = static_cast<std::uint32_t>(
          ((small & _mm512_cmpneq_epi16_mask(c16[r], k16[r])) >> base) & 0xFFFF);
      for (; todo; todo &= todo - 1) {
        const std::uint32_t l = base + static_cast<std::uint32_t>(__builtin_ctz(todo));
        const __mmask32 bit = __mmask32{1} << l;
        const bool forced = (_mm512_cmpeq_epi16_mask(c16[r], one16) & bit) != 0;
        k16[r] = _mm512_mask_mov_epi16(k16[r], bit, c16[r]);
        if (!check(p.lane_item16[32 * r + l], forced)) return false;
      }
    }
    return true;
  };
  auto pass = [&]<int... H>(std::integer_sequence<int, H...>, std::uint32_t lim) {
    return (group.template operator()<H>(lim) && ...);
  };
  for (std::uint32_t lim = 1;;) {
    again = false;
    if (!pass(std::make_integer_sequence<int, 2 * (W8 + W16)>{}, lim)) break;
    if (!(lim = next_limit(lim, again, p.prune))) break;
  }
  for (int v = 0; v < WV; ++v) _mm512_mask_storeu_epi64(p.live + 8 * v, mask(v), live[v]);
  for (int v = 0; v < W8; ++v) {
    _mm512_storeu_si512(p.c8 + 64 * v, c8[v]);
    _mm512_storeu_si512(p.k8 + 64 * v, k8[v]);
  }
  for (int v = 0; v < W16; ++v) {
    _mm512_storeu_si512(p.c16 + 32 * v, c16[v]);
    _mm512_storeu_si512(p.k16 + 32 * v, k16[v]);
  }
  p.changed = changed;
  return dead_end;
}

template <int WV, int W8, int W16>
constexpr PruneFixFn fix_entry() {
  if constexpr (W8 + W16 == 0)
    return nullptr;  // (no lanes: no pruning)
  else
    return &prune_fix<WV, W8, W16>;
}

template <std::size_t... I>
constexpr std::array<PruneFixFn, sizeof...(I)> fix_table(std::index_sequence<I...>) {
  // I = (WV - 1) * 6 + W8 * 2 + W16
  return {fix_entry<static_cast<int>(I / 6) + 1, static_cast<int>(I % 6 / 2),
                    static_cast<int>(I % 2)>()...};
}

std::uint32_t take_words(const std::uint64_t* acc, std::uint32_t words, std::uint64_t* live,
                         std::uint64_t* d, std::uint32_t* sw, std::uint32_t* dead) {
  const __m256i iota = _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0);
  __m512i count = _mm512_setzero_si512();
  std::uint32_t ns = 0;
  for (std::uint32_t w = 0; w < words; w += 8) {
    const auto m =
        static_cast<__mmask8>(w + 8 <= words ? 0xFF : (1u << (words - w)) - 1);  // (tail)
    const __m512i a = _mm512_maskz_loadu_epi64(m, acc + w);
    const __mmask8 nzm = _mm512_test_epi64_mask(a, a);
    if (!nzm) continue;
    _mm512_mask_storeu_epi64(
        live + w, nzm, _mm512_maskz_andnot_epi64(nzm, a, _mm512_maskz_loadu_epi64(nzm, live + w)));
    count = _mm512_add_epi64(count, _mm512_popcnt_epi64(a));
    _mm512_storeu_si512(d + ns, _mm512_maskz_compress_epi64(nzm, a));  // (ns <= w)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sw + ns),
                        _mm256_maskz_compress_epi32(
                            nzm, _mm256_add_epi32(iota, _mm256_set1_epi32(static_cast<int>(w)))));
    ns += static_cast<std::uint32_t>(__builtin_popcount(nzm));
  }
  // (The sum of count's lanes: GCC 12 warns on _mm512_reduce_add_epi64.)
  const __m256i h = _mm256_add_epi64(_mm512_maskz_extracti64x4_epi64(0xF, count, 0),
                                     _mm512_maskz_extracti64x4_epi64(0xF, count, 1));
  const __m128i q = _mm_add_epi64(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
  *dead = static_cast<std::uint32_t>(_mm_cvtsi128_si64(_mm_add_epi64(q, _mm_unpackhi_epi64(q, q))));
  return ns;
}

// Eight open items at a time: their popcounts summed into eight 32-bit lanes by a tree of
// horizontal adds, then the batch's smallest count and its first lane. (One item at a time
// waited on each item's reduction and on a compare that the branch predictor missed.)
template <int WV>
std::uint32_t choose_dense(const std::uint64_t* live, const std::uint64_t* dense,
                           std::uint32_t words, const std::uint64_t* open, std::uint32_t pwords,
                           std::uint32_t* best) {
  const auto tail = static_cast<__mmask8>(words % 8 ? (1u << (words % 8)) - 1 : 0xFF);
  __m512i l[WV];
  for (int v = 0; v < WV; ++v)
    l[v] = _mm512_maskz_loadu_epi64(v == WV - 1 ? tail : static_cast<__mmask8>(0xFF), live + 8 * v);
  auto sums = [&](std::uint32_t i) {  // item i's live options, as eight partial sums
    const std::uint64_t* col = dense + std::size_t{i} * words;
    __m512i c = _mm512_setzero_si512();
    for (int v = 0; v < WV; ++v)
      c = _mm512_add_epi64(
          c, _mm512_popcnt_epi64(_mm512_and_si512(
                 l[v], _mm512_maskz_loadu_epi64(v == WV - 1 ? tail : static_cast<__mmask8>(0xFF),
                                                col + 8 * v))));
    return _mm512_maskz_cvtepi64_epi32(0xFF, c);
  };
  std::uint32_t items[8];
  std::uint32_t k = 0, chosen = 0, fewest = UINT32_MAX;
  // The batch items[0..k): true when an item with no options ends the search.
  auto batch = [&]() {
    __m256i d[8];
    for (std::uint32_t j = 0; j < 8; ++j) d[j] = j < k ? sums(items[j]) : _mm256_setzero_si256();
    const __m256i q0 =
        _mm256_hadd_epi32(_mm256_hadd_epi32(d[0], d[1]), _mm256_hadd_epi32(d[2], d[3]));
    const __m256i q1 =
        _mm256_hadd_epi32(_mm256_hadd_epi32(d[4], d[5]), _mm256_hadd_epi32(d[6], d[7]));
    const __m128i s0 = _mm_add_epi32(_mm256_castsi256_si128(q0), _mm256_extracti128_si256(q0, 1));
    const __m128i s1 = _mm_add_epi32(_mm256_castsi256_si128(q1), _mm256_extracti128_si256(q1, 1));
    const __m256i pad = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(k)),
                                           _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i all = _mm256_or_si256(_mm256_inserti128_si256(_mm256_castsi128_si256(s0), s1, 1),
                                        _mm256_andnot_si256(pad, _mm256_set1_epi32(-1)));
    __m256i m = _mm256_min_epu32(all, _mm256_permute2x128_si256(all, all, 1));
    m = _mm256_min_epu32(m, _mm256_shuffle_epi32(m, 0x4E));
    m = _mm256_min_epu32(m, _mm256_shuffle_epi32(m, 0xB1));
    const auto n = static_cast<std::uint32_t>(_mm256_cvtsi256_si32(m));
    if (n < fewest) {
      const auto eq = static_cast<unsigned>(
          _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(all, m))));
      fewest = n;
      chosen = items[__builtin_ctz(eq)];
    }
    k = 0;
    return fewest == 0;
  };
  for (std::uint32_t w = 0; w < pwords; ++w) {
    for (std::uint64_t bits = open[w]; bits; bits &= bits - 1) {
      items[k++] = w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(bits));
      if (k == 8 && batch()) {
        *best = 0;
        return chosen;
      }
    }
  }
  if (k > 0) batch();
  *best = fewest;
  return chosen;
}

// Byte lane i holds i.
inline __m512i iota8() {
  return _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45,
                         44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26,
                         25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
                         5, 4, 3, 2, 1, 0);
}

// The 64 items' counts over the options of `live` in byte lanes, 0xFF outside `open` (covered
// items, secondary ones).
inline __m512i tiny_sum(const std::uint64_t* imask, std::uint64_t live, std::uint64_t open) {
  __m512i c = _mm512_setzero_si512();
  const __m512i one = _mm512_set1_epi8(1);
  for (; live; live &= live - 1)  // (a zero-masked move, off the chain of adds)
    c = _mm512_add_epi8(c, _mm512_maskz_mov_epi8(imask[__builtin_ctzll(live)], one));
  return _mm512_mask_mov_epi8(_mm512_set1_epi8(-1), open, c);
}

void tiny_counts(const std::uint64_t* imask, std::uint64_t live, std::uint64_t open,
                 std::uint8_t* out) {
  _mm512_storeu_si512(out, tiny_sum(imask, live, open));
}

// The first item with the smallest of the byte counts c (0xFF: not open); *best gets it. Each
// lane's count and item as one 16-bit key, count * 256 + item: the smallest key is the first
// item with the fewest options (the lanes' order within the key vectors does not matter).
inline std::uint32_t fewest_byte(__m512i c, std::uint32_t* best) {
  const __m512i k =
      _mm512_min_epu16(_mm512_unpacklo_epi8(iota8(), c), _mm512_unpackhi_epi8(iota8(), c));
  const __m256i h = _mm256_min_epu16(_mm512_maskz_extracti64x4_epi64(0xF, k, 0),
                                     _mm512_maskz_extracti64x4_epi64(0xF, k, 1));
  const __m128i q =
      _mm_minpos_epu16(_mm_min_epu16(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1)));
  const auto key = static_cast<std::uint32_t>(_mm_extract_epi16(q, 0));
  *best = key >> 8;
  return key & 0xFF;
}

std::uint32_t tiny_choose(const std::uint64_t* imask, std::uint64_t live, std::uint64_t open,
                          std::uint32_t* best) {
  return fewest_byte(tiny_sum(imask, live, open), best);
}

void tiny_list(const std::uint64_t* imask, const std::uint64_t* live, const std::uint32_t* nz,
               std::uint32_t nzc, std::uint32_t* glob, std::uint64_t* masks) {
  const __m512i iota = iota8();
  alignas(64) std::uint8_t pos[64];
  std::uint32_t a = 0;
  for (std::uint32_t q = 0; q < nzc; ++q) {  // the positions of a word's bits, as bytes
    const std::uint32_t w = nz[q];
    const std::uint64_t bits = live[w];
    _mm512_store_si512(pos, _mm512_maskz_compress_epi8(bits, iota));
    const __m512i base = _mm512_set1_epi32(static_cast<int>(w * 64));
    const auto n = static_cast<std::uint32_t>(__builtin_popcountll(bits));
    for (std::uint32_t k = 0; k < n; k += 16)
      _mm512_storeu_si512(
          glob + a + k,
          _mm512_add_epi32(
              base, _mm512_maskz_cvtepu8_epi32(
                        0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(pos + k)))));
    a += n;
  }
  for (std::uint32_t k = 0; k < a; k += 8)  // their masks, gathered
    _mm512_storeu_si512(
        masks + k,
        _mm512_mask_i32gather_epi64(
            _mm512_setzero_si512(), static_cast<__mmask8>(a - k >= 8 ? 0xFF : (1u << (a - k)) - 1),
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(glob + k)), imask, 8));
}

std::uint64_t tiny_row(const std::uint64_t* imask, std::uint32_t n, std::uint64_t bits) {
  const __m512i b = _mm512_set1_epi64(static_cast<long long>(bits));
  std::uint64_t r = 0;
  for (std::uint32_t v = 0; v * 8 < n; ++v) {
    const auto m = static_cast<__mmask8>(n - v * 8 >= 8 ? 0xFF : (1u << (n - v * 8)) - 1);
    r |=
        std::uint64_t{_mm512_mask_test_epi64_mask(m, _mm512_maskz_loadu_epi64(m, imask + 8 * v), b)}
        << (8 * v);
  }
  return r;
}

// The 64 items' counts over the n <= 255 options of `list`, in byte lanes.
inline __m512i list_bytes(const std::uint64_t* list, std::uint32_t n) {
  __m512i c = _mm512_setzero_si512();
  const __m512i one = _mm512_set1_epi8(1);
  for (std::uint32_t a = 0; a < n; ++a)  // (a zero-masked move, off the chain of adds)
    c = _mm512_add_epi8(c, _mm512_maskz_mov_epi8(list[a], one));
  return c;
}

// Mask lists with AVX-512 (see ListChooseFn). Up to 255 options, the counts in byte lanes and the
// choice as tiny_choose's; more, in 16-bit lanes, 255 options at a time.
std::uint32_t list_choose(const std::uint64_t* list, std::uint32_t n, std::uint64_t open,
                          std::uint32_t* best) {
  if (n <= 255)
    return fewest_byte(_mm512_mask_mov_epi8(_mm512_set1_epi8(-1), open, list_bytes(list, n)), best);
  __m512i lo = _mm512_setzero_si512(), hi = _mm512_setzero_si512();  // items 0-31, 32-63
  for (std::uint32_t a = 0; a < n; a += 255) {
    const __m512i c = list_bytes(list + a, std::min<std::uint32_t>(255, n - a));
    lo = _mm512_add_epi16(
        lo, _mm512_maskz_cvtepu8_epi16(~0u, _mm512_maskz_extracti64x4_epi64(0xF, c, 0)));
    hi = _mm512_add_epi16(
        hi, _mm512_maskz_cvtepu8_epi16(~0u, _mm512_maskz_extracti64x4_epi64(0xF, c, 1)));
  }
  const __m512i none = _mm512_set1_epi16(-1);
  lo = _mm512_mask_mov_epi16(none, static_cast<__mmask32>(open), lo);
  hi = _mm512_mask_mov_epi16(none, static_cast<__mmask32>(open >> 32), hi);
  const __m512i m = _mm512_min_epu16(lo, hi);
  const __m256i h = _mm256_min_epu16(_mm512_maskz_extracti64x4_epi64(0xF, m, 0),
                                     _mm512_maskz_extracti64x4_epi64(0xF, m, 1));
  const __m128i q =
      _mm_minpos_epu16(_mm_min_epu16(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1)));
  const auto b = static_cast<std::uint32_t>(_mm_extract_epi16(q, 0));
  *best = b;
  const __m512i want = _mm512_set1_epi16(static_cast<short>(b));
  const std::uint64_t eq = std::uint64_t{_mm512_cmpeq_epi16_mask(lo, want)} |
                           std::uint64_t{_mm512_cmpeq_epi16_mask(hi, want)} << 32;
  return static_cast<std::uint32_t>(__builtin_ctzll(eq & open));
}

std::uint32_t list_filter(const std::uint64_t* list, std::uint32_t n, std::uint64_t x,
                          std::uint64_t* out, std::uint64_t* any) {
  const __m512i xs = _mm512_set1_epi64(static_cast<long long>(x));
  __m512i u = _mm512_setzero_si512();
  std::uint32_t c = 0;
  for (std::uint32_t a = 0; a < n; a += 8) {
    const auto valid = static_cast<__mmask8>(n - a >= 8 ? 0xFF : (1u << (n - a)) - 1);
    const __m512i v = _mm512_maskz_loadu_epi64(valid, list + a);
    const __mmask8 keep = _mm512_mask_testn_epi64_mask(valid, v, xs);
    _mm512_storeu_si512(out + c, _mm512_maskz_compress_epi64(keep, v));
    c += static_cast<std::uint32_t>(__builtin_popcount(keep));
    u = _mm512_mask_or_epi64(u, keep, u, v);
  }
  const __m256i h = _mm256_or_si256(_mm512_maskz_extracti64x4_epi64(0xF, u, 0),
                                    _mm512_maskz_extracti64x4_epi64(0xF, u, 1));
  const __m128i q = _mm_or_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
  *any = static_cast<std::uint64_t>(_mm_cvtsi128_si64(q)) |
         static_cast<std::uint64_t>(_mm_extract_epi64(q, 1));
  return c;
}

void list_row(const std::uint64_t* list, std::uint32_t n, std::uint32_t i, std::uint64_t* out) {
  const __m512i b = _mm512_set1_epi64(static_cast<long long>(std::uint64_t{1} << i));
  for (std::uint32_t w = 0; w * 64 < n; ++w) {
    std::uint64_t r = 0;
    for (std::uint32_t a = w * 64, e = std::min(n, a + 64); a < e; a += 8) {
      const auto valid = static_cast<__mmask8>(e - a >= 8 ? 0xFF : (1u << (e - a)) - 1);
      r |= std::uint64_t{_mm512_mask_test_epi64_mask(valid,
                                                     _mm512_maskz_loadu_epi64(valid, list + a), b)}
           << (a - w * 64);
    }
    out[w] = r;
  }
}

template <int WV>
std::uint32_t descend_dense(const std::uint64_t* src, std::uint64_t* dst,
                            const std::uint64_t* dense, const std::uint32_t* kills, std::uint32_t k,
                            std::uint32_t words, std::uint32_t* nz1) {
  const auto tail = static_cast<__mmask8>(words % 8 ? (1u << (words % 8)) - 1 : 0xFF);
  const __m256i iota = _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0);
  std::uint32_t c = 0;
  for (int v = 0; v < WV; ++v) {
    const __mmask8 m = v == WV - 1 ? tail : static_cast<__mmask8>(0xFF);
    __m512i a = _mm512_maskz_loadu_epi64(m, src + 8 * v);
    for (std::uint32_t r = 0; r < k; ++r)
      a = _mm512_maskz_andnot_epi64(
          0xFF, _mm512_maskz_loadu_epi64(m, dense + std::size_t{kills[r]} * words + 8 * v), a);
    _mm512_mask_storeu_epi64(dst + 8 * v, m, a);
    const __mmask8 nzm = _mm512_test_epi64_mask(a, a);
    _mm256_storeu_si256(
        reinterpret_cast<__m256i*>(nz1 + c),
        _mm256_maskz_compress_epi32(nzm, _mm256_add_epi32(iota, _mm256_set1_epi32(8 * v))));
    c += static_cast<std::uint32_t>(__builtin_popcount(nzm));
  }
  return c;
}

template <std::size_t... I>
constexpr std::array<DescendDenseFn, sizeof...(I)> descend_table(std::index_sequence<I...>) {
  return {&descend_dense<static_cast<int>(I) + 1>...};
}

template <std::size_t... I>
constexpr std::array<ChooseDenseFn, sizeof...(I)> choose_table(std::index_sequence<I...>) {
  return {&choose_dense<static_cast<int>(I) + 1>...};
}

template <std::size_t... I>
constexpr std::array<ConflictAllFn, sizeof...(I)> conflict_bits_table(std::index_sequence<I...>) {
  return {&conflict_all<static_cast<int>(I) + 1, true>...};
}

template <std::size_t... I>
constexpr std::array<ConflictAllFn, sizeof...(I)> conflict_table(std::index_sequence<I...>) {
  return {&conflict_all<static_cast<int>(I) + 1, false>...};
}

// Longer rows: vector by vector, while any is left.
bool conflict_all_long(const std::uint64_t* live, const std::uint64_t* col, std::uint32_t n,
                       const std::uint64_t* conflict, std::uint32_t words, std::uint32_t* opts,
                       std::uint64_t* acc) {
  list_options(live, col, n, words, opts);
  __m512i any = _mm512_setzero_si512();
  for (std::uint32_t w = 0; w < words; w += 8) {
    const auto m = static_cast<__mmask8>(words - w >= 8 ? 0xFF : (1u << (words - w)) - 1);
    __m512i a = _mm512_maskz_andnot_epi64(0xFF, _mm512_maskz_loadu_epi64(m, col + w),
                                          _mm512_maskz_loadu_epi64(m, live + w));
    for (std::uint32_t j = 0; j < n && _mm512_test_epi64_mask(a, a); ++j)
      a = _mm512_and_si512(
          a, _mm512_maskz_loadu_epi64(m, conflict + std::size_t{opts[j]} * words + w));
    _mm512_storeu_si512(acc + w, a);
    any = _mm512_or_si512(any, a);
  }
  return _mm512_test_epi64_mask(any, any) != 0;
}

template <std::size_t... I>
constexpr std::array<SubtractListFn, sizeof...(I)> list_table(std::index_sequence<I...>) {
  return {&subtract_list<static_cast<int>(I / 3), static_cast<int>(I % 3)>...};
}

}  // namespace
}  // namespace cubex::detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

namespace cubex::detail {

SubtractMasksFn subtract_masks_for(std::uint32_t w8, std::uint32_t w16, bool avx512) {
  if (!avx512 || !__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw"))
    return nullptr;
  return masks_table(std::make_index_sequence<15>{})[w8 * 3 + w16];
}

DescendDenseFn descend_dense_for(std::uint32_t words, bool avx512) {
  if (!avx512 || !__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512vl") ||
      words > 128)
    return nullptr;
  constexpr auto fixed = descend_table(std::make_index_sequence<16>{});
  return fixed[(words + 7) / 8 - 1];
}

TakeWordsFn take_words_for(bool avx512) {
  if (!avx512 || !__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512vl") ||
      !__builtin_cpu_supports("avx512vpopcntdq"))
    return nullptr;
  return &take_words;
}

TinyChooseFn tiny_choose_for(bool avx512) {
  if (avx512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
    return &tiny_choose;
  return &tiny_choose_scalar;
}

ListChooseFn list_choose_for(bool avx512) {
  if (avx512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
    return &list_choose;
  return &list_choose_avx2;
}

ListFilterFn list_filter_for(bool avx512) {
  if (avx512 && __builtin_cpu_supports("avx512f")) return &list_filter;
  return &list_filter_avx2;
}

ListRowFn list_row_for(bool avx512) {
  if (avx512 && __builtin_cpu_supports("avx512f")) return &list_row;
  return &list_row_scalar;
}

TinyListFn tiny_list_for(bool avx512) {
  return avx512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vbmi2")
             ? &tiny_list
             : nullptr;
}

TinyCountsFn tiny_counts_for(bool avx512) {
  if (avx512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
    return &tiny_counts;
  return &tiny_counts_scalar;
}

TinyRowFn tiny_row_for(bool avx512) {
  if (avx512 && __builtin_cpu_supports("avx512f")) return &tiny_row;
  return &tiny_row_scalar;
}

ChooseDenseFn choose_dense_for(std::uint32_t words, bool avx512) {
  if (!avx512 || !__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512vpopcntdq") ||
      words > 128)
    return nullptr;
  constexpr auto fixed = choose_table(std::make_index_sequence<16>{});
  return fixed[(words + 7) / 8 - 1];
}

ConflictAllFn conflict_all_for(std::uint32_t words, bool avx512, bool bits) {
  if (!avx512 || !__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
      !__builtin_cpu_supports("avx512vbmi") || !__builtin_cpu_supports("avx512vbmi2"))
    return nullptr;
  constexpr auto fixed = conflict_table(std::make_index_sequence<16>{});
  if (bits && words <= 32)  // (measured: beyond 4 vectors vpcompressb lists faster)
    return conflict_bits_table(std::make_index_sequence<4>{})[(words + 7) / 8 - 1];
  return words <= 128 ? fixed[(words + 7) / 8 - 1] : &conflict_all_long;
}

PruneFixFn prune_fix_for(std::uint32_t words, std::uint32_t w8, std::uint32_t w16, bool avx512) {
  if (!avx512 || !__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
      words > 32 || w8 > 2 || w16 > 1)
    return nullptr;
  constexpr auto fixed = fix_table(std::make_index_sequence<24>{});
  return fixed[((words + 7) / 8 - 1) * 6 + w8 * 2 + w16];
}

SubtractListFn subtract_list_for(std::uint32_t w8, std::uint32_t w16, bool avx512) {
  if (!avx512 || !__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw"))
    return nullptr;
  return list_table(std::make_index_sequence<15>{})[w8 * 3 + w16];
}

// Outside the target regions above: these run on any CPU.

std::uint32_t bitset_prune_limit(const Problem& p, const EngineTuning& tuning) {
  if (tuning.prune == BitsetPrune::kOff || tuning.mrv != BitsetMrv::kAuto ||
      p.has_multiplicities() || p.num_options() == 0)
    return 0;
  // Pruning shrinks the trees 4x (Soma) to 130x (y25) and, since its counts are kept in byte
  // lanes and its tests run in registers, costs less than it saves except on small matrices,
  // whose plain nodes are cheapest (Soma's 688 options: 0.034 s pruned against 0.029 s plain);
  // see docs/design/pruning.md. So: on where columns are short (on average at most 64 options per
  // primary item, as in y25: the rule that also picks the counts mode), or from 1024 options.
  std::size_t entries = 0;
  const std::size_t m = p.num_options(), words = (m + 63) / 64;
  std::vector<std::uint32_t> len(p.num_items(), 0);
  for (OptionId o = 0; o < m; ++o)
    for (ItemId i : p.option(o)) entries += p.item(i).primary, ++len[i];
  const bool short_columns = p.num_primary() > 0 && entries <= std::size_t{64} * p.num_primary();
  const bool on = short_columns || m >= kPruneMinOptions || tuning.prune == BitsetPrune::kOn;
  // The counts must fit the byte lanes (Tables): at most 256 short items and 64 long ones.
  std::size_t nshort = 0, nlong = 0;
  for (ItemId i = 0; i < p.num_items(); ++i)
    if (p.item(i).primary) (len[i] <= tuning.short_max ? nshort : nlong) += 1;
  const bool lanes = nshort <= 256 && nlong <= 64;
  return on && lanes && m < 0xFFFF && m * words * 8 <= kConflictBytes ? kPruneBelow : 0;
}
bool bitset_supported(const Problem& p) {
  if (p.has_multiplicities() || p.num_options() == 0) return false;
  if (!__builtin_cpu_supports("popcnt") || !__builtin_cpu_supports("avx2") ||
      !__builtin_cpu_supports("bmi2")) {
    return false;
  }
  // Memory of the dense columns (and kill rows of coloured entries: at most one per entry) and
  // of the per-level stacks: about (items + primary items) x option words.
  const std::size_t words = (p.num_options() + 63) / 64;
  std::size_t coloured = 0;
  if (p.has_colours()) {
    for (OptionId o = 0; o < p.num_options(); ++o)
      for (ColourId c : p.option_colours(o)) coloured += c != 0;
  }
  return (p.num_items() + p.num_primary() + coloured + 2) * words * 8 <= (std::size_t{64} << 20);
}

}  // namespace cubex::detail
