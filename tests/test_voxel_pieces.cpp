// Voxel pieces beyond "one of each": count ranges and spare pieces (VoxelRanges), congruent
// pieces merged (VoxelCongruent), one-sided flat pieces (VoxelOneSided), and the reasons a puzzle
// has no solution (VoxelNoSolution) - each against the independent brute force of
// voxel_range_brute.hpp.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>
#include <set>

#include "cubex/core/solver.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/voxel/model.hpp"
#include "cubex/voxel/read.hpp"
#include "test_util.hpp"
#include "voxel_helpers.hpp"
#include "voxel_range_brute.hpp"

namespace vx = cubex::voxel;
using cubex::Vec3;

namespace {

using Shape = std::vector<Vec3>;

const std::vector<Shape> kLibrary{
    {{0, 0, 0}},                                   // monomino
    {{0, 0, 0}, {1, 0, 0}},                        // domino
    {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}},             // I tromino
    {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},             // L tromino
    {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 1, 0}},  // T tetromino
    {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}},  // L tetromino
    {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {2, 1, 0}},  // S tetromino
    {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}},  // a screw (3-D)
};

brute::Shape to_brute(const Shape& s) {
  brute::Shape out;
  for (const Vec3& v : s) out.push_back({v.x, v.y, v.z});
  return out;
}

// The brute-force puzzle of a model (pieces as they stand: no merging), `one_sided`: flat pieces
// turned only in their plane.
rbrute::Puzzle brute_of(const vx::Model& m, bool one_sided) {
  rbrute::Puzzle b;
  for (std::size_t k = 0; k < m.cells.size(); ++k) {
    b.cells.push_back({m.cells[k].x, m.cells[k].y, m.cells[k].z});
    b.optional.push_back(m.optional[k] != 0);
  }
  for (const vx::Piece& p : m.pieces) {
    b.orients.push_back(one_sided ? rbrute::plane_turns(to_brute(p.cells))
                                  : brute::orientations(to_brute(p.cells), m.mirror));
    b.lo.push_back(p.fewest());
    b.hi.push_back(p.count);
  }
  return b;
}

vx::Model box_model(int x, int y, int z) {
  vx::Model m;
  for (int a = 0; a < x; ++a)
    for (int b = 0; b < y; ++b)
      for (int c = 0; c < z; ++c) m.cells.push_back({a, b, c});
  m.optional.assign(m.cells.size(), 0);
  return m;
}

// Counts through the front end (merging, compiling, infeasibility); every solution re-verified.
std::uint64_t engine_count(const cubex::Puzzle& p) {
  if (!p.infeasible().empty()) return 0;
  std::uint64_t n = 0;
  cubex::Solver(p.problem()).solve([&](std::span<const cubex::OptionId> s) {
    EXPECT_EQ(p.verify_solution(p.solution_json(s)), "");
    ++n;
    return true;
  });
  return n;
}

}  // namespace

// Random boxes (some cells optional) and random kinds of pieces, each used between min and max
// times (spare pieces: [0, 1]); the engine agrees with the brute force, and a reason given for no
// solution is never wrong.
TEST(VoxelRanges, RangesAndSparesAgreeWithBruteForce) {
  std::mt19937 rng(1717);
  const std::vector<Vec3> boxes{{2, 2, 2}, {2, 3, 1}, {3, 3, 1}, {2, 2, 3}, {2, 4, 1}, {3, 4, 1}};
  int solvable = 0, spares = 0, infeasible = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Vec3 box = boxes[rng() % boxes.size()];
    vx::Model m = box_model(box.x, box.y, box.z);
    if (rng() % 4 == 0) m.optional[rng() % m.cells.size()] = 1;
    m.mirror = rng() % 3 == 0;
    std::set<std::size_t> kinds;
    const int nk = 1 + static_cast<int>(rng() % 4);
    while (static_cast<int>(kinds.size()) < nk) kinds.insert(rng() % kLibrary.size());
    bool spare = false;
    for (std::size_t k : kinds) {
      vx::Piece p{"k" + std::to_string(k), kLibrary[k]};
      const int lo = static_cast<int>(rng() % 2);
      const int hi = std::max(1, lo + static_cast<int>(rng() % 5));
      p.count = hi;
      p.min_count = lo == hi ? -1 : lo;
      spare = spare || lo < hi;
      m.pieces.push_back(p);
    }
    vx::canonicalize(m);
    const std::uint64_t want = rbrute::count(brute_of(m, false));
    const auto puzzle = vx::make_puzzle(m, "random.json");
    const std::string why = puzzle->infeasible();
    if (!why.empty()) {
      EXPECT_EQ(want, 0u) << "trial " << trial << ": said " << why;
      ++infeasible;
      continue;
    }
    EXPECT_EQ(engine_count(*puzzle), want) << "trial " << trial;
    solvable += want > 0;
    spares += spare && want > 0;
  }
  EXPECT_GT(solvable, 60);
  EXPECT_GT(spares, 50);
  EXPECT_GT(infeasible, 20);
}

// "Fill this box with any of these pieces": every kind [0, many].
TEST(VoxelRanges, AnyOfThesePiecesFillsTheBox) {
  const auto m = vxtest::model(R"({"container": {"box": [3, 3, 1]}, "pieces": [
      {"name": "L", "cells": [[0,0,0],[1,0,0],[0,1,0]], "count": [0, 3]},
      {"name": "I", "cells": [[0,0,0],[1,0,0],[2,0,0]], "count": [0, 3]}]})");
  const std::uint64_t want = rbrute::count(brute_of(m, false));
  EXPECT_GT(want, 0u);
  EXPECT_EQ(engine_count(*vx::make_puzzle(m, "t.json")), want);
  // The spare-piece item keeps the bitset backend: 0..1 pieces are secondary items.
  const auto s = vxtest::model(R"({"container": {"box": [2, 2, 1]}, "pieces": [
      {"name": "a", "cells": [[0,0,0],[1,0,0]], "count": [0, 1]},
      {"name": "b", "cells": [[0,0,0],[1,0,0],[0,1,0]], "count": [0, 1]},
      {"name": "c", "cells": [[0,0,0],[1,0,0],[0,1,0],[1,1,0]]}, 
      {"name": "d", "cells": [[0,0,0]], "count": [1, 2]}]})");
  const auto ps = vx::make_puzzle(s, "s.json");
  EXPECT_EQ(engine_count(*ps), rbrute::count(brute_of(s, false)));
}

// Random cuts of a box into pieces: with the default merging, congruent pieces count as one
// piece with a count - the same number as the puzzle written with counts, and as the brute
// force over kinds; marked distinct, every labelling counts (k! times more for k congruent).
TEST(VoxelCongruent, CongruentPiecesCountAsIdentical) {
  std::mt19937 rng(99);
  const std::vector<Vec3> boxes{{2, 2, 2}, {2, 3, 1}, {3, 3, 1}, {2, 2, 3}, {2, 4, 1}};
  int merged_some = 0;
  for (int trial = 0; trial < 25; ++trial) {
    const Vec3 box = boxes[rng() % boxes.size()];
    vx::Model m = box_model(box.x, box.y, box.z);
    // Grow pieces of 1..3 cells from random free cells.
    std::map<Vec3, int> owner;
    std::vector<Shape> cut;
    std::vector<Vec3> order = m.cells;
    std::shuffle(order.begin(), order.end(), rng);
    for (const Vec3& start : order) {
      if (owner.count(start)) continue;
      Shape piece{start};
      owner[start] = static_cast<int>(cut.size());
      const int want = 1 + static_cast<int>(rng() % 3);
      for (int tries = 0; tries < 20 && static_cast<int>(piece.size()) < want; ++tries) {
        const Vec3 from = piece[rng() % piece.size()];
        const Vec3 steps[] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        const Vec3 next = from + steps[rng() % 6];
        if (m.cell_index(next) < 0 &&
            std::find(m.cells.begin(), m.cells.end(), next) == m.cells.end())
          continue;
        if (owner.count(next)) continue;
        owner[next] = static_cast<int>(cut.size());
        piece.push_back(next);
      }
      cut.push_back(piece);
    }
    vx::Model named = m;
    for (std::size_t k = 0; k < cut.size(); ++k)
      named.pieces.push_back({"p" + std::to_string(k), cut[k]});
    vx::canonicalize(named);
    // Kinds by congruence, found here with the brute force's own orientations.
    std::vector<std::set<brute::Shape>> shapes;
    std::vector<int> kind_count;
    std::vector<Shape> kind_shape;
    for (const vx::Piece& p : named.pieces) {
      auto o = brute::orientations(to_brute(p.cells), false);
      std::set<brute::Shape> s(o.begin(), o.end());
      auto it = std::find(shapes.begin(), shapes.end(), s);
      if (it == shapes.end()) {
        shapes.push_back(s);
        kind_count.push_back(1);
        kind_shape.push_back(p.cells);
      } else {
        ++kind_count[std::size_t(it - shapes.begin())];
      }
    }
    vx::Model counted = m;
    std::uint64_t labellings = 1;
    for (std::size_t k = 0; k < kind_shape.size(); ++k) {
      counted.pieces.push_back({"k" + std::to_string(k), kind_shape[k], kind_count[k]});
      for (int f = 2; f <= kind_count[k]; ++f) labellings *= std::uint64_t(f);
    }
    vx::canonicalize(counted);
    const std::uint64_t want = rbrute::count(brute_of(counted, false));
    ASSERT_GT(want, 0u);  // the cut itself is a solution
    const auto merged = vx::make_puzzle(named, "cut.json");
    EXPECT_EQ(engine_count(*merged), want) << "trial " << trial;
    EXPECT_EQ(engine_count(*vx::make_puzzle(counted, "counted.json")), want);
    const bool any = labellings > 1;
    EXPECT_EQ(!merged->notes().empty(), any);
    if (any) {
      EXPECT_NE(merged->notes()[0].find("are congruent: counted as identical"), std::string::npos);
      ++merged_some;
    }
    vx::Model apart = named;
    for (vx::Piece& p : apart.pieces) p.distinct = true;
    const auto distinct = vx::make_puzzle(apart, "apart.json");
    EXPECT_TRUE(distinct->notes().empty());
    EXPECT_EQ(cubex::Solver(distinct->problem()).count().solutions, want * labellings);
  }
  EXPECT_GT(merged_some, 12);
}

// The issue's example: a 2x3x3 box in seven pieces, four congruent dominoes and two congruent
// L-trominoes and a T-tetromino.
TEST(VoxelCongruent, CongruentBoxOfSevenPieces) {
  const auto m = vx::model_from_json(
      nlohmann::json::parse(cubex::test::slurp(vxtest::shipped("congruent-box.json"))),
      "congruent-box.json");
  const auto p = vx::make_puzzle(m, "congruent-box.json");
  ASSERT_EQ(p->notes().size(), 2u);
  EXPECT_EQ(p->notes()[0], "pieces a, b, c and d are congruent: counted as identical");
  EXPECT_EQ(p->notes()[1], "pieces e and f are congruent: counted as identical");
  vx::Model kinds = m;
  vx::merge_congruent(kinds);
  ASSERT_EQ(kinds.pieces.size(), 3u);
  const std::uint64_t want = rbrute::count(brute_of(kinds, false));
  EXPECT_EQ(want, 6720u);
  EXPECT_EQ(cubex::Solver(p->problem()).count().solutions, want);
  vx::Model apart = m;
  for (vx::Piece& q : apart.pieces) q.distinct = true;
  EXPECT_EQ(cubex::Solver(vx::make_puzzle(apart, "x.json")->problem()).count().solutions,
            want * 24 * 2);
}

// One-sided flat pieces: random flat puzzles against a 2-D brute force that only turns pieces
// in the plane; with turning over allowed, against the 3-D orientations.
TEST(VoxelOneSided, OneSidedPiecesAgreeWithPlaneBruteForce) {
  std::mt19937 rng(4);
  const std::vector<Vec3> boxes{{3, 3, 1}, {2, 4, 1}, {3, 4, 1}, {4, 4, 1}, {2, 5, 1}};
  int differ = 0, solvable = 0;
  for (int trial = 0; trial < 140; ++trial) {
    const Vec3 box = boxes[rng() % boxes.size()];
    vx::Model m = box_model(box.x, box.y, box.z);
    std::set<std::size_t> kinds;
    const int nk = 1 + static_cast<int>(rng() % 3);
    while (static_cast<int>(kinds.size()) < nk) kinds.insert(rng() % 7);  // flat ones
    for (std::size_t k : kinds) {
      vx::Piece p{"k" + std::to_string(k), kLibrary[k]};
      p.count = 1 + static_cast<int>(rng() % 4);
      p.min_count = static_cast<int>(rng() % (p.count + 1));
      if (p.min_count == p.count) p.min_count = -1;
      m.pieces.push_back(p);
    }
    m.turn_over = false;
    vx::canonicalize(m);
    const std::uint64_t one = rbrute::count(brute_of(m, true));
    EXPECT_EQ(engine_count(*vx::make_puzzle(m, "flat.json")), one) << "trial " << trial;
    vx::Model both = m;
    both.turn_over = true;
    const std::uint64_t two = rbrute::count(brute_of(both, false));
    EXPECT_EQ(engine_count(*vx::make_puzzle(both, "flat2.json")), two) << "trial " << trial;
    differ += one != two;
    solvable += one > 0;
  }
  EXPECT_GT(differ, 8);
  EXPECT_GT(solvable, 12);
}

TEST(VoxelOneSided, ShippedPuzzlesAgreeWithBruteForce) {
  auto load = [](const std::string& file) {
    return vx::model_from_json(nlohmann::json::parse(cubex::test::slurp(vxtest::shipped(file))),
                               file);
  };
  // One-sided tetrominoes without the T in 4x6: face up only, S and Z (L and J) stay apart.
  const auto m = load("tetrominoes-one-sided-4x6.json");
  ASSERT_FALSE(m.turn_over);
  const auto p = vx::make_puzzle(m, "t.json");
  EXPECT_TRUE(p->notes().empty());
  const std::uint64_t one = rbrute::count(brute_of(m, true));
  EXPECT_EQ(one, 2u);
  EXPECT_EQ(engine_count(*p), one);
  // Turned over, S = Z and L = J: merged, and the brute force over the merged kinds agrees.
  vx::Model both = m;
  both.turn_over = true;
  const auto p2 = vx::make_puzzle(both, "t2.json");
  EXPECT_EQ(p2->notes().size(), 2u);
  vx::merge_congruent(both);
  EXPECT_EQ(both.pieces.size(), 4u);
  EXPECT_EQ(engine_count(*p2), rbrute::count(brute_of(both, false)));
  EXPECT_EQ(engine_count(*p2), 22u);
  // All seven in 4x7: the checkerboard says no before any search, and the brute force agrees.
  const auto seven = load("tetrominoes-one-sided-4x7.json");
  EXPECT_EQ(vx::make_puzzle(seven, "t7.json")->infeasible().rfind("checkerboard", 0), 0u);
  EXPECT_EQ(rbrute::count(brute_of(seven, true)), 0u);
  // Any five of the twelve pentominoes ([0, 1] each) in a 5x5 square.
  const auto any = load("pentominoes-any-5x5.json");
  const auto pa = vx::make_puzzle(any, "any.json");
  EXPECT_EQ(cubex::Solver(pa->problem()).backend(), cubex::Backend::kBitset);  // spares: secondary
  EXPECT_EQ(engine_count(*pa), rbrute::count(brute_of(any, false)));
  // The 18 one-sided pentominoes: 18 pieces, none merged, and a first solution that verifies.
  const auto os = load("pentominoes-one-sided.json");
  ASSERT_EQ(os.pieces.size(), 18u);
  const auto po = vx::make_puzzle(os, "os.json");
  EXPECT_TRUE(po->notes().empty());
  const auto first = cubex::Solver(po->problem()).first();
  ASSERT_TRUE(first);
  EXPECT_EQ(po->verify_solution(po->solution_json(*first)), "");
}

TEST(VoxelOneSided, TurnOverNeedsAFlatPuzzle) {
  auto error = [](const std::string& text) {
    try {
      vxtest::model(text);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error(R"({"turn_over": false, "container": {"box": [2,2,2]},
                      "pieces": [{"name": "a", "cells": [[0,0,0]], "count": 8}]})")
                .find("expected a flat container"),
            std::string::npos);
  EXPECT_NE(error(R"({"turn_over": false, "mirror": true, "container": {"box": [2,2,1]},
                      "pieces": [{"name": "a", "cells": [[0,0,0]], "count": 4}]})")
                .find("without \"mirror\""),
            std::string::npos);
  EXPECT_NE(error(R"({"container": {"box": [2,2,1]},
                      "pieces": [{"name": "a", "cells": [[0,0,0]], "count": [3, 2]}]})")
                .find("min <= max"),
            std::string::npos);
  EXPECT_NE(error(R"({"container": {"box": [2,2,1]},
                      "pieces": [{"name": "a", "cells": [[0,0,0]], "distinct": 1}]})")
                .find("pieces[0].distinct: expected true or false"),
            std::string::npos);
}

// Each reason, and that the search is not needed to find it.
TEST(VoxelNoSolution, ReasonsForNoSolution) {
  auto why = [](const std::string& text) {
    return vx::make_puzzle(vxtest::model(text), "why.json")->infeasible();
  };
  EXPECT_EQ(
      why(R"({"container": {"box": [3,1,1]}, "pieces": [{"name": "a", "cells": [[0,0,0],[1,0,0]], "count": 2}]})"),
      "the cells do not add up: the pieces have 4 cells, more than the container's 3");
  EXPECT_EQ(
      why(R"({"container": {"box": [3,1,1]}, "pieces": [{"name": "a", "cells": [[0,0,0],[1,0,0]]}]})"),
      "the cells do not add up: the pieces have at most 2 cells, fewer than the "
      "container's 3 cells to fill");
  EXPECT_EQ(
      why(R"({"container": {"box": [5,1,1]}, "pieces": [{"name": "a", "cells": [[0,0,0],[1,0,0]], "count": [0, 3]}]})"),
      "the cells do not add up: no choice of the pieces' counts covers exactly 5 cells");
  EXPECT_EQ(
      why(R"({"container": {"box": [4,1,1]}, "pieces": [{"name": "a", "cells": [[0,0,0],[1,0,0]]}, {"name": "b", "cells": [[0,0,0],[1,1,0]]}]})"),
      "piece 'b' fits nowhere in the container");
  // A T-tetromino covers 3 + 1 cells of a checkerboard, a domino 1 + 1: never 3 + 3.
  const std::string t = why(R"({"container": {"box": [2,3,1]}, "pieces": [
      {"name": "T", "cells": [[0,0,0],[1,0,0],[2,0,0],[1,1,0]]},
      {"name": "D", "cells": [[0,0,0],[1,0,0]]}]})");
  EXPECT_EQ(t.rfind("checkerboard: ", 0), 0u) << t;
  EXPECT_NE(t.find("3 black and 3 white"), std::string::npos) << t;
  EXPECT_NE(t.find("T +/-2, D 0"), std::string::npos) << t;
  // A spare piece that fits nowhere is no reason; a feasible puzzle has none.
  EXPECT_EQ(
      why(R"({"container": {"box": [2,1,1]}, "pieces": [{"name": "a", "cells": [[0,0,0],[1,0,0]]}, {"name": "b", "cells": [[0,0,0],[1,1,0]], "count": [0,1]}]})"),
      "");
  // A piece in two parts: a warning, and the puzzle is still solved.
  const auto p = vx::make_puzzle(vxtest::model(R"({"container": {"box": [3,1,1]}, "pieces": [
      {"name": "split", "cells": [[0,0,0],[2,0,0]]}, {"name": "m", "cells": [[0,0,0]]}]})"),
                                 "w.json");
  ASSERT_EQ(p->notes().size(), 1u);
  EXPECT_EQ(
      p->notes()[0],
      "warning: piece 'split' is not connected: its cells fall into 2 parts (solved as given)");
  EXPECT_EQ(cubex::Solver(p->problem()).count().solutions, 1u);
}

TEST(VoxelNoSolution, CliReportsTheReasonWithExitZero) {
  cubex::test::TempDir dir;
  const std::string in = (dir.path / "t.json").string(), out = (dir.path / "o.json").string();
  std::ofstream(in) << R"({"container": {"box": [2,3,1]}, "pieces": [
      {"name": "T", "cells": [[0,0,0],[1,0,0],[2,0,0],[1,1,0]]},
      {"name": "D", "cells": [[0,0,0],[1,0,0]]}]})";
  const auto r = cubex::test::run_cubex("solve '" + in + "' --json '" + out + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("no solution: checkerboard"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("solutions: 0"), std::string::npos) << r.output;
  const auto j = nlohmann::json::parse(cubex::test::slurp(out));
  EXPECT_EQ(j["counts"]["total"], 0);
  EXPECT_EQ(j["infeasible"]["reason"].get<std::string>().rfind("checkerboard", 0), 0u);

  const auto c = cubex::test::run_cubex("solve '" + vxtest::shipped("congruent-box.json") + "'");
  EXPECT_EQ(c.status, 0) << c.output;
  EXPECT_NE(c.output.find("pieces a, b, c and d are congruent: counted as identical"),
            std::string::npos)
      << c.output;
  EXPECT_NE(c.output.find("solutions: 6,720"), std::string::npos) << c.output;
}

// Solutions that name pieces one by one (written with every piece distinct, or before congruent
// pieces were merged) still verify against the merged puzzle: a merged piece is checked with its
// own cells and counted as copies of the piece it joined. A piece placed twice under two names,
// an unknown name and a copy out of range are still refused.
TEST(VoxelCongruent, SolutionsNamingMergedPiecesStillVerify) {
  const auto m = vx::model_from_json(
      nlohmann::json::parse(cubex::test::slurp(vxtest::shipped("congruent-box.json"))),
      "congruent-box.json");
  const auto merged = vx::make_puzzle(m, "congruent-box.json");
  vx::Model apart = m;
  for (vx::Piece& q : apart.pieces) q.distinct = true;
  const auto distinct = vx::make_puzzle(apart, "x.json");
  cubex::Solver solver(distinct->problem());
  int checked = 0;
  solver.solve([&](std::span<const cubex::OptionId> s) {
    const nlohmann::json j = distinct->solution_json(s);
    EXPECT_EQ(merged->verify_solution(j), "") << j.dump();
    return ++checked < 200;
  });
  EXPECT_EQ(checked, 200);

  const auto first = solver.first();
  ASSERT_TRUE(first.has_value());
  const nlohmann::json good = distinct->solution_json(*first);
  ASSERT_TRUE(good.contains("placements"));
  std::size_t b = 0, c = 0;  // the placements of dominoes b and c
  for (std::size_t k = 0; k < good["placements"].size(); ++k) {
    if (good["placements"][k]["piece"] == "b") b = k;
    if (good["placements"][k]["piece"] == "c") c = k;
  }
  nlohmann::json twice = good;  // b's placement also claimed as copy 0 of a, beside a itself
  twice["placements"][b]["piece"] = "a";
  EXPECT_NE(merged->verify_solution(twice).find("is placed twice"), std::string::npos)
      << merged->verify_solution(twice);
  nlohmann::json unknown = good;
  unknown["placements"][c]["piece"] = "z";
  EXPECT_NE(merged->verify_solution(unknown).find("expected a piece of the puzzle, found 'z'"),
            std::string::npos);
  nlohmann::json copy = good;
  copy["placements"][c]["copy"] = 1;
  EXPECT_NE(merged->verify_solution(copy).find("expected a copy of 'c' between 0 and 0"),
            std::string::npos)
      << merged->verify_solution(copy);
}

TEST(SmallThings, ManyCongruentPiecesGiveAShortNote) {
  cubex::voxel::Model m;
  m.name = "many";
  for (int k = 0; k < 100000; ++k) {
    m.cells.push_back({k % 100, k / 100, 0});
    m.optional.push_back(0);
    m.pieces.push_back({"p" + std::to_string(k), {{0, 0, 0}}});
  }
  cubex::voxel::canonicalize(m);
  const std::vector<std::string> notes = cubex::voxel::merge_congruent(m);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_LT(notes[0].size(), 200u) << notes[0];
  EXPECT_EQ(notes[0],
            "pieces p0, p1, p2, p3, p4, p5, p6, p7, p8, p9 and 99,990 more are congruent: counted "
            "as identical");
  EXPECT_EQ(m.pieces.size(), 1u);
  EXPECT_EQ(m.pieces[0].count, 100000);
}
