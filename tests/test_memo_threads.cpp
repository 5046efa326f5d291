// Counting by memo on several threads (MemoLimits::threads, `--threads N` with the memo): the
// frontier of distinct states shared out to threads that count with one table. The counts on 2, 3
// and 8 threads equal the one-thread count and the search's on random matrices (secondary items,
// colours, multiplicities, each branching mode), on dominoes (against the transfer matrix, past
// 2^64 and past 2^128: the count starts again wider after an overflow) and up to symmetry; the
// budget is one for all threads; a stop mid-count ends every thread; the solve layer says how
// many threads counted and keeps refusing checkpoints and shards.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <csignal>
#include <random>
#include <thread>

#include "cubex/core/memo.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/solve.hpp"
#include "cubex/symmetry.hpp"
#include "memo_support.hpp"
#include "sanitized.hpp"
#include "test_util.hpp"

using cubex::ItemId;
using cubex::test::domino_tilings;
using cubex::test::dominoes;
using cubex::test::kSanitized;

namespace {

// A count on `threads` threads from the start (MemoLimits::alone 0: no count on the calling
// thread alone first, which would end these small counts on one thread).
cubex::MemoCount count_on(const cubex::Problem& p, unsigned threads,
                          std::span<const ItemId> order = {}, std::uint64_t alone = 0) {
  cubex::MemoLimits l;
  l.threads = threads;
  l.order = order;
  l.alone = alone;
  return cubex::memo_count(p, {}, l);
}

cubex::Result solve_by_memo(const cubex::Puzzle& p, unsigned threads, cubex::Symmetry symmetry) {
  cubex::Options o;
  o.count_by = cubex::CountBy::memo;
  o.symmetry = symmetry;
  o.threads = threads;
  return cubex::solve(p, o);
}

}  // namespace

// Random matrices large enough that their frontier holds many states: every thread count gives
// the search's count, with no order (fewest options first), a partial order and a full one (the
// sweep); most counts ran on the threads asked for.
TEST(MemoThreads, RandomMatricesCountAsOnOneThreadAndAsTheSearch) {
  std::mt19937 rng(4242);
  const int trials = kSanitized ? 12 : 60;
  int on_threads = 0, with_solutions = 0;
  for (int trial = 0; trial < trials; ++trial) {
    SCOPED_TRACE(trial);
    const int exact = 10 + trial % 5;
    const cubex::Problem p = cubex::test::random_problem(rng, exact, 40);
    const std::uint64_t want = cubex::Solver(p).count().solutions;
    with_solutions += want > 0;
    std::vector<ItemId> order;
    for (ItemId i = 0; i < static_cast<ItemId>(exact); ++i) order.push_back(i);
    std::shuffle(order.begin(), order.end(), rng);
    const std::span<const ItemId> orders[] = {{}, std::span<const ItemId>(order).first(3), order};
    for (const auto& ord : orders) {
      const cubex::MemoCount one = count_on(p, 1, ord);
      ASSERT_TRUE(one.complete) << one.why;
      EXPECT_EQ(one.count, want);
      for (unsigned t : {2u, 3u, 8u}) {
        SCOPED_TRACE(t);
        const cubex::MemoCount c = count_on(p, t, ord);
        ASSERT_TRUE(c.complete) << c.why;
        EXPECT_EQ(c.count, want);
        EXPECT_LE(c.threads, t);
        on_threads += c.threads == t;
      }
    }
  }
  EXPECT_GE(with_solutions, trials / 2);
  EXPECT_GE(on_threads, trials * 9 / 2);  // at least half of the 9 counts per trial
}

// Dominoes: the transfer matrix's counts on 2, 3 and 8 threads (at most as many as the
// frontier has states), from the start or after a count alone whose table seeds the threads';
// through the solve layer the same, and `search.threads` says how many counted.
TEST(MemoThreads, DominoesEqualTheTransferMatrix) {
  for (auto [r, c] : {std::pair{6, 6}, {8, 8}, {6, 11}, {4, 44}, {12, 12}}) {
    SCOPED_TRACE(std::to_string(r) + "x" + std::to_string(c));
    const auto p = dominoes(r, c);
    const std::vector<ItemId> order = p->memo_order();
    const cubex::BigCount want = domino_tilings(r, c);
    const cubex::MemoCount one = count_on(p->problem(), 1, order);
    for (unsigned t : {2u, 3u, 8u}) {
      SCOPED_TRACE(t);
      for (std::uint64_t alone : {0, 1000}) {
        const cubex::MemoCount m = count_on(p->problem(), t, order, alone);
        ASSERT_TRUE(m.complete) << m.why;
        EXPECT_EQ(m.count, want);
        // The threads meet the table's states, the first count's included: some are counted
        // twice (by two threads at once: about 1% on a quiet machine, more when the threads
        // are slowed unevenly, as under ThreadSanitizer with 8 threads on 2 cores), none again
        // (tables of their own would count most of them once per thread).
        EXPECT_LT(m.states, one.states + one.states / 2 + 100);
        if (m.states > alone) {
          EXPECT_GE(m.threads, 2u) << alone;  // fewer than asked where the frontier has fewer
          EXPECT_LE(m.threads, t);
        } else {
          EXPECT_EQ(m.threads, 1u);  // counted alone
        }
      }
      const cubex::Result s = solve_by_memo(*p, t, cubex::Symmetry::none);
      EXPECT_EQ(s.method, "memo");
      EXPECT_TRUE(s.counts.complete);
      EXPECT_EQ(s.counts.total, want);
      EXPECT_EQ(s.search["threads"], s.threads);
    }
  }
}

// 8 x 60 has about 2^189 tilings: more than the two words the count starts with, so the count of
// a frontier state overflows and the count starts again four words wide, still exact.
TEST(MemoThreads, AnOverflowStartsTheCountAgainWider) {
  const auto p = dominoes(8, 60);
  const std::vector<ItemId> order = p->memo_order();
  const cubex::BigCount want = domino_tilings(8, 60);
  ASSERT_GT(want.bit_width(), 160u);
  for (unsigned t : {1u, 2u, 3u}) {
    SCOPED_TRACE(t);
    const cubex::MemoCount c = count_on(p->problem(), t, order);
    ASSERT_TRUE(c.complete) << c.why;
    EXPECT_EQ(c.count, want);
    EXPECT_EQ(c.value_words, 4u);
  }
}

// Up to the rectangle's symmetries (Burnside, and the symmetric classes both listed and counted
// by Möbius inversion): the same on threads as on one, and as the search's.
TEST(MemoThreads, UniqueAndSymmetricCountsAsOnOneThread) {
  for (auto [r, c] : {std::pair{4, 6}, {6, 6}, {8, 8}}) {
    SCOPED_TRACE(std::to_string(r) + "x" + std::to_string(c));
    const auto p = dominoes(r, c);
    const cubex::Result one = solve_by_memo(*p, 1, cubex::Symmetry::automatic);
    ASSERT_EQ(one.method, "memo");
    if (r * c <= 36) {
      cubex::Options s;
      s.count_by = cubex::CountBy::search;
      s.threads = 1;
      const cubex::Result b = cubex::solve(*p, s);
      EXPECT_EQ(one.counts.unique, b.counts.unique);
      EXPECT_EQ(one.counts.symmetric, b.counts.symmetric);
    }
    for (unsigned t : {2u, 3u, 8u}) {
      SCOPED_TRACE(t);
      const cubex::Result m = solve_by_memo(*p, t, cubex::Symmetry::automatic);
      EXPECT_EQ(m.method, "memo");
      EXPECT_EQ(m.counts.total, one.counts.total);
      EXPECT_EQ(m.counts.unique, one.counts.unique);
      EXPECT_EQ(m.counts.symmetric, one.counts.symmetric);
    }
    // The symmetric classes counted by Möbius inversion (max_fixed 0) on threads.
    const std::vector<ItemId> order = p->memo_order();
    cubex::MemoLimits lim;
    lim.order = order;
    lim.threads = 3;
    lim.alone = 0;
    const cubex::SymmetricSolver sym(p->problem(),
                                     p->symmetry_group(cubex::SymmetryMode::kAuto).group);
    const cubex::MemoClasses counted = cubex::count_classes_by_memo(sym, lim, 0);
    ASSERT_TRUE(counted.complete) << counted.why;
    EXPECT_EQ(counted.unique, one.counts.unique);
    EXPECT_EQ(counted.stats.symmetric, one.counts.symmetric);
    EXPECT_EQ(counted.threads, 3u);
  }
}

// One budget for all threads: a table that would outgrow it ends every thread, says so, and the
// solve layer counts by search instead.
TEST(MemoThreads, TheBudgetIsSharedAndAFullTableFallsBack) {
  const auto p = dominoes(10, 10);  // 15,000 sub-problems or so
  const std::vector<ItemId> order = p->memo_order();
  cubex::MemoLimits l;
  l.order = order;
  l.threads = 3;
  l.alone = 0;
  l.max_bytes = 200 << 10;  // the first table (160 KiB) fits, a second (320 KiB more) does not
  const cubex::MemoCount c = cubex::memo_count(p->problem(), {}, l);
  EXPECT_FALSE(c.complete);
  EXPECT_NE(c.why.find("budget"), std::string::npos) << c.why;
  EXPECT_LE(c.bytes, l.max_bytes);
  cubex::Options o;
  o.count_by = cubex::CountBy::memo;
  o.symmetry = cubex::Symmetry::none;
  o.memo_budget = 4096;
  o.threads = 2;
  const cubex::Result r = cubex::solve(*dominoes(6, 8), o);
  EXPECT_EQ(r.method, "search");
  EXPECT_EQ(r.counts.total, domino_tilings(6, 8));
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.back().find("budget"), std::string::npos) << r.notes.back();
}

// Progress is reported on the calling thread, with states that never fall and a share of the
// frontier counted in 0..1 that never falls; the stop flag set from it ends every thread: the
// count is incomplete, says "stopped", and no thread is left running (the call returns).
TEST(MemoThreads, ProgressOnTheCallingThreadAndAStopEndsEveryThread) {
  const auto p = dominoes(16, 16);  // seconds of counting: the first report comes long before
  const std::vector<ItemId> order = p->memo_order();
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    std::atomic<bool> stop{false};
    std::vector<cubex::MemoProgress> seen;
    const std::thread::id caller = std::this_thread::get_id();
    bool elsewhere = false;
    cubex::MemoLimits l;
    l.order = order;
    l.threads = 3;
    l.alone = round == 2 ? 1000 : 0;  // the last round starts on the calling thread alone
    l.stop = &stop;
    l.on_progress = [&](const cubex::MemoProgress& m) {
      elsewhere = elsewhere || std::this_thread::get_id() != caller;
      seen.push_back(m);
      stop = true;
    };
    const cubex::MemoCount c = cubex::memo_count(p->problem(), {}, l);
    EXPECT_FALSE(elsewhere);
    for (std::size_t k = 1; k < seen.size(); ++k) {
      EXPECT_GE(seen[k].states, seen[k - 1].states);
      EXPECT_GE(seen[k].fraction, seen[k - 1].fraction);
    }
    for (const auto& m : seen) EXPECT_LE(m.fraction, 1.0);
    ASSERT_FALSE(seen.empty());
    EXPECT_FALSE(c.complete);
    EXPECT_EQ(c.why, "stopped");
  }
  // Set before the count: nothing counted.
  std::atomic<bool> stop{true};
  cubex::MemoLimits l;
  l.order = order;
  l.threads = 2;
  l.stop = &stop;
  const cubex::MemoCount c = cubex::memo_count(p->problem(), {}, l);
  EXPECT_FALSE(c.complete);
  EXPECT_EQ(c.why, "stopped");
}

// The solve layer: a stop mid-count with threads gives an interrupted result; `auto` picks the
// memo with --threads as without; checkpoints, shards and backends stay refused with the memo.
TEST(MemoThreads, TheSolveLayerRunsTheMemoOnThreadsAndRefusesCheckpoints) {
  const auto p = dominoes(8, 8);
  cubex::Options o;
  o.symmetry = cubex::Symmetry::none;
  o.threads = 2;
  const cubex::Result a = cubex::solve(*p, o);
  EXPECT_EQ(a.method, "memo");
  EXPECT_EQ(a.counts.total, 12'988'816u);
  EXPECT_EQ(a.search["threads"], a.threads);  // 1: a count this small runs alone

  const auto big = dominoes(16, 16);
  std::atomic<bool> stop{false};
  cubex::Options s;
  s.count_by = cubex::CountBy::memo;
  s.symmetry = cubex::Symmetry::none;
  s.threads = 2;
  s.stop = &stop;
  s.progress_seconds = 0;
  s.on_progress = [&](const auto&) { stop = true; };
  const cubex::Result r = cubex::solve(*big, s);
  EXPECT_EQ(r.method, "memo");
  EXPECT_TRUE(r.interrupted);
  EXPECT_FALSE(r.counts.complete);
  EXPECT_EQ(r.search["complete"], false);

  cubex::Options c;
  c.count_by = cubex::CountBy::memo;
  c.threads = 2;
  c.shard_index = 1;
  c.shard_count = 2;
  try {
    cubex::solve(*p, c);
    ADD_FAILURE() << "--shard with --count-by memo was accepted";
  } catch (const cubex::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("without checkpoints"), std::string::npos) << e.what();
  }
}

// The sub-problems of the last progress line in `log` ("progress: ... nodes 1,234 ..."), 0 if none.
std::uint64_t last_progress_nodes(const std::string& log) {
  const std::size_t at = log.rfind("  nodes ");
  std::uint64_t n = 0;
  if (at == std::string::npos) return n;
  for (std::size_t i = at + 8; i < log.size() && (std::isdigit(log[i]) || log[i] == ','); ++i) {
    if (log[i] != ',') n = n * 10 + static_cast<std::uint64_t>(log[i] - '0');
  }
  return n;
}

// The command line: SIGINT once the count by memo has reported progress past the 262,144
// sub-problems counted alone (so mid-count, on 3 threads; under a sanitizer at its first report,
// which takes long enough) ends it with exit status 130 and a result marked interrupted, or,
// where the count ended first, with the full count; never a hang or a crash.
TEST(MemoThreads, SigintMidCountExits130) {
  {
    cubex::test::TempDir dir;
    const std::string json = dir / "out.json", log = dir / "log";
    const pid_t pid = cubex::test::spawn_cubex(
        {"solve", cubex::test::source_file("puzzles/memo/dominoes-16x16.json"), "--count-by",
         "memo", "--threads", "3", "--symmetry", "none", "--progress=0.01", "--json", json},
        log);
    ASSERT_GT(pid, 0);
    int status = 0;
    bool ended = false;
    const std::uint64_t past = kSanitized ? 0 : 270'000;
    for (int k = 0; k < 120000 && !ended; ++k) {  // up to two minutes
      if (last_progress_nodes(cubex::test::slurp(log)) > past) break;
      ended = ::waitpid(pid, &status, WNOHANG) == pid;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (!ended) {
      ::kill(pid, SIGINT);
      ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    }
    ASSERT_TRUE(WIFEXITED(status)) << cubex::test::slurp(log);
    const nlohmann::json out = nlohmann::json::parse(cubex::test::slurp(json));
    EXPECT_EQ(out["search"]["backend"], "memo");
    if (!kSanitized) {
      EXPECT_EQ(out["search"]["threads"], 3);  // (stopped on the threads)
    }
    if (WEXITSTATUS(status) == 130) {
      EXPECT_TRUE(out["stats"]["interrupted"].get<bool>());
      EXPECT_FALSE(out["search"]["complete"].get<bool>());
    } else {
      ASSERT_EQ(WEXITSTATUS(status), 0) << cubex::test::slurp(log);
      EXPECT_EQ(out["counts"]["total"], domino_tilings(16, 16).to_string());
    }
  }
}

// A bound on the sub-problems (auto's race against the search) counts those of all threads
// together, the count alone's included: past it the count ends, incomplete, on every thread.
TEST(MemoThreads, MaxStatesBoundsAllThreadsTogether) {
  const auto p = dominoes(12, 12);  // 52,352 sub-problems
  const std::vector<ItemId> order = p->memo_order();
  for (std::uint64_t alone : {0, 1000}) {
    SCOPED_TRACE(alone);
    cubex::MemoLimits l;
    l.order = order;
    l.threads = 3;
    l.alone = alone;
    l.max_states = 20'000;
    const cubex::MemoCount c = cubex::memo_count(p->problem(), {}, l);
    EXPECT_FALSE(c.complete);
    EXPECT_NE(c.why.find("more than 20000 sub-problems"), std::string::npos) << c.why;
    EXPECT_GT(c.states, 20'000u);
    EXPECT_LT(c.states, 20'000u + 3 * 4096 + 1000);
  }
}
