// Helpers shared by the tests: running the built `cubex`, temporary files.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace cubex::test {

struct RunResult {
  int status = -1;     // exit status
  std::string output;  // stdout and stderr together
};

// Runs a shell command line, capturing both streams.
inline RunResult run_shell(const std::string& command) {
  RunResult r;
  const std::string cmd = command + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// Runs `cubex ARGS` through the shell, capturing both streams.
inline RunResult run_cubex(const std::string& args) {
  return run_shell(std::string("'") + CUBEX_EXE + "' " + args);
}

// A fresh temporary folder, removed with the object.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string t = (std::filesystem::temp_directory_path() / "cubex-test-XXXXXX").string();
    path = ::mkdtemp(t.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name, const std::string& content) const {
    std::ofstream(path / name, std::ios::binary) << content;
    return (path / name).string();
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string shared_file(const std::string& rel) {
  return std::string(CUBEX_SHARED_DIR) + "/" + rel;
}

// Starts `cubex ARGS...` with stdout and stderr to `log` and returns its pid (a test failure and
// -1 if it could not start). The child starts with the default actions of SIGINT, SIGTERM and
// SIGHUP whatever this process had (a background job ignores SIGINT; an ignored signal stays
// ignored across exec).
inline pid_t spawn_cubex(const std::vector<std::string>& args, const std::string& log) {
  std::vector<std::string> argv{CUBEX_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  sigset_t dflt;
  sigemptyset(&dflt);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&dflt, s);
  posix_spawnattr_setsigdefault(&at, &dflt);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  EXPECT_EQ(posix_spawn(&pid, CUBEX_EXE, &fa, &at, cargv.data(), environ), 0) << CUBEX_EXE;
  posix_spawnattr_destroy(&at);
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

// A Knuth-format instance from ../shared/data/xc, or the repository's own copy in puzzles/dlx
// when the shared folder is not beside the checkout.
inline std::string xc_file(const std::string& name) {
  const std::string shared = shared_file("xc/" + name);
  if (std::filesystem::exists(shared)) return shared;
  return std::string(CUBEX_SOURCE_DIR) + "/puzzles/dlx/" + name;
}
// A Happy Cube seed from ../shared/data/seeds, or the repository's copy in puzzles/happycube.
inline std::string seed_file(const std::string& name) {
  const std::string shared = shared_file("seeds/" + name);
  if (std::filesystem::exists(shared)) return shared;
  return std::string(CUBEX_SOURCE_DIR) + "/puzzles/happycube/" + name;
}
inline std::string source_file(const std::string& rel) {
  return std::string(CUBEX_SOURCE_DIR) + "/" + rel;
}

}  // namespace cubex::test
