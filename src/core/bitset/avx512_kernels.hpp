// The bitset backend's AVX-512 loops (kernels.hpp), compiled for AVX-512 (F, BW, VL, VBMI,
// VBMI2, VPOPCNTDQ) by the target pragma below, and after it, for any CPU, the choosers that
// hand them out where the CPU has what they use (else the AVX2 loops, or nullptr). Included by
// engine.cpp alone, after the engine (see avx2_kernels.hpp).
#pragma once
#include <immintrin.h>

#include <array>
#include <cstdint>
#include <utility>

#include "../list_word.hpp"
#include "avx2_kernels.hpp"
#include "kernels.hpp"

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

}  // namespace cubex::detail
