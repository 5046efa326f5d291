// `cubex solve` with --threads, --shard, --checkpoint/--resume (killed at random points), and
// `cubex merge`, end to end.
#include <fcntl.h>
#include <gtest/gtest.h>

#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fstream>

#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "cubex/solve.hpp"
#include "test_util.hpp"

extern char** environ;

using cubex::test::run_cubex;
using cubex::test::TempDir;

namespace {

int wait_status(pid_t pid, bool* signalled = nullptr) {
  int st = 0;
  waitpid(pid, &st, 0);
  if (signalled) *signalled = WIFSIGNALED(st);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string xc(const std::string& name) {
  return cubex::test::xc_file(name);
}

// Runs `cubex ARGS...` with stderr on a pseudo-terminal and stdout to /dev/null; returns what
// the terminal received.
std::string stderr_on_terminal(const std::vector<std::string>& args) {
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  EXPECT_GE(master, 0);
  EXPECT_EQ(grantpt(master), 0);
  EXPECT_EQ(unlockpt(master), 0);
  const std::string slave = ptsname(master);
  std::vector<std::string> argv{CUBEX_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, slave.c_str(), O_RDWR | O_NOCTTY, 0);
  pid_t pid = -1;
  EXPECT_EQ(posix_spawn(&pid, CUBEX_EXE, &fa, nullptr, cargv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&fa);
  std::string got;
  char buf[4096];
  for (;;) {  // until the child has closed the terminal (EIO)
    const ssize_t n = read(master, buf, sizeof buf);
    if (n <= 0) break;
    got.append(buf, static_cast<std::size_t>(n));
  }
  EXPECT_EQ(wait_status(pid), 0) << got;
  close(master);
  return got;
}

}  // namespace

TEST(SearchCli, ThreadCountsGiveTheSameCount) {
  for (const char* t : {"1", "2", "4"}) {
    auto r = run_cubex("solve '" + xc("pent6x10_sym.dlx") + "' --threads " + t);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("solutions: 2,339\n"), std::string::npos) << t << "\n" << r.output;
    // stderr is a pipe here, not a terminal: no progress line.
    EXPECT_EQ(r.output.find('\r'), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("units "), std::string::npos) << r.output;
  }
}

TEST(SearchCli, ShardsMergedEqualTheWhole) {
  TempDir dir;
  std::string files;
  std::uint64_t sum = 0;
  for (int k = 0; k < 3; ++k) {
    const std::string out = dir / ("s" + std::to_string(k) + ".json");
    auto r = run_cubex("solve '" + xc("soma.dlx") + "' --threads 2 --shard " + std::to_string(k) +
                       "/3 --json '" + out + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    auto j = nlohmann::json::parse(cubex::test::slurp(out));
    EXPECT_EQ(j["search"]["shard"], std::to_string(k) + "/3");
    EXPECT_TRUE(j["stats"]["complete"].get<bool>());
    const auto part = j["counts"]["total"].get<std::uint64_t>();
    EXPECT_GT(part, 0u);
    EXPECT_LT(part, 11520u);
    sum += part;
    files += " '" + out + "'";
  }
  EXPECT_EQ(sum, 11520u);
  auto m = run_cubex("merge" + files + " --json '" + (dir / "m.json") + "'");
  ASSERT_EQ(m.status, 0) << m.output;
  EXPECT_NE(m.output.find("solutions: 11,520\n"), std::string::npos) << m.output;
  EXPECT_NE(m.output.find("all there and finished"), std::string::npos) << m.output;
  auto mj = nlohmann::json::parse(cubex::test::slurp(dir / "m.json"));
  EXPECT_EQ(mj["schema"], "cubex-merge/1");
  EXPECT_EQ(mj["counts"]["total"], 11520);
  EXPECT_TRUE(mj["complete"].get<bool>());

  // Two of three shards: refused with exit 3, naming the missing one, and nothing written.
  auto part = run_cubex("merge '" + (dir / "s0.json") + "' '" + (dir / "s2.json") + "' --json '" +
                        (dir / "partial.json") + "'");
  EXPECT_EQ(part.status, 3);
  EXPECT_NE(part.output.find("shard 1/3 is missing"), std::string::npos) << part.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "partial.json"));
  // The same shard twice, or a shard of another puzzle: refused.
  auto twice = run_cubex("merge '" + (dir / "s0.json") + "' '" + (dir / "s0.json") + "' '" +
                         (dir / "s1.json") + "' '" + (dir / "s2.json") + "'");
  EXPECT_EQ(twice.status, 3);
  EXPECT_NE(twice.output.find("shard 0/3 again"), std::string::npos) << twice.output;
  ASSERT_EQ(run_cubex("solve '" + xc("l9.dlx") + "' --shard 1/3 --json '" + (dir / "l9.json") + "'")
                .status,
            0);
  auto other = run_cubex("merge '" + (dir / "s0.json") + "' '" + (dir / "l9.json") + "'");
  EXPECT_EQ(other.status, 3);
  EXPECT_NE(other.output.find("from another search"), std::string::npos) << other.output;
  // An unfinished shard (stopped at a limit) is refused too.
  ASSERT_EQ(run_cubex("solve '" + xc("soma.dlx") + "' --shard 1/3 --limit 3 --json '" +
                      (dir / "u1.json") + "'")
                .status,
            0);
  auto unfinished = run_cubex("merge '" + (dir / "s0.json") + "' '" + (dir / "u1.json") + "' '" +
                              (dir / "s2.json") + "'");
  EXPECT_EQ(unfinished.status, 3);
  EXPECT_NE(unfinished.output.find("is unfinished"), std::string::npos) << unfinished.output;

  // Counts whose sum would wrap around 64 bits: refused, not wrapped.
  auto big = nlohmann::json::parse(cubex::test::slurp(dir / "s1.json"));
  big["counts"]["total"] = std::uint64_t(-1) - 5;
  std::ofstream(dir / "big.json") << big.dump();
  auto wrap = run_cubex("merge '" + (dir / "s0.json") + "' '" + (dir / "big.json") + "'");
  EXPECT_EQ(wrap.status, 2);
  EXPECT_NE(wrap.output.find("counts.total: expected counts whose sum fits in 64 bits"),
            std::string::npos)
      << wrap.output;
}

// The process is stopped by SIGINT or SIGTERM at a random moment; it saves its checkpoint and
// exits 130; --resume finishes the count, which equals an uninterrupted run's. (pent6x10: a
// quarter of a second with one thread on a quiet machine, so a late signal finds it finished:
// later rounds signal sooner, until two runs were interrupted.)
TEST(SearchCli, InterruptedAtRandomAndResumedGivesTheFullCount) {
  std::random_device rd;
  const unsigned seed = rd();
  std::mt19937 rng(seed);
  int interrupted = 0;
  for (int round = 0; round < 8 && interrupted < 2; ++round) {
    const int sig = round % 2 ? SIGTERM : SIGINT;
    TempDir dir;
    const std::string ck = dir / "ck.json";
    const int delay_ms = 30 + static_cast<int>(rng() % (round < 2 ? 400 : 120));
    SCOPED_TRACE("seed " + std::to_string(seed) + ", signal " + std::to_string(sig) + " after " +
                 std::to_string(delay_ms) + " ms");
    const pid_t pid = cubex::test::spawn_cubex(
        {"solve", xc("pent6x10.dlx"), "--threads", "1", "--checkpoint", ck}, dir / "log");
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    kill(pid, sig);
    bool signalled = false;
    const int status = wait_status(pid, &signalled);
    const std::string log = cubex::test::slurp(dir / "log");
    if (signalled) continue;  // killed before its handlers were installed: nothing to resume
    if (status == 0) {        // finished before the signal
      EXPECT_NE(log.find("solutions: 9,356\n"), std::string::npos) << log;
      continue;
    }
    ASSERT_EQ(status, 130) << log;
    ++interrupted;
    EXPECT_NE(log.find("(interrupted: counted so far)"), std::string::npos) << log;
    auto saved = nlohmann::json::parse(cubex::test::slurp(ck));
    EXPECT_FALSE(saved["complete"].get<bool>());
    EXPECT_LE(saved["counts"]["total"].get<std::uint64_t>(), 9356u);
    // It says where it saved and how to go on; the resumed run says what it resumes.
    EXPECT_NE(log.find("saved the search in " + ck + "; go on with: cubex solve " +
                       xc("pent6x10.dlx") + " --resume " + ck + "\n"),
              std::string::npos)
        << log;
    auto r = run_cubex("solve '" + xc("pent6x10.dlx") + "' --threads 2 --resume '" + ck + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("solutions: 9,356\n"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("resuming the search saved in " + ck + " (--symmetry auto): "),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find(" so far\n"), std::string::npos) << r.output;
    auto fin = nlohmann::json::parse(cubex::test::slurp(ck));
    EXPECT_TRUE(fin["complete"].get<bool>());
    EXPECT_EQ(fin["counts"]["total"], 9356);
    EXPECT_TRUE(fin["pending"].empty());
  }
  EXPECT_GE(interrupted, 1) << "seed " << seed;
}

// Killed without warning (SIGKILL): the periodic checkpoint is whole, and resuming from it
// gives the full count.
TEST(SearchCli, PeriodicCheckpointSurvivesSigkill) {
  TempDir dir;
  const std::string ck = dir / "ck.json";
  const pid_t pid = cubex::test::spawn_cubex({"solve", xc("pent6x10.dlx"), "--threads", "1",
                                              "--checkpoint", ck, "--checkpoint-every", "0.02"},
                                             dir / "log");
  // Kill it once a checkpoint was written (and a little later, mid-way through the next ones).
  for (int k = 0; k < 400 && !std::filesystem::exists(ck); ++k)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  kill(pid, SIGKILL);
  wait_status(pid);
  ASSERT_TRUE(std::filesystem::exists(ck)) << cubex::test::slurp(dir / "log");
  auto r = run_cubex("solve '" + xc("pent6x10.dlx") + "' --resume '" + ck + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("solutions: 9,356\n"), std::string::npos) << r.output;
}

TEST(SearchCli, BadShardAndForeignCheckpointAreRefused) {
  TempDir dir;
  auto r = run_cubex("solve '" + xc("l9.dlx") + "' --shard 3/3");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("expected --shard K/N with 0 <= K < N, found '3/3'"), std::string::npos)
      << r.output;
  r = run_cubex("solve '" + xc("l9.dlx") + "' --shard x");
  EXPECT_EQ(r.status, 2);

  const std::string ck = dir / "l9.ck";
  ASSERT_EQ(run_cubex("solve '" + xc("l9.dlx") + "' --checkpoint '" + ck + "'").status, 0);
  r = run_cubex("solve '" + xc("soma.dlx") + "' --resume '" + ck + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("tree: the checkpoint belongs to another search: puzzle: expected"),
            std::string::npos)
      << r.output;
  const std::string junk = dir.file("junk.ck", "{\"cubex\": \"checkpoint\"}");
  r = run_cubex("solve '" + xc("l9.dlx") + "' --resume '" + junk + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("junk.ck: version: expected this key"), std::string::npos) << r.output;
}

// A backend that cannot take the problem is bad input (exit 2, saying why), not an internal
// error: 30,000 options of an item with a multiplicity are more than the bitset engine takes.
TEST(SearchCli, BackendThatCannotTakeTheProblemIsRefused) {
  TempDir dir;
  std::string text = "0:2|A B\nB\n";
  for (int k = 0; k < 30000; ++k) text += "A\n";
  const std::string f = dir.file("wide.dlx", text);
  auto r = run_cubex("solve '" + f + "' --backend bitset --quiet --threads 1");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--backend: the bitset backend needs"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("internal error"), std::string::npos) << r.output;
  // Conway's puzzle (multiplicities) is taken, with the count of the links backend.
  r = run_cubex("solve '" + xc("conway_mult.dlx") + "' --backend bitset --quiet --limit 5");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("solutions: 5"), std::string::npos) << r.output;
}

// Solutions are listed in the order of a one-thread run whatever the number of threads, and
// --limit keeps the same first ones.
TEST(SearchCli, SolutionsComeInTheSameOrderForAnyNumberOfThreads) {
  auto solutions_part = [](const std::string& out) { return out.substr(0, out.find("\nnodes:")); };
  for (const char* extra : {"--all", "--all --limit 25"}) {
    const std::string base = "solve '" + xc("soma_sym.dlx") + "' " + extra + " --threads ";
    auto one = run_cubex(base + "1");
    ASSERT_EQ(one.status, 0) << one.output;
    EXPECT_NE(one.output.find("Solution 25:"), std::string::npos);
    for (const char* t : {"2", "4"}) {
      auto r = run_cubex(base + t);
      ASSERT_EQ(r.status, 0) << r.output;
      EXPECT_EQ(solutions_part(r.output), solutions_part(one.output)) << extra << ", " << t;
    }
  }
}

// Checkpoints of shards merge like their --json results.
TEST(SearchCli, ShardCheckpointsMerge) {
  TempDir dir;
  for (int k = 0; k < 2; ++k) {
    auto r = run_cubex("solve '" + xc("soma.dlx") + "' --shard " + std::to_string(k) +
                       "/2 --checkpoint '" + (dir / ("c" + std::to_string(k))) + "'");
    ASSERT_EQ(r.status, 0) << r.output;
  }
  auto m = run_cubex("merge '" + (dir / "c0") + "' '" + (dir / "c1") + "'");
  ASSERT_EQ(m.status, 0) << m.output;
  EXPECT_NE(m.output.find("solutions: 11,520\n"), std::string::npos) << m.output;
  EXPECT_NE(m.output.find("all there and finished"), std::string::npos) << m.output;
  // Resuming shard 0's checkpoint as shard 1 is refused.
  auto r = run_cubex("solve '" + xc("soma.dlx") + "' --shard 1/2 --resume '" + (dir / "c0") + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("differs from the checkpoint's shard 0/2"), std::string::npos)
      << r.output;
}

// A checkpoint edited by hand, of another version, or with a key twice is refused (exit 2).
TEST(SearchCli, TamperedCheckpointsAreRefused) {
  TempDir dir;
  const std::string ck = dir / "ck.json";
  ASSERT_EQ(
      run_cubex("solve '" + xc("soma.dlx") + "' --limit 100 --checkpoint '" + ck + "'").status, 0);
  const auto good = nlohmann::json::parse(cubex::test::slurp(ck));
  EXPECT_EQ(good["version"], 2);
  EXPECT_EQ(good["schema"], "cubex-checkpoint/1");
  auto resume = [&](const nlohmann::json& j, const std::string& name) {
    std::ofstream(dir / name) << j.dump();
    return run_cubex("solve '" + xc("soma.dlx") + "' --resume '" + (dir / name) + "'");
  };
  auto more = good;
  more["counts"]["total"] = good["counts"]["total"].get<std::uint64_t>() + 1000;
  auto r = resume(more, "more.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("checksum: the checkpoint was changed"), std::string::npos) << r.output;
  auto wrap = good;
  wrap["counts"]["total"] = std::uint64_t(-1);
  EXPECT_EQ(resume(wrap, "wrap.json").status, 2);
  auto span = good;
  span["pending"][0]["begin"] = nlohmann::json::array({0});
  EXPECT_EQ(resume(span, "span.json").status, 2);
  auto old = good;
  old["version"] = 1;
  r = resume(old, "old.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("version: expected 2"), std::string::npos) << r.output;
  std::string text = cubex::test::slurp(ck);
  text.insert(text.find('{') + 1, "\"version\":2,");
  std::ofstream(dir / "dup.json") << text;
  r = run_cubex("solve '" + xc("soma.dlx") + "' --resume '" + (dir / "dup.json") + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("\"version\" twice"), std::string::npos) << r.output;
  // The untouched one resumes to the full count.
  r = run_cubex("solve '" + xc("soma.dlx") + "' --resume '" + ck + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("solutions: 11,520\n"), std::string::npos) << r.output;
}

// --resume takes the symmetry mode and backend from the checkpoint; a conflicting flag is an
// error; another backend may be asked for explicitly (both walk the same tree).
TEST(SearchCli, ResumeTakesItsSettingsFromTheCheckpoint) {
  TempDir dir;
  const std::string ck = dir / "ck.json";
  const std::string soma = cubex::test::source_file("puzzles/voxel/soma.json");
  ASSERT_EQ(run_cubex("solve '" + soma + "' --symmetry none --limit 500 --checkpoint '" + ck + "'")
                .status,
            0);
  auto r = run_cubex("solve '" + soma + "' --resume '" + ck + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("solutions: 11,520\n"), std::string::npos) << r.output;
  // (the checkpoint's mode: no classes)
  EXPECT_NE(r.output.find("unique: 11,520 (--symmetry none"), std::string::npos) << r.output;
  ASSERT_EQ(run_cubex("solve '" + soma + "' --symmetry none --limit 500 --checkpoint '" + ck + "'")
                .status,
            0);
  r = run_cubex("solve '" + soma + "' --symmetry auto --resume '" + ck + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--symmetry auto differs from the checkpoint's 'none'"),
            std::string::npos)
      << r.output;
  r = run_cubex("solve '" + soma + "' --backend links --threads 3 --resume '" + ck + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("solutions: 11,520\n"), std::string::npos) << r.output;
  r = run_cubex("solve '" + soma + "' --backend fast");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("expected --backend auto, links or bitset"), std::string::npos);
}

// Killed (SIGKILL) at random moments on either backend, resumed on the other: the full count.
// (Conway's puzzle with a multiplicity item: both backends walk the same tree there; on plain
// exact cover from 1024 options the bitset backend prunes, another tree, refused by name.)
TEST(SearchCli, SigkillAndResumeOnEitherBackend) {
  std::random_device rd;
  const unsigned seed = rd();
  std::mt19937 rng(seed);
  for (int round = 0; round < 2; ++round) {
    TempDir dir;
    const std::string ck = dir / "ck.json";
    const char* first = round ? "links" : "bitset";
    const char* second = round ? "bitset" : "links";
    SCOPED_TRACE("seed " + std::to_string(seed) + ", " + first + " then " + second);
    const pid_t pid =
        cubex::test::spawn_cubex({"solve", xc("conway_mult.dlx"), "--threads", "1", "--backend",
                                  first, "--checkpoint", ck, "--checkpoint-every", "0.05"},
                                 dir / "log");
    std::this_thread::sleep_for(std::chrono::milliseconds(100 + rng() % 400));
    kill(pid, SIGKILL);
    wait_status(pid);
    if (!std::filesystem::exists(ck)) continue;  // killed before the first checkpoint
    auto r = run_cubex("solve '" + xc("conway_mult.dlx") + "' --backend " + second + " --resume '" +
                       ck + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("solutions: 27,456\n"), std::string::npos) << r.output;
  }
}

// A checkpoint of the pruned tree (the bitset backend on the pentominoes) is refused by dancing
// links, which walks the plain tree: by name, exit 2, nothing written.
TEST(SearchCli, PrunedTreeCheckpointIsRefusedByDancingLinks) {
  TempDir dir;
  const std::string ck = dir / "ck.json";
  auto r = run_cubex("solve '" + xc("pent6x10_sym.dlx") + "' --limit 10 --checkpoint '" + ck + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string saved = cubex::test::slurp(ck);
  r = run_cubex("solve '" + xc("pent6x10_sym.dlx") + "' --backend links --resume '" + ck + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("choice rule"), std::string::npos) << r.output;
  EXPECT_EQ(cubex::test::slurp(ck), saved);
}

// --limit N gives exactly min(N, total), counting or listing, with any number of threads.
TEST(SearchCli, LimitIsExactWithThreads) {
  for (const char* t : {"1", "2", "4"}) {
    auto r = run_cubex("solve '" + xc("soma.dlx") + "' --limit 5 --threads " + t);
    EXPECT_NE(r.output.find("solutions: 5 (stopped at the limit of 5)"), std::string::npos)
        << r.output;
    r = run_cubex("solve '" + xc("soma.dlx") + "' --limit 50000 --threads " + t);
    EXPECT_NE(r.output.find("solutions: 11,520\n"), std::string::npos) << r.output;
  }
}

// --progress writes progress lines to stderr even when it is not a terminal (logs).
TEST(SearchCli, ProgressLinesGoToLogs) {
  auto r = run_cubex("solve '" + xc("pent6x10_sym.dlx") + "' --threads 2 --progress 0.05");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("progress: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("100.0%"), std::string::npos) << r.output;
  r = run_cubex("solve '" + xc("soma.dlx") + "' --progress 0");
  EXPECT_EQ(r.status, 2);
  r = run_cubex("solve '" + xc("soma.dlx") + "' --checkpoint-every nan --checkpoint x.json");
  EXPECT_EQ(r.status, 2);
  r = run_cubex("solve '" + xc("soma.dlx") + "' --threads -1");
  EXPECT_EQ(r.status, 2);
}

// Resuming a finished checkpoint says so, and the rate is the whole search's nodes over the whole
// search's time (this run alone does next to nothing), both times printed.
TEST(SearchCli, ResumingAFinishedCheckpointSaysSoAndRatesTheWholeRun) {
  TempDir dir;
  const std::string ck = dir / "ck.json";
  auto r = run_cubex("solve '" + xc("pent6x10_sym.dlx") + "' --checkpoint '" + ck + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto saved = nlohmann::json::parse(cubex::test::slurp(ck));
  ASSERT_TRUE(saved["complete"].get<bool>());
  const double seconds = saved["progress"]["seconds"].get<double>();
  const std::uint64_t nodes = saved["counts"]["nodes"].get<std::uint64_t>();
  r = run_cubex("solve '" + xc("pent6x10_sym.dlx") + "' --resume '" + ck + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("resuming the search saved in " + ck +
                          " (--symmetry auto): it had finished (2,339 solutions and " +
                          cubex::with_commas(nodes) + " nodes in "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("nothing is left to search\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("solutions: 2,339\n"), std::string::npos) << r.output;
  // "nodes: N, updates: U, T s in all (t s this run), R M nodes/s" with R = N / T.
  const auto at = r.output.find("nodes: " + cubex::with_commas(nodes) + ", ");
  ASSERT_NE(at, std::string::npos) << r.output;
  const std::string line = r.output.substr(at, r.output.find('\n', at) - at);
  double total = 0, run = 0, rate = 0;
  const auto in_all = line.find(" s in all (");
  ASSERT_NE(in_all, std::string::npos) << line;
  const auto start = line.rfind(", ", in_all) + 2;
  ASSERT_EQ(std::sscanf(line.c_str() + start, "%lf s in all (%lf s this run), %lf M nodes/s",
                        &total, &run, &rate),
            3)
      << line;
  EXPECT_GE(total, seconds - 1e-3) << line;
  EXPECT_LE(run, total) << line;
  EXPECT_NEAR(rate, static_cast<double>(nodes) / total / 1e6, 0.05 + 1e-3 * rate) << line;
}

// On a terminal the progress line shows only once a run has taken a second (--progress-after,
// shortened here), and it is wiped at the end: a short run leaves nothing on stderr.
TEST(SearchCli, ProgressLineOnATerminalShowsOnlyForLongerRunsAndIsWiped) {
  EXPECT_EQ(stderr_on_terminal({"solve", xc("soma.dlx")}), "");
  const std::string t =
      stderr_on_terminal({"solve", xc("pent6x10_sym.dlx"), "--progress-after", "0"});
  const auto line = t.find("  solutions ");
  ASSERT_NE(line, std::string::npos) << t;          // drawn once the (shortened) wait is over
  EXPECT_EQ(t.find('\n'), std::string::npos) << t;  // and never left as a line of its own
  ASSERT_FALSE(t.empty());
  EXPECT_EQ(t.back(), '\r') << t;
  const auto wipe = t.rfind('\r', t.size() - 2);
  ASSERT_NE(wipe, std::string::npos) << t;
  EXPECT_EQ(t.substr(wipe + 1, t.size() - wipe - 2).find_first_not_of(' '), std::string::npos) << t;
}
