// Named piece sets (puzzles/sets/*.json, cubex/voxel/sets.hpp) and the voxel reader's set
// entries and box shorthands. Each shipped set is compared with an independent derivation: the
// test enumerates every polyform of the size (growing polyforms cell by cell) up to the set's
// motions with its own symmetry matrices, not cubex's.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cubex/error.hpp"
#include "cubex/voxel/read.hpp"
#include "cubex/voxel/sets.hpp"

namespace {

using Cell = std::array<int, 3>;
using Shape = std::vector<Cell>;  // sorted, normalised (smallest coordinates 0)
using Matrix = std::array<std::array<int, 3>, 3>;

Shape normalised(Shape s) {
  Cell lo = s.front();
  for (const Cell& c : s)
    for (int i = 0; i < 3; ++i) lo[i] = std::min(lo[i], c[i]);
  for (Cell& c : s)
    for (int i = 0; i < 3; ++i) c[i] -= lo[i];
  std::sort(s.begin(), s.end());
  return s;
}

// The motions a set's pieces are equal under.
enum class Motions { kFlatFree, kFlatOneSided, kRotations, kRotationsAndMirrors };

// Signed permutation matrices: all 48, or those fixing z (the plane's 8), keeping those of
// determinant +1 when mirrors are not allowed.
std::vector<Matrix> motions(Motions m) {
  std::vector<Matrix> out;
  std::array<int, 3> perm = {0, 1, 2};
  do {
    for (int signs = 0; signs < 8; ++signs) {
      Matrix a{};
      for (int r = 0; r < 3; ++r) a[r][perm[r]] = (signs >> r & 1) ? -1 : 1;
      const int det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                      a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                      a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
      const bool flat = m == Motions::kFlatFree || m == Motions::kFlatOneSided;
      if (flat && a[2][2] != 1) continue;  // z stays z (the plane's symmetries)
      const bool mirrors = m == Motions::kFlatFree || m == Motions::kRotationsAndMirrors;
      if (!mirrors && det != 1) continue;
      out.push_back(a);
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  return out;
}

Shape canonical(const Shape& s, const std::vector<Matrix>& group) {
  Shape best;
  for (const Matrix& a : group) {
    Shape t;
    for (const Cell& c : s) {
      Cell d{};
      for (int r = 0; r < 3; ++r) d[r] = a[r][0] * c[0] + a[r][1] * c[1] + a[r][2] * c[2];
      t.push_back(d);
    }
    t = normalised(std::move(t));
    if (best.empty() || t < best) best = std::move(t);
  }
  return best;
}

// Every polyform of n cells (flat: in the plane z = 0), one canonical shape per class.
std::set<Shape> enumerate(int n, Motions m) {
  const std::vector<Matrix> group = motions(m);
  const bool flat = m == Motions::kFlatFree || m == Motions::kFlatOneSided;
  std::set<Shape> level = {Shape{{0, 0, 0}}};
  for (int size = 2; size <= n; ++size) {
    std::set<Shape> next;
    for (const Shape& s : level) {
      for (const Cell& c : s) {
        for (int axis = 0; axis < (flat ? 2 : 3); ++axis) {
          for (int d : {-1, 1}) {
            Cell nb = c;
            nb[axis] += d;
            if (std::find(s.begin(), s.end(), nb) != s.end()) continue;
            Shape t = s;
            t.push_back(nb);
            next.insert(canonical(normalised(std::move(t)), group));
          }
        }
      }
    }
    level = std::move(next);
  }
  return level;
}

// A set's pieces as read from its JSON ("cells" or "layers"), by name.
std::vector<std::pair<std::string, Shape>> set_pieces(const cubex::voxel::PieceSet& set) {
  std::vector<std::pair<std::string, Shape>> out;
  for (const nlohmann::json& p : set.pieces) {
    Shape s;
    if (p.contains("cells")) {
      for (const auto& c : p["cells"])
        s.push_back({c[0].get<int>(), c[1].get<int>(), c[2].get<int>()});
    } else {
      const auto& layers = p.at("layers");
      for (std::size_t z = 0; z < layers.size(); ++z)
        for (std::size_t y = 0; y < layers[z].size(); ++y) {
          const std::string row = layers[z][y].get<std::string>();
          for (std::size_t x = 0; x < row.size(); ++x)
            if (row[x] == '#') s.push_back({int(x), int(y), int(z)});
        }
    }
    out.push_back({p.at("name").get<std::string>(), normalised(std::move(s))});
  }
  return out;
}

const cubex::voxel::PieceSet& named(const std::string& name) {
  const cubex::voxel::PieceSet* s = cubex::voxel::find_piece_set(name);
  if (!s) throw std::runtime_error("no set " + name);
  return *s;
}

// The set's pieces, canonical under `m`, must be exactly `expected`, each once.
void expect_set_equals(const std::string& name, Motions m, const std::set<Shape>& expected) {
  SCOPED_TRACE("set " + name);
  const std::vector<Matrix> group = motions(m);
  std::map<Shape, std::string> seen;
  for (const auto& [piece, shape] : set_pieces(named(name))) {
    const Shape c = canonical(shape, group);
    EXPECT_TRUE(expected.count(c)) << "piece " << piece << " is not a polyform of the kind";
    auto [it, fresh] = seen.emplace(c, piece);
    EXPECT_TRUE(fresh) << "pieces " << it->second << " and " << piece << " are the same";
  }
  EXPECT_EQ(seen.size(), expected.size());
}

bool planar(const Shape& s) {
  for (int axis = 0; axis < 3; ++axis) {
    bool same = true;
    for (const Cell& c : s) same = same && c[axis] == s.front()[axis];
    if (same) return true;
  }
  return false;
}

bool box_shaped(const Shape& s) {
  Cell hi{};
  for (const Cell& c : s)
    for (int i = 0; i < 3; ++i) hi[i] = std::max(hi[i], c[i]);
  return std::size_t((hi[0] + 1) * (hi[1] + 1) * (hi[2] + 1)) == s.size();
}

}  // namespace

TEST(PieceSetEnumerator, KnownCountsOfPolyforms) {
  // OEIS A000105 (free polyominoes), A000988 (one-sided), A000162 (polycubes, mirror images
  // distinct), A038119 (polycubes up to mirror images): the enumerator itself is right.
  const int free_ominoes[] = {1, 1, 2, 5, 12, 35};
  const int one_sided[] = {1, 1, 2, 7, 18, 60};
  for (int n = 1; n <= 6; ++n) {
    EXPECT_EQ(enumerate(n, Motions::kFlatFree).size(), std::size_t(free_ominoes[n - 1])) << n;
    EXPECT_EQ(enumerate(n, Motions::kFlatOneSided).size(), std::size_t(one_sided[n - 1])) << n;
  }
  const int cubes[] = {1, 1, 2, 8, 29};
  const int cubes_mirror[] = {1, 1, 2, 7, 23};
  for (int n = 1; n <= 5; ++n) {
    EXPECT_EQ(enumerate(n, Motions::kRotations).size(), std::size_t(cubes[n - 1])) << n;
    EXPECT_EQ(enumerate(n, Motions::kRotationsAndMirrors).size(), std::size_t(cubes_mirror[n - 1]));
  }
}

TEST(PieceSets, PolyominoSetsAreEveryPolyominoOfTheirSize) {
  expect_set_equals("monomino", Motions::kFlatFree, enumerate(1, Motions::kFlatFree));
  expect_set_equals("dominoes", Motions::kFlatFree, enumerate(2, Motions::kFlatFree));
  expect_set_equals("trominoes", Motions::kFlatFree, enumerate(3, Motions::kFlatFree));
  expect_set_equals("tetrominoes", Motions::kFlatFree, enumerate(4, Motions::kFlatFree));
  expect_set_equals("pentominoes", Motions::kFlatFree, enumerate(5, Motions::kFlatFree));
  expect_set_equals("hexominoes", Motions::kFlatFree, enumerate(6, Motions::kFlatFree));
  expect_set_equals("one-sided-tetrominoes", Motions::kFlatOneSided,
                    enumerate(4, Motions::kFlatOneSided));
  expect_set_equals("one-sided-pentominoes", Motions::kFlatOneSided,
                    enumerate(5, Motions::kFlatOneSided));
  expect_set_equals("one-sided-hexominoes", Motions::kFlatOneSided,
                    enumerate(6, Motions::kFlatOneSided));
  EXPECT_EQ(named("pentominoes").pieces.size(), 12u);
  EXPECT_EQ(named("hexominoes").pieces.size(), 35u);
  EXPECT_EQ(named("one-sided-pentominoes").pieces.size(), 18u);
}

TEST(PieceSets, PolycubeSetsAreEveryPolycubeOfTheirSize) {
  expect_set_equals("tricubes", Motions::kRotations, enumerate(3, Motions::kRotations));
  expect_set_equals("tetracubes", Motions::kRotations, enumerate(4, Motions::kRotations));
  expect_set_equals("pentacubes", Motions::kRotations, enumerate(5, Motions::kRotations));
  expect_set_equals("pentacubes-free", Motions::kRotationsAndMirrors,
                    enumerate(5, Motions::kRotationsAndMirrors));
  std::set<Shape> solid;
  for (const Shape& s : enumerate(5, Motions::kRotations))
    if (!planar(s)) solid.insert(s);
  EXPECT_EQ(solid.size(), 17u);
  expect_set_equals("nonplanar-pentacubes", Motions::kRotations, solid);
}

TEST(PieceSets, SomaIsEveryIrregularPolycubeOfThreeOrFourCubes) {
  std::set<Shape> irregular;
  for (int n = 1; n <= 4; ++n)
    for (const Shape& s : enumerate(n, Motions::kRotations))
      if (!box_shaped(s)) irregular.insert(s);
  EXPECT_EQ(irregular.size(), 7u);
  expect_set_equals("soma", Motions::kRotations, irregular);
}

TEST(PieceSets, SinglePieceAndPuzzleSets) {
  const std::vector<Matrix> rot = motions(Motions::kRotations);
  auto shape_of = [](const std::string& set) { return set_pieces(named(set)).at(0).second; };
  // L-tricube: the bent tricube; L-tetracube: the L tetromino; Y-pentacube: 4 in a row and one
  // beside the second.
  EXPECT_EQ(canonical(shape_of("l-tricube"), rot),
            canonical(Shape{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, rot));
  EXPECT_EQ(canonical(shape_of("l-tetracube"), rot),
            canonical(Shape{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}}, rot));
  EXPECT_EQ(canonical(shape_of("y-pentacube"), rot),
            canonical(Shape{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {1, 1, 0}}, rot));
  // Bedlam: 13 pieces of 64 cubes, no two alike even with mirrors, the same shapes as the
  // puzzle file written independently (puzzles/voxel/bedlam.json).
  const auto bedlam = set_pieces(named("bedlam"));
  ASSERT_EQ(bedlam.size(), 13u);
  std::size_t cells = 0;
  std::set<Shape> mirror_classes;
  for (const auto& [n, s] : bedlam) {
    cells += s.size();
    mirror_classes.insert(canonical(s, motions(Motions::kRotationsAndMirrors)));
  }
  EXPECT_EQ(cells, 64u);
  EXPECT_EQ(mirror_classes.size(), 13u);
  std::ifstream in(std::string(CUBEX_SOURCE_DIR) + "/puzzles/voxel/bedlam.json");
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::set<Shape> from_file, from_set;
  for (const auto& p : doc["pieces"]) {
    Shape s;
    for (const auto& c : p["cells"])
      s.push_back({c[0].get<int>(), c[1].get<int>(), c[2].get<int>()});
    from_file.insert(canonical(normalised(s), rot));
  }
  for (const auto& [n, s] : bedlam) from_set.insert(canonical(s, rot));
  EXPECT_EQ(from_file, from_set);
  // Conway's: 13 1x2x4, 1 2x2x2, 1 1x2x2, 3 1x1x3 = 125 cubes, all boxes.
  std::size_t conway = 0;
  for (const nlohmann::json& p : named("conway").pieces) {
    const int count = p.value("count", 1);
    std::size_t size = 0;
    for (const auto& layer : p["layers"])
      for (const auto& row : layer) {
        const std::string text = row.get<std::string>();
        size += std::size_t(std::count(text.begin(), text.end(), '#'));
      }
    conway += size * std::size_t(count);
  }
  EXPECT_EQ(conway, 125u);
  for (const auto& [n, s] : set_pieces(named("conway"))) EXPECT_TRUE(box_shaped(s)) << n;
}

TEST(PieceSets, EverySetHasNamesCommentAndSource) {
  const std::vector<std::string> required = {"monomino",
                                             "dominoes",
                                             "trominoes",
                                             "tetrominoes",
                                             "pentominoes",
                                             "hexominoes",
                                             "one-sided-tetrominoes",
                                             "one-sided-pentominoes",
                                             "tetracubes",
                                             "pentacubes",
                                             "soma",
                                             "bedlam"};
  for (const std::string& r : required) EXPECT_NE(cubex::voxel::find_piece_set(r), nullptr) << r;
  for (const cubex::voxel::PieceSet& s : cubex::voxel::piece_sets()) {
    SCOPED_TRACE(s.name);
    EXPECT_FALSE(s.comment.empty());
    EXPECT_FALSE(s.source.empty());
    for (char c : s.name) EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '-') << s.name;
    std::set<std::string> names;
    for (const auto& [n, shape] : set_pieces(s)) EXPECT_TRUE(names.insert(n).second) << n;
    // Flat sets are one cell thick; one-sided sets are flat.
    if (s.flat || !s.turn_over) {
      for (const auto& [n, shape] : set_pieces(s)) EXPECT_TRUE(planar(shape)) << n;
    }
  }
}

// ---- the reader ---------------------------------------------------------------------------

namespace {
cubex::voxel::Model read(const std::string& text) {
  return cubex::voxel::model_from_json(nlohmann::json::parse(text), "t.json");
}
std::string error_of(const std::string& text) {
  try {
    read(text);
  } catch (const cubex::InputError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST(PieceSetReader, SetExpandsToItsPiecesInAFlatBox) {
  const auto m = read(R"({"box": [10, 6], "pieces": [{"set": "pentominoes"}]})");
  ASSERT_EQ(m.pieces.size(), 12u);
  std::string names;
  for (const auto& p : m.pieces) names += p.name;
  EXPECT_EQ(names, "FILNPTUVWXYZ");
  EXPECT_EQ(m.cells.size(), 60u);
  for (const auto& c : m.cells) EXPECT_EQ(c.z, 0);
}

TEST(PieceSetReader, ExceptCountPrefixAndExplicitPieces) {
  const auto m = read(R"({"container": {"box": [8, 8]}, "pieces": [
      {"set": "pentominoes", "except": ["X"], "count": {"I": 2, "L": [0, 1]}},
      {"set": "tetrominoes", "except": ["I", "T", "L", "S"], "prefix": "t"},
      {"name": "X", "cells": [[1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [1, 2, 0]]}]})");
  ASSERT_EQ(m.pieces.size(), 13u);
  EXPECT_EQ(m.pieces[1].name, "I");
  EXPECT_EQ(m.pieces[1].count, 2);
  EXPECT_EQ(m.pieces[2].name, "L");
  EXPECT_EQ(m.pieces[2].fewest(), 0);
  EXPECT_EQ(m.pieces[11].name, "tO");
  EXPECT_EQ(m.pieces[12].name, "X");
  const auto all = read(R"({"box": [4, 4], "pieces": [{"set": "dominoes", "count": 8}]})");
  EXPECT_EQ(all.pieces.at(0).count, 8);
}

TEST(PieceSetReader, OneSidedSetsAreNotTurnedOver) {
  const auto m = read(R"({"box": [15, 6], "pieces": [{"set": "one-sided-pentominoes"}]})");
  ASSERT_EQ(m.pieces.size(), 18u);
  for (const auto& p : m.pieces) EXPECT_EQ(p.turn_over, std::optional<bool>(false)) << p.name;
  const auto free =
      read(R"({"box": [15, 6], "pieces": [{"set": "one-sided-pentominoes", "turn_over": true}]})");
  EXPECT_EQ(free.pieces[0].turn_over, std::optional<bool>(true));
}

TEST(PieceSetReader, MistakesNameTheirPlace) {
  EXPECT_NE(error_of(R"({"box": [5, 5], "pieces": [{"set": "heptominoes"}]})")
                .find("t.json: pieces[0].set: expected one of the piece sets"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"box": [5, 5], "pieces": [{"set": "pentominoes", "except": ["Q"]}]})")
                .find("pieces[0].except[0]: expected the name of a piece of the set"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"box": [5, 5], "pieces": [{"set": "pentominoes", "except": ["X"],
                         "count": {"X": 2}}]})")
                .find("pieces[0].count.X: expected a piece not left out"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"box": [5, 5], "pieces": [{"set": "pentominoes", "colour": 1}]})")
                .find("pieces[0].colour: expected one of the keys"),
            std::string::npos);
  // Two sets that share letters: the second entry is named, and "prefix" is suggested.
  const std::string dup =
      error_of(R"({"box": [9, 9], "pieces": [{"set": "pentominoes"}, {"set": "tetrominoes"}]})");
  EXPECT_NE(dup.find("pieces[1]: expected a name not used before, found \"I\""), std::string::npos)
      << dup;
  EXPECT_NE(dup.find("prefix"), std::string::npos);
  // A one-sided set in a container that is not flat: the model's error names the set entry.
  const std::string solid =
      error_of(R"({"box": [3, 5, 6], "pieces": [{"set": "one-sided-pentominoes"}]})");
  EXPECT_NE(solid.find("pieces[0] (piece \"F\" of the set \"one-sided-pentominoes\")"),
            std::string::npos)
      << solid;
}

TEST(BoxShorthand, FlatBoxHolesAndNamedContainers) {
  const auto m = read(R"({"container": {"box": [8, 8], "holes": [[3, 3], [4, 3], [3, 4], [4, 4]]},
                          "pieces": [{"set": "pentominoes"}]})");
  EXPECT_EQ(m.cells.size(), 60u);
  EXPECT_EQ(m.cell_index({3, 3, 0}), -1);
  EXPECT_NE(m.cell_index({2, 3, 0}), -1);
  const auto named =
      read(R"({"container": "8x8-centre-hole", "pieces": [{"set": "pentominoes"}]})");
  EXPECT_EQ(named.cells, m.cells);
  const auto top = read(R"({"box": [3, 3, 3], "pieces": [{"set": "soma"}]})");
  EXPECT_EQ(top.cells.size(), 27u);
  EXPECT_NE(error_of(R"({"container": "9x9-hole", "pieces": [{"set": "pentominoes"}]})")
                .find("container: expected a container object or one of the named containers"),
            std::string::npos);
  EXPECT_NE(
      error_of(R"({"box": [3, 3], "container": {"box": [3, 3]}, "pieces": [{"set": "trominoes"}]})")
          .find("box: expected either \"container\" or its shorthand \"box\", found both"),
      std::string::npos);
  EXPECT_NE(
      error_of(
          R"({"container": {"box": [4, 4], "holes": [[4, 0]]}, "pieces": [{"set": "dominoes"}]})")
          .find("container.holes[0][0]: expected a coordinate inside the box (an integer from 0 to "
                "3)"),
      std::string::npos);
  EXPECT_NE(error_of(R"({"box": [4], "pieces": [{"set": "dominoes"}]})")
                .find("box: expected [x, y, z] or flat [x, y] sizes"),
            std::string::npos);
  for (const auto& c : cubex::voxel::named_containers()) {
    SCOPED_TRACE(c.name);
    EXPECT_FALSE(c.comment.empty());
    nlohmann::json doc = {{"container", c.name}, {"pieces", {{{"set", "monomino"}}}}};
    EXPECT_NO_THROW(cubex::voxel::model_from_json(doc, "t.json"));
  }
}
