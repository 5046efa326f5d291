// Output paths: a command never writes over its input, checks its outputs before any work, and
// names each problem (same file, symbolic link, folder that cannot be written); the temporaries
// of killed writers are removed by the next write.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cinttypes>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cubex/burrtools/xmpuzzle.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/limits.hpp"
#include "cubex/output/checkpoint.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"
#include "cubex/voxel/model.hpp"
#include "cubex/voxel/read.hpp"
#include "cubex/voxel/write.hpp"
#include "test_util.hpp"
using cubex::test::run_cubex;
using cubex::test::slurp;
using cubex::test::TempDir;
using nlohmann::json;

namespace {

std::string puzzle_path(const std::string& rel) {
  return std::string(CUBEX_SOURCE_DIR) + "/puzzles/" + rel;
}

}  // namespace

// ---- outputs: never the input, checked before any work ----------------------------------------

TEST(Outputs, CompileAndConvertNeverReplaceTheirInput) {
  TempDir dir;
  const std::string s = dir.file("s.json", slurp(puzzle_path("voxel/soma.json")));
  const std::string original = slurp(s);
  std::filesystem::create_symlink(s, dir / "link.dlx");
  std::filesystem::create_hard_link(s, dir / "hard.dlx");
  std::filesystem::create_symlink(s, dir / "link.json");
  for (const std::string& args :
       {"compile '" + s + "' --dlx '" + s + "'",
        "compile '" + s + "' --dlx '" + (dir / "link.dlx") + "'",
        "compile '" + s + "' --dlx '" + (dir / "hard.dlx") + "'",
        "compile '" + s + "' --dlx '" + dir.path.string() + "/./s.json'",
        "convert '" + s + "' '" + s + "'", "convert '" + s + "' '" + (dir / "link.json") + "'"}) {
    SCOPED_TRACE(args);
    const auto r = run_cubex(args);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("names the input file"), std::string::npos) << r.output;
    EXPECT_EQ(slurp(s), original);
  }
  const auto r = run_cubex("compile '" + s + "' --dlx '" + (dir / "link.dlx") + "'");
  EXPECT_NE(r.output.find("(through a symbolic link)"), std::string::npos) << r.output;
}

TEST(Outputs, VerifyRenderAndStlCheckTheirOutputsFirst) {
  TempDir dir;
  const std::string soma = puzzle_path("voxel/soma.json");
  const std::string sols = dir.file(
      "sols.json", slurp(std::string(CUBEX_SOURCE_DIR) + "/tests/golden/soma_solutions.json"));
  const std::string original = slurp(sols);
  auto r = run_cubex("verify '" + soma + "' '" + sols + "' --json '" + sols + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--json " + sols + " names the input file"), std::string::npos)
      << r.output;
  EXPECT_EQ(slurp(sols), original);
  r = run_cubex("render '" + soma + "' --svg '" + (dir / "no/such/a.svg") + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("does not exist"), std::string::npos) << r.output;
  const std::string file = dir.file("afile", "x");
  r = run_cubex("render '" + soma + "' --stl '" + file + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--stl " + file + " is a file: expected a folder"), std::string::npos)
      << r.output;
  r = run_cubex("render '" + soma + "' --stl '" + (file + "/sub") + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(slurp(file), "x");
}

TEST(Outputs, OutputPathProblemNamesEachCase) {
  TempDir dir;
  const std::string in = dir.file("in.json", "{}");
  EXPECT_EQ(cubex::output_path_problem(dir / "out.json", {in}), "");
  EXPECT_EQ(cubex::output_path_problem("-", {in}), "");
  EXPECT_NE(cubex::output_path_problem(in, {in}).find("names the input file"), std::string::npos);
  EXPECT_NE(cubex::output_path_problem(dir.path.string(), {in}).find("Is a directory"),
            std::string::npos);
  EXPECT_NE(cubex::output_path_problem(dir / "x/y.json", {in}).find("does not exist"),
            std::string::npos);
  EXPECT_NE(cubex::output_path_problem(in + "/y.json", {in}).find("Not a directory"),
            std::string::npos);
  EXPECT_EQ(cubex::output_path_problem("/dev/null", {in}), "");
  EXPECT_EQ(cubex::output_path_problem("/dev/null", {"/dev/null"}), "");  // written in place
  // Two outputs of one run that do not exist yet (--json and --jsonl of solve).
  EXPECT_NE(cubex::output_path_problem(dir / "new.json", {dir.path.string() + "/./new.json"})
                .find("names the input file"),
            std::string::npos);
  EXPECT_EQ(cubex::output_path_problem(dir / "new.json", {dir / "other.json"}), "");
}

TEST(Outputs, LongOutputNamesFitTheirTemporary) {
  TempDir dir;
  const std::string name = std::string(241, 'n') + ".json";  // 246 characters
  const auto r =
      run_cubex("convert '" + puzzle_path("voxel/soma.json") + "' '" + (dir / name) + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir / name));
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) files += !e.is_directory();
  EXPECT_EQ(files, 1u);             // no temporary left
  cubex::AtomicFile f(dir / name);  // the streaming writer too
  f.write("{}");
  f.commit();
  EXPECT_EQ(slurp(dir / name), "{}");
}

// ---- leftover temporaries of a killed run ----------------------------------------------------

namespace {

// The pid of a process that has ended (a child, reaped).
pid_t dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

}  // namespace

TEST(Outputs, LeftoverTemporariesOfDeadWritersAreRemoved) {
  TempDir dir;
  const std::string dead = ".out.json.cubex-tmp." + std::to_string(dead_pid()) + ".aBc123";
  const std::string live = ".out.json.cubex-tmp." + std::to_string(::getppid()) + ".aBc123";
  const std::string other = ".other.json.cubex-tmp." + std::to_string(dead_pid()) + ".aBc123";
  const std::string not_ours = "out.json.tmp.aBc123";
  for (const std::string& n : {dead, live, other, not_ours}) dir.file(n, "partial");
  // The atomic writer (here through convert) removes the dead writer's temporary of its name.
  auto r =
      run_cubex("convert '" + puzzle_path("voxel/soma.json") + "' '" + (dir / "out.json") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / dead));
  EXPECT_TRUE(std::filesystem::exists(dir / live));      // its writer still runs
  EXPECT_TRUE(std::filesystem::exists(dir / other));     // another output's
  EXPECT_TRUE(std::filesystem::exists(dir / not_ours));  // not our pattern
  // The streaming writer (solve --json) does the same.
  dir.file(dead, "partial");
  {
    cubex::AtomicFile f(dir / "out.json");
    EXPECT_FALSE(std::filesystem::exists(dir / dead));
    f.write("{}");
    f.commit();
  }
  EXPECT_EQ(slurp(dir / "out.json"), "{}");
}

TEST(Outputs, TemporaryOfAKilledWriterIsRemovedByTheNextRun) {
  // A child process opens the streaming writer (its temporary has the child's pid and lock) and
  // is killed with SIGKILL: the temporary stays; the next writer of the same name removes it.
  TempDir dir;
  const std::string out = dir / "stream.json";
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    cubex::AtomicFile f(out);
    f.write(std::string(1 << 17, 'x'));
    const char c = 1;
    (void)!::write(ready[1], &c, 1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  std::size_t temps = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) temps += e.exists();
  EXPECT_EQ(temps, 1u);
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  temps = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) temps += e.exists();
  EXPECT_EQ(temps, 1u);  // left behind by SIGKILL
  cubex::write_file_atomic(out, "done\n");
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.path))
    names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"stream.json"});
}
