// The 2x2x2 cube: stickers and turns, the compact index, the distance table (against the
// published distributions), the solver (against a brute-force search on stickers), the cache.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include "cubex/error.hpp"
#include "cubex/pocket/cube.hpp"
#include "cubex/pocket/table.hpp"
#include "cubex/util/files.hpp"

namespace pk = cubex::pocket;
using pk::Metric;

namespace {

const pk::DistanceTable& table(Metric m) {
  static const pk::DistanceTable htm = pk::DistanceTable::build(Metric::kHalfTurn);
  static const pk::DistanceTable qtm = pk::DistanceTable::build(Metric::kQuarterTurn);
  return m == Metric::kHalfTurn ? htm : qtm;
}

std::vector<pk::Turn> random_scramble(std::mt19937& rng, int n, bool all_faces) {
  const std::string_view axes = all_faces ? "URFDLBxyz" : "URF";
  std::vector<pk::Turn> out;
  while (static_cast<int>(out.size()) < n) {
    const pk::Turn t{axes[rng() % axes.size()], static_cast<int>(rng() % 3) + 1};
    if (out.empty() || out.back().axis != t.axis) out.push_back(t);  // no face twice in a row
  }
  return out;
}

pk::Facelets scrambled(std::span<const pk::Turn> ts) {
  pk::Facelets f = pk::solved_facelets();
  pk::apply(f, ts);
  return f;
}

std::uint32_t index_of(const pk::Facelets& f) {
  return pk::encode(pk::from_facelets(pk::to_string(f)));
}

// Brute force on stickers alone: the fewest turns from `turns` (each costing 1) that make every
// face one colour, by iterative deepening. Independent of corners, indices and tables.
bool dfs(const pk::Facelets& f, int depth, const std::vector<pk::Turn>& turns, char last) {
  if (pk::is_solved(f)) return true;
  if (depth == 0) return false;
  for (const pk::Turn& t : turns) {
    if (t.axis == last) continue;  // two turns of one face in a row: one turn does as well
    pk::Facelets g = f;
    pk::apply(g, t);
    if (dfs(g, depth - 1, turns, t.axis)) return true;
  }
  return false;
}

int brute_force_htm(const pk::Facelets& f, std::string_view faces, int max_depth) {
  std::vector<pk::Turn> turns;
  for (char a : faces)
    for (int q = 1; q <= 3; ++q) turns.push_back({a, q});
  for (int d = 0; d <= max_depth; ++d) {
    if (dfs(f, d, turns, 0)) return d;
  }
  return -1;
}

// Quarter turns only; a face may be turned twice in a row in the same direction (a half turn
// costs 2), so the plain search without the same-face rule.
bool dfs_qtm(const pk::Facelets& f, int depth, pk::Turn last) {
  if (pk::is_solved(f)) return true;
  if (depth == 0) return false;
  for (char a : std::string_view("URF")) {
    for (int q : {1, 3}) {
      if (a == last.axis && q != last.quarters) continue;  // undoing the last turn
      pk::Facelets g = f;
      pk::apply(g, pk::Turn{a, q});
      if (dfs_qtm(g, depth - 1, {a, q})) return true;
    }
  }
  return false;
}

int brute_force_qtm(const pk::Facelets& f, int max_depth) {
  for (int d = 0; d <= max_depth; ++d) {
    if (dfs_qtm(f, d, {0, 0})) return d;
  }
  return -1;
}

}  // namespace

TEST(PocketCube, TurnsArePermutationsOfOrderFour) {
  for (char a : std::string_view("URFDLBxyz")) {
    pk::Facelets f{};
    for (int s = 0; s < pk::kStickers; ++s) f[s] = static_cast<char>('a' + s);
    pk::Facelets g = f;
    pk::apply(g, pk::Turn{a, 1});
    EXPECT_NE(g, f) << a;
    std::set<char> seen(g.begin(), g.end());
    EXPECT_EQ(seen.size(), 24u) << a;
    pk::apply(g, pk::Turn{a, 3});
    EXPECT_EQ(g, f) << a;
    pk::apply(g, pk::Turn{a, 2});
    pk::apply(g, pk::Turn{a, 2});
    EXPECT_EQ(g, f) << a;
  }
}

TEST(PocketCube, KnownStickerEffectsOfTurns) {
  // U: the front face's top row goes to the left face (a clockwise turn seen from above).
  pk::Facelets f = scrambled(pk::parse_turns("U"));
  EXPECT_EQ(pk::to_string(f), "UUUUBBRRRRFFDDDDFFLLLLBB");
  // R: the front face's right column goes up to U.
  f = scrambled(pk::parse_turns("R"));
  EXPECT_EQ(pk::to_string(f), "UFUFRRRRFDFDDBDBLLLLUBUB");
  // D and U' differ by a whole-cube turn y': both leave a solvable cube, U then D' with y'
  // gives back a solved cube.
  f = scrambled(pk::parse_turns("U D' y'"));
  EXPECT_TRUE(pk::is_solved(f));
  f = scrambled(pk::parse_turns("R L' x'"));
  EXPECT_TRUE(pk::is_solved(f));
  f = scrambled(pk::parse_turns("F B' z'"));
  EXPECT_TRUE(pk::is_solved(f));
}

TEST(PocketCube, ParseTurns) {
  auto t = pk::parse_turns("R U2 F' D2' x,RUR'U'");
  EXPECT_EQ(pk::to_string(t), "R U2 F' D2 x R U R' U'");
  EXPECT_EQ(pk::htm_length(t), 8);
  EXPECT_EQ(pk::qtm_length(t), 10);
  EXPECT_TRUE(pk::parse_turns("  ").empty());
  try {
    pk::parse_turns("R U M2");
    FAIL() << "M accepted";
  } catch (const cubex::InputError& e) {
    EXPECT_EQ(e.line(), 1);
    EXPECT_EQ(e.column(), 5);
    EXPECT_NE(std::string(e.what()).find("found 'M'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(pk::parse_turns("r"), cubex::InputError);
  EXPECT_THROW(pk::parse_turns("R3"), cubex::InputError);
}

TEST(PocketCube, IndexRoundTripsAndCovers) {
  EXPECT_EQ(pk::encode(pk::Corners{}), 0u);
  std::vector<bool> hit(pk::kNumStates, false);
  for (std::uint32_t s = 0; s < pk::kNumStates; s += 37) {
    const pk::Corners c = pk::decode(s);
    ASSERT_EQ(pk::encode(c), s);
    EXPECT_EQ(c.perm[pk::DBL], pk::DBL);
    int sum = 0;
    for (int t : c.twist) sum += t;
    EXPECT_EQ(sum % 3, 0);
    // Stickers and back.
    ASSERT_EQ(pk::from_facelets(pk::to_string(pk::to_facelets(c))), c) << s;
  }
}

TEST(PocketCube, IndexMovesAgreeWithStickerTurns) {
  std::mt19937 rng(9);
  for (int k = 0; k < 2000; ++k) {
    const std::uint32_t s = rng() % pk::kNumStates;
    const pk::Facelets f = pk::to_facelets(pk::decode(s));
    for (int m = 0; m < pk::kNumMoves; ++m) {
      pk::Facelets g = f;
      pk::apply(g, pk::move_turn(m));
      ASSERT_EQ(pk::to_facelets(pk::decode(pk::apply_move(s, m))), g) << s << " " << m;
    }
  }
}

TEST(PocketTable, HalfTurnDistributionIsThePublishedOne) {
  const std::vector<std::uint64_t> expected = {1,     9,      54,     321,     1847,   9992,
                                               50136, 227536, 870072, 1887748, 623800, 2644};
  EXPECT_EQ(table(Metric::kHalfTurn).distribution(), expected);  // God's number 11
}

TEST(PocketTable, QuarterTurnDistributionIsThePublishedOne) {
  const std::vector<std::uint64_t> expected = {
      1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276};
  EXPECT_EQ(table(Metric::kQuarterTurn).distribution(), expected);  // God's number 14
}

TEST(PocketTable, MetricsBoundEachOther) {
  // A half turn is two quarter turns, and a quarter turn is a (half-turn metric) move.
  const auto& h = table(Metric::kHalfTurn);
  const auto& q = table(Metric::kQuarterTurn);
  for (std::uint32_t s = 0; s < pk::kNumStates; ++s) {
    ASSERT_LE(h.distance(s), q.distance(s)) << s;
    ASSERT_LE(q.distance(s), 2 * h.distance(s)) << s;
  }
}

TEST(PocketSolve, SolutionsSolveAndAreNoLongerThanTheScramble) {
  std::mt19937 rng(2024);
  for (Metric m : {Metric::kHalfTurn, Metric::kQuarterTurn}) {
    for (int k = 0; k < 300; ++k) {
      const auto scramble = random_scramble(rng, 1 + static_cast<int>(rng() % 20), true);
      pk::Facelets f = scrambled(scramble);
      const std::uint32_t s = index_of(f);
      const std::vector<int> moves = table(m).solve(s);
      ASSERT_EQ(static_cast<int>(moves.size()), table(m).distance(s));
      const int len = m == Metric::kHalfTurn ? pk::htm_length(scramble) : pk::qtm_length(scramble);
      EXPECT_LE(moves.size(), static_cast<std::size_t>(len)) << pk::to_string(scramble);
      for (int mv : moves) {
        if (m == Metric::kQuarterTurn) {
          EXPECT_NE(pk::move_turn(mv).quarters, 2);
        }
        pk::apply(f, pk::move_turn(mv));
      }
      EXPECT_TRUE(pk::is_solved(f)) << pk::to_string(scramble);
    }
  }
}

TEST(PocketSolve, DeepestStatesSolve) {
  // Every one of the 2,644 antipodes (half-turn metric) solves in exactly 11 moves.
  const auto& h = table(Metric::kHalfTurn);
  int n = 0;
  for (std::uint32_t s = 0; s < pk::kNumStates; ++s) {
    if (h.distance(s) != 11) continue;
    ++n;
    pk::Facelets f = pk::to_facelets(pk::decode(s));
    const auto moves = h.solve(s);
    ASSERT_EQ(moves.size(), 11u);
    for (int mv : moves) pk::apply(f, pk::move_turn(mv));
    ASSERT_TRUE(pk::is_solved(f)) << s;
  }
  EXPECT_EQ(n, 2644);
}

TEST(PocketSolve, TableAgreesWithBruteForceOnShortScrambles) {
  std::mt19937 rng(7);
  for (int k = 0; k < 40; ++k) {
    const auto scramble = random_scramble(rng, 1 + k % 6, false);
    const pk::Facelets f = scrambled(scramble);
    const std::uint32_t s = index_of(f);
    EXPECT_EQ(brute_force_htm(f, "URF", 6), table(Metric::kHalfTurn).distance(s))
        << pk::to_string(scramble);
  }
  for (int k = 0; k < 40; ++k) {
    auto scramble = random_scramble(rng, 1 + k % 7, false);
    for (pk::Turn& t : scramble) t.quarters = t.quarters == 2 ? 1 : t.quarters;  // quarters only
    const pk::Facelets f = scrambled(scramble);
    EXPECT_EQ(brute_force_qtm(f, 7), table(Metric::kQuarterTurn).distance(index_of(f)))
        << pk::to_string(scramble);
  }
  // With all six faces to turn the optimum is the same (D is U with the cube turned).
  for (int k = 0; k < 12; ++k) {
    const auto scramble = random_scramble(rng, 1 + k % 4, true);
    const pk::Facelets f = scrambled(scramble);
    EXPECT_EQ(brute_force_htm(f, "URFDLB", 4), table(Metric::kHalfTurn).distance(index_of(f)))
        << pk::to_string(scramble);
  }
}

TEST(PocketState, AnyColoursAndOrientation) {
  const auto scramble = pk::parse_turns("R U F' D2 L B' x y2");
  const pk::Facelets f = scrambled(scramble);
  const std::uint32_t s = index_of(f);
  // The same cube in other colours.
  std::string recoloured = pk::to_string(f);
  for (char& c : recoloured) c = "WRGYOB"[pk::kFaces.find(c)];
  EXPECT_EQ(pk::encode(pk::from_facelets(recoloured)), s);
  // Spaces are ignored.
  std::string spaced;
  for (int i = 0; i < 24; ++i) spaced += std::string(i % 4 == 0 && i ? " " : "") + recoloured[i];
  EXPECT_EQ(pk::encode(pk::from_facelets(spaced)), s);
  // The same cube held in each of its 24 orientations: the corner at DBL names the colours, so
  // the index differs, but the distance is the same and the solution solves the cube as held.
  std::set<std::uint32_t> indices;
  for (std::string_view turn : {"", "y", "y2", "y'", "x", "x2", "x'", "z", "z'"}) {
    for (std::string_view spin : {"", "y", "y2", "y'"}) {
      pk::Facelets held = f;
      pk::apply(held, pk::parse_turns(turn));
      pk::apply(held, pk::parse_turns(spin));
      const std::uint32_t t = index_of(held);
      indices.insert(t);
      for (Metric m : {Metric::kHalfTurn, Metric::kQuarterTurn}) {
        EXPECT_EQ(table(m).distance(t), table(m).distance(s)) << turn << spin;
        pk::Facelets g = held;
        for (int mv : table(m).solve(t)) pk::apply(g, pk::move_turn(mv));
        EXPECT_TRUE(pk::is_solved(g)) << turn << spin;
      }
    }
  }
  EXPECT_GT(indices.size(), 1u);
}

namespace {
std::string error_of(const std::string& stickers) {
  try {
    pk::from_facelets(stickers);
  } catch (const cubex::InputError& e) {
    return e.what();
  }
  return "";
}
bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}
}  // namespace

TEST(PocketState, InvalidStatesAreRejected) {
  const std::string solved = "UUUURRRRFFFFDDDDLLLLBBBB";
  EXPECT_TRUE(has(error_of(solved.substr(1)), "expected 24 stickers"))
      << error_of(solved.substr(1));
  EXPECT_TRUE(has(error_of("UUUURRRRFFFFDDDDLLLLBBB?"), "--state:1:24: expected a colour letter"));
  EXPECT_TRUE(has(error_of("UUUURRRRFFFFDDDDLLLLBBBX"), "expected 6 colours, found 7"));
  EXPECT_TRUE(has(error_of("UUURRRRRFFFFDDDDLLLLBBBB"), "expected 4 stickers of each colour"));
  // One corner twisted in place (URF: stickers U4, R1, F2 rotated).
  std::string twisted = solved;
  twisted[3] = 'F';
  twisted[4] = 'U';
  twisted[9] = 'R';
  EXPECT_TRUE(has(error_of(twisted), "twists add up")) << error_of(twisted);
  // Two stickers of one corner swapped: a mirror image.
  std::string mirrored = solved;
  std::swap(mirrored[4], mirrored[9]);
  EXPECT_TRUE(has(error_of(mirrored), "mirror image")) << error_of(mirrored);
  // Stickers swapped between corners: no such corner.
  std::string swapped = solved;
  std::swap(swapped[0], swapped[4]);
  EXPECT_TRUE(has(error_of(swapped), "do not form a cube")) << error_of(swapped);
  // Every state read back from a valid sticker string is reachable: it has a distance.
  EXPECT_EQ(error_of(pk::to_string(scrambled(pk::parse_turns("R U R' F2")))), "");
}

namespace {
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cubex_pocket_XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};
}  // namespace

namespace {
// Writes `bytes` as the half-turn cache in `dir`, loads, and checks that it was rejected for
// `why`, rebuilt correctly and rewritten intact (`good` is the file as first written).
void expect_rebuilt(const std::string& dir, const std::string& bytes, const std::string& why,
                    const std::string& good) {
  const std::string path = pk::cache_path(dir, Metric::kHalfTurn);
  cubex::write_file_atomic(path, bytes);
  auto t = pk::load_or_build(Metric::kHalfTurn, dir);
  EXPECT_EQ(t.source, pk::LoadedTable::Source::kRebuilt) << why;
  EXPECT_TRUE(has(t.note, why)) << t.note;
  EXPECT_EQ(t.table.distribution(), table(Metric::kHalfTurn).distribution());
  EXPECT_EQ(cubex::read_file(path), good) << "cache rewritten";
}
}  // namespace

TEST(PocketCache, WrittenLoadedAndRebuiltWhenCorrupt) {
  TempDir dir;
  const std::string d = (dir.path / "sub").string();
  auto first = pk::load_or_build(Metric::kHalfTurn, d);
  EXPECT_EQ(first.source, pk::LoadedTable::Source::kBuilt);
  EXPECT_TRUE(first.note.empty()) << first.note;
  const std::string path = pk::cache_path(d, Metric::kHalfTurn);
  ASSERT_TRUE(std::filesystem::exists(path));
  auto again = pk::load_or_build(Metric::kHalfTurn, d);
  EXPECT_EQ(again.source, pk::LoadedTable::Source::kLoaded);
  EXPECT_EQ(again.table.distribution(), table(Metric::kHalfTurn).distribution());

  const std::string good = cubex::read_file(path);
  std::string flipped = good;
  flipped[good.size() / 2] ^= 1;
  expect_rebuilt(d, flipped, "checksum", good);
  expect_rebuilt(d, good.substr(0, good.size() - 100), "bytes", good);
}

TEST(PocketCache, StaleCacheIsRebuilt) {
  TempDir dir;
  const std::string d = dir.path.string();
  const std::string good = table(Metric::kHalfTurn).serialize();
  std::string version = good;
  version[8] = 0;
  expect_rebuilt(d, version, "format version", good);
  std::string stale = good;
  stale[24] ^= 0x40;  // the move fingerprint
  expect_rebuilt(d, stale, "stale", good);
  // A table of the other metric under this name.
  expect_rebuilt(d, table(Metric::kQuarterTurn).serialize(), "another metric", good);
}

TEST(PocketCache, UnwritableCacheStillGivesTheTable) {
  TempDir dir;
  const std::string file = (dir.path / "not_a_dir").string();
  { std::ofstream(file) << "x"; }
  auto t = pk::load_or_build(Metric::kQuarterTurn, file);
  EXPECT_EQ(t.source, pk::LoadedTable::Source::kBuilt);
  EXPECT_TRUE(has(t.note, "cache not written")) << t.note;
  EXPECT_EQ(t.table.distribution().size(), 15u);
}
