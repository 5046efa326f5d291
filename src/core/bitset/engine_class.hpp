// The bitset backend's engine (engine.cpp): the search state of one thread. The class body
// takes in three parts of itself, each a file: choose.inc (the item to branch on, pruning),
// descend.inc (a child's level, narrower tables), search.inc (the search loops). They stay
// member functions defined in the class, in the order they had in one file: the compiler sees
// the same code and inlines the hot loops as it did (checked: the same function sizes in the
// object file). Included by engine.cpp alone (its anonymous namespace).
#pragma once

#include <immintrin.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "../engine.hpp"
#include "../list_word.hpp"
#include "avx2_kernels.hpp"
#include "kernels.hpp"
#include "tables.hpp"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,avx2,bmi,bmi2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("popcnt,avx2,bmi,bmi2")
#endif

namespace cubex::detail {
namespace {  // NOLINT(cert-dcl59-cpp, google-build-namespaces): one translation unit

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

#include "choose.inc"  // NOLINT(bugprone-suspicious-include)

#include "descend.inc"  // NOLINT(bugprone-suspicious-include)

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

#include "search.inc"  // NOLINT(bugprone-suspicious-include)

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
  // subtract_listed<...>, by the lanes of each level's tables (a copy per engine, so that the
  // library holds no table of pointers).
  std::array<SubtractBytesFn, 45> bytes_fns_ = bytes_table(std::make_index_sequence<45>{});
  std::array<SubtractListedFn, 45> listed_fns_ = listed_table(std::make_index_sequence<45>{});
  std::vector<std::uint8_t> lanes8_;  // (compact(): the counts in the new lanes)
  std::vector<std::uint16_t> lanes16_;
  bool incremental_ = false;
  bool tiny_ = false;      // the search narrows to tiny tables (narrow_tiny)
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
}  // namespace cubex::detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
