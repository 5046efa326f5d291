// The Happy Cube front end: conventions, the seed files and their published solutions, counts
// against an independent brute force, structures, identical pieces, and the verifier.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "cubex/core/solver.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/util/files.hpp"
#include "happycube_support.hpp"
#include "test_util.hpp"

namespace hc = cubex::happycube;
using cubex::Vec3;
using hc::Tile;

namespace {

Tile from_rows(const std::vector<std::string>& rows) {
  Tile t(static_cast<int>(rows.size()));
  for (int r = 0; r < t.n; ++r)
    for (int c = 0; c < t.n; ++c) t.set(r, c, rows[r][c] == '#');
  return t;
}

// The border read as the .hcq files do: top left->right, right top->bottom, bottom right->left,
// left bottom->top.
std::vector<std::vector<int>> edges(const Tile& t) {
  const int n = t.n;
  std::vector<std::vector<int>> e(4);
  for (int i = 0; i < n; ++i) {
    e[0].push_back(t.at(0, i));
    e[1].push_back(t.at(i, n - 1));
    e[2].push_back(t.at(n - 1, n - 1 - i));
    e[3].push_back(t.at(n - 1 - i, 0));
  }
  return e;
}

std::vector<int> reversed(std::vector<int> v) {
  std::reverse(v.begin(), v.end());
  return v;
}

// Every solution of a puzzle as JSON, each also checked against the Problem.
std::vector<nlohmann::json> all_solutions(const cubex::Puzzle& pz) {
  std::vector<nlohmann::json> out;
  cubex::Solver solver(pz.problem());
  solver.solve([&](std::span<const cubex::OptionId> s) {
    EXPECT_EQ(cubex::check_solution(pz.problem(), s), "");
    out.push_back(pz.solution_json(s));
    return true;
  });
  return out;
}

std::uint64_t engine_count(const hc::Spec& spec) {
  auto pz = hc::make_puzzle(spec);
  cubex::Solver solver(pz->problem());
  return solver.count().solutions;
}

const char* const kSeeds[3] = {"HC_BQ_01", "HC_BQ_02", "HC_BQ_03"};

std::string seed_path(int k) {
  return cubex::test::seed_file(std::string(kSeeds[k]) + ".hcq");
}

}  // namespace

TEST(HappyCubeTile, CounterClockwiseTurnBringsTheRightEdgeToTheTop) {
  const Tile t = from_rows({"#.#..", "####.", ".###.", "####.", "#.###"});
  const auto e = edges(t), turned = edges(hc::orient(t, 1, false));
  // Turning counter-clockwise moves each edge one step back in the clockwise order.
  for (int k = 0; k < 4; ++k) EXPECT_EQ(turned[k], e[(k + 1) % 4]) << k;
  EXPECT_EQ(hc::orient(t, 4, false), t);
  EXPECT_EQ(hc::orient(hc::orient(t, 1, false), 3, false), t);
}

TEST(HappyCubeTile, FlipIsTheHcqAuthorsSwap) {
  const Tile t = from_rows({"#.#..", "####.", ".###.", "####.", "#.###"});
  const auto e = edges(t), f = edges(hc::orient(t, 0, true));
  // Edges become reversed top, reversed left, reversed bottom, reversed right.
  EXPECT_EQ(f[0], reversed(e[0]));
  EXPECT_EQ(f[1], reversed(e[3]));
  EXPECT_EQ(f[2], reversed(e[2]));
  EXPECT_EQ(f[3], reversed(e[1]));
  // Flip first, then turn.
  EXPECT_EQ(hc::orient(t, 1, true), hc::orient(hc::orient(t, 0, true), 1, false));
}

TEST(HappyCubeTile, DistinctOrientationsRemoveSymmetricDuplicates) {
  const Tile plus = from_rows({"..#..", ".###.", "#####", ".###.", "..#.."});
  EXPECT_EQ(hc::distinct_orientations(plus, true).size(), 1u);
  const Tile mirror =
      from_rows({"#...#", ".###.", ".###.", ".###.", "....."});  // left-right mirror
  EXPECT_EQ(hc::distinct_orientations(mirror, true).size(), 4u);
  const Tile asym = from_rows({"#.#..", "####.", ".###.", "####.", "#.###"});
  EXPECT_EQ(hc::distinct_orientations(asym, true).size(), 8u);
  EXPECT_EQ(hc::distinct_orientations(asym, false).size(), 4u);
  for (const auto& o : hc::distinct_orientations(asym, false)) EXPECT_FALSE(o.flipped);
}

TEST(HappyCubeModel, NetPlacesFoldTowardTheViewer) {
  const int n = 5, l = n - 1;
  const auto faces = hc::make_faces(n, {{0, 0, 0}});
  ASSERT_EQ(faces.size(), 6u);
  for (int p = 0; p < 6; ++p) EXPECT_EQ(faces[p].place, p + 1);
  auto pt = [&](int place, int r, int c) { return faces[place - 1].point(r, c, n); };
  // Place 2 is the base, place 6 the top.
  EXPECT_EQ(pt(2, 2, 2).z, 0);
  EXPECT_EQ(pt(6, 2, 2).z, l);
  // Neighbours in the net share their common edge once folded: 1 over 2 over 5 over 6, 3 left of
  // 2, 4 right of 2.
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(pt(1, n - 1, i), pt(2, 0, i));
    EXPECT_EQ(pt(2, n - 1, i), pt(5, 0, i));
    EXPECT_EQ(pt(5, n - 1, i), pt(6, 0, i));
    EXPECT_EQ(pt(3, i, n - 1), pt(2, i, 0));
    EXPECT_EQ(pt(4, i, 0), pt(2, i, n - 1));
  }
  // The side that faces the viewer of the net (column x row direction) faces into the cube.
  for (const auto& f : faces) {
    const Vec3 in{f.u.y * f.v.z - f.u.z * f.v.y, f.u.z * f.v.x - f.u.x * f.v.z,
                  f.u.x * f.v.y - f.u.y * f.v.x};
    const Vec3 q = f.point(2, 2, n) + in;
    EXPECT_TRUE(q.x > 0 && q.x < l && q.y > 0 && q.y < l && q.z > 0 && q.z < l) << f.label();
  }
}

TEST(HappyCubeModel, ItemsAndPlacementsOfASeed) {
  const hc::Model m = hc::compile(hc::read_hcq(seed_path(0)));
  EXPECT_EQ(m.shell.size(), 98u);  // 5^3 - 3^3
  // 6 pieces + 6 faces + 12 edges x 3 middle cells + 8 corners.
  EXPECT_EQ(m.problem.num_items(), 56u);
  ASSERT_EQ(m.placements.size(), m.problem.num_options());
  std::size_t expected_options = 0;
  for (const auto& t : m.types) expected_options += 6 * t.orientations.size();
  EXPECT_EQ(m.problem.num_options(), expected_options);
  for (const auto& p : m.placements) {
    const Tile t = hc::orient(m.types[p.type].tile, p.rotations_ccw, p.flipped);
    EXPECT_EQ(p.cells.size(),
              static_cast<std::size_t>(std::count(t.cells.begin(), t.cells.end(), 1)));
    for (const Vec3& c : p.cells) EXPECT_TRUE(m.shell_index(c).has_value());
  }
  for (const auto& it : m.problem.items()) {
    EXPECT_EQ(it.name.find_first_of(" \t:|"), std::string::npos) << it.name;
  }
}

TEST(HappyCubeSeeds, FortyEightSolutionsEachContainingThePublishedOne) {
  struct Step {
    const char* piece;
    int place, rot;
    bool flipped;
  };
  // clang-format off
  const std::vector<std::vector<Step>> published = {
      {{"6", 1, 0, false}, {"5", 2, 1, false}, {"3", 3, 3, false}, {"2", 4, 3, false}, {"1", 5, 3, false}, {"4", 6, 0, false}},
      {{"6", 1, 0, false}, {"4", 2, 3, false}, {"5", 3, 3, false}, {"1", 4, 0, false}, {"2", 5, 1, false}, {"3", 6, 0, false}},
      {{"6", 1, 1, false}, {"4", 2, 1, false}, {"2", 3, 1, true}, {"5", 4, 3, true}, {"3", 5, 3, false}, {"1", 6, 0, false}},
  };
  // clang-format on
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(kSeeds[k]);
    const hc::Spec spec = hc::read_hcq(seed_path(k));
    auto pz = hc::make_puzzle(spec);
    const auto sols = all_solutions(*pz);
    EXPECT_EQ(sols.size(), 48u);
    EXPECT_EQ(hc_test::BruteForce(spec).count(), 48u);
    int found = 0;
    for (const auto& s : sols) {
      EXPECT_EQ(pz->verify_solution(s), "");
      bool all = true;
      for (const Step& step : published[k]) {
        const auto& pl = *std::find_if(s["placements"].begin(), s["placements"].end(),
                                       [&](const auto& p) { return p["piece"] == step.piece; });
        const Tile& t = std::find_if(spec.pieces.begin(), spec.pieces.end(), [&](const auto& p) {
                          return p.name == step.piece;
                        })->tile;
        all &= pl["place"] == step.place && hc::orient(t, pl["rotations_ccw"], pl["flipped"]) ==
                                                hc::orient(t, step.rot, step.flipped);
      }
      found += all;
    }
    EXPECT_EQ(found, 1);
  }
}

TEST(HappyCubeSeeds, PlacementsHaveExactlyTheIssuesKeys) {
  auto pz = hc::make_puzzle(hc::read_hcq(seed_path(0)));
  cubex::Solver solver(pz->problem());
  const auto first = solver.first();
  ASSERT_TRUE(first.has_value());
  const auto j = pz->solution_json(*first);
  ASSERT_EQ(j["placements"].size(), 6u);
  for (std::size_t k = 0; k < 6; ++k) {
    const auto& p = j["placements"][k];
    std::vector<std::string> keys;
    for (const auto& [key, v] : p.items()) keys.push_back(key);
    // The issue's keys, and "face" (issue 19: the same type for one cube and for structures).
    EXPECT_EQ(keys, (std::vector<std::string>{"cells", "face", "flipped", "piece", "place",
                                              "rotations_ccw"}));
    EXPECT_EQ(p["place"], static_cast<int>(k + 1));
    EXPECT_TRUE(p["piece"].is_string());
    for (const auto& c : p["cells"]) {
      for (int a = 0; a < 3; ++a) EXPECT_TRUE(c[a] >= 0 && c[a] <= 4);
    }
  }
}

TEST(HappyCubeText, InstructionsFollowTheIssuesWording) {
  const auto faces = hc::make_faces(5, {{0, 0, 0}});
  EXPECT_EQ(hc::instruction("6", 1, false, faces[1]),
            "Take part 6, turn it once counter-clockwise, and put it on place 2.");
  EXPECT_EQ(hc::instruction("6", 0, false, faces[0]), "Take part 6 and put it on place 1.");
  EXPECT_EQ(hc::instruction("2", 1, true, faces[2]),
            "Take part 2, flip it over, turn it once counter-clockwise, and put it on place 3.");
  EXPECT_EQ(hc::instruction("5", 3, false, faces[3]),
            "Take part 5, turn it three times counter-clockwise, and put it on place 4.");
  const auto box = hc::make_faces(5, {{0, 0, 0}, {1, 0, 0}});
  EXPECT_EQ(
      hc::instruction("red/1", 2, false, box[0]),
      "Take part red/1, turn it twice counter-clockwise, and put it on cube (0,0,0), side -x.");
}

TEST(HappyCubeText, NetDrawingShowsEachPlateAsLaid) {
  auto pz = hc::make_puzzle(hc::read_hcq(seed_path(0)));
  cubex::Solver solver(pz->problem());
  const auto first = solver.first();
  const std::string text = pz->solution_text(*first);
  const auto j = pz->solution_json(*first);
  // The block under label 2 (base) is the plate on place 2 as oriented.
  const auto& p2 = j["placements"][1];
  const hc::Spec spec = hc::read_hcq(seed_path(0));
  const Tile& t = std::find_if(spec.pieces.begin(), spec.pieces.end(), [&](const auto& p) {
                    return p.name == p2["piece"].get<std::string>();
                  })->tile;
  const Tile o = hc::orient(t, p2["rotations_ccw"], p2["flipped"]);
  const std::string mark = p2["piece"];
  std::string row0;
  for (int c = 0; c < 5; ++c) row0 += o.at(0, c) ? mark : ".";
  const std::size_t label = text.find("\n3      2      4\n");
  ASSERT_NE(label, std::string::npos) << text;
  const std::size_t line = label + std::string("\n3      2      4\n").size();
  EXPECT_EQ(text.substr(line + 7, 5), row0) << text;
}

// Random solvable sets (cut from a random shell) against the brute force, for N = 4, 5, 6.
TEST(HappyCubeBruteForce, AgreesOnRandomSolvableCubes) {
  for (int n : {4, 5, 6}) {
    for (unsigned seed = 1; seed <= 4; ++seed) {
      SCOPED_TRACE("n=" + std::to_string(n) + " seed=" + std::to_string(seed));
      const hc::Spec spec = hc_test::cut_shell(n, {{0, 0, 0}}, seed * 7 + n);
      hc_test::BruteForce bf(spec);
      EXPECT_EQ(bf.shell_size(), static_cast<std::size_t>(n * n * n - (n - 2) * (n - 2) * (n - 2)));
      const std::size_t brute = bf.count();
      EXPECT_GE(brute, 1u);
      EXPECT_EQ(engine_count(spec), brute);
      auto pz = hc::make_puzzle(spec);
      for (const auto& s : all_solutions(*pz)) EXPECT_EQ(pz->verify_solution(s), "");
    }
  }
}

TEST(HappyCubeBruteForce, HcqRoundTripForFourAndSixCellPlates) {
  for (int n : {4, 6}) {
    const hc::Spec spec = hc_test::cut_shell(n, {{0, 0, 0}}, 99 + n);
    const std::string text = hc::to_hcq(spec);
    const hc::Spec back = hc::parse_hcq(text, "cut.hcq");
    ASSERT_EQ(back.size, n);
    ASSERT_EQ(back.pieces.size(), 6u);
    for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(back.pieces[k].tile, spec.pieces[k].tile);
    EXPECT_EQ(engine_count(back), hc_test::BruteForce(back).count());
  }
}

// Plates equal under a half turn: identical pieces are one item with a multiplicity, and the
// count is the same whether they are listed once with "count": 2 or twice under two names.
TEST(HappyCubeIdentical, CountedOnceAsOneItemWithMultiplicity) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE(seed);
    const hc::Spec twice = hc_test::cut_shell(5, {{0, 0, 0}}, seed, true, true);
    // Group equal pieces into one entry with a count.
    hc::Spec counted = twice;
    counted.pieces.clear();
    for (const auto& p : twice.pieces) {
      auto same = std::find_if(counted.pieces.begin(), counted.pieces.end(), [&](const auto& q) {
        for (const auto& o : hc::distinct_orientations(q.tile, true))
          if (o.tile == p.tile) return true;
        return false;
      });
      if (same == counted.pieces.end()) {
        counted.pieces.push_back(p);
      } else {
        ++same->count;
      }
    }
    ASSERT_LE(counted.pieces.size(), 4u);  // the +-x and +-y plates pair up
    auto pz = hc::make_puzzle(counted);
    int multi = 0;
    for (const auto& it : pz->problem().items()) multi += it.lo == 2 && it.hi == 2;
    EXPECT_GE(multi, 2);
    const std::size_t brute = hc_test::BruteForce(counted).count();
    EXPECT_GE(brute, 1u);
    EXPECT_EQ(engine_count(counted), brute);
    EXPECT_EQ(engine_count(twice), brute);
    EXPECT_EQ(hc_test::BruteForce(twice).count(), brute);
    // Copies are named in place order and the verifier accepts them.
    auto pz2 = hc::make_puzzle(twice);
    for (const auto& s : all_solutions(*pz2)) EXPECT_EQ(pz2->verify_solution(s), "");
    for (const auto& s : all_solutions(*pz)) EXPECT_EQ(pz->verify_solution(s), "");
  }
}

TEST(HappyCubeIdentical, PiecesThatMayNotFlipStayUnflipped) {
  for (unsigned seed = 4; seed <= 6; ++seed) {
    const hc::Spec spec = hc_test::cut_shell(5, {{0, 0, 0}}, seed, false, true);
    const std::size_t brute = hc_test::BruteForce(spec).count();
    EXPECT_GE(brute, 1u);
    EXPECT_EQ(engine_count(spec), brute);
    auto pz = hc::make_puzzle(spec);
    for (const auto& s : all_solutions(*pz)) {
      for (const auto& p : s["placements"]) EXPECT_FALSE(p["flipped"].get<bool>());
    }
  }
}

TEST(HappyCubeStructure, TwoByOneByOneFromTwoSetsAgreesWithBruteForce) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE(seed);
    const hc::Spec cut = hc_test::cut_shell(5, {{0, 0, 0}, {1, 0, 0}}, seed);
    ASSERT_EQ(cut.pieces.size(), 10u);
    // Written as two sets of five in the JSON form.
    nlohmann::json doc = hc::to_json(cut);
    nlohmann::json sets = nlohmann::json::array();
    for (int s = 0; s < 2; ++s) {
      nlohmann::json pieces = nlohmann::json::array();
      for (int k = 0; k < 5; ++k) pieces.push_back(doc["pieces"][s * 5 + k]);
      sets.push_back({{"name", s == 0 ? "red" : "blue"}, {"pieces", pieces}});
    }
    doc.erase("pieces");
    doc["sets"] = sets;
    const hc::Spec spec = hc::parse_json(doc, "box.json");
    EXPECT_EQ(spec.pieces[0].name, "red/" + cut.pieces[0].name);
    const std::size_t brute = hc_test::BruteForce(spec).count();
    EXPECT_GE(brute, 1u);
    EXPECT_EQ(engine_count(spec), brute);
    auto pz = hc::make_puzzle(spec);
    for (const auto& s : all_solutions(*pz)) {
      EXPECT_EQ(pz->verify_solution(s), "");
      for (const auto& p : s["placements"]) EXPECT_TRUE(p["place"].contains("side"));
    }
  }
}

TEST(HappyCubeStructure, ConcaveEdgesOfAnLTricube) {
  const std::vector<Vec3> l3 = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  EXPECT_EQ(hc::make_faces(5, l3).size(), 14u);
  const hc::Spec spec = hc_test::cut_shell(5, l3, 5);
  const std::size_t brute = hc_test::BruteForce(spec).count();
  EXPECT_GE(brute, 1u);
  EXPECT_EQ(engine_count(spec), brute);
}

TEST(HappyCubeVerify, RejectsTamperedSolutions) {
  const hc::Spec spec = hc::read_hcq(seed_path(2));
  auto pz = hc::make_puzzle(spec);
  cubex::Solver solver(pz->problem());
  const auto good = pz->solution_json(*solver.first());
  ASSERT_EQ(pz->verify_solution(good), "");

  auto without_cells = good;
  for (auto& p : without_cells["placements"]) p.erase("cells");
  EXPECT_EQ(pz->verify_solution(without_cells), "");  // the cells are recomputed anyway

  // Another orientation of a piece whose orientations all differ.
  for (std::size_t k = 0; k < 6; ++k) {
    auto bad = without_cells;
    auto& p = bad["placements"][k];
    const Tile& t = std::find_if(spec.pieces.begin(), spec.pieces.end(), [&](const auto& q) {
                      return q.name == p["piece"].get<std::string>();
                    })->tile;
    const int rot = p["rotations_ccw"];
    if (hc::orient(t, rot, p["flipped"]) == hc::orient(t, (rot + 1) % 4, p["flipped"])) continue;
    p["rotations_ccw"] = (rot + 1) % 4;
    EXPECT_NE(pz->verify_solution(bad), "") << k;
  }
  auto swapped = without_cells;
  std::swap(swapped["placements"][0]["place"], swapped["placements"][1]["place"]);
  EXPECT_NE(pz->verify_solution(swapped), "");
  auto renamed = good;
  renamed["placements"][0]["piece"] = "7";
  EXPECT_NE(pz->verify_solution(renamed), "");
  auto missing = good;
  missing["placements"].erase(5);
  EXPECT_NE(pz->verify_solution(missing), "");
  auto twice = good;
  twice["placements"][1]["piece"] = twice["placements"][0]["piece"];
  EXPECT_NE(pz->verify_solution(twice), "");
  auto wrong_cells = good;
  wrong_cells["placements"][0]["cells"][0] = {9, 9, 9};
  EXPECT_NE(pz->verify_solution(wrong_cells), "");
}

// The sample puzzles: the seeds and their JSON drawing give 48; the 2x1x1 box from two Rubens
// sets (identical pieces across the sets, merged into items with multiplicity 2) agrees with the
// brute force, whether written as two sets or with "count": 2.
TEST(HappyCubeSamples, PuzzlesFolderCounts) {
  const std::string dir = std::string(CUBEX_SOURCE_DIR) + "/puzzles/happycube/";
  for (const char* f : {"HC_BQ_01.hcq", "HC_BQ_02.hcq", "HC_BQ_03.hcq", "confusius.json"}) {
    auto pz = cubex::load_puzzle(dir + f);
    cubex::Solver solver(pz->problem());
    EXPECT_EQ(solver.count().solutions, 48u) << f;
  }
  const std::string sets = cubex::read_file(dir + "rubens_box_2x1x1.json");
  const hc::Spec spec = hc::parse_json(nlohmann::json::parse(sets), "box.json");
  const std::size_t brute = hc_test::BruteForce(spec).count();
  EXPECT_EQ(brute, 3200u);
  for (const char* f : {"rubens_box_2x1x1.json", "rubens_box_2x1x1_count.json"}) {
    auto pz = cubex::load_puzzle(dir + f);
    EXPECT_EQ(pz->problem().num_primary(), 87u);
    cubex::Solver solver(pz->problem());
    std::size_t k = 0;
    const auto st = solver.solve([&](std::span<const cubex::OptionId> s) {
      if (k++ % 50 == 0) {
        EXPECT_EQ(pz->verify_solution(pz->solution_json(s)), "") << f;
      }
      return true;
    });
    EXPECT_EQ(st.solutions, brute) << f;
  }
}
