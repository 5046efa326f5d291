// Checks shared by the engine tests: a search cut into spans, and run on threads, counts what
// one run counts; a span searched in pieces.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>

#include "core/engine.hpp"
#include "cubex/core/job.hpp"

namespace cubex::test {

// The search of `p` on the bitset backend, cut into 7, 300 and 3,000 units searched one after
// the other, and run on 4 threads, finds `solutions` solutions in `nodes` nodes each time (the
// engines tuned by `tuning`).
inline void expect_spans_and_threads_count(const Problem& p, std::uint64_t solutions,
                                           std::uint64_t nodes, const EngineTuning& tuning = {}) {
  SearchJob job(p, nullptr, Backend::kBitset, tuning);
  for (const std::uint32_t units : {7u, 300u, 3000u}) {
    std::uint64_t sol = 0, n = 0;
    for (const TreeSpan& s : job.cut_spans(units)) {
      const auto st = job.search(s);
      sol += st.solutions;
      n += st.nodes;
    }
    EXPECT_EQ(sol, solutions) << units << " units";
    EXPECT_EQ(n, nodes) << units << " units";
  }
  JobOptions opt;
  opt.threads = 4;
  const auto r = job.run(opt);
  EXPECT_EQ(r.counts.total, solutions);
  EXPECT_EQ(r.counts.nodes, nodes);
}

// A span searched by `e` in pieces of 1 to 7 nodes (each stopped by max_nodes and resumed from
// RunResult::rest): what the pieces found in all, and how many stopped at a depth of at least
// `deep`; `resumable` is false if a piece stopped without saying where the rest starts.
struct Pieces {
  std::uint64_t solutions = 0, nodes = 0, deep_stops = 0;
  bool resumable = true;
};

inline Pieces search_in_pieces(detail::Engine& e, TreeSpan piece, std::mt19937& rng,
                               std::size_t deep = 3) {
  Pieces p;
  SolveLimits lim;
  for (int guard = 0; guard < 1000000; ++guard) {
    lim.max_nodes = 1 + rng() % 7;
    const auto r = e.run(piece, 0, nullptr, lim, nullptr);
    p.solutions += r.st.solutions;
    p.nodes += r.st.nodes;
    if (r.st.complete) break;
    if (!r.has_rest) {
      p.resumable = false;
      break;
    }
    p.deep_stops += r.rest.size() >= deep;
    piece.begin = r.rest;
  }
  return p;
}

}  // namespace cubex::test
