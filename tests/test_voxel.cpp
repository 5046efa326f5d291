// Voxel puzzles: orientations, compilation, known totals, decoding, verification, drawing.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "cubex/knuth/format.hpp"
#include "cubex/util/files.hpp"
#include "test_util.hpp"
#include "voxel_brute.hpp"
#include "voxel_helpers.hpp"

using cubex::OptionId;
using cubex::Solver;
using cubex::Vec3;
namespace vx = cubex::voxel;

namespace {

std::vector<Vec3> cells(std::initializer_list<Vec3> c) {
  return {c};
}

}  // namespace

TEST(VoxelOrientations, CountsPerPiece) {
  EXPECT_EQ(vx::orientations(cells({{0, 0, 0}}), false).size(), 1u);
  EXPECT_EQ(vx::orientations(cells({{0, 0, 0}}), true).size(), 1u);
  const auto l3 = cells({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
  EXPECT_EQ(vx::orientations(l3, false).size(), 12u);
  EXPECT_EQ(vx::orientations(l3, true).size(), 12u);  // the L is its own mirror image
  const auto rod = cells({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}});
  EXPECT_EQ(vx::orientations(rod, false).size(), 3u);
  // Soma A: a half turn about a diagonal axis maps it to itself (12); its mirror image is B (24).
  const auto a = cells({{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 0, 1}});
  EXPECT_EQ(vx::orientations(a, false).size(), 12u);
  EXPECT_EQ(vx::orientations(a, true).size(), 24u);
  // A rod of 4 with bumps +y at x=1 and +z at x=3: no symmetry at all, 24 rotations, 48 in all.
  const auto none = cells({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {1, 1, 0}, {3, 0, 1}});
  EXPECT_EQ(vx::orientations(none, false).size(), 24u);
  EXPECT_EQ(vx::orientations(none, true).size(), 48u);
  // Y-pentacube: 24 rotations; its mirror image is a rotation of it.
  const auto y = cells({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {1, 1, 0}});
  EXPECT_EQ(vx::orientations(y, false).size(), 24u);
  EXPECT_EQ(vx::orientations(y, true).size(), 24u);
  const auto cube2 = cells(
      {{0, 0, 0}, {0, 0, 1}, {0, 1, 0}, {0, 1, 1}, {1, 0, 0}, {1, 0, 1}, {1, 1, 0}, {1, 1, 1}});
  EXPECT_EQ(vx::orientations(cube2, true).size(), 1u);
}

TEST(VoxelOrientations, AgreeWithTheBruteForceClosureAndKeepTheirMatrix) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    // A random polycube of 1..6 cells grown from the origin.
    std::vector<Vec3> c{{0, 0, 0}};
    const int size = 1 + int(rng() % 6);
    while (int(c.size()) < size) {
      Vec3 next = c[rng() % c.size()];
      const int axis = int(rng() % 3), dir = rng() % 2 ? 1 : -1;
      next = next + Vec3{axis == 0 ? dir : 0, axis == 1 ? dir : 0, axis == 2 ? dir : 0};
      if (std::find(c.begin(), c.end(), next) == c.end()) c.push_back(next);
    }
    brute::Shape s;
    for (const Vec3& v : c) s.push_back({v.x, v.y, v.z});
    for (bool mirror : {false, true}) {
      const auto mine = vx::orientations(c, mirror);
      EXPECT_EQ(mine.size(), brute::orientations(s, mirror).size());
      for (const auto& o : mine) {
        std::vector<Vec3> moved;
        for (const Vec3& v : c) moved.push_back(cubex::cube_symmetries()[o.symmetry] * v + o.shift);
        std::sort(moved.begin(), moved.end());
        EXPECT_EQ(moved, o.cells);
        EXPECT_EQ(o.symmetry >= 24, mirror && o.symmetry >= 24);
      }
    }
  }
}

TEST(VoxelCompile, ItemsAndMultiplicities) {
  auto m = vxtest::model(R"({"container": {"layers": [["##+", "#.#"]]},
    "pieces": [{"name": "d", "cells": [[0,0,0],[1,0,0]], "count": 2}, {"name": "m", "cells": [[5,5,5]]}]})");
  // Cells: must-fill (0,0) (1,0) (0,1) (2,1), optional (2,0). Pieces fill 5 cells of 5.
  auto c = vx::compile(m);
  const auto& pb = c.problem;
  EXPECT_EQ(pb.num_items(), 2u + 5u);
  EXPECT_EQ(pb.num_primary(), 2u + 4u);
  EXPECT_EQ(pb.item(c.piece_item[0]).lo, 2u);
  EXPECT_EQ(pb.item(c.piece_item[0]).hi, 2u);
  EXPECT_EQ(pb.item(c.piece_item[1]).hi, 1u);
  EXPECT_FALSE(pb.item(*pb.find("200")).primary);
  ASSERT_EQ(c.placements.size(), pb.num_options());
  // Every option is its placement: the piece item then the cells.
  for (OptionId o = 0; o < pb.num_options(); ++o) {
    const auto& pl = c.placements[o];
    EXPECT_EQ(pb.option(o)[0], c.piece_item[std::size_t(pl.piece)]);
    ASSERT_EQ(pb.option(o).size(), pl.cells.size() + 1);
    for (std::size_t k = 0; k < pl.cells.size(); ++k) {
      EXPECT_EQ(pb.option(o)[k + 1], c.cell_item[std::size_t(m.cell_index(pl.cells[k]))]);
    }
  }
  // Dominoes: (0,0)-(1,0), (1,0)-(2,0), (0,0)-(0,1), (2,0)-(2,1); the monomino anywhere: 5.
  // The five cells form a path (0,1) (0,0) (1,0) (2,0) (2,1) that all pieces fill: the monomino
  // on the 1st, 3rd or 5th cell of it, the dominoes on the rest: 3 solutions.
  EXPECT_EQ(pb.num_options(), 4u + 5u);
  EXPECT_EQ(vxtest::count(m), 3u);
}

TEST(VoxelCompile, IdenticalCopiesCountOnceNotCountFactorialTimes) {
  // Two dominoes in a 2x2 square: 2 tilings. As two named pieces the engine tells them apart: 4.
  auto same = vxtest::model(R"({"container": {"box": [2,2,1]},
    "pieces": [{"name": "d", "cells": [[0,0,0],[1,0,0]], "count": 2}]})");
  auto named = vxtest::model(R"({"container": {"box": [2,2,1]},
    "pieces": [{"name": "d", "cells": [[0,0,0],[1,0,0]]}, {"name": "e", "cells": [[0,0,0],[1,0,0]]}]})");
  EXPECT_EQ(vxtest::count(same), 2u);
  EXPECT_EQ(vxtest::count(named), 4u);
  // A single kind of piece filling the box exactly needs no piece item: the 4 cells say it all.
  EXPECT_EQ(vx::compile(same).problem.num_items(), 4u);
  // With a cell that may stay empty the piece item is back: one item for both copies.
  auto spare = vxtest::model(R"({"container": {"cells": [[0,0,0],[1,0,0],[0,1,0],[1,1,0]],
    "optional": [[2,0,0]]}, "pieces": [{"name": "d", "cells": [[0,0,0],[1,0,0]], "count": 2}]})");
  const auto c = vx::compile(spare);
  EXPECT_EQ(c.problem.num_items(), 1u + 4u + 1u);
  EXPECT_EQ(c.problem.item(c.piece_item[0]).lo, 2u);
  EXPECT_EQ(vxtest::count(spare), 2u);
}

TEST(VoxelCompile, MirrorAddsTheMirrorImages) {
  // Soma with mirror images allowed: A and B become interchangeable shapes, more solutions.
  auto m = vx::model_from_json(
      nlohmann::json::parse(cubex::read_file(vxtest::shipped("soma.json"))), "soma");
  const auto plain = vxtest::count(m);
  EXPECT_EQ(plain, 11520u);
  m.mirror = true;
  auto c = vx::compile(m);
  std::set<int> syms;
  for (const auto& pl : c.placements) syms.insert(pl.symmetry >= 24);
  EXPECT_EQ(syms.size(), 2u);  // mirrored orientations are used
  EXPECT_GT(Solver(c.problem).count().solutions, plain);
}

TEST(VoxelCompile, NamesAreValidKnuthNames) {
  // Blanks, '|', long names, and a name equal to a cell's item name all get "#k".
  auto m = vxtest::model(R"({"container": {"box": [3,1,1]},
    "pieces": [{"name": "a b", "cells": [[0,0,0]]}, {"name": "100", "cells": [[0,0,0]]},
               {"name": "x|y", "cells": [[0,0,0]]}]})");
  auto c = vx::compile(m);
  const std::string text = cubex::to_knuth(c.problem);
  auto back = cubex::parse_knuth(text, "roundtrip");
  EXPECT_EQ(back.problem.num_items(), c.problem.num_items());
  EXPECT_EQ(back.problem.num_options(), c.problem.num_options());
  EXPECT_EQ(Solver(back.problem).count().solutions, 6u);
  EXPECT_TRUE(back.problem.find("#0"));
  EXPECT_TRUE(back.problem.find("#1"));
  EXPECT_TRUE(back.problem.find("#2"));
}

// The compiled matrix equals the hand-made one in shared/data/xc: the same options as sets of
// item names (pieces that the .dlx file leaves implicit are dropped from ours).
TEST(VoxelCompile, SameOptionsAsTheReferenceDlxFiles) {
  struct Case {
    const char* puzzle;
    const char* dlx;
  };
  for (const Case& k :
       {Case{"soma.json", "soma.dlx"}, Case{"l-tricubes.json", "l9.dlx"},
        Case{"pentominoes-6x10.json", "pent6x10.dlx"}, Case{"conway.json", "conway_mult.dlx"}}) {
    SCOPED_TRACE(k.puzzle);
    auto puzzle = cubex::load_puzzle(vxtest::shipped(k.puzzle));
    auto ref = cubex::read_knuth_file(cubex::test::xc_file(k.dlx));
    auto ours = cubex::parse_knuth(cubex::to_knuth(puzzle->problem()), "ours");
    auto options = [](const cubex::Problem& pb, const cubex::Problem& names) {
      std::multiset<std::vector<std::string>> out;
      for (OptionId o = 0; o < pb.num_options(); ++o) {
        std::vector<std::string> v;
        for (auto i : pb.option(o)) {
          std::string n = pb.item(i).name;
          if (n.size() == 2 && std::isdigit(static_cast<unsigned char>(n[0])))
            n += '0';  // flat "xy"
          if (std::isdigit(static_cast<unsigned char>(n[0])) || names.find(n)) v.push_back(n);
        }
        std::sort(v.begin(), v.end());
        out.insert(v);
      }
      return out;
    };
    EXPECT_EQ(options(ours.problem, ref.problem), options(ref.problem, ref.problem));
  }
}

TEST(VoxelKnownTotals, LTricubes) {
  EXPECT_EQ(
      Solver(cubex::load_puzzle(vxtest::shipped("l-tricubes.json"))->problem()).count().solutions,
      5328u);
}
TEST(VoxelKnownTotals, Soma) {
  EXPECT_EQ(Solver(cubex::load_puzzle(vxtest::shipped("soma.json"))->problem()).count().solutions,
            11520u);
}
TEST(VoxelKnownTotals, Pentominoes6x10) {
  EXPECT_EQ(Solver(cubex::load_puzzle(vxtest::shipped("pentominoes-6x10.json"))->problem())
                .count()
                .solutions,
            9356u);
}
TEST(VoxelKnownTotals, Conway) {
  EXPECT_EQ(Solver(cubex::load_puzzle(vxtest::shipped("conway.json"))->problem()).count().solutions,
            27456u);
}

// Every solution of the L-tricube cube decodes to nine placements, copies 0..8 in order of their
// smallest cell, with a rotation matrix and offset that reproduce the cells; verify accepts all.
TEST(VoxelDecode, CopiesRotationsOffsetsAndVerify) {
  auto puzzle = cubex::load_puzzle(vxtest::shipped("l-tricubes.json"));
  std::uint64_t n = 0;
  Solver(puzzle->problem()).solve([&](std::span<const OptionId> s) {
    const auto j = puzzle->solution_json(s);
    const auto& ps = j["placements"];
    EXPECT_EQ(ps.size(), 9u);
    std::vector<int> first;
    for (std::size_t k = 0; k < ps.size(); ++k) {
      EXPECT_EQ(ps[k]["piece"], "L");
      EXPECT_EQ(ps[k]["copy"], int(k));
      EXPECT_EQ(ps[k]["mirrored"], false);
      const auto c0 = ps[k]["cells"][0];
      first.push_back(c0[0].get<int>() * 100 + c0[1].get<int>() * 10 + c0[2].get<int>());
    }
    EXPECT_TRUE(std::is_sorted(first.begin(), first.end()));
    const std::string why = puzzle->verify_solution(j);
    EXPECT_EQ(why, "");
    ++n;
    return why.empty();
  });
  EXPECT_EQ(n, 5328u);
}

// Tampered solutions are rejected with the reason.
TEST(VoxelVerify, RejectsTamperedSolutions) {
  auto puzzle = cubex::load_puzzle(vxtest::shipped("soma.json"));
  const auto sol = Solver(puzzle->problem()).first();
  ASSERT_TRUE(sol);
  const nlohmann::json good = puzzle->solution_json(*sol);
  ASSERT_EQ(puzzle->verify_solution(good), "");
  auto tamper = [&](auto&& edit) {
    nlohmann::json j = good;
    edit(j["placements"]);
    return puzzle->verify_solution(j);
  };
  auto expect_bad = [](const std::string& why, const std::string& part) {
    EXPECT_NE(why.find(part), std::string::npos) << why;
  };
  // A cell moved: no longer the piece's shape.
  expect_bad(tamper([](auto& p) {
               p[0]["cells"][0][0] = p[0]["cells"][0][0].template get<int>() == 0 ? 2 : 0;
             }),
             "placements[0]: its cells are not");
  // The whole placement moved by one along x (cells and offset agree): leaves the box or overlaps.
  expect_bad(tamper([](auto& p) {
               for (auto& c : p[1]["cells"]) c[0] = c[0].template get<int>() + 3;
               p[1]["offset"][0] = p[1]["offset"][0].template get<int>() + 3;
             }),
             "outside the container");
  // Two pieces swapped names: shapes no longer match.
  expect_bad(tamper([](auto& p) { std::swap(p[0]["piece"], p[1]["piece"]); }), "its cells are not");
  // A placement dropped: a piece missing.
  expect_bad(tamper([](auto& p) { p.erase(p.size() - 1); }), "missing");
  // A placement twice.
  expect_bad(tamper([](auto& p) { p.push_back(p[0]); }), "placed twice");
  // A reflection given as "rotation".
  expect_bad(tamper([](auto& p) {
               p[0]["rotation"] = {{-1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
             }),
             "expected a rotation");
  // Mirrored in a puzzle without mirror images.
  expect_bad(tamper([](auto& p) { p[0]["mirrored"] = true; }), "does not allow mirror");
  expect_bad(tamper([](auto& p) { p[0]["piece"] = "Q"; }), "found 'Q'");
  expect_bad(tamper([](auto& p) { p[0]["copy"] = 1; }), "between 0 and 0");
  expect_bad(tamper([](auto& p) { p[0].erase("offset"); }), "placements[0]: expected a \"offset\"");
  expect_bad(tamper([](auto& p) { p[2]["cells"][1] = "x"; }), "placements[2].cells[1]");
}

TEST(VoxelVerify, OptionalCellsAndOverlaps) {
  auto m = vxtest::model(R"({"container": {"cells": [[0,0,0],[1,0,0]], "optional": [[2,0,0]]},
    "pieces": [{"name": "d", "cells": [[0,0,0],[1,0,0]]}]})");
  auto claim = [](std::vector<Vec3> cells, Vec3 offset) {
    vx::ClaimedPlacement c;
    c.piece = "d";
    c.rotation = cubex::Mat3::identity();
    c.offset = offset;
    c.cells = std::move(cells);
    return c;
  };
  std::vector<vx::ClaimedPlacement> ok{claim({{0, 0, 0}, {1, 0, 0}}, {0, 0, 0})};
  EXPECT_EQ(vx::verify(m, ok), "");
  std::vector<vx::ClaimedPlacement> shifted{claim({{1, 0, 0}, {2, 0, 0}}, {1, 0, 0})};
  EXPECT_NE(vx::verify(m, shifted).find("must-fill cell covered, found [0,0,0] empty"),
            std::string::npos);
  EXPECT_EQ(vxtest::count(m), 1u);
}

// The drawing: one letter per piece, layers side by side, '+' for an optional cell left empty.
TEST(VoxelDraw, LayersSideBySide) {
  auto m = vxtest::model(R"({"container": {"layers": [["##", "#+"], ["#.", ".."]]},
    "pieces": [{"name": "L", "cells": [[0,0,0],[1,0,0],[0,1,0]]}, {"name": "o", "cells": [[0,0,0]]}]})");
  auto c = vx::compile(m);
  // The L lies flat in z=0 (the monomino above it) or stands up (the monomino at (0,1,0)).
  std::set<std::string> drawings;
  Solver(c.problem).solve([&](std::span<const OptionId> s) {
    drawings.insert(vx::draw(m, vx::decode(c, s)));
    return true;
  });
  EXPECT_EQ(drawings,
            (std::set<std::string>{"z=0  z=1\nLL   o.\nL+   ..\n", "z=0  z=1\nLL   L.\no+   ..\n",
                                   "z=0  z=1\nLo   L.\nL+   ..\n"}));
  // The first copy keeps the name, the others get free letters, and a legend says which.
  auto m2 = vxtest::model(
      R"({"container": {"box": [2,1,1]}, "pieces": [{"name": "u", "cells": [[0,0,0]], "count": 2}]})");
  auto c2 = vx::compile(m2);
  EXPECT_EQ(vx::draw(m2, vx::decode(c2, *Solver(c2.problem).first())), "z=0\nuA\nu=u#0 A=u#1\n");
}

// Random small puzzles (optional cells, identical pieces, mirror) against the brute force.
TEST(VoxelBruteForce, AgreesOnRandomSmallPuzzles) {
  std::mt19937 rng(2024);
  int solvable = 0, with_copies = 0, with_optional = 0, with_mirror = 0;
  for (int trial = 0; trial < 400; ++trial) {
    SCOPED_TRACE(trial);
    const int X = 2 + int(rng() % 2), Y = 2 + int(rng() % 2), Z = 1 + int(rng() % 2);
    vx::Model m;
    m.mirror = rng() % 2;
    for (int z = 0; z < Z; ++z)
      for (int y = 0; y < Y; ++y)
        for (int x = 0; x < X; ++x)
          if (rng() % 8) {
            m.cells.push_back({x, y, z});
            m.optional.push_back(rng() % 5 == 0);
          }
    if (m.cells.empty()) continue;
    // Cut pieces out of the container (so most puzzles have a solution), some in optional cells.
    std::vector<int> owner(m.cells.size(), -1);
    std::vector<std::vector<Vec3>> cut;
    for (std::size_t k = 0; k < m.cells.size(); ++k) {
      if (owner[k] >= 0 || (m.optional[k] && rng() % 2)) continue;
      std::vector<Vec3> piece{m.cells[k]};
      owner[k] = int(cut.size());
      const int size = 2 + int(rng() % 3);
      for (int tries = 0; tries < 20 && int(piece.size()) < size; ++tries) {
        const Vec3 from = piece[rng() % piece.size()];
        const int axis = int(rng() % 3), dir = rng() % 2 ? 1 : -1;
        const Vec3 to = from + Vec3{axis == 0 ? dir : 0, axis == 1 ? dir : 0, axis == 2 ? dir : 0};
        const int i = m.cell_index(to);
        if (i >= 0 && owner[std::size_t(i)] < 0) {
          owner[std::size_t(i)] = int(cut.size());
          piece.push_back(to);
        }
      }
      cut.push_back(piece);
    }
    if (rng() % 4 == 0 && !cut.empty()) {  // spoil one piece: often no solution, or a new one
      auto& p = cut[rng() % cut.size()];
      const Vec3 moved = p.front() + Vec3{1, 1, 0};
      if (p.size() > 1 && std::find(p.begin(), p.end(), moved) == p.end()) p.back() = moved;
    }
    // Congruent pieces (under the puzzle's moves) become one piece with a count.
    std::vector<std::vector<brute::Shape>> seen;
    brute::Puzzle b;
    b.mirror = m.mirror;
    for (std::size_t k = 0; k < m.cells.size(); ++k) {
      b.cells.push_back({m.cells[k].x, m.cells[k].y, m.cells[k].z});
      b.optional.push_back(m.optional[k]);
    }
    for (const auto& p : cut) {
      brute::Shape s;
      for (const Vec3& v : p) s.push_back({v.x, v.y, v.z});
      auto orbit = brute::orientations(s, m.mirror);
      auto it = std::find(seen.begin(), seen.end(), orbit);
      if (it != seen.end()) {
        ++m.pieces[std::size_t(it - seen.begin())].count;
        ++b.counts[std::size_t(it - seen.begin())];
        continue;
      }
      seen.push_back(orbit);
      m.pieces.push_back({"p" + std::to_string(m.pieces.size()), p, 1});
      b.pieces.push_back(s);
      b.counts.push_back(1);
    }
    vx::canonicalize(m);
    const std::uint64_t want = brute::count(b);
    std::uint64_t got = 0;
    try {
      auto c = vx::compile(m);
      Solver(c.problem).solve([&](std::span<const OptionId> s) {
        ++got;
        // Every solution re-checks through the independent verifier.
        std::vector<vx::ClaimedPlacement> claims;
        for (const auto& p : vx::decode(c, s)) {
          claims.push_back({m.pieces[std::size_t(p.piece)].name, p.copy,
                            vx::rotation_part(p.symmetry), p.symmetry >= 24, p.offset, p.cells});
        }
        EXPECT_EQ(vx::verify(m, claims), "");
        return true;
      });
    } catch (const vx::ModelError&) {
      got = 0;  // a piece that fits nowhere, or volumes that cannot match: no solution
    }
    EXPECT_EQ(got, want);
    solvable += want > 0;
    bool copies = false, optional = false;
    for (const auto& p : m.pieces) copies = copies || p.count > 1;
    for (auto o : m.optional) optional = optional || o;
    with_copies += copies && want > 0;
    with_optional += optional && want > 0;
    with_mirror += m.mirror && want > 0;
  }
  // The generator really exercised what it is meant to.
  EXPECT_GT(solvable, 100);
  EXPECT_GT(with_copies, 30);
  EXPECT_GT(with_optional, 30);
  EXPECT_GT(with_mirror, 30);
}

namespace {

// The first number in `text` that is followed by " solutions", commas dropped.
std::uint64_t stated_count(const std::string& text) {
  const std::size_t end = text.find(" solutions");
  if (end == std::string::npos) return 0;
  std::size_t begin = end;
  while (begin > 0 &&
         (std::isdigit(static_cast<unsigned char>(text[begin - 1])) || text[begin - 1] == ','))
    --begin;
  std::string digits;
  for (std::size_t k = begin; k < end; ++k)
    if (text[k] != ',') digits += text[k];
  return digits.empty() ? 0 : std::stoull(digits);
}

brute::Puzzle to_brute(const vx::Model& m) {
  brute::Puzzle b;
  b.mirror = m.mirror;
  for (std::size_t k = 0; k < m.cells.size(); ++k) {
    b.cells.push_back({m.cells[k].x, m.cells[k].y, m.cells[k].z});
    b.optional.push_back(m.optional[k] != 0);
  }
  for (const auto& p : m.pieces) {
    brute::Shape s;
    for (const Vec3& v : p.cells) s.push_back({v.x, v.y, v.z});
    b.pieces.push_back(s);
    b.counts.push_back(p.count);
  }
  return b;
}

}  // namespace

// The shipped 3x3x3 puzzles: the engine, the brute force and the count stated in the file agree.
TEST(VoxelBruteForce, ShippedCubesAgreeWithTheirStatedCounts) {
  for (const char* file : {"l-tricubes.json", "soma.json", "slothouber-graatsma.json",
                           "wooden-cube-6.txt", "wooden-cube-7.json"}) {
    SCOPED_TRACE(file);
    const std::string text = cubex::read_file(vxtest::shipped(file));
    const bool txt = std::string(file).ends_with(".txt");
    const vx::Model m = txt ? vx::model_from_txt(text, file)
                            : vx::model_from_json(nlohmann::json::parse(text), file);
    const std::uint64_t engine = vxtest::count(m);
    EXPECT_EQ(engine, brute::count(to_brute(m)));
    EXPECT_EQ(engine, stated_count(txt ? text : m.comment));
    EXPECT_GT(engine, 0u);
  }
}
