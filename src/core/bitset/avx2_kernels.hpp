// The bitset backend's AVX2 and plain loops (kernels.hpp): tiny tables and mask lists on CPUs
// without AVX-512, pruning's test and a child's live options with rows of up to 64 words in
// registers. Compiled for CPUs with POPCNT, AVX2 and BMI2 (the target pragma below); the engine
// takes them only where the CPU has those (bitset_supported). Included by engine.cpp alone (its
// anonymous namespace), so that the engine's translation unit holds all the loops, as the
// compiler's inlining of the search loop depends on it.
#pragma once

#include <immintrin.h>

#include <array>
#include <cstdint>
#include <utility>

#include "../list_word.hpp"
#include "kernels.hpp"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,avx2,bmi,bmi2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("popcnt,avx2,bmi,bmi2")
#endif

namespace cubex::detail {
namespace {  // NOLINT(cert-dcl59-cpp, google-build-namespaces): one translation unit

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

}  // namespace
}  // namespace cubex::detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
