// Internals of the solver: dancing links in flat arrays (Knuth, "Dancing Links", and TAOCP
// 7.2.2.1, Algorithms X and M). Read top to bottom: layout, the four list operations, then the
// search loop.
//
// Layout. Nodes 1..N are the item headers (primary items 1..N1, then secondary N1+1..N); a
// header's `top` field holds its LEN. After the headers come the options, each preceded by a
// spacer node whose `top` is -k (k = options before it) and whose `up`/`down` point at the first
// node of the previous option / the last node of the next one. Every other node's `top` is its
// item; `up`/`down` link the item's column. Active primary items form a doubly linked list
// through `llink`/`rlink` with head 0.
//
// Colours (Knuth's Algorithm C). `colour[x]` is the colour of node x (0: none), kept only when
// the problem has colours. Choosing an option whose node q gives secondary item j colour c
// "purifies" j: every other option in column j with colour c is marked (colour -1: it agrees,
// and stays), every option with another colour or none is hidden. hide/unhide skip marked
// nodes, so a purified column keeps exactly its marked nodes until it is unpurified; a marked
// node of a chosen option commits nothing. The chosen option's own node q has already left
// column j (its primary item was covered), so it keeps c for unpurify.
//
// Multiplicities. A primary item i keeps `room` (times it may still be covered) and `need`
// (times it must still be covered; may go negative). A branch on i tries, in column order:
//   plain  (room 1, need 1): cover i, then each option x; exactly Algorithm X.
//   last   (room 1, need <= 0): cover i, then each option x, then "none of them".
//   tweak  (room >= 2): try x = first option of column i, then remove x from the problem
//          ("tweak") before the next sibling, so each set of i's options is met in one order
//          only; when too few options remain for `need`, stop; finally "no more options of i"
//          when need <= 0. The tweaked options are restored in reverse order on leaving.
//
// Dead ends without a scan. MRV (choose) branches on the first active item with the fewest ways;
// an item with no way at all (LEN < need: t <= 0 in choose) makes the node a dead end whichever
// item it is. `dead` counts the active primary items with LEN <= dead_at (need - 1; -1 when need
// <= 0, and for secondary items: never), kept by every change of a LEN or a need (hide, unhide,
// tweak, untweak, set_need) as it crosses dead_at (looked up only when LEN is at most dead_max,
// the largest threshold: in plain exact cover only when a LEN reaches 0, so the hot loops of
// hide and unhide stay as they were). So choose() answers a dead end at once, and otherwise
// stops at the first item with one way (none has fewer): a node with a forced item costs what
// it touches, not a scan of every item, and the tree is the one a full scan gives.
// Covered items never count: an item is covered only while it has a way (the branch item) or
// when its need is <= 0, and a covered column does not change.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/core/solver.hpp"
#include "engine.hpp"

namespace cubex::detail {

struct Node {
  std::int32_t top;  // item (or LEN in a header, or -k in a spacer)
  std::int32_t up;
  std::int32_t down;
};

struct Dlx {
  // ---- matrix ----
  std::vector<Node> nd;
  std::vector<std::int32_t> llink, rlink;  // active primary items, head 0
  std::vector<std::int32_t> room, need;    // primary items (index by header)
  std::vector<std::int32_t> dead_at;       // every item: need - 1, or -1 (never dead; see top)
  std::int32_t dead = 0;                   // active primary items with LEN <= dead_at
  std::int32_t dead_max = -1;              // no dead_at is larger (needs only fall from lo)
  std::int32_t n1 = 0, n = 0;              // primary items 1..n1, all items 1..n
  bool multiplicities = false;
  bool coloured = false;
  std::vector<std::int32_t> colour;  // per node, when coloured (see above)

  // ---- search state (sized once; the search allocates nothing) ----
  enum Mode : std::uint8_t { kPlain, kLast, kTweak };
  struct Frame {
    std::int32_t item;
    std::int32_t x;  // node of the option being tried, or `item` for "none"
    std::uint32_t tweak_base;
    std::uint32_t sib;   // index of the child being searched (see engine.hpp: tree paths)
    std::uint32_t end;   // children from this index on are outside the span
    std::uint32_t kids;  // number of children (MRV count)
    bool onb;            // this node is an ancestor of the span's end
    Mode mode;
  };
  std::vector<Frame> frame;
  std::vector<std::int32_t> tweaked;  // stack of tweaked option nodes
  std::uint32_t tweak_top = 0;
  std::vector<OptionId> chosen;  // solution handed to the visitor
  std::vector<OptionId> order;   // matrix option k is the problem's option order[k]
  std::uint64_t updates = 0;

  explicit Dlx(const Problem& p) : order(search_order(p)) {
    // Items: primaries first, in the problem's order, then secondaries.
    std::vector<std::int32_t> header_of(p.num_items());
    for (ItemId i = 0; i < p.num_items(); ++i)
      if (p.item(i).primary) header_of[i] = ++n1;
    n = n1;
    for (ItemId i = 0; i < p.num_items(); ++i)
      if (!p.item(i).primary) header_of[i] = ++n;
    multiplicities = p.has_multiplicities();
    coloured = p.has_colours();

    nd.resize(static_cast<std::size_t>(n) + 2 + p.num_entries() + p.num_options());
    if (coloured) colour.assign(nd.size(), 0);
    for (std::int32_t h = 1; h <= n; ++h) nd[h] = Node{0, h, h};
    llink.resize(n1 + 1);
    rlink.resize(n1 + 1);
    room.assign(n1 + 1, 1);
    need.assign(n1 + 1, 1);
    for (ItemId i = 0; i < p.num_items(); ++i) {
      if (!p.item(i).primary) continue;
      room[header_of[i]] = static_cast<std::int32_t>(p.item(i).hi);
      need[header_of[i]] = static_cast<std::int32_t>(p.item(i).lo);
    }

    // Options, each after a spacer.
    std::int32_t x = n + 1;
    std::int32_t last_spacer = x;
    nd[x] = Node{0, 0, 0};
    for (OptionId o = 0; o < p.num_options(); ++o) {
      const std::int32_t first = x + 1;
      const auto colours = p.option_colours(order[o]);
      std::size_t k = 0;
      for (ItemId it : p.option(order[o])) {
        const std::int32_t h = header_of[it];
        ++x;
        if (coloured) colour[x] = static_cast<std::int32_t>(colours[k]);
        ++k;
        nd[x].top = h;
        nd[x].up = nd[h].up;
        nd[x].down = h;
        nd[nd[h].up].down = x;
        nd[h].up = x;
        ++nd[h].top;  // LEN
      }
      nd[last_spacer].down = x;  // last node of the option after the spacer
      ++x;
      nd[x] = Node{-static_cast<std::int32_t>(o) - 1, first, 0};
      last_spacer = x;
    }

    // Active list: primary items that may still be covered.
    std::int32_t prev = 0;
    for (std::int32_t h = 1; h <= n1; ++h) {
      if (room[h] == 0) continue;
      rlink[prev] = h;
      llink[h] = prev;
      prev = h;
    }
    rlink[prev] = 0;
    llink[0] = prev;
    // Items that may never be covered (0..0) take their options out of play.
    dead_at.assign(static_cast<std::size_t>(n) + 1, -1);
    for (std::int32_t h = 1; h <= n1; ++h)
      if (room[h] == 0) hide_column(h);
    // The dead items of the whole problem (hide and unhide keep the count from here on).
    dead = 0;
    for (std::int32_t h = 1; h <= n1; ++h) {
      dead_at[h] = need[h] > 0 ? need[h] - 1 : -1;
      if (dead_at[h] > dead_max) dead_max = dead_at[h];
      if (room[h] != 0 && nd[h].top <= dead_at[h]) ++dead;
    }

    frame.resize(p.num_options() + static_cast<std::size_t>(n1) + 2);  // depth bound
    tweaked.resize(p.num_options() + 1);
    chosen.reserve(p.num_options());
  }

  // ---- the four list operations ----
  // hide(p): take the other nodes of p's option out of their columns (but not the nodes marked
  // by a purified column: they stay).
  void hide(std::int32_t p) {
    for (std::int32_t q = p + 1; q != p;) {
      const Node& c = nd[q];
      if (c.top <= 0) {
        q = c.up;
      } else if (coloured && colour[q] < 0) {
        ++q;
      } else {
        nd[c.up].down = c.down;
        nd[c.down].up = c.up;
        if (const std::int32_t len = --nd[c.top].top; len <= dead_max && len == dead_at[c.top])
          ++dead;
        ++updates;
        ++q;
      }
    }
  }
  void unhide(std::int32_t p) {
    for (std::int32_t q = p - 1; q != p;) {
      const Node& c = nd[q];
      if (c.top <= 0) {
        q = c.down;
      } else if (coloured && colour[q] < 0) {
        --q;
      } else {
        nd[c.up].down = q;
        nd[c.down].up = q;
        if (const std::int32_t len = nd[c.top].top++; len <= dead_max && len == dead_at[c.top])
          --dead;
        --q;
      }
    }
  }
  void hide_column(std::int32_t i) {
    for (std::int32_t p = nd[i].down; p != i; p = nd[p].down) hide(p);
  }
  void unhide_column(std::int32_t i) {
    for (std::int32_t p = nd[i].up; p != i; p = nd[p].up) unhide(p);
  }
  // cover(i): i leaves the active list (primary) and all its options leave the problem.
  void cover(std::int32_t i) {
    hide_column(i);
    if (i <= n1) {
      rlink[llink[i]] = rlink[i];
      llink[rlink[i]] = llink[i];
      ++updates;
    }
  }
  void uncover(std::int32_t i) {
    if (i <= n1) {
      rlink[llink[i]] = i;
      llink[rlink[i]] = i;
    }
    unhide_column(i);
  }

  // need[j] = v for a primary item j, keeping dead_at and `dead`.
  void set_need(std::int32_t j, std::int32_t v) {
    const bool was = nd[j].top <= dead_at[j];
    need[j] = v;
    dead_at[j] = v > 0 ? v - 1 : -1;
    dead += static_cast<std::int32_t>(nd[j].top <= dead_at[j]) - static_cast<std::int32_t>(was);
  }

  // Choosing option x (a node of it) commits the option's other items.
  void commit(std::int32_t j) {
    if (j <= n1) {
      set_need(j, need[j] - 1);
      if (--room[j] == 0) cover(j);
    } else {
      cover(j);
    }
  }
  void uncommit(std::int32_t j) {
    if (j <= n1) {
      set_need(j, need[j] + 1);
      if (room[j]++ == 0) uncover(j);
    } else {
      uncover(j);
    }
  }
  // purify(q): q (out of its column) gives secondary item j colour c > 0; see the top.
  void purify(std::int32_t q) {
    const std::int32_t c = colour[q], j = nd[q].top;
    for (std::int32_t r = nd[j].down; r != j; r = nd[r].down) {
      if (colour[r] == c) {
        colour[r] = -1;
      } else {
        hide(r);
      }
    }
  }
  void unpurify(std::int32_t q) {
    const std::int32_t c = colour[q], j = nd[q].top;
    for (std::int32_t r = nd[j].up; r != j; r = nd[r].up) {
      if (colour[r] < 0) {
        colour[r] = c;
      } else {
        unhide(r);
      }
    }
  }
  void commit_others(std::int32_t x) {
    for (std::int32_t q = x + 1; q != x;) {
      const std::int32_t j = nd[q].top;
      if (j <= 0) {
        q = nd[q].up;
      } else {
        if (!coloured || colour[q] == 0) {
          commit(j);
        } else if (colour[q] > 0) {
          purify(q);
        }
        ++q;
      }
    }
  }
  void uncommit_others(std::int32_t x) {
    for (std::int32_t q = x - 1; q != x;) {
      const std::int32_t j = nd[q].top;
      if (j <= 0) {
        q = nd[q].down;
      } else {
        if (!coloured || colour[q] == 0) {
          uncommit(j);
        } else if (colour[q] > 0) {
          unpurify(q);
        }
        --q;
      }
    }
  }

  // tweak(x): x is the first option in column i; remove it from the problem entirely.
  void tweak(std::int32_t i, std::int32_t x) {
    hide(x);
    const std::int32_t d = nd[x].down;
    nd[i].down = d;
    nd[d].up = i;
    if (--nd[i].top == dead_at[i]) ++dead;
    ++updates;
    tweaked[tweak_top++] = x;
  }
  void untweak(std::int32_t i, std::uint32_t base) {
    while (tweak_top > base) {
      const std::int32_t x = tweaked[--tweak_top];
      nd[nd[i].down].up = x;
      nd[i].down = x;
      if (nd[i].top++ == dead_at[i]) --dead;
      unhide(x);
    }
  }

  OptionId option_of(std::int32_t x) const {
    while (nd[x].top > 0) ++x;
    return static_cast<OptionId>(-nd[x].top - 1);
  }

  // ---- the search ----
  // MRV: the active item with the fewest ways to branch. With multiplicities, an item that
  // still needs k >= 1 options can branch only on its first LEN-k+1; one already satisfied has
  // LEN+1 ways (each option, or none). Ties go to the first item in list order. With a dead item
  // (no way) the node is a dead end: best 0, no scan. Otherwise no item has fewer than one way,
  // so the scan stops at the first item with one.
  template <bool Mult>
  std::int32_t choose(std::int32_t& best) const {
    if (dead > 0) {
      best = 0;
      return 0;
    }
    std::int32_t chosen_item = 0;
    best = INT32_MAX;
    for (std::int32_t p = rlink[0]; p != 0; p = rlink[p]) {
      std::int32_t t = nd[p].top;
      if constexpr (Mult) t += 1 - (need[p] > 0 ? need[p] : 0);
      if (t < best) {
        best = t;
        chosen_item = p;
        if (t <= 1) break;
      }
    }
    return chosen_item;
  }

  // Untried children of frame `l` after the current one (UINT32_MAX: not known, tweak mode).
  std::uint32_t remaining(std::int64_t l) const {
    const Frame& f = frame[static_cast<std::size_t>(l)];
    if (multiplicities && f.mode == kTweak) return UINT32_MAX;
    if (f.x == f.item) return 0;  // on "none", the last child
    std::uint32_t n = f.mode == kLast ? 1 : 0;
    for (std::int32_t q = nd[f.x].down; q != f.item; q = nd[q].down) ++n;
    return n;
  }

  // The nodes of `span` (engine.hpp), down to absolute level `depth` (0: all the way).
  template <bool Mult>
  RunResult run_at(const TreeSpan& span, std::uint32_t depth, SolutionVisitor* visit,
                   const SolveLimits& limits, const Control* ctl) {
    RunResult r;
    SolveStats& st = r.st;
    const auto t0 = std::chrono::steady_clock::now();
    updates = 0;
    if (!span.to_end && !(span.begin < span.end)) return r;  // empty
    const std::span<const std::uint32_t> begin(span.begin);
    const std::int32_t begin_len = static_cast<std::int32_t>(begin.size());
    const std::int32_t limit = depth ? static_cast<std::int32_t>(depth) : INT32_MAX;
    SpanCursor cur;
    cur.start(span);
    bool replay = begin_len > 0;  // still descending along span.begin
    std::uint32_t poll = 0;
    std::int32_t level = 0;
    std::int32_t i, x, theta;
    try {
    enter:
      switch (cur.enter(
          frame.data(), level, replay, begin_len, limit, [&] { return rlink[0] == 0; }, ctl, poll,
          limits, r, [&](std::int64_t l) { return remaining(l); })) {
        case SpanCursor::Step::kBranch:
          goto branch;
        case SpanCursor::Step::kBackup:
          goto backup;
        case SpanCursor::Step::kStop:
          goto done;
        case SpanCursor::Step::kSolution:
          if (visit) {
            chosen.clear();
            for (std::int32_t l = 0; l < level; ++l)
              if (frame[l].x != frame[l].item) chosen.push_back(order[option_of(frame[l].x)]);
            if (!(*visit)(std::span<const OptionId>(chosen))) {
              SpanCursor::set_rest(r, frame.data(), level, true);
              st.complete = false;
              goto done;
            }
          }
          if (limits.max_solutions && st.solutions >= limits.max_solutions) {
            SpanCursor::set_rest(r, frame.data(), level, true);
            st.complete = false;
            goto done;
          }
          goto backup;
      }
    branch:
      i = choose<Mult>(theta);
      if (theta <= 0) goto backup;
      frame[level].item = i;
      frame[level].x = -1;
      frame[level].sib = 0;
      frame[level].kids = static_cast<std::uint32_t>(theta);
      cur.bound(frame.data(), level);
      if (!Mult || (room[i] == 1 && need[i] == 1)) {
        frame[level].mode = kPlain;
        cover(i);
      } else if (room[i] == 1) {
        frame[level].mode = kLast;
        cover(i);
      } else {
        frame[level].mode = kTweak;
        frame[level].tweak_base = tweak_top;
      }
      if (frame[level].end == 0) goto finish;  // no child in the span
      x = nd[i].down;

    try_x:
      // Frame `level` has item i; x is the next candidate (a node in column i, or i itself).
      switch (Mult ? frame[level].mode : kPlain) {
        case kPlain:
          if (x == i) {
            uncover(i);
            goto backup;
          }
          break;
        case kLast:
          if (x == i) {
            if (frame[level].x == i) {  // "none" was tried already
              uncover(i);
              goto backup;
            }
            frame[level].x = i;  // try "none of them"
            goto descend;
          }
          break;
        case kTweak:
          if (x != i && nd[i].top >= need[i]) {
            tweak(i, x);
            --room[i];
            set_need(i, need[i] - 1);
            break;
          }
          if (need[i] <= 0) {  // try "no more options of i"
            rlink[llink[i]] = rlink[i];
            llink[rlink[i]] = llink[i];
            frame[level].x = i;
            goto descend;
          }
          untweak(i, frame[level].tweak_base);
          goto backup;
      }
      frame[level].x = x;
      commit_others(x);
    descend:
      ++level;
      if (replay && frame[level - 1].sib < begin[level - 1]) goto skip;  // replaying
      goto enter;

    backup:
      replay = false;
      if (level == 0) goto done;
    skip:
      --level;
      ++frame[level].sib;
      i = frame[level].item;
      x = frame[level].x;
      if (Mult && x == i) {  // returning from "none", always the last child
        if (frame[level].mode == kLast) {
          uncover(i);
        } else {
          rlink[llink[i]] = i;
          llink[rlink[i]] = i;
          untweak(i, frame[level].tweak_base);
        }
        goto backup;
      }
      uncommit_others(x);
      if (Mult && frame[level].mode == kTweak) {
        ++room[i];
        set_need(i, need[i] + 1);
        x = nd[i].down;
      } else {
        x = nd[x].down;
      }
      if (frame[level].sib >= frame[level].end) goto finish;
      goto try_x;

    finish:  // frame `level` has no more children in the span
      if (Mult && frame[level].mode == kTweak) {
        untweak(i, frame[level].tweak_base);
      } else {
        uncover(i);
      }
      goto backup;
    } catch (...) {  // the visitor threw: leave the matrix as it was, for the next run
      unwind(level);
      throw;
    }

  done:
    unwind(level);
    st.updates = updates;
    st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }

  // Undoes frames level-1 .. 0 (each with its current child applied), leaving the matrix as it
  // was before the search: a run that stopped early or below a prefix leaves no trace.
  void unwind(std::int32_t level) {
    while (level > 0) {
      --level;
      const Frame& f = frame[level];
      const std::int32_t i = f.item;
      if (f.x == i) {  // the "none" child (multiplicities only)
        if (f.mode == kLast) {
          uncover(i);
        } else {
          rlink[llink[i]] = i;
          llink[rlink[i]] = i;
          untweak(i, f.tweak_base);
        }
        continue;
      }
      uncommit_others(f.x);
      if (multiplicities && f.mode == kTweak) {
        ++room[i];
        set_need(i, need[i] + 1);
        untweak(i, f.tweak_base);
      } else {
        uncover(i);
      }
    }
  }
};

}  // namespace cubex::detail
