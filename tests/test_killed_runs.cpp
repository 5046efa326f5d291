// Runs that end early: SIGHUP saves the checkpoint and exits 130 as SIGTERM does; a temporary
// file left by a killed writer is removed by the next write of the same file; out of memory ends
// with exit 1 and a message, never an abort.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cubex/util/files.hpp"
#include "test_util.hpp"

extern char** environ;

namespace cubex {
namespace {

using test::slurp;
using test::TempDir;

// A closed terminal or a cluster's job end sends SIGHUP: the run saves its checkpoint and stops
// as for SIGTERM (exit 130), and --resume takes it up.
TEST(KilledRuns, SighupSavesTheCheckpoint) {
  TempDir dir;
  const std::string ck = dir / "ck.json";
  const pid_t pid = test::spawn_cubex({"solve", test::xc_file("bedlam_sym.dlx"), "--threads", "1",
                                       "--checkpoint", ck, "--checkpoint-every", "0.05"},
                                      dir / "log");
  for (int k = 0; k < 1000 && !std::filesystem::exists(ck); ++k)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(std::filesystem::exists(ck)) << slurp(dir / "log");
  std::filesystem::remove(ck);
  kill(pid, SIGHUP);
  int st = 0;
  waitpid(pid, &st, 0);
  const std::string log = slurp(dir / "log");
  ASSERT_TRUE(WIFEXITED(st)) << "killed by signal " << WTERMSIG(st) << "\n" << log;
  EXPECT_EQ(WEXITSTATUS(st), 130) << log;
  EXPECT_NE(log.find("(interrupted: counted so far)"), std::string::npos) << log;
  const auto saved = nlohmann::json::parse(slurp(ck));  // saved again on the way out
  EXPECT_FALSE(saved["complete"].get<bool>());
}

// A temporary left by a killed writer (SIGKILL) is removed by the next write of the same file;
// one of a running process is not.
TEST(KilledRuns, StaleTemporariesOfDeadWritersAreRemoved) {
  TempDir dir;
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);  // a PID that no longer runs
  const std::string stale =
      dir.file(".out.json.cubex-tmp." + std::to_string(child) + ".a1b2c3", std::string(1000, 'x'));
  const std::string live =
      dir.file(".out.json.cubex-tmp." + std::to_string(getpid()) + ".d4e5f6", "y");
  const std::string other = dir.file(".other.json.cubex-tmp." + std::to_string(child) + ".zz", "z");
  write_file_atomic(dir / "out.json", "{}\n");
  EXPECT_EQ(slurp(dir / "out.json"), "{}\n");
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_TRUE(std::filesystem::exists(live));
  EXPECT_TRUE(std::filesystem::exists(other));  // another file's: left for its own next write
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 3u);  // out.json, live, other: no temporary of this write left
}

// Out of memory: exit 1 with a message, never an abort. RLIMIT_AS caps the address space of
// the child (ASan reserves terabytes of shadow memory, so this cannot run under it).

#if defined(__SANITIZE_ADDRESS__)
#define CUBEX_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUBEX_TEST_ASAN 1
#endif
#endif

TEST(KilledRuns, OutOfMemoryEndsWithExit1AndAMessage) {
#ifdef CUBEX_TEST_ASAN
  GTEST_SKIP() << "RLIMIT_AS and AddressSanitizer do not mix";
#else
  TempDir dir;
  // One million cells and a monocube: about 3 million nodes, far more than 60 MB holds once
  // the placements are compiled.
  const std::string big = dir.file(
      "big.json",
      R"({"container": {"box": [100, 100, 100]}, "pieces": [{"name": "o", "layers": [["#"]], "count": 1000000}]})");
  const std::string cmd = "ulimit -v 60000; exec '" + std::string(CUBEX_EXE) + "' solve '" + big +
                          "' --max-nodes 2000000000 --symmetry none 2>&1";
  FILE* p = ::popen(("sh -c \"" + cmd + "\"").c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = ::pclose(p);
  ASSERT_TRUE(WIFEXITED(st)) << "killed by a signal (an abort?): " << out;
  EXPECT_EQ(WEXITSTATUS(st), 1) << out;
  EXPECT_NE(out.find("cubex: out of memory while "), std::string::npos) << out;
#endif
}

}  // namespace
}  // namespace cubex
