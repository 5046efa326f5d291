// A stop in every phase (issue 35, item 2): SIGTERM while a big box of monocubes is compiled or
// its symmetry group found ends the run with exit 130, like a stop in the search: stopped while
// compiling, nothing is written ("interrupted while ... (nothing was searched)"); stopped while
// the group is found, the --json output says interrupted, with the phase, and no checkpoint is
// saved. The library side: load() throws Interrupted, a Plan made under a set flag searches
// nothing. And the marks that judge the solutions of such a box (a million options) agree with
// the sorted images.
//
// The signal goes out once the run's progress line names the phase (--progress-after 0): the
// tests assert the exit status and what is written, never seconds (the bound is generous).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cubex/cubex.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cubex/stop.hpp"
#include "cubex/symmetry.hpp"
#include "sanitized.hpp"
#include "test_util.hpp"

namespace {

using cubex::test::kSanitized;
using cubex::test::scaled;
using cubex::test::slurp;
using cubex::test::source_file;
using cubex::test::TempDir;

// A box of monocubes, X x Y x Z cells and as many copies: with 20 layers, it prepares for a
// second or more in Release (200,000 cells; about 300 MB), less under a sanitizer (a smaller box).
std::string box_file(const TempDir& dir, int layers = 20) {
  const int x = scaled(100, 50), y = scaled(100, 50), z = scaled(layers, layers / 2);
  return dir.file("box.json",
                  "{\"name\": \"monocubes\", \"kind\": \"voxel\", \"container\": "
                  "{\"box\": [" +
                      std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) +
                      "]}, \"pieces\": [{\"name\": \"u\", "
                      "\"cells\": [[0, 0, 0]], \"count\": " +
                      std::to_string(x * y * z) + "}]}\n");
}

// Starts `args`, sends SIGTERM as soon as its output shows one of `phases` in a progress line,
// and waits for the end (at most 20 s after the signal, then SIGKILL and a failure). Returns
// the wait status; `out` gets the output. `signalled` tells whether a phase was seen (else the
// run ended first, or did not show it within 60 s).
int signal_in_phase(const std::vector<std::string>& args, const std::vector<std::string>& phases,
                    const TempDir& dir, std::string& out, bool& signalled) {
  const std::string log = dir / "log";
  const pid_t pid = cubex::test::spawn_cubex(args, log);
  EXPECT_GT(pid, 0);
  int status = 0;
  signalled = false;
  const auto t0 = std::chrono::steady_clock::now();
  auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  while (!signalled && since(t0) < 60) {
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      out = slurp(log);
      return status;
    }
    const std::string now = slurp(log);
    for (const std::string& p : phases)
      signalled = signalled || now.find("progress: preparing: " + p) != std::string::npos;
    if (!signalled) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ::kill(pid, SIGTERM);
  const auto t1 = std::chrono::steady_clock::now();
  bool ended = false;
  while (!ended && since(t1) < 20) {
    ended = ::waitpid(pid, &status, WNOHANG) == pid;
    if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (!ended) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
  }
  out = slurp(log);
  EXPECT_TRUE(ended) << "still running 20 s after SIGTERM\n" << out;
  return status;
}

TEST(StopPhases, SigtermWhileCompilingEndsTheRunWithNothingWritten) {
  TempDir dir;
  const std::string box = box_file(dir);
  const std::string json = dir / "out.json";
  std::string out;
  bool signalled = false;
  const int status =
      signal_in_phase({"solve", box, "--symmetry", "none", "--json", json, "--progress", "0.01",
                       "--progress-after", "0"},
                      {"naming the cells", "making the cells' items", "compiling the placements"},
                      dir, out, signalled);
  ASSERT_TRUE(signalled) << "no progress line of the compile phase\n" << out;
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status) << "\n" << out;
  EXPECT_EQ(WEXITSTATUS(status), 130) << out;
  EXPECT_NE(out.find("cubex: interrupted while "), std::string::npos) << out;
  EXPECT_NE(out.find("(nothing was searched)"), std::string::npos) << out;
  EXPECT_EQ(out.find("solutions:"), std::string::npos) << out;
  // Nothing written beside the puzzle and the log: no JSON, no temporary.
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir.path))
    files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"box.json", "log"})) << out;
}

TEST(StopPhases, SigtermWhileFindingTheSymmetriesGivesAnInterruptedResult) {
  TempDir dir;
  const std::string box = box_file(dir);
  const std::string json = dir / "out.json", ck = dir / "ck.json";
  std::string out;
  bool signalled = false;
  const int status = signal_in_phase({"solve", box, "--json", json, "--checkpoint", ck,
                                      "--progress", "0.01", "--progress-after", "0"},
                                     {"finding the symmetries"}, dir, out, signalled);
  ASSERT_TRUE(signalled) << "no progress line of the symmetry phase\n" << out;
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status) << "\n" << out;
  EXPECT_EQ(WEXITSTATUS(status), 130) << out;
  EXPECT_NE(out.find("solutions: 0 (interrupted while "), std::string::npos) << out;
  EXPECT_NE(out.find(": nothing searched)"), std::string::npos) << out;
  EXPECT_EQ(out.find("saved the search"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(ck)) << out;  // nothing to resume
  const nlohmann::json j = nlohmann::json::parse(slurp(json));
  EXPECT_TRUE(j["stats"]["interrupted"].get<bool>());
  EXPECT_FALSE(j["stats"]["complete"].get<bool>());
  EXPECT_EQ(j["counts"]["total"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(j["stats"]["nodes"].get<std::uint64_t>(), 0u);
  ASSERT_TRUE(j["search"]["stopped_in"].is_string()) << j.dump();
  EXPECT_FALSE(j["search"]["stopped_in"].get<std::string>().empty());
}

// The preparation's progress line, without a signal: a phase named, then the search's own lines
// in their format.
TEST(StopPhases, ProgressNamesThePhasesBeforeTheSearch) {
  TempDir dir;
  const auto r =
      cubex::test::run_cubex("solve '" + box_file(dir, 4) + "' --progress 0.01 --progress-after 0");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto prep = r.output.find("progress: preparing: ");
  ASSERT_NE(prep, std::string::npos) << r.output;
  EXPECT_NE(r.output.find("elapsed ", prep), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("progress: 100.0%  solutions 1  nodes "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("solutions: 1\n"), std::string::npos) << r.output;
}

TEST(StopPhases, LoadUnderASetFlagThrowsInterrupted) {
  std::atomic<bool> stop{true};
  cubex::Options o;
  o.stop = &stop;
  try {
    cubex::load(source_file("puzzles/voxel/soma.json"), o);
    FAIL() << "load() read the puzzle under a set stop flag";
  } catch (const cubex::Interrupted& e) {
    EXPECT_NE(std::string(e.phase()), "");
  }
  stop = false;
  EXPECT_NO_THROW(cubex::load(source_file("puzzles/voxel/soma.json"), o));
}

TEST(StopPhases, PlanMadeUnderASetFlagSearchesNothing) {
  const auto puzzle = cubex::load(source_file("puzzles/voxel/soma.json"));
  std::atomic<bool> stop{true};
  cubex::Options o;
  o.stop = &stop;
  cubex::PhaseBoard board;
  o.phases = &board;
  cubex::Plan plan(*puzzle, o);
  EXPECT_EQ(plan.group().group.order(), 1u);
  const cubex::Result r = plan.run();
  EXPECT_TRUE(r.interrupted);
  ASSERT_NE(r.stopped_in, nullptr);
  EXPECT_EQ(std::string(r.stopped_in), "finding the symmetries");
  EXPECT_STREQ(board.phase.load(), "finding the symmetries");
  EXPECT_FALSE(r.counts.complete);
  EXPECT_EQ(r.counts.total, 0u);
  EXPECT_EQ(r.nodes, 0u);
  // Without the flag, the same puzzle counts as always.
  stop = false;
  const cubex::Counts c = cubex::count(*puzzle);
  EXPECT_EQ(c.total, 11520u);
  EXPECT_EQ(c.unique, 240u);
}

// judge() by marks (solutions of kMarkedJudge options or more) and by sorted images give the
// same verdict on every solution of the restricted search: canonical or not, class size,
// symmetric.
class MarkedJudge : public ::testing::TestWithParam<const char*> {};

TEST_P(MarkedJudge, AgreesWithSortedImagesOnEverySolution) {
  const auto puzzle = cubex::load(source_file(GetParam()));
  const cubex::Problem& pb = puzzle->problem();
  const cubex::CubeGroup g = puzzle->symmetry_group(cubex::SymmetryMode::kAuto);
  ASSERT_GT(g.group.order(), 1u);
  const cubex::SymmetricSolver sym(pb, g.group, g.option_perm);
  std::vector<cubex::OptionId> a, b;
  std::uint64_t solutions = 0, canonical = 0, total = 0;
  cubex::Solver(sym.restricted()).solve([&](std::span<const cubex::OptionId> s) {
    const auto sorted = sym.judge_by(s, a, false);
    const auto marked = sym.judge_by(s, b, true);
    EXPECT_EQ(sorted.orbit, marked.orbit);
    EXPECT_EQ(sorted.symmetric, marked.symmetric);
    EXPECT_EQ(a, b);
    ++solutions;
    canonical += sorted.orbit > 0;
    total += sorted.orbit;
    return true;
  });
  EXPECT_GT(solutions, canonical);  // both kinds met
  EXPECT_GT(canonical, 0u);
  const cubex::Counts c = cubex::count(*puzzle);
  EXPECT_EQ(canonical, c.unique);
  EXPECT_EQ(total, c.total);
}

INSTANTIATE_TEST_SUITE_P(Puzzles, MarkedJudge,
                         ::testing::Values("puzzles/voxel/soma.json",
                                           "puzzles/voxel/pentominoes-any-5x5.json",
                                           "puzzles/voxel/congruent-box.json"));

// The box's one solution of a few thousand options (the marks' size) is judged canonical,
// symmetric, a class of one.
TEST(MarkedJudge, BoxOfMonocubesIsOneSymmetricClass) {
  TempDir dir;
  const int n = 4096;  // 16 x 16 x 16 cells: the solution has kMarkedJudge options
  ASSERT_GE(std::size_t(n), cubex::SymmetricSolver::kMarkedJudge);
  const std::string f =
      dir.file("box.json",
               "{\"kind\": \"voxel\", \"container\": {\"box\": [16, 16, 16]}, \"pieces\": "
               "[{\"name\": \"u\", \"cells\": [[0, 0, 0]], \"count\": " +
                   std::to_string(n) + "}]}");
  const cubex::Counts c = cubex::count(*cubex::load(f));
  EXPECT_EQ(c.total, 1u);
  EXPECT_EQ(c.unique, 1u);
  EXPECT_EQ(c.symmetric, 1u);
  EXPECT_EQ(c.group_order, 48u);
}

}  // namespace
