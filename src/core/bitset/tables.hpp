// The bitset backend's tables (engine.cpp): a problem's options as bitsets, rows and counts'
// lanes, and the loops (kernels.hpp) each table runs, chosen once when it is built, from the
// engine's tuning and the CPU. Narrower tables (compact_from, tiny_from) are built from them
// below a node. Included by engine.cpp alone (its anonymous namespace).
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../engine.hpp"
#include "avx2_kernels.hpp"
#include "kernels.hpp"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,avx2,bmi,bmi2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("popcnt,avx2,bmi,bmi2")
#endif

namespace cubex::detail {
namespace {  // NOLINT(cert-dcl59-cpp, google-build-namespaces): one translation unit

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
    // Rows n, n+1, ...: the (item, colour) pairs met, in order of first use.
    std::vector<std::pair<std::uint32_t, ColourId>> pairs;
    std::unordered_map<std::uint64_t, std::uint32_t> pair_row;
    opt_items.reserve(p.num_entries());
    opt_kill.reserve(p.num_entries());
    for (OptionId o = 0; o < m; ++o) {
      const auto items = p.option(order[o]);
      const auto colours = p.option_colours(order[o]);
      for (std::size_t k = 0; k < items.size(); ++k) {
        const std::uint32_t i = internal[items[k]];
        opt_items.push_back(i);
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
    // Each item's options, increasing: by_item[by_start[i] .. by_start[i + 1]).
    std::vector<std::uint32_t> by_start(n + 1, 0), by_item(opt_items.size());
    for (const std::uint32_t i : opt_items) ++by_start[i + 1];
    for (std::uint32_t i = 0; i < n; ++i) by_start[i + 1] += by_start[i];
    {
      std::vector<std::uint32_t> at(by_start.begin(), by_start.end() - 1);
      for (OptionId o = 0; o < m; ++o)
        for (std::uint32_t q = opt_start[o]; q < opt_start[o + 1]; ++q) by_item[at[opt_items[q]]++] = o;
    }
    const auto options_of = [&](std::uint32_t i) {
      return std::span<const std::uint32_t>(by_item.data() + by_start[i], by_start[i + 1] - by_start[i]);
    };
    col_start.reserve(n + 1);
    col_start.push_back(0);
    for (std::uint32_t i = 0; i < n; ++i) {
      for (OptionId o : options_of(i)) {  // increasing o: one pair per non-zero word
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
      for (OptionId o : options_of(j)) {
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

}  // namespace
}  // namespace cubex::detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
