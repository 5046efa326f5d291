// A check shared by the engine tests: a search cut into spans, and run on threads, counts what
// one run counts.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "cubex/core/job.hpp"

namespace cubex::test {

// The search of `p` on the bitset backend, cut into 7, 300 and 3,000 units searched one after
// the other, and run on 4 threads, finds `solutions` solutions in `nodes` nodes each time.
inline void expect_spans_and_threads_count(const Problem& p, std::uint64_t solutions,
                                           std::uint64_t nodes) {
  SearchJob job(p, nullptr, Backend::kBitset);
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

}  // namespace cubex::test
