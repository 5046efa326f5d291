// The bitset backend for multiplicities: Knuth's Algorithm M (dlx.hpp walks it on dancing links)
// on bitsets of the live options, node for node the tree of the links backend.
//
// State at search level L (nothing is undone on backtracking: a child is computed from its
// parent's level, which stays):
//   live[L]   the live options as a bitset (an option dies when one of its items is covered,
//             when it conflicts through a secondary item or a colour, or when it is tweaked);
//   key[L]    per primary item, in 16-bit lanes: 0x8000 + LEN + 1 - max(need, 0), the number of
//             ways the links backend's MRV counts, biased to stay unsigned; 0xFFFF for an item
//             that is no longer active (covered, or left by a "none" child). LEN is the number
//             of live options of the item. The first smallest lane is the item branched on,
//             exactly the links backend's choice (ties: the first item);
//   room/need only for the items with hi >= 2 (an item with hi <= 1 has room 1 and need lo as
//             long as it is active);
//   open[L]   the number of active items (0: a solution).
// Branching on item i (see dlx.hpp for the three modes):
//   plain / last (room 1): i is covered (its column dies), each live option x of i in
//             increasing index is a child; "last" (need <= 0) adds the "none" child;
//   tweak (room >= 2): the child for x keeps i active with room and need one less; before the
//             next sibling, x leaves level L's live set for good ("tweak"), so later siblings
//             never meet it; the children stop when fewer than need options are left, and end
//             with "none" (i leaves the active items) when need <= 0.
// Choosing x commits its other items: an item with room 1 (and every secondary item) is covered,
// killing its column (a coloured entry kills the options that give the item another colour or
// none, as in bitset.cpp); an item with room >= 2 loses one room and one need. What x kills for
// certain (its items with hi <= 1, its secondary entries) is one precomputed conflict row when
// that table fits. The killed options' count vectors are subtracted from key: with at most 256
// primary items summed in 8-bit lanes (32 at a time, in registers, from 2-bit fields of the
// listed killed options, three at a time) and flushed into the keys at the end, else one count
// at a time. (Masked byte additions with AVX-512, one per option and 64 items, were slower on
// the Intel machine: conway_mult 0.50 s against 0.48.)
//
// Measured on conway_mult.dlx (docs/design/multiplicities.md): the
// tree of dlx3 and of the links backend, 4,441,806 nodes, at 0.11-0.12 of dlx3's CPU time.
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine.hpp"
#include "list_word.hpp"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,avx2,bmi,bmi2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("popcnt,avx2,bmi,bmi2")
#endif

namespace cubex::detail {

namespace {

constexpr std::uint16_t kInactive = 0xFFFF;
constexpr std::uint32_t kBias = 0x8000;
constexpr std::uint32_t kNone = UINT32_MAX;  // the "none" child in chosen_

// The deepest a search can go: each level chooses an option (at most min(hi, options of i) of
// them cover item i, and each covers a primary item) or lets an item go ("none", once per item).
std::size_t mult_levels(const Problem& p) {
  std::vector<std::uint64_t> deg(p.num_items(), 0);
  for (OptionId o = 0; o < p.num_options(); ++o)
    for (ItemId i : p.option(o)) ++deg[i];
  std::uint64_t chosen = 0;
  for (ItemId i = 0; i < p.num_items(); ++i)
    if (p.item(i).primary) chosen += std::min<std::uint64_t>(p.item(i).hi, deg[i]);
  chosen = std::min<std::uint64_t>(chosen, p.num_options());
  return static_cast<std::size_t>(chosen) + p.num_primary() + 2;
}

struct MultTables {
  std::uint32_t m = 0;      // options
  std::uint32_t words = 0;  // 64-bit words of an option bitset
  std::uint32_t n1 = 0;     // primary items (internal ids 0..n1-1; secondaries follow)
  std::uint32_t K = 0;      // items with hi >= 2 (room and need kept per level)
  std::uint32_t cstride = 0;
  std::size_t levels = 0;
  std::vector<std::uint32_t> opt_start;  // per option: its entries
  std::vector<std::uint32_t> ent_item;   // internal item
  std::vector<std::uint32_t> ent_kill;   // dense row killed when the entry's item is covered
  // Per option, what choosing it commits (the branched item aside): st_* lists the dense rows it
  // kills for certain, as offsets (row x words): first its primary items with hi <= 1 (st_np of
  // them, covered), then its secondary entries; mx_* lists its items with hi >= 2.
  std::vector<std::uint32_t> st_start, st_off, st_np;
  std::vector<std::uint32_t> st_item;  // parallel to st_off: the item of a primary row
  std::vector<std::uint32_t> mx_start, mx_items;
  std::vector<std::uint32_t> prim_start;  // per option: its primary items
  std::vector<std::uint32_t> prim_items;
  std::vector<std::int32_t> slot;  // per primary item: index among the hi >= 2 items, or -1
  std::vector<std::int32_t> lo, hi;
  std::vector<std::uint64_t> dense;  // rows of `words` words: items, then (item, colour) pairs
  // cstride <= 256: each option as one or two vectors of 32 bytes holding a 2-bit one at each
  // of its primary items (see subtract_killed).
  std::vector<std::uint8_t> optvec;
  // When it fits in 8 MiB: per option, the union of its st_* rows (what it kills for certain).
  std::vector<std::uint64_t> conflict;
  std::vector<OptionId> order;  // internal option -> the problem's option
  // Level 0.
  std::vector<std::uint64_t> live0;
  std::vector<std::uint16_t> key0;
  std::vector<std::int32_t> room0, need0;
  std::uint32_t open0 = 0;

  explicit MultTables(const Problem& p) {
    std::vector<std::uint32_t> internal(p.num_items());
    for (ItemId i = 0; i < p.num_items(); ++i)
      if (p.item(i).primary) internal[i] = n1++;
    std::uint32_t n = n1;
    for (ItemId i = 0; i < p.num_items(); ++i)
      if (!p.item(i).primary) internal[i] = n++;
    m = static_cast<std::uint32_t>(p.num_options());
    words = (m + 63) / 64;
    cstride = (n1 + 31) / 32 * 32;
    levels = mult_levels(p);
    slot.assign(n1, -1);
    lo.assign(n1, 1);
    hi.assign(n1, 1);
    for (ItemId i = 0; i < p.num_items(); ++i) {
      if (!p.item(i).primary) continue;
      const std::uint32_t j = internal[i];
      lo[j] = static_cast<std::int32_t>(p.item(i).lo);
      hi[j] = static_cast<std::int32_t>(p.item(i).hi);
      if (hi[j] >= 2) {
        slot[j] = static_cast<std::int32_t>(K++);
        room0.push_back(hi[j]);
        need0.push_back(lo[j]);
      }
    }

    order = search_order(p);
    opt_start.push_back(0);
    prim_start.push_back(0);
    std::vector<std::vector<OptionId>> by_item(n);
    std::vector<std::pair<std::uint32_t, ColourId>> pairs;
    std::unordered_map<std::uint64_t, std::uint32_t> pair_row;
    for (OptionId o = 0; o < m; ++o) {
      const auto items = p.option(order[o]);
      const auto colours = p.option_colours(order[o]);
      for (std::size_t k = 0; k < items.size(); ++k) {
        const std::uint32_t i = internal[items[k]];
        ent_item.push_back(i);
        by_item[i].push_back(o);
        if (i < n1) prim_items.push_back(i);
        if (colours[k] == 0) {
          ent_kill.push_back(i);
          continue;
        }
        const std::uint64_t key = std::uint64_t{i} << 32 | colours[k];
        auto [it, fresh] = pair_row.emplace(key, n + static_cast<std::uint32_t>(pairs.size()));
        if (fresh) pairs.emplace_back(i, colours[k]);
        ent_kill.push_back(it->second);
      }
      opt_start.push_back(static_cast<std::uint32_t>(ent_item.size()));
      prim_start.push_back(static_cast<std::uint32_t>(prim_items.size()));
    }
    dense.assign((std::size_t{n} + pairs.size()) * words, 0);
    for (std::uint32_t i = 0; i < n; ++i)
      for (OptionId o : by_item[i])
        dense[std::size_t{i} * words + o / 64] |= std::uint64_t{1} << (o % 64);
    for (std::size_t r = 0; r < pairs.size(); ++r) {  // kill(j, c), as in bitset.cpp
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
    st_start.push_back(0);
    mx_start.push_back(0);
    for (OptionId o = 0; o < m; ++o) {
      std::uint32_t np = 0;
      for (std::uint32_t e = opt_start[o]; e < opt_start[o + 1]; ++e) {
        const std::uint32_t j = ent_item[e];
        if (j < n1 && slot[j] < 0) st_off.push_back(j * words), st_item.push_back(j), ++np;
      }
      for (std::uint32_t e = opt_start[o]; e < opt_start[o + 1]; ++e) {
        const std::uint32_t j = ent_item[e];
        if (j >= n1) st_off.push_back(ent_kill[e] * words), st_item.push_back(j);
        if (j < n1 && slot[j] >= 0) mx_items.push_back(j);
      }
      st_start.push_back(static_cast<std::uint32_t>(st_off.size()));
      st_np.push_back(np);
      mx_start.push_back(static_cast<std::uint32_t>(mx_items.size()));
    }
    if (cstride <= 256) {
      // 2-bit lanes (see subtract_killed): item j is bit pair j / 32 % 4 of byte j % 32 of the
      // option's vector j / 128.
      const std::size_t bytes = (cstride + 127) / 128 * 32;
      optvec.assign((std::size_t{m} + 1) * bytes, 0);  // (option m: zero, for padding)
      for (OptionId o = 0; o < m; ++o)
        for (std::uint32_t r = prim_start[o]; r < prim_start[o + 1]; ++r) {
          const std::uint32_t j = prim_items[r];
          optvec[o * bytes + j / 128 * 32 + j % 32] |=
              static_cast<std::uint8_t>(1u << (2 * (j / 32 % 4)));
        }
    }

    if (std::size_t{m} * words * 8 <= (std::size_t{8} << 20)) {
      conflict.assign(std::size_t{m} * words, 0);
      for (OptionId o = 0; o < m; ++o)
        for (std::uint32_t r = st_start[o]; r < st_start[o + 1]; ++r)
          for (std::uint32_t w = 0; w < words; ++w)
            conflict[std::size_t{o} * words + w] |= dense[st_off[r] + w];
    }

    // Level 0: items that may never be covered (hi = 0) take their options out of play.
    live0.assign(words, 0);
    for (OptionId o = 0; o < m; ++o) live0[o / 64] |= std::uint64_t{1} << (o % 64);
    for (std::uint32_t i = 0; i < n1; ++i)
      if (hi[i] == 0)
        for (std::uint32_t w = 0; w < words; ++w) live0[w] &= ~dense[std::size_t{i} * words + w];
    std::vector<std::uint32_t> len(n1, 0);
    for (OptionId o = 0; o < m; ++o)
      if (live0[o / 64] >> (o % 64) & 1)
        for (std::uint32_t r = prim_start[o]; r < prim_start[o + 1]; ++r) ++len[prim_items[r]];
    key0.assign(cstride, kInactive);
    for (std::uint32_t i = 0; i < n1; ++i) {
      if (hi[i] == 0) continue;
      ++open0;
      key0[i] = static_cast<std::uint16_t>(kBias + len[i] + 1 - std::max(lo[i], 0));
    }
  }
};

class BitsetMultEngine final : public Engine {
 public:
  explicit BitsetMultEngine(std::shared_ptr<const MultTables> tables) : t_(std::move(tables)) {
    const MultTables& t = *t_;
    const std::size_t levels = t.levels;
    W_ = t.words;
    live_.assign(levels * W_, 0);
    nz_.assign(levels * W_, 0);
    nzc_.assign(levels, 0);
    key_.assign(levels * t.cstride, kInactive);
    ks_ = t.K ? t.K : 1;
    room_.assign(levels * ks_, 0);
    need_.assign(levels * ks_, 0);
    open_.assign(levels, 0);
    frame_.resize(levels);
    chosen_.resize(levels);
    out_.resize(levels);
    std::uint32_t longest = 0;
    for (std::uint32_t o = 0; o < t.m; ++o)
      longest = std::max(longest, t.opt_start[o + 1] - t.opt_start[o]);
    rows_.resize(longest + 1);
    covered_.resize(longest + 1);
    bumped_.resize(longest + 1);
    merged_.resize(W_);
    killed_list_.resize(std::size_t{t.m} + 8);  // (list_word8 writes up to 7 past the end)
    killed_ = killed_list_.data();
    if (!t.optvec.empty())
      subtract_ = kill_table(std::make_index_sequence<8>{})[t.cstride / 32 - 1];
  }

  std::unique_ptr<Engine> clone() const override { return std::make_unique<BitsetMultEngine>(t_); }

  RunResult run(const TreeSpan& span, std::uint32_t depth, SolutionVisitor* visit,
                const SolveLimits& limits, const Control* control) override {
    const auto t0 = std::chrono::steady_clock::now();
    RunResult r = search(span, depth, visit, limits, control);
    r.st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }

 private:
  enum Mode : std::uint8_t { kPlain, kLast, kTweak };
  struct Frame {
    std::uint32_t item;  // the item branched on
    std::uint32_t p;     // current non-zero word (index into nz) of the candidates
    std::uint64_t bits;  // candidates left in that word
    std::uint32_t sib;   // index of the child being searched
    std::uint32_t end;   // children from this index on are outside the span
    std::uint32_t kids;  // number of children (the MRV count)
    bool onb;            // this node is an ancestor of the span's end
    bool none;           // the child being searched is "none"
    Mode mode;
    std::int32_t len;   // tweak: live options of item left
    std::int32_t need;  // tweak: need of item at this node
  };

  // Untried children of frame `l` after the current one (UINT32_MAX: not known, tweak mode).
  std::uint32_t remaining(std::int64_t l) const {
    const std::size_t L = static_cast<std::size_t>(l);
    const Frame& f = frame_[L];
    if (f.mode == kTweak) return UINT32_MAX;
    if (f.none) return 0;
    std::uint32_t n = static_cast<std::uint32_t>(__builtin_popcountll(f.bits));
    for (std::uint32_t q = f.p + 1; q < nzc_[L]; ++q) {
      const std::uint32_t w = nz_[L * W_ + q];
      n += static_cast<std::uint32_t>(
          __builtin_popcountll(live_[L * W_ + w] & t_->dense[f.item * W_ + w]));
    }
    return n + (f.mode == kLast ? 1 : 0);
  }

  // The first active item with the smallest key at `level`. Each key is paired with its item's
  // index below it, key << 16 | i in 32-bit lanes (the unpacks interleave the two vectors' 16-bit
  // lanes), so that the smallest pair is the answer: one pass, no search for the first lane that
  // holds the smallest key (whose exit was mispredicted about once a node).
  std::uint32_t choose(std::uint32_t level, std::uint32_t& best) const {
    const std::uint32_t cs = t_->cstride;
    const std::uint16_t* key = key_.data() + (std::size_t{level} * cs);
    __m256i idx = _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m256i step = _mm256_set1_epi16(16);
    __m256i lo = _mm256_set1_epi32(-1), hi = lo;
    for (std::uint32_t i = 0; i < cs; i += 16) {
      const __m256i k = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(key + i));
      lo = _mm256_min_epu32(lo, _mm256_unpacklo_epi16(idx, k));
      hi = _mm256_min_epu32(hi, _mm256_unpackhi_epi16(idx, k));
      idx = _mm256_add_epi16(idx, step);
    }
    lo = _mm256_min_epu32(lo, hi);
    __m128i m = _mm_min_epu32(_mm256_castsi256_si128(lo), _mm256_extracti128_si256(lo, 1));
    m = _mm_min_epu32(m, _mm_shuffle_epi32(m, 0x4E));
    m = _mm_min_epu32(m, _mm_shuffle_epi32(m, 0xB1));
    const auto v = static_cast<std::uint32_t>(_mm_cvtsi128_si32(m));
    best = v >> 16;
    return v & 0xFFFF;
  }

  // k1 = k0 minus the count vectors of the n options listed in `killed` (followed by two
  // entries m, whose vector is zero). The table (optvec) keeps 2 bits per primary item: item j
  // is bits 2f, 2f + 1 of byte j % 32 of the option's vector j / 128, f = j / 32 % 4; so an
  // option is 32 bytes when there are at most 128 primary items, and the table of Conway's
  // puzzle (769 options) is 24 KB, within L1 (the 8-bit lanes' 98 KB were not). Three options
  // are summed at a time in those 2-bit fields (3 at most: no carry into the next field), each
  // field is masked out into 8-bit sums (NV vectors of 32 lanes, in registers), and these are
  // flushed into the 16-bit keys every 255 options and at the end.
  template <int NV>
  void subtract_killed(const std::uint32_t* killed, std::uint32_t n, const std::uint16_t* k0,
                       std::uint16_t* k1) const {
    constexpr int NP = (NV + 3) / 4;  // packed vectors per option
    const __m256i three = _mm256_set1_epi8(3);
    const __m256i* vecs = reinterpret_cast<const __m256i*>(t_->optvec.data());
    const __m256i* from = reinterpret_cast<const __m256i*>(k0);  // k1 after the first flush
    __m256i* key = reinterpret_cast<__m256i*>(k1);
    std::uint32_t c = 0;
    do {
      __m256i acc[NV];
      for (int v = 0; v < NV; ++v) acc[v] = _mm256_setzero_si256();
      for (std::uint32_t k = c, e = std::min(n, c + 255); k < e; k += 3) {
        const __m256i* a = vecs + std::size_t{killed[k]} * NP;
        const __m256i* b = vecs + std::size_t{killed[k + 1]} * NP;
        const __m256i* d = vecs + std::size_t{killed[k + 2]} * NP;
        __m256i sum[NP];
        for (int p = 0; p < NP; ++p) {
          sum[p] = _mm256_add_epi8(_mm256_loadu_si256(a + p), _mm256_loadu_si256(b + p));
          sum[p] = _mm256_add_epi8(sum[p], _mm256_loadu_si256(d + p));
        }
        for (int v = 0; v < NV; ++v) {  // (a 16-bit shift: the mask drops what crossed bytes)
          const __m256i f = _mm256_srli_epi16(sum[v / 4], 2 * (v % 4));
          acc[v] = _mm256_add_epi8(acc[v], _mm256_and_si256(f, three));
        }
      }
      for (int v = 0; v < NV; ++v) {
        const __m256i lo = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(acc[v]));
        const __m256i hi = _mm256_cvtepu8_epi16(_mm256_extracti128_si256(acc[v], 1));
        _mm256_storeu_si256(key + 2 * v, _mm256_sub_epi16(_mm256_loadu_si256(from + 2 * v), lo));
        _mm256_storeu_si256(key + 2 * v + 1,
                            _mm256_sub_epi16(_mm256_loadu_si256(from + 2 * v + 1), hi));
      }
      from = key;
      c += 255;
    } while (c < n);
  }
  using SubtractFn = void (BitsetMultEngine::*)(const std::uint32_t*, std::uint32_t,
                                                const std::uint16_t*, std::uint16_t*) const;
  template <std::size_t... I>
  static constexpr std::array<SubtractFn, sizeof...(I)> kill_table(std::index_sequence<I...>) {
    return {&BitsetMultEngine::subtract_killed<static_cast<int>(I) + 1>...};
  }

  // Level `level + 1` = level `level` with the current child of its frame (option x, or none).
  void make_child(std::uint32_t level, std::uint32_t x, bool none) {
    const MultTables& t = *t_;
    const Frame& f = frame_[level];
    const std::uint32_t i = f.item;
    const std::size_t L = level, L1 = L + 1;
    const std::int32_t* room0 = room_.data() + (L * ks_);
    const std::int32_t* need0 = need_.data() + (L * ks_);
    std::int32_t* room1 = room_.data() + (L1 * ks_);
    std::int32_t* need1 = need_.data() + (L1 * ks_);
    for (std::uint32_t k = 0; k < t.K; ++k) room1[k] = room0[k], need1[k] = need0[k];
    // Rows to kill: x's fixed ones (st_*), and the extra ones of items covered now (rows_).
    const std::uint32_t* rows = nullptr;
    std::uint32_t nrows = 0, np = 0, nextra = 0, nbump = 0;
    std::uint32_t open = open_[L];
    if (!none) {
      rows = t.st_off.data() + (t.st_start[x]);
      nrows = t.st_start[x + 1] - t.st_start[x];
      np = t.st_np[x];  // covered (i among them when it has hi <= 1)
      open -= np;
    }
    if (f.mode != kTweak) {  // i was covered when branching
      if (none || t.slot[i] >= 0) {
        rows_[nextra] = i * static_cast<std::uint32_t>(W_);
        covered_[nextra++] = i;
        --open;
      }
    } else if (none) {  // i leaves the active items (its column is empty)
      covered_[nextra] = i;
      rows_[nextra++] = UINT32_MAX;  // (no row: nothing of i is live)
      --open;
    } else {
      const std::int32_t s = t.slot[i];
      --room1[s];
      if (need1[s]-- > 0) bumped_[nbump++] = i;
    }
    if (!none) {
      for (std::uint32_t e = t.mx_start[x], ee = t.mx_start[x + 1]; e < ee; ++e) {
        const std::uint32_t j = t.mx_items[e];
        if (j == i) continue;
        const std::int32_t s = t.slot[j];
        if (room1[s] == 1) {
          room1[s] = 0;
          --need1[s];
          rows_[nextra] = j * static_cast<std::uint32_t>(W_);
          covered_[nextra++] = j;
          --open;
        } else {
          --room1[s];
          if (need1[s]-- > 0) bumped_[nbump++] = j;
        }
      }
    }
    open_[L1] = open;
    if (open == 0) return;  // a solution: it needs no live options (and will not branch)

    const std::uint64_t* src = live_.data() + (L * W_);
    std::uint64_t* dst = live_.data() + (L1 * W_);
    const std::uint32_t* nz = nz_.data() + (L * W_);
    std::uint32_t* nz1 = nz_.data() + (L1 * W_);
    std::uint32_t c = 0;
    const std::uint64_t* dense = t.dense.data();
    const std::uint32_t ncov = nextra;
    if (nextra && rows_[0] == UINT32_MAX) nextra = 0;  // (tweak's none: no row)
    // The rows to kill as one: x's conflict row, or, with extra rows or no conflict table, their
    // union over the live words (in merged_).
    const std::uint64_t* conf =
        none || t.conflict.empty() ? nullptr : t.conflict.data() + (std::size_t{x} * W_);
    if (!conf || nextra) {
      for (std::uint32_t q = 0, e = nzc_[L]; q < e; ++q) {
        const std::uint32_t w = nz[q];
        std::uint64_t u = conf ? conf[w] : 0;
        if (!conf)
          for (std::uint32_t r = 0; r < nrows; ++r) u |= dense[rows[r] + w];
        for (std::uint32_t r = 0; r < nextra; ++r) u |= dense[rows_[r] + w];
        merged_[w] = u;
      }
      conf = merged_.data();
    }
    const bool listing = subtract_ != nullptr;  // (AVX2: the killed options listed here)
    std::uint32_t* out = killed_;
    for (std::uint32_t q = 0, e = nzc_[L]; q < e; ++q) {
      const std::uint32_t w = nz[q];
      const std::uint64_t v = src[w] & ~conf[w];
      dst[w] = v;
      nz1[c] = w;
      c += v != 0;
      if (listing) out = list_word8(src[w] & ~v, w, out);
    }
    // Words not in nz are zero at level L; keep them zero at L+1 (they may hold old values).
    // Only the words listed in nz1 are ever read, so no clearing is needed beyond them.
    nzc_[L1] = c;
    updates_ += nzc_[L];
    const std::uint32_t cs = t.cstride;
    const std::uint16_t* k0 = key_.data() + (L * cs);
    std::uint16_t* k1 = key_.data() + (L1 * cs);
    if (subtract_) {
      const std::uint32_t n = static_cast<std::uint32_t>(out - killed_);
      out[0] = out[1] = t.m;  // (zero vectors: three at a time)
      (this->*subtract_)(killed_, n, k0, k1);
    } else {
      std::memcpy(k1, k0, sizeof(std::uint16_t) * cs);
      for (std::uint32_t q = 0, e = nzc_[L]; q < e; ++q) {
        const std::uint32_t w = nz[q];
        for (std::uint64_t kill = src[w] & ~dst[w]; kill; kill &= kill - 1) {
          const std::uint32_t o = w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(kill));
          for (std::uint32_t r = t.prim_start[o], re = t.prim_start[o + 1]; r < re; ++r)
            --k1[t.prim_items[r]];
        }
      }
    }
    const std::uint32_t* pitem = none ? nullptr : t.st_item.data() + (t.st_start[x]);
    for (std::uint32_t q = 0; q < np; ++q) k1[pitem[q]] = kInactive;
    for (std::uint32_t q = 0; q < ncov; ++q) k1[covered_[q]] = kInactive;
    for (std::uint32_t q = 0; q < nbump; ++q) ++k1[bumped_[q]];
  }

  // Tweak: option x leaves level `level` for good (its later siblings never meet it).
  void tweak(std::uint32_t level, std::uint32_t x) {
    const MultTables& t = *t_;
    live_[std::size_t{level} * W_ + x / 64] &= ~(std::uint64_t{1} << (x % 64));
    std::uint16_t* k = key_.data() + (std::size_t{level} * t.cstride);
    for (std::uint32_t r = t.prim_start[x], re = t.prim_start[x + 1]; r < re; ++r)
      --k[t.prim_items[r]];
  }

  // Moves frame `level` to its next candidate option; false when there is none.
  bool next(std::uint32_t level, std::uint32_t& x) {
    Frame& f = frame_[level];
    const std::size_t L = level;
    while (f.bits == 0) {
      if (++f.p >= nzc_[L]) return false;
      const std::uint32_t w = nz_[L * W_ + f.p];
      f.bits = live_[L * W_ + w] & t_->dense[f.item * W_ + w];
    }
    x = nz_[L * W_ + f.p] * 64 + static_cast<std::uint32_t>(__builtin_ctzll(f.bits));
    f.bits &= f.bits - 1;
    return true;
  }

  bool report(SolutionVisitor& visit, std::uint32_t level) {
    std::size_t n = 0;
    for (std::uint32_t l = 0; l < level; ++l)
      if (chosen_[l] != kNone) out_[n++] = t_->order[chosen_[l]];
    return visit(std::span<const OptionId>(out_.data(), n));
  }

  RunResult search(const TreeSpan& span, std::uint32_t depth, SolutionVisitor* visit,
                   const SolveLimits& limits, const Control* ctl) {
    const MultTables& t = *t_;
    RunResult r;
    SolveStats& st = r.st;
    updates_ = 0;
    if (!span.to_end && !(span.begin < span.end)) return r;  // empty
    std::copy(t.live0.begin(), t.live0.end(), live_.begin());
    for (std::uint32_t w = 0; w < W_; ++w) nz_[w] = w;
    nzc_[0] = W_;
    std::copy(t.key0.begin(), t.key0.end(), key_.begin());
    std::copy(t.room0.begin(), t.room0.end(), room_.begin());
    std::copy(t.need0.begin(), t.need0.end(), need_.begin());
    open_[0] = t.open0;

    const std::span<const std::uint32_t> begin(span.begin);
    const std::uint32_t begin_len = static_cast<std::uint32_t>(begin.size());
    const std::uint32_t limit = depth ? depth : UINT32_MAX;
    SpanCursor cur;
    cur.start(span);
    bool replay = begin_len > 0;  // still descending along span.begin
    std::uint32_t poll = 0;
    std::uint32_t level = 0;
    std::uint32_t x = 0;
  enter:
    if (replay && level < begin_len) {  // an ancestor of the span's first node: not counted
      if (open_[level] == 0) goto backup;
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
    if (open_[level] == 0) {
      ++st.solutions;
      if (SpanCursor::stop_after_solution(frame_.data(), level, !visit || report(*visit, level),
                                          limits, r))
        goto done;
      goto backup;
    }
  branch : {
    std::uint32_t best;
    const std::uint32_t i = choose(level, best);
    if (best <= kBias) goto backup;  // no way to branch: fewer options than the item needs
    Frame& f = frame_[level];
    const std::size_t L = level;
    f.item = i;
    f.p = 0;
    f.bits = nzc_[L] ? live_[L * W_ + nz_[L * W_]] & t.dense[i * W_ + nz_[L * W_]] : 0;
    f.kids = best - kBias;
    f.none = false;
    cur.bound(frame_.data(), level);
    f.sib = UINT32_MAX;  // incremented to 0 by the first child
    const std::int32_t s = t.slot[i];
    const std::int32_t room = s < 0 ? 1 : room_[L * ks_ + static_cast<std::size_t>(s)];
    const std::int32_t need = s < 0 ? t.lo[i] : need_[L * ks_ + static_cast<std::size_t>(s)];
    if (room == 1) {
      f.mode = need >= 1 ? kPlain : kLast;
    } else {
      f.mode = kTweak;
      f.need = need;
      f.len = static_cast<std::int32_t>(f.kids) - 1 + std::max(need, 0);
    }
  }
  try_next : {
    Frame& f = frame_[level];
    const std::uint32_t sib = f.sib + 1;  // (wraps to 0 for the first child)
    if (sib >= f.end || f.none) goto backup;
    switch (f.mode) {
      case kPlain:
        if (!next(level, x)) goto backup;
        break;
      case kLast:
        if (!next(level, x)) f.none = true;
        break;
      case kTweak:
        if (next(level, x)) {
          if (f.len < f.need) goto backup;  // too few options left for what i needs
          tweak(level, x);
          --f.len;
        } else if (f.need <= 0) {
          f.none = true;
        } else {
          goto backup;
        }
        break;
    }
    f.sib = sib;
    if (replay && sib < begin[level]) goto try_next;  // replaying: skip to begin's child
    chosen_[level] = f.none ? kNone : x;
    make_child(level, x, f.none);
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

  std::shared_ptr<const MultTables> t_;
  std::size_t W_ = 0;                // words of an option bitset
  std::size_t ks_ = 1;               // room/need entries per level
  std::vector<std::uint64_t> live_;  // one bitset per level
  std::vector<std::uint32_t> nz_;    // per level: the indices of its (possibly) non-zero words
  std::vector<std::uint32_t> nzc_;   // per level: how many
  std::vector<std::uint16_t> key_;   // per level: the MRV key of every primary item (see top)
  std::vector<std::int32_t> room_;   // per level: room of the hi >= 2 items
  std::vector<std::int32_t> need_;   // per level: need of the hi >= 2 items
  std::vector<std::uint32_t> open_;  // per level: active items
  std::vector<Frame> frame_;
  std::vector<std::uint32_t> chosen_;   // internal option chosen at each level (kNone: none)
  std::vector<OptionId> out_;           // the solution as the problem's options
  std::vector<std::uint32_t> rows_;     // scratch of make_child: dense rows to kill
  std::vector<std::uint32_t> covered_;  // items leaving the active ones
  std::vector<std::uint32_t> bumped_;   // items whose need dropped while positive
  SubtractFn subtract_ = nullptr;
  std::vector<std::uint64_t> merged_;       // scratch of make_child: the rows to kill, as one
  std::vector<std::uint32_t> killed_list_;  // scratch of make_child: the killed options (AVX2)
  std::uint32_t* killed_ = nullptr;
  std::uint64_t updates_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_bitset_mult_engine(const Problem& p) {
  return std::make_unique<BitsetMultEngine>(std::make_shared<const MultTables>(p));
}

}  // namespace cubex::detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

namespace cubex::detail {

// Outside the target region above: this runs on any CPU.
bool bitset_mult_supported(const Problem& p) {
  if (p.num_options() == 0 || p.num_options() >= 0x7000) return false;
  if (!__builtin_cpu_supports("popcnt") || !__builtin_cpu_supports("avx2") ||
      !__builtin_cpu_supports("bmi2")) {
    return false;
  }
  for (const Item& it : p.items())
    if (it.primary && it.lo >= 0x7000) return false;  // keys are 16-bit (see the top)
  if (p.num_primary() > 0x10000) return false;  // choose() pairs keys with 16-bit item indices
  // Memory: dense rows (items, coloured entries) and the per-level live sets and keys.
  const std::size_t words = (p.num_options() + 63) / 64;
  std::size_t coloured = 0;
  if (p.has_colours()) {
    for (OptionId o = 0; o < p.num_options(); ++o)
      for (ColourId c : p.option_colours(o)) coloured += c != 0;
  }
  const std::size_t levels = mult_levels(p);
  const std::size_t cstride = (p.num_primary() + 31) / 32 * 32;
  const std::size_t bytes = (p.num_items() + coloured + 2 * levels) * words * 8 +
                            levels * cstride * 2 + p.num_options() * cstride;
  return bytes <= (std::size_t{64} << 20);
}

}  // namespace cubex::detail
