// `cubex solve --mpi` under mpirun when a rank cannot read its puzzle (issue 35, item 4): a
// missing file on rank 0 or on rank 1, a syntax error on rank 1 (a Knuth file and a voxel JSON
// file). Each run is MPMD (`mpirun -n 1 cubex solve GOOD --mpi : -n 1 cubex solve BAD --mpi`),
// so one rank has a puzzle it can search and the other has not: every rank stops, the reader's
// message (file, line or JSON path) is printed, no count is, and mpirun exits 2. The bound on
// the time is generous (a hang is what it catches, not a speed).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "test_util.hpp"

#ifdef CUBEX_MPIEXEC
namespace {

using cubex::test::TempDir;

struct Timed {
  cubex::test::RunResult r;
  double seconds = 0;
};

// mpirun with rank 0 solving `first` and rank 1 solving `second` (as root too).
Timed run_two(const std::string& first, const std::string& second) {
  ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  const std::string exe = std::string("'") + CUBEX_EXE + "' solve '";
  const auto t0 = std::chrono::steady_clock::now();
  Timed t;
  // `timeout` ends a hang (exit 124) so that the test fails instead of waiting for ctest.
  t.r = cubex::test::run_shell(std::string("timeout -s KILL 120 '") + CUBEX_MPIEXEC +
                               "' --oversubscribe -n 1 " + exe + first + "' --mpi : -n 1 " + exe +
                               second + "' --mpi");
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return t;
}

void expect_fails_fast(const Timed& t, const std::string& message) {
  const std::string& out = t.r.output;
  EXPECT_EQ(t.r.status, 2) << out;
  EXPECT_NE(out.find(message), std::string::npos) << out;
  EXPECT_EQ(out.find("solutions: "), std::string::npos) << out;
  EXPECT_LT(t.seconds, 30.0) << "the ranks did not stop\n" << out;
}

}  // namespace

TEST(MpiFailFast, MissingFileOnRankOneStopsEveryRank) {
  TempDir d;
  const std::string good = cubex::test::xc_file("soma.dlx");
  const std::string missing = d / "missing.dlx";
  expect_fails_fast(run_two(good, missing),
                    "rank 1 of 2: " + missing + ": cannot open file: No such file or directory");
}

TEST(MpiFailFast, MissingFileOnRankZeroStopsEveryRank) {
  TempDir d;
  const std::string good = cubex::test::xc_file("soma.dlx");
  const std::string missing = d / "missing.dlx";
  expect_fails_fast(run_two(missing, good),
                    "rank 0 of 2: " + missing + ": cannot open file: No such file or directory");
}

TEST(MpiFailFast, SyntaxErrorOnRankOneNamesTheLine) {
  TempDir d;
  const std::string good = cubex::test::xc_file("soma.dlx");
  const std::string bad = d.file("bad.dlx", "A B\nA C\n");
  expect_fails_fast(run_two(good, bad), "rank 1 of 2: " + bad + ":2:3: expected an item");
}

TEST(MpiFailFast, BadVoxelJsonOnRankOneNamesThePath) {
  TempDir d;
  const std::string good = cubex::test::xc_file("soma.dlx");
  const std::string bad =
      d.file("bad.json", R"({"name": "bad", "kind": "voxel", "container": {"box": [2, 2, "x"]},)"
                         R"( "pieces": [{"name": "u", "cells": [[0, 0, 0]], "count": 4}]})");
  const Timed t = run_two(good, bad);
  expect_fails_fast(t, "rank 1 of 2: " + bad);
  EXPECT_NE(t.r.output.find("container"), std::string::npos) << t.r.output;
}
#endif
