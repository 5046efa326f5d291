// The search job (cubex/core/job.hpp): threads, spans split on demand, ordered output, limits,
// stop and resume, shards, failures, on both backends. Counts are checked against a one-thread
// Solver run (itself checked against brute force in test_core.cpp), node for node.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

#include "core/engine.hpp"
#include "cubex/core/exchange.hpp"
#include "cubex/core/job.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/knuth/format.hpp"
#include "test_util.hpp"
#include "sanitized.hpp"

using cubex::Backend;
using cubex::ItemId;
using cubex::JobOptions;
using cubex::JobResult;
using cubex::OptionId;
using cubex::Problem;
using cubex::SearchJob;
using cubex::TreeSpan;
using Solution = std::vector<OptionId>;

namespace {

// A random problem like test_core's, multiplicities included when `mult`.
Problem random_problem(std::mt19937& rng, bool mult, int max_options = 18) {
  Problem p;
  const int np = 2 + rng() % 6, ns = rng() % 3, no = 4 + rng() % (max_options - 3);
  std::vector<ItemId> prim, all;
  for (int i = 0; i < np; ++i) {
    std::uint32_t lo = 1, hi = 1;
    if (mult && rng() % 3 == 0) lo = rng() % 2, hi = lo + 1 + rng() % 2;
    prim.push_back(p.add_primary("p" + std::to_string(i), lo, hi));
    all.push_back(prim.back());
  }
  for (int i = 0; i < ns; ++i) all.push_back(p.add_secondary("s" + std::to_string(i)));
  for (int o = 0; o < no; ++o) {
    std::vector<ItemId> items{prim[rng() % prim.size()]};
    for (ItemId i : all)
      if (i != items[0] && rng() % 3 == 0) items.push_back(i);
    std::shuffle(items.begin(), items.end(), rng);
    p.add_option(items);
  }
  return p;
}

// The solutions of a one-thread Solver run, in its order.
std::vector<Solution> solver_order(const Problem& p, Backend b,
                                   const cubex::EngineTuning& tu = {}) {
  std::vector<Solution> out;
  cubex::Solver(p, b, tu).solve([&](std::span<const OptionId> s) {
    out.emplace_back(s.begin(), s.end());
    return true;
  });
  return out;
}

std::vector<Solution> job_order(const Problem& p, Backend b, unsigned threads,
                                std::size_t buffer = std::size_t{1} << 20) {
  SearchJob job(p, nullptr, b);
  JobOptions opt;
  opt.threads = threads;
  opt.ordered = true;
  opt.order_buffer = buffer;
  std::vector<Solution> out;
  auto each = [&](std::span<const OptionId> s, std::uint64_t orbit) {
    EXPECT_EQ(orbit, 1u);
    out.emplace_back(s.begin(), s.end());
    return true;
  };
  cubex::ClassVisitor v(each);
  const JobResult r = job.run(opt, &v);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.counts.unique, out.size());
  return out;
}

const Problem& xc(const std::string& name) {
  static std::map<std::string, cubex::KnuthFile> cache;
  auto it = cache.find(name);
  if (it == cache.end())
    it = cache.emplace(name, cubex::read_knuth_file(cubex::test::xc_file(name))).first;
  return it->second.problem;
}

std::vector<Backend> backends_for(const Problem& p) {
  std::vector<Backend> b{Backend::kLinks};
  if (cubex::detail::resolve_backend(p, Backend::kAuto) == Backend::kBitset) {
    b.push_back(Backend::kBitset);
  }
  return b;
}

std::string name_of(Backend b) {
  return b == Backend::kLinks ? "links" : "bitset";
}

// The tuning with which the bitset backend walks the plain tree (dancing links'): no pruning.
cubex::EngineTuning plain_tree() {
  cubex::EngineTuning tu;
  tu.prune = cubex::BitsetPrune::kOff;
  return tu;
}

}  // namespace

// Both backends walk one tree: the same solutions in the same order, the same nodes.
TEST(Job, BothBackendsWalkTheIdenticalTree) {
  // The plain tree: the bitset backend without pruning (test_core_prune.cpp tests pruning).
  const cubex::EngineTuning plain = plain_tree();
  std::mt19937 rng(1234);
  int compared = 0;
  for (int trial = 0; trial < cubex::test::scaled(300, 100); ++trial) {
    const Problem p = random_problem(rng, false);
    if (backends_for(p).size() < 2) continue;
    EXPECT_EQ(solver_order(p, Backend::kLinks), solver_order(p, Backend::kBitset, plain))
        << "trial " << trial << "\n"
        << cubex::to_knuth(p);
    EXPECT_EQ(cubex::Solver(p, Backend::kLinks).count().nodes,
              cubex::Solver(p, Backend::kBitset, plain).count().nodes);
    ++compared;
  }
  EXPECT_GT(compared, cubex::test::scaled(200, 60));
  for (const char* f : {"soma.dlx", "pent6x10_sym.dlx"}) {
    EXPECT_EQ(solver_order(xc(f), Backend::kLinks), solver_order(xc(f), Backend::kBitset, plain))
        << f;
  }
}

// Any number of threads lists exactly the one-thread run, in its order, on random problems with
// multiplicities and secondary items; a small buffer makes threads wait or hand over their work.
TEST(Job, OrderedOutputEqualsOneThreadForAnyThreadsAndBuffer) {
  std::mt19937 rng(99);
  for (int trial = 0; trial < 150; ++trial) {
    const Problem p = random_problem(rng, trial % 2 == 1);
    for (Backend b : backends_for(p)) {
      const auto want = solver_order(p, b);
      for (unsigned t : {1u, 2u, 4u, 8u}) {
        ASSERT_EQ(job_order(p, b, t, trial % 3 == 0 ? 1 : 1 << 20), want)
            << "trial " << trial << ", " << name_of(b) << ", " << t << " threads\n"
            << cubex::to_knuth(p);
      }
    }
  }
  // A real puzzle with many splits.
  for (Backend b : backends_for(xc("soma.dlx")))
    EXPECT_EQ(job_order(xc("soma.dlx"), b, 4, 64), solver_order(xc("soma.dlx"), b)) << name_of(b);
}

TEST(Job, CountsAndNodesAreTheSameFor1To8Threads) {
  for (const char* f : {"soma.dlx", "pent6x10_sym.dlx"}) {
    const Problem& p = xc(f);
    for (Backend b : backends_for(p)) {
      if (b == Backend::kLinks && std::string(f) != "soma.dlx") continue;  // slow; random below
      const auto one = cubex::Solver(p, b).count();
      for (unsigned t : {1u, 2u, 4u, 8u}) {
        SearchJob job(p, nullptr, b);
        JobOptions opt;
        opt.threads = t;
        const JobResult r = job.run(opt);
        EXPECT_TRUE(r.complete);
        EXPECT_EQ(r.counts.total, one.solutions) << f << " " << name_of(b) << " " << t;
        EXPECT_EQ(r.counts.nodes, one.nodes) << f << " " << name_of(b) << " " << t;
      }
    }
  }
  std::mt19937 rng(5);
  for (int trial = 0; trial < 100; ++trial) {
    const Problem p = random_problem(rng, true, 30);
    const auto one = cubex::Solver(p, Backend::kLinks).count();
    for (unsigned t : {2u, 3u}) {
      SearchJob job(p, nullptr, Backend::kLinks);
      JobOptions opt;
      opt.threads = t;
      const JobResult r = job.run(opt);
      EXPECT_EQ(r.counts.total, one.solutions) << trial;
      EXPECT_EQ(r.counts.nodes, one.nodes) << trial;
    }
  }
}

// The static cut tiles the tree: its spans, searched one by one, add up to the whole, node for
// node, for any number of units; shards add up too.
TEST(Job, CutSpansTileTheTree) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 120; ++trial) {
    const Problem p = random_problem(rng, trial % 2 == 0, 26);
    for (Backend b : backends_for(p)) {
      const auto one = cubex::Solver(p, b).count();
      SearchJob job(p, nullptr, b);
      for (std::uint32_t units : {1u, 3u, 17u, 200u}) {
        const auto starts = job.cut(units);
        ASSERT_FALSE(starts.empty());
        EXPECT_TRUE(starts.front().empty());  // the root
        EXPECT_LE(starts.size(), std::max<std::size_t>(units, 1));
        std::uint64_t sol = 0, nodes = 0;
        for (std::size_t k = 0; k < starts.size(); ++k) {
          TreeSpan s;
          s.begin = starts[k];
          if (k + 1 < starts.size()) {
            ASSERT_LT(starts[k], starts[k + 1]);
            s.end = starts[k + 1];
            s.to_end = false;
          }
          const auto st = job.search(s);
          sol += st.solutions;
          nodes += st.nodes;
        }
        EXPECT_EQ(sol, one.solutions) << "trial " << trial << " units " << units;
        EXPECT_EQ(nodes, one.nodes) << "trial " << trial << " units " << units;
      }
      std::uint64_t sum = 0, nodes = 0;
      for (std::uint32_t k = 0; k < 3; ++k) {
        JobOptions opt;
        opt.threads = 2;
        opt.shard_index = k;
        opt.shard_count = 3;
        opt.cut = 11;
        const JobResult r = job.run(opt);
        EXPECT_TRUE(r.complete);
        EXPECT_EQ(r.state.tree.shard_index, k);
        sum += r.counts.total;
        nodes += r.counts.nodes;
      }
      EXPECT_EQ(sum, one.solutions) << "trial " << trial;
      EXPECT_EQ(nodes, one.nodes) << "trial " << trial;
    }
  }
}

// Shards computed on different backends add up: the cut and the tree are the same (the plain
// tree: the bitset backend's pruned one is another tree, refused by name).
TEST(Job, ShardsFromDifferentBackendsAddUp) {
  const Problem& p = xc("pent6x10_sym.dlx");
  if (backends_for(p).size() < 2) GTEST_SKIP() << "no bitset backend on this CPU";
  std::uint64_t sum = 0;
  for (std::uint32_t k = 0; k < 4; ++k) {
    SearchJob job(p, nullptr, k % 2 ? Backend::kLinks : Backend::kBitset, plain_tree());
    JobOptions opt;
    opt.threads = 2;
    opt.shard_index = k;
    opt.shard_count = 4;
    const JobResult r = job.run(opt);
    sum += r.counts.total;
    EXPECT_EQ(r.state.tree.difference(SearchJob(p, nullptr, Backend::kLinks).identity(4096, k, 4)),
              "");
  }
  EXPECT_EQ(sum, 2339u);
}

// Stopped at random moments (by the visitor raising the stop flag), saved, resumed on either
// backend and any number of threads: the counts and nodes of one uninterrupted run.
TEST(Job, StopAndResumeGiveTheUninterruptedCounts) {
  const Problem& p = xc("soma.dlx");
  const auto one = cubex::Solver(p).count();
  std::mt19937 rng(3);
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<Backend> bs = backends_for(p);
    cubex::JobState state;
    bool have = false;
    std::uint64_t seen = 0;
    for (int round = 0; round < 40; ++round) {
      SearchJob job(p, nullptr, bs[(trial + round) % bs.size()]);
      std::atomic<bool> stop{false};
      const std::uint64_t at = 1 + rng() % 3000;
      std::uint64_t n = 0;
      auto each = [&](std::span<const OptionId>, std::uint64_t) {
        if (++n == at) stop = true;
        return true;
      };
      cubex::ClassVisitor v(each);
      JobOptions opt;
      opt.threads = 1 + (trial + round) % 4;
      opt.stop = &stop;
      if (have) opt.resume = &state;
      if (trial % 2 == 0) {  // counting: no visitor to stop it; stop at a progress tick
        const int at_tick = 1 + static_cast<int>(rng() % 3);
        int ticks = 0;
        opt.progress_seconds = 0.001;
        opt.on_progress = [&stop, at_tick, ticks](const cubex::JobProgress&) mutable {
          if (++ticks == at_tick) stop = true;
        };
      }
      const JobResult r = job.run(opt, trial % 2 ? &v : nullptr);
      state = r.state;
      have = true;
      seen = r.counts.total;
      if (r.complete) break;
      EXPECT_TRUE(r.stopped);
    }
    EXPECT_TRUE(state.complete()) << "trial " << trial;
    EXPECT_EQ(seen, one.solutions) << "trial " << trial;
    EXPECT_EQ(state.counts.total, one.solutions) << "trial " << trial;
    EXPECT_EQ(state.counts.nodes, one.nodes) << "trial " << trial;
  }
}

// Periodic checkpoints hold all the work done so far: resuming any of them gives the full count.
TEST(Job, EveryPeriodicCheckpointResumesExactly) {
  const Problem& p = xc("pent6x10_sym.dlx");
  const cubex::EngineTuning plain = plain_tree();  // (resumed on dancing links too)
  const auto one = cubex::Solver(p, Backend::kAuto, plain).count();
  std::vector<cubex::JobState> states;
  SearchJob job(p, nullptr, Backend::kAuto, plain);
  JobOptions opt;
  opt.threads = 2;
  opt.checkpoint_seconds = 0.02;
  opt.on_checkpoint = [&](const cubex::JobState& s) { states.push_back(s); };
  const JobResult r = job.run(opt);
  EXPECT_EQ(r.counts.total, one.solutions);
  ASSERT_GE(states.size(), 2u);
  EXPECT_TRUE(states.back().complete());
  double last = -1;
  for (std::size_t k = 0; k < states.size(); k += std::max<std::size_t>(1, states.size() / 5)) {
    EXPECT_GE(states[k].weight_done, last - 1e-9);  // progress only grows
    last = states[k].weight_done;
    JobOptions again;
    again.threads = 3;
    again.resume = &states[k];
    const JobResult rr =
        SearchJob(p, nullptr, k == 0 ? Backend::kLinks : Backend::kAuto, plain).run(again);
    EXPECT_EQ(rr.counts.total, one.solutions) << "checkpoint " << k;
    EXPECT_EQ(rr.counts.nodes, one.nodes) << "checkpoint " << k;
  }
}

TEST(Job, LimitGivesExactlyMinOfLimitAndTotal) {
  const Problem& p = xc("soma.dlx");
  for (Backend b : backends_for(p)) {
    const auto first = solver_order(p, b);
    for (unsigned t : {1u, 2u, 4u}) {
      for (std::uint64_t n : {1ull, 5ull, 777ull, 11520ull, 20000ull}) {
        SearchJob job(p, nullptr, b);
        JobOptions opt;
        opt.threads = t;
        opt.max_classes = n;
        const JobResult r = job.run(opt);
        EXPECT_EQ(r.counts.total, std::min<std::uint64_t>(n, 11520)) << t << " threads, " << n;
        // Listing, in order: the first n of a one-thread run.
        opt.ordered = true;
        std::vector<Solution> got;
        auto each = [&](std::span<const OptionId> s, std::uint64_t) {
          got.emplace_back(s.begin(), s.end());
          return true;
        };
        cubex::ClassVisitor v(each);
        const JobResult rl = job.run(opt, &v);
        EXPECT_EQ(rl.counts.total, std::min<std::uint64_t>(n, 11520));
        ASSERT_EQ(got.size(), std::min<std::uint64_t>(n, 11520));
        EXPECT_TRUE(std::equal(got.begin(), got.end(), first.begin()));
      }
    }
  }
}

// A limited run's state resumes to the rest: nothing is counted twice or lost.
TEST(Job, LimitedRunResumesToTheFullCount) {
  const Problem& p = xc("soma.dlx");
  SearchJob job(p);
  JobOptions opt;
  opt.threads = 4;
  opt.max_classes = 1000;
  const JobResult r = job.run(opt);
  EXPECT_EQ(r.counts.total, 1000u);
  JobOptions rest;
  rest.threads = 2;
  rest.resume = &r.state;
  EXPECT_EQ(job.run(rest).counts.total, 11520u);
}

// A throwing visitor ends the run with its exception; the state saved then resumes exactly, and
// the Solver stays correct after its visitor threw.
TEST(Job, ThrowingVisitorEndsTheRunCleanly) {
  const Problem& p = xc("soma.dlx");
  for (Backend b : backends_for(p)) {
    for (bool ordered : {false, true}) {
      SearchJob job(p, nullptr, b);
      cubex::JobState saved;
      JobOptions opt;
      opt.threads = 3;
      opt.ordered = ordered;
      opt.order_buffer = 16;
      opt.on_checkpoint = [&](const cubex::JobState& s) { saved = s; };
      std::atomic<int> n{0};
      auto each = [&](std::span<const OptionId>, std::uint64_t) -> bool {
        if (++n == 300) throw std::runtime_error("visitor failed");
        return true;
      };
      cubex::ClassVisitor v(each);
      EXPECT_THROW(job.run(opt, &v), std::runtime_error);
      EXPECT_FALSE(saved.complete());
      JobOptions rest;
      rest.resume = &saved;
      EXPECT_EQ(job.run(rest).counts.total, 11520u) << name_of(b);
    }

    cubex::Solver s(p, b);
    int k = 0;
    EXPECT_THROW(s.solve([&](std::span<const OptionId>) -> bool {
      if (++k == 10) throw std::runtime_error("x");
      return true;
    }),
                 std::runtime_error);
    EXPECT_EQ(s.count().solutions, 11520u) << name_of(b);
  }
  // The same on a tiny matrix with two solutions (the case that once gave 1).
  Problem t;
  const ItemId a = t.add_primary("a"), bb = t.add_primary("b");
  t.add_option({a});
  t.add_option({bb});
  t.add_option({a, bb});
  cubex::Solver s(t, Backend::kLinks);
  EXPECT_THROW(s.solve([](std::span<const OptionId>) -> bool { throw 1; }), int);
  EXPECT_EQ(s.count().solutions, 2u);
}

TEST(Job, ForeignStateIsRefused) {
  const Problem& p = xc("soma.dlx");
  SearchJob job(p);
  JobOptions opt;
  opt.max_classes = 10;
  const JobResult r = job.run(opt);
  SearchJob other(xc("pent6x10_sym.dlx"));
  JobOptions o2;
  o2.resume = &r.state;
  EXPECT_THROW(other.run(o2), std::invalid_argument);
  o2.shard_count = 2;  // another shard of the same tree
  EXPECT_THROW(job.run(o2), std::invalid_argument);
}

// Degenerate shapes: a chain of 10,000 single-option items, and one item with 100,000 options.
// Two threads do no more work than one (no repeated replays, no quadratic cut), and the cut
// for shards stays bounded.
TEST(Job, DegenerateTreesCostNoMoreWithTwoThreads) {
  Problem chain;
  for (int i = 0; i < 10000; ++i) {
    const ItemId it = chain.add_primary("i" + std::to_string(i));
    chain.add_option({it});
  }
  Problem wide;
  const ItemId one = wide.add_primary("x");
  for (int i = 0; i < 100000; ++i) wide.add_option({one});
  for (const Problem* p : {&chain, &wide}) {
    for (Backend b : {Backend::kLinks}) {
      SearchJob job(*p, nullptr, b);
      JobOptions o1;
      o1.threads = 1;
      const JobResult r1 = job.run(o1);
      JobOptions o2;
      o2.threads = 2;
      const JobResult r2 = job.run(o2);
      EXPECT_EQ(r1.counts.total, r2.counts.total);
      EXPECT_EQ(r1.counts.nodes, r2.counts.nodes);
      EXPECT_LE(r2.counts.updates, r1.counts.updates + r1.counts.updates / 4 + 1000);
      const auto starts = job.cut(4096);
      EXPECT_LE(starts.size(), 4096u);
      JobOptions shard;
      shard.shard_index = 1;
      shard.shard_count = 2;
      shard.threads = 2;
      const JobResult rs = job.run(shard);
      EXPECT_TRUE(rs.complete);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The WorkExchange/JobLink hooks (what the MPI mode builds on), in one process: jobs that start
// empty and pass spans through a shared pool count every node exactly once, and a held job's
// drained counts plus its spans resume to the full count.

namespace {

// Jobs linked through one pool: an idle job takes a span from the pool, or asks the others to
// give one (take(): a pending span, or a split by a running thread).
struct Pool {
  std::mutex mu;
  std::vector<TreeSpan> spans{TreeSpan{{}, {}, true, 1.0}};
  std::vector<char> idle, want;
  cubex::JobCounts done;
  std::uint64_t moved = 0;
  bool end = false;
};

class PoolExchange final : public cubex::WorkExchange {
 public:
  PoolExchange(Pool& pool, int me) : pool_(pool), me_(me) {}
  bool poll(cubex::JobLink& link) override {
    std::lock_guard<std::mutex> lock(pool_.mu);
    double w = 0;
    pool_.done += link.drain(w);
    if (pool_.end) return false;
    if (pool_.want[me_]) {
      TreeSpan s;
      if (link.take(s)) {
        pool_.spans.push_back(std::move(s));
        pool_.want[me_] = 0;
        ++pool_.moved;
      } else if (link.idle()) {
        pool_.want[me_] = 0;
      }
    }
    pool_.idle[me_] = link.idle();
    if (!pool_.idle[me_]) return true;
    if (!pool_.spans.empty()) {
      link.add(std::move(pool_.spans.back()));
      pool_.spans.pop_back();
      pool_.idle[me_] = 0;
      return true;
    }
    if (std::all_of(pool_.idle.begin(), pool_.idle.end(), [](char c) { return c != 0; })) {
      pool_.end = true;  // nothing anywhere: every job is idle and the pool is empty
      return false;
    }
    for (std::size_t k = 0; k < pool_.want.size(); ++k)
      if (static_cast<int>(k) != me_ && !pool_.idle[k]) pool_.want[k] = 1;
    return true;
  }

 private:
  Pool& pool_;
  int me_;
};

}  // namespace

TEST(Job, ExchangeBetweenJobsCountsEveryNodeOnce) {
  struct Case {
    const char* file;
    int jobs;
    unsigned threads;
    bool mixed;  // both backends in one search, on the plain tree they share; else the default
  };
  std::uint64_t moved = 0;
  for (const Case& c :
       {Case{"soma.dlx", 1, 1, true}, Case{"soma.dlx", 2, 1, true}, Case{"soma.dlx", 3, 2, true},
        Case{"pent6x10_sym.dlx", 2, 2, true}, Case{"pent6x10_sym.dlx", 3, 1, true},
        Case{"pent6x10_sym.dlx", 2, 1, false}, Case{"y25_o0.dlx", 3, 1, false}}) {
    const Problem& p = xc(c.file);
    const cubex::EngineTuning tu = c.mixed ? plain_tree() : cubex::EngineTuning{};
    const auto one = cubex::Solver(p, Backend::kAuto, tu).count();
    const int jobs = c.jobs;
    Pool pool;
    pool.idle.assign(jobs, 0);
    pool.want.assign(jobs, 0);
    std::vector<std::unique_ptr<SearchJob>> js;
    std::vector<std::unique_ptr<PoolExchange>> xs;
    const auto bs = c.mixed ? backends_for(p) : std::vector<Backend>{Backend::kAuto};
    for (int k = 0; k < jobs; ++k) {
      js.push_back(std::make_unique<SearchJob>(p, nullptr, bs[k % bs.size()], tu));
      xs.push_back(std::make_unique<PoolExchange>(pool, k));
    }
    std::vector<std::thread> run;
    for (int k = 0; k < jobs; ++k) {
      run.emplace_back([&, k] {
        JobOptions opt;
        opt.threads = c.threads;
        opt.exchange = xs[k].get();
        const JobResult r = js[k]->run(opt);
        EXPECT_TRUE(r.complete);  // nothing left here when the exchange ended it
      });
    }
    for (auto& t : run) t.join();
    const std::string what = std::string(c.file) + ", " + std::to_string(jobs) + " jobs of " +
                             std::to_string(c.threads) + " threads" + (c.mixed ? ", mixed" : "");
    EXPECT_EQ(pool.done.total, one.solutions) << what;
    EXPECT_EQ(pool.done.nodes, one.nodes) << what;
    EXPECT_TRUE(pool.spans.empty()) << what;
    if (jobs > 1) moved += pool.moved;
  }
  // Work went from job to job (not necessarily in each case: on a busy machine one job may
  // finish a small tree before another has polled).
  EXPECT_GT(moved, 0u);
}

// An exchange that holds the job after a few polls, then ends it: the counts drained and the
// spans held make a state that a plain job resumes to the full count. Done at random moments.
TEST(Job, HeldJobsSpansAndDrainedCountsResumeExactly) {
  const Problem& p = xc("pent6x10_sym.dlx");
  const auto one = cubex::Solver(p).count();
  std::mt19937 rng(11);
  for (int trial = 0; trial < 5; ++trial) {
    struct Holder final : cubex::WorkExchange {
      int polls = 0, hold_at = 0;
      bool given = false, holding = false;
      cubex::JobCounts done;
      std::vector<TreeSpan> spans;
      bool poll(cubex::JobLink& link) override {
        double w = 0;
        if (!given) {
          link.add(TreeSpan{{}, {}, true, 1.0});
          given = true;
        }
        if (++polls == hold_at) {
          link.hold();
          holding = true;
        }
        if (holding && link.held()) {
          done += link.drain(w);
          spans = link.spans();
          return false;
        }
        if (!holding) done += link.drain(w);
        return !(link.idle() && !holding);
      }
    } ex;
    ex.hold_at = 2 + static_cast<int>(rng() % 60);
    SearchJob job(p);
    JobOptions opt;
    opt.threads = 1 + trial % 3;
    opt.exchange = &ex;
    job.run(opt);
    cubex::JobState st;
    st.tree = job.identity();
    st.counts = ex.done;
    st.pending = ex.spans;
    JobOptions again;
    again.threads = 2;
    again.resume = &st;
    const JobResult r = job.run(again);
    EXPECT_TRUE(r.complete) << trial;
    EXPECT_EQ(r.counts.total, one.solutions)
        << "trial " << trial << ", held at poll " << ex.hold_at;
    EXPECT_EQ(r.counts.nodes, one.nodes) << "trial " << trial;
  }
}

// What an exchange cannot be combined with is refused.
TEST(Job, ExchangeRefusesResumeShardsOrderAndLimits) {
  const Problem& p = xc("soma.dlx");
  SearchJob job(p);
  struct Never final : cubex::WorkExchange {
    bool poll(cubex::JobLink&) override { return false; }
  } ex;
  cubex::JobState st;
  st.tree = job.identity();
  for (int k = 0; k < 4; ++k) {
    JobOptions opt;
    opt.exchange = &ex;
    if (k == 0) opt.resume = &st;
    if (k == 1) opt.shard_count = 2;
    if (k == 2) opt.ordered = true;
    if (k == 3) opt.max_classes = 3;
    EXPECT_THROW(job.run(opt), std::invalid_argument) << k;
  }
}
