// STL meshes (`cubex render --stl`): closed 2-manifolds with the right volume, plain and bevelled
// (the L1 neighbourhood of the core, closed-form volumes), every shipped piece, and the checks on
// --bevel, --gap and --unit.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/formats.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/render/stl.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/voxel/read.hpp"
#include "cubex/voxel/write.hpp"
#include "test_util.hpp"
#include "voxel_helpers.hpp"
#ifdef CUBEX_WITH_BURRTOOLS
#include "cubex/burrtools/xmpuzzle.hpp"
#endif

namespace {

using cubex::Vec3;
using cubex::test::run_cubex;
using cubex::test::slurp;
using cubex::test::TempDir;

std::string puzzle_path(const std::string& rel) {
  return std::string(CUBEX_SOURCE_DIR) + "/puzzles/" + rel;
}

std::string shell(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

// ---- STL ---------------------------------------------------------------------------------------

// Checks a closed, consistently oriented 2-manifold: every directed edge once, its reverse once.
// Returns the enclosed volume (positive when the normals face out).
double check_mesh(const std::vector<cubex::render::Triangle>& mesh, std::string& why) {
  using P = std::array<double, 3>;
  std::map<std::pair<P, P>, int> directed;
  double volume = 0;
  for (const auto& t : mesh) {
    for (int e = 0; e < 3; ++e) ++directed[{t.v[e], t.v[(e + 1) % 3]}];
    const P &a = t.v[0], &b = t.v[1], &c = t.v[2];
    volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
               a[2] * (b[0] * c[1] - b[1] * c[0])) /
              6;
    // The stored normal agrees with the winding.
    const P u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const P n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    if (n[0] * t.normal[0] + n[1] * t.normal[1] + n[2] * t.normal[2] <= 0)
      why = "normal against winding";
  }
  for (const auto& [e, n] : directed) {
    if (n != 1) why = "a directed edge used twice";
    auto back = directed.find({e.second, e.first});
    if (back == directed.end() || back->second != 1) why = "an edge without its twin";
  }
  return volume;
}

// The volume of the L-infinity erosion of a polycube, counted independently: each cell, each
// face-adjacent pair, each full 2x2 square and each full 2x2x2 block adds its share.
double eroded_volume(const std::vector<Vec3>& cells, double u, double g) {
  std::set<Vec3> s(cells.begin(), cells.end());
  auto has = [&](int x, int y, int z) { return s.count({x, y, z}) > 0; };
  double v = 0;
  const double a = u - g;
  for (const Vec3& c : s) {
    v += a * a * a;
    for (int d = 0; d < 3; ++d) {
      const Vec3 e{d == 0, d == 1, d == 2};
      if (s.count(c + e)) v += a * a * g;
    }
    for (int d = 0; d < 3; ++d) {  // squares in the plane normal to axis d, c as low corner
      const Vec3 e1 = d == 0 ? Vec3{0, 1, 0} : Vec3{1, 0, 0};
      const Vec3 e2 = d == 2 ? Vec3{0, 1, 0} : Vec3{0, 0, 1};
      if (s.count(c + e1) && s.count(c + e2) && s.count(c + e1 + e2)) v += a * g * g;
    }
    bool block = true;
    for (int k = 1; k < 8; ++k)
      block = block && has(c.x + (k & 1), c.y + (k >> 1 & 1), c.z + (k >> 2 & 1));
    if (block) v += g * g * g;
  }
  return v;
}

TEST(InteropStl, MeshesAreClosedManifoldsWithTheRightVolume) {
  const std::vector<std::vector<Vec3>> shapes = {
      {{0, 0, 0}},
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}},
      // Cells meeting only along an edge and at a corner, joined elsewhere.
      {{0, 0, 0}, {0, 0, 1}, {0, 1, 1}, {1, 1, 1}, {1, 1, 0}},
      {{0, 0, 0}, {1, 1, 1}, {1, 0, 0}, {1, 1, 0}},
      // A ring (a hole through the piece).
      {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {2, 1, 0}, {0, 2, 0}, {1, 2, 0}, {2, 2, 0}},
  };
  for (double gap : {0.2, 1.0}) {
    cubex::render::StlOptions opt;
    opt.unit = 10;
    opt.gap = gap;
    for (const auto& cells : shapes) {
      const auto mesh = cubex::render::cells_mesh(cells, opt);
      std::string why;
      const double v = check_mesh(mesh, why);
      EXPECT_EQ(why, "") << cells.size() << " cells";
      EXPECT_NEAR(v, eroded_volume(cells, opt.unit, gap), 1e-6);
      // Within the gap's loss of cells x unit^3: at most half the gap over the surface.
      const double full = double(cells.size()) * 1000;
      EXPECT_LT(v, full);
      EXPECT_GT(v, full - 6 * cells.size() * 100 * gap / 2);
    }
  }
}

TEST(InteropStl, RenderWritesPiecesAndAssembly) {
  TempDir dir;
  const auto r = run_cubex("render '" + vxtest::shipped("soma.json") + "' --stl '" + dir / "stl" +
                           "' --unit 20 --gap 0.5");
  ASSERT_EQ(r.status, 0) << r.output;
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir / "stl")) {
    ++files;
    const std::string data = cubex::test::slurp(e.path().string());
    ASSERT_GE(data.size(), 84u);
    std::uint32_t n = 0;
    for (int k = 0; k < 4; ++k)
      n |= std::uint32_t(static_cast<unsigned char>(data[80 + k])) << (8 * k);
    EXPECT_EQ(data.size(), 84u + 50u * n) << e.path();
    // admesh (Debian) checks the mesh where it is installed: nothing to fix.
    if (std::system("command -v admesh >/dev/null 2>&1") == 0) {
      const std::string out = shell("admesh '" + e.path().string() + "'");
      for (const char* line : {"Edges fixed", "Facets removed", "Facets added", "Facets reversed",
                               "Backwards edges", "Normals fixed", "Degenerate facets"}) {
        const std::size_t at = out.find(line);
        ASSERT_NE(at, std::string::npos) << out;
        const std::size_t colon = out.find(':', at);
        EXPECT_EQ(std::stol(out.substr(colon + 1)), 0) << e.path() << ": " << line << "\n" << out;
      }
      const bool assembly = e.path().filename() == "assembly.stl";
      EXPECT_NE(
          out.find(assembly ? "Number of parts       :     7" : "Number of parts       :     1"),
          std::string::npos)
          << out;
    }
  }
  EXPECT_EQ(files, 8u);  // 7 pieces and the assembly
}

// ---- Bevelled STL ------------------------------------------------------------------------------

struct Box3 {
  std::array<double, 3> lo, hi;
};

// The boxes whose union is a polycube eroded by `e` (L-infinity): for every block of cells
// c + {0,1}^D that the piece fills, the block's hull shrunk by e on every side (a box of
// half-width e < unit/2 touches at most two cells along an axis, so it lies in the piece exactly
// when the block of cells it touches does).
std::vector<Box3> eroded_boxes(const std::vector<Vec3>& cells, double u, double e) {
  std::set<Vec3> s(cells.begin(), cells.end());
  std::vector<Box3> out;
  for (const Vec3& c : s)
    for (int d = 0; d < 8; ++d) {
      bool full = true;
      for (int k = 0; k < 8 && full; ++k)
        if ((k & d) == k) full = s.count({c.x + (k & 1), c.y + (k >> 1 & 1), c.z + (k >> 2 & 1)});
      if (!full) continue;
      Box3 b;
      for (int a = 0; a < 3; ++a) {
        b.lo[std::size_t(a)] = c[a] * u + e;
        b.hi[std::size_t(a)] = (c[a] + 1 + (d >> a & 1)) * u - e;
      }
      out.push_back(b);
    }
  return out;
}

// L1 distance from p to the union of boxes.
double l1_distance(const std::vector<Box3>& boxes, const std::array<double, 3>& p) {
  double best = 1e300;
  for (const Box3& b : boxes) {
    double d = 0;
    for (std::size_t a = 0; a < 3; ++a) d += std::max({0.0, b.lo[a] - p[a], p[a] - b.hi[a]});
    best = std::min(best, d);
  }
  return best;
}

// The winding number of a closed mesh around p (1 inside, 0 outside), by solid angles.
double winding(const std::vector<cubex::render::Triangle>& mesh, const std::array<double, 3>& p) {
  double sum = 0;
  for (const auto& t : mesh) {
    std::array<std::array<double, 3>, 3> r;
    double len[3];
    for (int i = 0; i < 3; ++i) {
      for (int a = 0; a < 3; ++a) r[i][a] = t.v[i][a] - p[a];
      len[i] = std::sqrt(r[i][0] * r[i][0] + r[i][1] * r[i][1] + r[i][2] * r[i][2]);
    }
    auto dot = [](const auto& x, const auto& y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; };
    const double det = r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) -
                       r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0]) +
                       r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
    const double den = len[0] * len[1] * len[2] + dot(r[0], r[1]) * len[2] +
                       dot(r[1], r[2]) * len[0] + dot(r[2], r[0]) * len[1];
    sum += 2 * std::atan2(det, den);
  }
  return sum / (4 * std::acos(-1.0));
}

std::pair<std::array<double, 3>, std::array<double, 3>> bounds(
    const std::vector<cubex::render::Triangle>& mesh) {
  std::array<double, 3> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  for (const auto& t : mesh)
    for (const auto& p : t.v)
      for (std::size_t a = 0; a < 3; ++a)
        lo[a] = std::min(lo[a], p[a]), hi[a] = std::max(hi[a], p[a]);
  return {lo, hi};
}

// A box l1 x l2 x l3 grown by the octahedron of radius b: the box, its six faces pushed out by
// b, twelve edge prisms (right triangles with legs b) and eight corner tetrahedra (b^3 / 6).
double chamfered_box_volume(double l1, double l2, double l3, double b) {
  return l1 * l2 * l3 + 2 * b * (l1 * l2 + l2 * l3 + l1 * l3) + 2 * b * b * (l1 + l2 + l3) +
         4 * b * b * b / 3;
}

TEST(InteropStl, BevelledBoxesHaveTheClosedFormVolume) {
  struct Shape {
    int x, y, z;
  };
  for (const Shape s :
       {Shape{1, 1, 1}, Shape{2, 1, 1}, Shape{3, 1, 1}, Shape{2, 2, 1}, Shape{2, 2, 2}}) {
    std::vector<Vec3> cells;
    for (int x = 0; x < s.x; ++x)
      for (int y = 0; y < s.y; ++y)
        for (int z = 0; z < s.z; ++z) cells.push_back({x, y, z});
    for (double gap : {0.2, 1.0})
      for (double bevel : {0.3, 1.0, 2.5, 4.3}) {
        cubex::render::StlOptions opt;
        opt.unit = 10;
        opt.gap = gap;
        const auto sharp = cubex::render::cells_mesh(cells, opt);
        opt.bevel = bevel;
        const auto mesh = cubex::render::cells_mesh(cells, opt);
        std::string why;
        const double v = check_mesh(mesh, why);
        const std::string what = std::to_string(s.x) + "x" + std::to_string(s.y) + "x" +
                                 std::to_string(s.z) + " gap " + std::to_string(gap) + " bevel " +
                                 std::to_string(bevel);
        EXPECT_EQ(why, "") << what;
        const double a = 10 - gap, b = bevel;
        EXPECT_NEAR(v,
                    chamfered_box_volume(s.x * 10 - gap - 2 * b, s.y * 10 - gap - 2 * b,
                                         s.z * 10 - gap - 2 * b, b),
                    1e-6)
            << what;
        if (s.x * s.y * s.z == 1) {  // the cube less 12 edge prisms and 8 cut corners
          EXPECT_NEAR(v, a * a * a - 12 * (b * b / 2) * (a - 2 * b) - 8 * (b * b * b * 5 / 6),
                      1e-6);
        }
        // A bevel keeps the outer extents.
        EXPECT_EQ(bounds(mesh), bounds(sharp)) << what;
        // Merged as far as a box allows: 6 faces and 12 chamfers (2 triangles each), 8 corners.
        EXPECT_EQ(mesh.size(), 12u + 24u + 8u) << what;
      }
  }
}

// Point by point, the mesh bounds what it should: inside exactly where the core (the cells
// eroded by gap/2 + bevel) is within L1 distance `bevel`, and never outside the sharp solid.
TEST(InteropStl, BevelledMeshIsTheL1NeighbourhoodOfTheCore) {
  const std::vector<std::vector<Vec3>> shapes = {
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},                        // an L: a concave edge
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}},             // a tripod: three meet
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}},  // a 2x2 with a cell on top
      {{0, 0, 0}, {0, 0, 1}, {0, 1, 1}, {1, 1, 1}, {1, 1, 0}},  // cells touching along an edge
      {{0, 0, 0}, {1, 1, 1}, {1, 0, 0}, {1, 1, 0}},             // and at a corner
      {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {2, 1, 0}, {0, 2, 0}, {1, 2, 0}, {2, 2, 0}},
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}},  // 2x2x2 - 1
  };
  std::mt19937 rng(18);
  for (const auto& [gap, bevel] : {std::pair{0.2, 2.0}, std::pair{1.0, 3.5}}) {
    cubex::render::StlOptions opt;
    opt.unit = 10;
    opt.gap = gap;
    opt.bevel = bevel;
    for (const auto& cells : shapes) {
      const std::string what =
          std::to_string(cells.size()) + " cells, bevel " + std::to_string(bevel);
      const auto mesh = cubex::render::cells_mesh(cells, opt);
      std::string why;
      const double v = check_mesh(mesh, why);
      EXPECT_EQ(why, "") << what;
      EXPECT_LT(v, eroded_volume(cells, opt.unit, gap)) << what;
      const auto core = eroded_boxes(cells, opt.unit, gap / 2 + bevel);
      const auto sharp = eroded_boxes(cells, opt.unit, gap / 2);
      const auto [lo, hi] = bounds(mesh);
      int in = 0, mismatches = 0;
      for (int k = 0; k < 1500; ++k) {
        std::array<double, 3> p;
        for (std::size_t a = 0; a < 3; ++a)
          p[a] = std::uniform_real_distribution<double>(lo[a] - 0.5, hi[a] + 0.5)(rng);
        const double d = l1_distance(core, p);
        if (std::abs(d - bevel) < 1e-6) continue;  // on the surface
        const bool inside = winding(mesh, p) > 0.5;
        in += inside;
        mismatches += inside != (d < bevel);
        if (inside) {
          EXPECT_EQ(l1_distance(sharp, p), 0.0) << what;  // never outside the sharp solid
        }
      }
      EXPECT_EQ(mismatches, 0) << what;
      EXPECT_GT(in, 100) << what;
    }
  }
}

// Every piece of every shipped voxel puzzle, bevelled: closed, 2-manifold, outward, the same
// outer extents, less volume than the sharp piece but no more than the edges' strip can take.
TEST(InteropStl, ShippedPiecesBevelledAreClosedManifolds) {
  std::size_t pieces = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(CUBEX_SOURCE_DIR) + "/puzzles/voxel")) {
    if (e.path().extension() != ".json") continue;
    const auto doc = nlohmann::json::parse(cubex::test::slurp(e.path().string()));
    const cubex::voxel::Model m = cubex::voxel::model_from_json(doc, e.path().string());
    for (const cubex::voxel::Piece& piece : m.pieces) {
      cubex::render::StlOptions opt;
      opt.unit = 10;
      opt.gap = 0.3;
      const auto sharp = cubex::render::cells_mesh(piece.cells, opt);
      opt.bevel = 1.5;
      const auto mesh = cubex::render::cells_mesh(piece.cells, opt);
      std::string why;
      const double v = check_mesh(mesh, why), full = eroded_volume(piece.cells, 10, 0.3);
      EXPECT_EQ(why, "") << e.path() << " " << piece.name;
      EXPECT_EQ(bounds(mesh), bounds(sharp)) << e.path() << " " << piece.name;
      EXPECT_LT(v, full);
      // The strips the finer grid cuts are merged again: fewer triangles than a bevelled cube
      // (44) per cell; unmerged, Soma's V had 56 per cell.
      EXPECT_LE(mesh.size(), 44 * piece.cells.size()) << e.path() << " " << piece.name;
      // At most a strip b wide along every cell edge of every cell: 12 x b^2/2 x unit each.
      EXPECT_GT(v, full - double(piece.cells.size()) * 12 * 1.5 * 1.5 / 2 * 10);
      ++pieces;
    }
  }
  EXPECT_GT(pieces, 60u);
}

std::vector<cubex::render::Triangle> read_stl(const std::string& data) {
  std::vector<cubex::render::Triangle> mesh;
  auto f32 = [&](std::size_t at) {
    std::uint32_t x = 0;
    for (int k = 0; k < 4; ++k)
      x |= std::uint32_t(static_cast<unsigned char>(data[at + k])) << (8 * k);
    return double(std::bit_cast<float>(x));
  };
  const std::size_t n = (data.size() - 84) / 50;
  for (std::size_t i = 0; i < n; ++i) {
    cubex::render::Triangle t;
    const std::size_t at = 84 + 50 * i;
    for (std::size_t a = 0; a < 3; ++a) t.normal[a] = f32(at + 4 * a);
    for (std::size_t v = 0; v < 3; ++v)
      for (std::size_t a = 0; a < 3; ++a) t.v[v][a] = f32(at + 12 + 12 * v + 4 * a);
    mesh.push_back(t);
  }
  return mesh;
}

TEST(InteropStl, RenderBevelsVoxelPiecesAndHappyCubePlates) {
  const std::string hc = std::string(CUBEX_SOURCE_DIR) + "/puzzles/happycube/confusius.json";
  struct Case {
    std::string file, args;
    std::size_t files;  // the pieces (or plates) and the assembly
  };
  for (const auto& [file, args, want] :
       {Case{vxtest::shipped("soma.json"), " --unit 20 --gap 0.5 --bevel 2", 8},
        Case{hc, " --unit 6 --gap 0.3 --bevel 0.8", 7}}) {
    TempDir dir;
    const auto r = run_cubex("render '" + file + "' --stl '" + dir / "stl" + "'" + args);
    ASSERT_EQ(r.status, 0) << r.output;
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir / "stl")) {
      ++files;
      const auto mesh = read_stl(cubex::test::slurp(e.path().string()));
      std::string why;
      EXPECT_GT(check_mesh(mesh, why), 0) << e.path();
      EXPECT_EQ(why, "") << e.path();
      if (std::system("command -v admesh >/dev/null 2>&1") == 0) {
        const std::string out = shell("admesh '" + e.path().string() + "'");
        for (const char* line : {"Edges fixed", "Facets removed", "Facets added", "Facets reversed",
                                 "Backwards edges", "Normals fixed"}) {
          const std::size_t at = out.find(line);
          ASSERT_NE(at, std::string::npos) << out;
          EXPECT_EQ(std::stol(out.substr(out.find(':', at) + 1)), 0) << e.path() << ": " << line;
        }
      }
    }
    EXPECT_EQ(files, want) << file;
  }
}

TEST(InteropStl, RenderRefusesABevelOutOfRange) {
  TempDir dir;
  const std::string soma = vxtest::shipped("soma.json");
  for (const std::string args :
       {" --bevel -0.5", " --bevel 4.9", " --bevel 7", " --unit 4 --gap 1 --bevel 1.5",
        " --bevel nan", " --bevel 0.005"}) {
    const auto r = run_cubex("render '" + soma + "' --stl '" + dir / "stl" + "'" + args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("--bevel"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "stl")) << args;
  }
  const auto ok = run_cubex("render '" + soma + "' --stl '" + dir / "stl" + "' --bevel 4.89");
  EXPECT_EQ(ok.status, 0) << ok.output;
}

TEST(SmallThings, StlGapAndUnitThatWouldDegenerateAreRefused) {
  TempDir dir;
  const std::string soma = puzzle_path("voxel/soma.json");
  for (std::string args : {"--gap 1e-30", "--unit 1e-300", "--gap 0.005", "--unit 0.05",
                           "--unit 1000 --gap 0.5", "--gap nan"}) {
    SCOPED_TRACE(args);
    const auto r = run_cubex("render '" + soma + "' --stl '" + (dir / "stl") + "' " + args);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("expected --"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "stl"));
  }
  const auto r =
      run_cubex("render '" + soma + "' --stl '" + (dir / "stl") + "' --unit 0.1 --gap 0.01");
  EXPECT_EQ(r.status, 0) << r.output;
}

}  // namespace
