// list_word() and list_word8(): the set bits of a 64-bit word of options as option numbers, with
// AVX-512 (VBMI2) and without. Used by the bitset engines' loops that take a set of options word
// by word (src/core/bitset.cpp, src/core/bitset_mult.cpp).
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace cubex::detail {

// The numbers of the set bits of word `w` of an option bitset (bits), in order, into out (room
// for 64 more than their count); returns their count. One vpcompressb turns the bits into
// indices, so a loop over the list has one exit to predict instead of one per word (the loops
// that walked the bits word by word: pent6x10 0.286 -> 0.244 s, bedlam_sym 5.48 -> 4.44 s;
// bench/results/pruning.md, docs/design/bitset-engine.md). Only for code compiled for these CPU
// features, run where the CPU has them.
__attribute__((target("avx512f,avx512bw,avx512vbmi2"))) inline std::uint32_t list_word(
    std::uint64_t bits, std::uint32_t w, std::uint32_t* out) {
  const __m512i iota = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
      40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
      17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  alignas(64) std::uint8_t pos[64];
  _mm512_store_si512(pos, _mm512_maskz_compress_epi8(bits, iota));
  const __m512i base = _mm512_set1_epi32(static_cast<int>(w * 64));
  const auto pc = static_cast<std::uint32_t>(__builtin_popcountll(bits));
  for (std::uint32_t c = 0; c < pc; c += 16)
    _mm512_storeu_si512(
        out + c,
        _mm512_add_epi32(_mm512_maskz_cvtepu8_epi32(
                             0xFFFF, _mm_load_si128(reinterpret_cast<const __m128i*>(pos + c))),
                         base));
  return pc;
}

// The same without AVX-512: the numbers of the set bits of word `w` (bits) into out, eight a
// round whatever their number (up to seven entries past the end are written: room for them),
// so a word of up to eight options costs no mispredicted branch; returns the end of the list.
__attribute__((target("bmi"))) inline std::uint32_t* list_word8(std::uint64_t bits, std::uint32_t w,
                                                                std::uint32_t* out) {
  std::uint32_t* const end = out + __builtin_popcountll(bits);
  do {
    for (int k = 0; k < 8; ++k, bits &= bits - 1) {
      // (tzcnt: 64 once bits is empty, for the entries past the end; __builtin_ctzll(0) is
      // undefined)
      std::uint32_t o = w * 64 + static_cast<std::uint32_t>(_tzcnt_u64(bits));
      // (o stays in a register: GCC 12 would gather the eight into a vector with vpinsrd, 3%
      // slower on Zen 3)
      asm("" : "+r"(o));
      out[k] = o;
    }
    out += 8;
  } while (out < end);
  return end;
}

}  // namespace cubex::detail
