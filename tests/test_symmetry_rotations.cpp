// The classes up to the rotations alone, counted by the run that counts up to the whole group
// (rotations and reflections): a class splits in two up to the rotations exactly when no
// reflection fixes its solutions (Verdict::split, JobCounts::split, MemoClasses::subgroup_unique,
// Result::rotations). Every count is checked against a separate search up to the rotations
// (the geometric brute force of test_symmetry_puzzles.cpp checks the same on random puzzles):
// by search on 1 and 2 threads, by memo, with --disassemble, through checkpoints, and under MPI.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cubex/burrtools/xmpuzzle.hpp"
#include "cubex/core/job.hpp"
#include "cubex/core/memo.hpp"
#include "cubex/error.hpp"
#include "cubex/formats.hpp"
#include "cubex/output/checkpoint.hpp"
#include "cubex/solve.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"
#include "cubex/voxel/read.hpp"
#include "test_util.hpp"
#include "voxel_helpers.hpp"

using namespace cubex;
using cubex::test::TempDir;

namespace {

// Shipped voxel puzzles whose groups have reflections: classes fixed by a reflection and by a
// rotation alone (congruent-box: 40 of 440 symmetric), none fixed (soma, l-tricubes), the one
// class fixed by everything (slothouber-graatsma), a flat box (pentominoes-any-5x5).
const char* const kWithReflections[] = {"congruent-box.json", "soma.json", "l-tricubes.json",
                                        "slothouber-graatsma.json", "pentominoes-any-5x5.json"};

std::uint64_t rotation_classes(const Puzzle& p) {
  const CubeGroup g = p.symmetry_group(SymmetryMode::kRotations);
  return SymmetricSolver(p.problem(), g.group, g.option_perm).count().unique;
}

TEST(SymmetryRotations, SplitClassesAreThoseOfARotationsSearch) {
  for (const char* file : kWithReflections) {
    SCOPED_TRACE(file);
    const auto p = load_puzzle(vxtest::shipped(file));
    const CubeGroup g = p->symmetry_group(SymmetryMode::kAuto);
    const std::vector<bool> rot = rotation_subgroup(g);
    ASSERT_EQ(rot.size(), g.group.order());
    SymmetricSolver sym(p->problem(), g.group, g.option_perm);
    EXPECT_EQ(sym.count().split, 0u);  // without a subgroup: no split
    sym.set_subgroup(rot);
    const SymmetryStats st = sym.count();
    const std::uint64_t want = rotation_classes(*p);
    EXPECT_EQ(st.unique + st.split, want);
    EXPECT_LE(st.split, st.unique);
    // On the job's threads the same, one thread or two.
    for (unsigned threads : {1u, 2u}) {
      SearchJob job(sym.restricted(), &sym);
      JobOptions opt;
      opt.threads = threads;
      const JobResult r = job.run(opt);
      ASSERT_TRUE(r.complete);
      EXPECT_EQ(r.counts.unique, st.unique) << threads;
      EXPECT_EQ(r.counts.unique + r.counts.split, want) << threads;
    }
    // Both ways of judging agree, and splits() on the class's solution says the same.
    std::vector<OptionId> a, b;
    std::uint64_t classes = 0;
    Solver(sym.restricted()).solve([&](std::span<const OptionId> s) {
      const auto va = sym.judge_by(s, a, false);
      const auto vb = sym.judge_by(s, b, true);
      EXPECT_EQ(va.orbit, vb.orbit);
      EXPECT_EQ(va.split, vb.split);
      if (va.orbit) {
        ++classes;
        EXPECT_EQ(sym.splits(a), va.split);
      }
      return true;
    });
    EXPECT_EQ(classes, st.unique);
  }
  // A group without reflections has no such subgroup.
  const auto bedlam = load_puzzle(vxtest::shipped("wooden-cube-7.json"));
  EXPECT_TRUE(rotation_subgroup(bedlam->symmetry_group(SymmetryMode::kAuto)).empty());
}

TEST(SymmetryRotations, SubgroupMarksAreChecked) {
  const auto p = load_puzzle(vxtest::shipped("soma.json"));
  const CubeGroup g = p->symmetry_group(SymmetryMode::kAuto);
  SymmetricSolver sym(p->problem(), g.group, g.option_perm);
  std::vector<bool> marks = rotation_subgroup(g);
  EXPECT_THROW(sym.set_subgroup(std::vector<bool>(marks.size() - 1, true)), ProblemError);
  std::vector<bool> all(marks.size(), true);
  EXPECT_THROW(sym.set_subgroup(all), ProblemError);  // not of index 2
  std::vector<bool> flipped = marks;
  flipped.flip();
  EXPECT_THROW(sym.set_subgroup(flipped), ProblemError);  // without the identity
  EXPECT_NO_THROW(sym.set_subgroup(marks));
  EXPECT_TRUE(sym.has_subgroup());
  EXPECT_NO_THROW(sym.set_subgroup({}));
  EXPECT_FALSE(sym.has_subgroup());
}

// By memo: Burnside's lemma over the rotations alone, from the counts the memo makes anyway.
TEST(SymmetryRotations, MemoCountsTheRotationClasses) {
  const std::string dominoes = R"({"name": "dominoes", "container": {"box": [2, 3, 4]},
      "pieces": [{"name": "d", "cells": [[0,0,0],[1,0,0]], "count": 12}]})";
  const std::string ls = R"({"name": "l", "container": {"box": [2, 3, 3]},
      "pieces": [{"name": "l", "cells": [[0,0,0],[1,0,0],[0,1,0]], "count": 6}]})";
  for (const std::string& text : {dominoes, ls}) {
    const auto p = voxel::load_json(nlohmann::json::parse(text), "m.json");
    SCOPED_TRACE(p->name());
    ASSERT_TRUE(memo_applies(p->problem()).empty());
    const CubeGroup g = p->symmetry_group(SymmetryMode::kAuto);
    SymmetricSolver sym(p->problem(), g.group, g.option_perm);
    EXPECT_FALSE(count_classes_by_memo(sym).subgroup_unique.has_value());
    sym.set_subgroup(rotation_subgroup(g));
    ASSERT_TRUE(sym.has_subgroup());
    for (std::uint64_t max_fixed : {std::uint64_t{0}, std::uint64_t{1'000'000}}) {
      const MemoClasses mc = count_classes_by_memo(sym, {}, max_fixed);
      ASSERT_TRUE(mc.complete) << mc.why;
      ASSERT_TRUE(mc.subgroup_unique.has_value());
      const SymmetryStats st = sym.count();
      EXPECT_EQ(mc.unique, st.unique);
      EXPECT_EQ(*mc.subgroup_unique, st.unique + st.split);
      EXPECT_EQ(*mc.subgroup_unique, rotation_classes(*p));
    }
  }
}

#ifdef CUBEX_WITH_BURRTOOLS
// A shipped voxel puzzle saved as BurrTools would, recording `assemblies` (the recorded counts
// are what asks for Result::rotations).
std::string burrtools_file(const TempDir& dir, const char* voxel_file, std::uint64_t assemblies) {
  const voxel::Model m = voxel::model_from_json(
      nlohmann::json::parse(cubex::test::slurp(vxtest::shipped(voxel_file))), voxel_file);
  std::string xml = burrtools::to_xml(m, "p.xmpuzzle");
  const std::size_t at = xml.find("state=\"0\"");
  EXPECT_NE(at, std::string::npos);
  xml.replace(at, 9, "state=\"2\" assemblies=\"" + std::to_string(assemblies) + "\"");
  return dir.file(std::string(voxel_file) + ".xmpuzzle", burrtools::gzip(xml));
}

// Through the solve layer: the rotations' classes (and those that come apart) from the one run
// equal those of a separate run with Symmetry::rotations, on one thread or two.
TEST(SymmetryRotations, ThePlanGivesThemFromTheSameRun) {
  TempDir dir;
  for (const char* file : {"congruent-box.json", "soma.json", "l-tricubes.json"}) {
    SCOPED_TRACE(file);
    const auto p = load(burrtools_file(dir, file, 1));
    for (bool disassemble : {false, true}) {
      Options ro;
      ro.threads = 1;
      ro.symmetry = Symmetry::rotations;
      ro.disassemble = disassemble;
      const Result want = solve(*p, ro);
      ASSERT_TRUE(want.counts.complete);
      EXPECT_FALSE(want.rotations.has_value());  // (no reflections: nothing beside)
      for (unsigned threads : {1u, 2u}) {
        Options o;
        o.threads = threads;
        o.disassemble = disassemble;
        const Result r = solve(*p, o);
        ASSERT_TRUE(r.rotations.has_value()) << threads;
        EXPECT_EQ(r.rotations->unique, want.counts.unique) << threads;
        EXPECT_EQ(r.rotations->apart_unique.has_value(), disassemble);
        if (disassemble) {
          ASSERT_TRUE(want.disassembly.has_value());
          EXPECT_EQ(*r.rotations->apart_unique, want.disassembly->apart_unique) << threads;
        }
      }
    }
    // Listing stopped at the first class that comes apart: the counts finished (the last
    // batch), the classes that come apart up to rotations are still all counted.
    Options first;
    first.threads = 1;
    first.disassemble = true;
    first.limit = 1;
    std::uint64_t listed = 0;
    const Result rf = solve(*p, first, [&](const Solution&) { return ++listed, true; });
    EXPECT_EQ(listed, 1u);
    if (rf.counts.complete) {
      Options ro;
      ro.symmetry = Symmetry::rotations;
      ro.disassemble = true;
      ASSERT_TRUE(rf.rotations.has_value());
      EXPECT_EQ(*rf.rotations->apart_unique, solve(*p, ro).disassembly->apart_unique);
    }
  }
}

TEST(SymmetryRotations, ByMemoToo) {
  TempDir dir;
  const auto p = load(burrtools_file(dir, "congruent-box.json", 1));
  Options o;
  o.count_by = CountBy::memo;
  const Result r = solve(*p, o);
  ASSERT_EQ(r.method, "memo");
  ASSERT_TRUE(r.rotations.has_value());
  Options ro;
  ro.symmetry = Symmetry::rotations;
  EXPECT_EQ(r.rotations->unique, solve(*p, ro).counts.unique);
}

// Absent where the conditions do not hold: no recorded counts, symmetry asked for, a shard.
TEST(SymmetryRotations, AbsentWhereNotAskedOrNotWhole) {
  TempDir dir;
  const auto plain = load_puzzle(vxtest::shipped("congruent-box.json"));
  EXPECT_FALSE(solve(*plain).rotations.has_value());
  const auto p = load(burrtools_file(dir, "congruent-box.json", 1));
  EXPECT_TRUE(solve(*p).rotations.has_value());
  Options o;
  o.symmetry = Symmetry::rotations;
  EXPECT_FALSE(solve(*p, o).rotations.has_value());
  o.symmetry = Symmetry::none;
  EXPECT_FALSE(solve(*p, o).rotations.has_value());
  Options shard;
  shard.shard_index = 0;
  shard.shard_count = 2;
  const Result rs = solve(*p, shard);
  EXPECT_TRUE(rs.counts.complete);
  EXPECT_FALSE(rs.rotations.has_value());
  // Stopped by the limit: not whole either.
  Options lim;
  lim.limit = 3;
  const Result rl = solve(*p, lim, [](const Solution&) { return true; });
  EXPECT_FALSE(rl.counts.complete);
  EXPECT_FALSE(rl.rotations.has_value());
}

// A checkpoint carries the split classes (counts.split), so a resumed run gives the rotations'
// classes of the whole search; a checkpoint without them (an older cubex's) gives none.
TEST(SymmetryRotations, CheckpointsCarryThem) {
  TempDir dir;
  const auto p = load(burrtools_file(dir, "congruent-box.json", 1));
  Options ro;
  ro.symmetry = Symmetry::rotations;
  const Count want = solve(*p, ro).counts.unique;
  // A search stopped half-way, made without timing: the plan's job (the same problem, judge
  // and backend) searches the first half of a fixed cut of its tree, and the state "first half
  // done, second half pending" is saved as the plan saves its checkpoints.
  const CubeGroup g = p->symmetry_group(SymmetryMode::kAuto);
  SymmetricSolver sym(p->problem(), g.group, g.option_perm);
  sym.set_subgroup(rotation_subgroup(g));
  SearchJob job(sym.restricted(), &sym, Backend::kBitset);
  const std::vector<TreeSpan> spans = job.cut_spans(16);
  ASSERT_GE(spans.size(), 4u);
  const std::size_t half = spans.size() / 2;
  JobState head;
  head.tree = job.identity();
  double head_weight = 0, tail_weight = 0;
  for (std::size_t k = 0; k < spans.size(); ++k)
    (k < half ? head_weight : tail_weight) += spans[k].weight;
  head.pending.assign(spans.begin(), spans.begin() + static_cast<std::ptrdiff_t>(half));
  head.weight_total = head_weight + tail_weight;
  head.weight_done = tail_weight;
  JobOptions jo;
  jo.threads = 2;
  jo.resume = &head;
  const JobResult done = job.run(jo);
  ASSERT_TRUE(done.complete);
  JobState st;
  st.tree = job.identity();
  st.counts = done.counts;
  st.pending.assign(spans.begin() + static_cast<std::ptrdiff_t>(half), spans.end());
  st.weight_total = head_weight + tail_weight;
  st.weight_done = head_weight;
  ASSERT_GT(st.counts.split, 0u);
  ASSERT_LT(st.counts.unique, 440u);  // (some classes are left for the resumed run)
  const std::string cp = dir / "cp.json";
  CheckpointRun run{p->file(), "auto", "bitset", g.group.order(), true};
  write_file_atomic(cp, dump_json(checkpoint_json(st, run)) + "\n");
  run = {};
  EXPECT_EQ(read_checkpoint(cp, &run).counts.split, st.counts.split);
  EXPECT_TRUE(run.split);

  Options again;
  again.threads = 1;
  again.resume = cp;
  const std::string old = dir / "old.json";
  std::filesystem::copy_file(cp, old);
  const Result resumed = solve(*p, again);
  ASSERT_TRUE(resumed.counts.complete);
  ASSERT_TRUE(resumed.rotations.has_value());
  EXPECT_EQ(resumed.rotations->unique, want);
  EXPECT_TRUE(read_checkpoint(cp, &run).complete());
  EXPECT_TRUE(run.split);

  // The same state written without the key, as an older cubex did: resumed, the counts are the
  // same and the rotations' classes are left out, also from the checkpoints it writes.
  CheckpointRun old_run;
  const JobState old_st = read_checkpoint(old, &old_run);
  old_run.split = false;
  write_file_atomic(old, dump_json(checkpoint_json(old_st, old_run)) + "\n");
  EXPECT_FALSE(read_json_file(old)["counts"].contains("split"));
  again.resume = old;
  const Result from_old = solve(*p, again);
  ASSERT_TRUE(from_old.counts.complete);
  EXPECT_EQ(from_old.counts.unique, resumed.counts.unique);
  EXPECT_FALSE(from_old.rotations.has_value());
  EXPECT_FALSE(read_json_file(old)["counts"].contains("split"));
}

TEST(SymmetryRotations, CheckpointSplitAboveUniqueIsRefused) {
  JobState st;  // (finished: no span pending, all the weight done)
  st.tree.fingerprint = "f";
  st.tree.order = "sorted";
  st.tree.rule = "mrv";
  st.weight_done = 1;
  st.counts.total = 20;
  st.counts.unique = 10;
  st.counts.solutions = 12;
  st.counts.split = 11;
  const CheckpointRun run{"p.json", "auto", "bitset", 2, true};
  try {
    checkpoint_from_json(checkpoint_json(st, run), "c.json");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("counts.split"), std::string::npos) << e.what();
  }
  st.counts.split = 10;
  CheckpointRun back;
  EXPECT_EQ(checkpoint_from_json(checkpoint_json(st, run), "c.json", &back).counts.split, 10u);
  EXPECT_TRUE(back.split);
}

// BurrTools' own examples (from CUBEX_BURRTOOLS_EXAMPLES, as in test_burrtools.cpp): where the
// group has reflections, the one run gives what a separate run up to the rotations finds.
TEST(SymmetryRotations, BurrToolsExamplesAgreeWithARotationsRun) {
  const char* dir = std::getenv("CUBEX_BURRTOOLS_EXAMPLES");
  if (!dir) GTEST_SKIP() << "set CUBEX_BURRTOOLS_EXAMPLES to BurrTools' examples/ folder";
  int with_reflections = 0;
  for (const char* name : {"AlPackino", "CubeInCage", "DemoMirrorParadox", "DemoPieceGenerator",
                           "DraculasDentalDesaster", "PelikanBurr", "SolidSixPieceBurrs"}) {
    SCOPED_TRACE(name);
    const std::string path = std::string(dir) + "/" + name + ".xmpuzzle";
    if (!std::filesystem::exists(path)) continue;
    const auto p = load(path);
    Options o;
    o.threads = 2;
    o.disassemble = true;
    const Plan plan(*p, o);
    const bool reflections = !rotation_subgroup(plan.group()).empty();
    const Result r = solve(*p, o);
    const auto rec = p->recorded_counts();
    EXPECT_EQ(r.rotations.has_value(), reflections && rec && rec->assemblies.has_value());
    if (!r.rotations) continue;
    ++with_reflections;
    Options ro = o;
    ro.symmetry = Symmetry::rotations;
    const Result want = solve(*p, ro);
    EXPECT_EQ(r.rotations->unique, want.counts.unique);
    ASSERT_TRUE(r.rotations->apart_unique.has_value());
    EXPECT_EQ(*r.rotations->apart_unique, want.disassembly->apart_unique);
  }
  EXPECT_GE(with_reflections, 1);  // SolidSixPieceBurrs: 1,063 and 314
}

#ifdef CUBEX_MPIEXEC
// Under MPI the ranks send the split classes with their counts: rank 0 prints them too.
TEST(SymmetryRotations, UnderMpiToo) {
  TempDir dir;
  const std::string f = burrtools_file(dir, "congruent-box.json", 1);
  ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  const auto one =
      cubex::test::run_cubex("solve '" + f + "' --threads 1 --json '" + dir / "one.json" + "'");
  ASSERT_EQ(one.status, 0) << one.output;
  const auto mpi = cubex::test::run_shell(std::string("'") + CUBEX_MPIEXEC +
                                          "' --oversubscribe -n 2 '" + CUBEX_EXE + "' solve '" + f +
                                          "' --mpi --threads 1 --json '" + dir / "mpi.json" + "'");
  ASSERT_EQ(mpi.status, 0) << mpi.output;
  const auto a = nlohmann::json::parse(cubex::test::slurp(dir / "one.json"));
  const auto b = nlohmann::json::parse(cubex::test::slurp(dir / "mpi.json"));
  ASSERT_TRUE(a["recorded"].contains("unique_rotations")) << a["recorded"];
  EXPECT_EQ(b["recorded"], a["recorded"]);
  EXPECT_EQ(b["counts"]["unique"], a["counts"]["unique"]);
}
#endif
#endif  // CUBEX_WITH_BURRTOOLS

}  // namespace
