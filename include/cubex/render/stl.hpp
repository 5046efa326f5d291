// cubex/render/stl.hpp - pieces as solids for 3-D printing (binary STL, millimetres).
//
// A piece is the union of its unit cubes, each `unit` mm wide, shrunk by gap/2 on every side
// (the L-infinity erosion of the union: adjacent cells stay one solid, faces between a piece's
// cells vanish, and two pieces that touch in the puzzle are `gap` apart). The surface is built on
// the grid cut at k*unit +- gap/2, so it is closed and 2-manifold by construction: every edge lies
// in exactly two triangles, all facing outwards, and the erosion never leaves two parts meeting
// along an edge or at a point.
//
// With `bevel` b > 0 the edges are chamfered: the solid is every point within L1 distance b
// (|dx| + |dy| + |dz| <= b) of the core, the cells shrunk by gap/2 + b. Its faces lie where the
// sharp solid's do (the outer extents do not change), each convex edge is cut at 45 degrees
// b mm back along both faces, each convex corner by a triangle, concave edges (the inside of an
// L) stay sharp, and it lies inside the sharp solid, so pieces stay `gap` apart. The surface is
// built on the grid cut at k*unit +- gap/2 and k*unit +- (gap/2 + b), then the strips of flat
// faces and chamfers that grid makes are merged (docs/interop.md).
#pragma once

#include <array>
#include <span>
#include <string>
#include <vector>

#include "cubex/geometry.hpp"
#include "cubex/puzzle/scene.hpp"

namespace cubex::render {

struct StlOptions {
  double unit = 10.0;  // mm per cell
  double gap = 0.2;    // mm between the faces of two pieces that touch (0 < gap < unit)
  double bevel = 0.0;  // mm chamfered off every convex edge; 0 <= bevel < max_bevel(unit, gap)
};

// The largest bevel is less than this: half a cell after the gap, (unit - gap) / 2. At it the
// core of a cell would vanish.
constexpr double max_bevel(double unit, double gap) {
  return (unit - gap) / 2;
}
// The smallest bevel the CLI writes (mm): a finer chamfer would vanish in the 32-bit floats of an
// STL file (their step is 0.002 mm at 20 m), and no printer makes one.
constexpr double kMinBevel = 0.01;

struct Triangle {
  std::array<double, 3> normal;            // unit, outward
  std::array<std::array<double, 3>, 3> v;  // counter-clockwise seen from outside
};

// The closed surface of the cells (unit cubes at integer points) under `options`. Throws
// std::invalid_argument for options out of range.
std::vector<Triangle> cells_mesh(std::span<const Vec3> cells, const StlOptions& options);

// A binary STL file: 80-byte header (starting with `name`), the count, the triangles.
std::string binary_stl(std::span<const Triangle> mesh, const std::string& name);

// One file to write.
struct StlFile {
  std::string name;  // file name: "01-V.stl", ..., "assembly.stl"
  std::string data;  // binary STL
  std::vector<Triangle> mesh;
  std::size_t cells = 0;
};

// The pieces of a solution, each alone (turned to lie as flat as it can, at the origin; a Happy
// Cube plate lies flat with its bumps around it), and the assembled solution (every piece in its
// place, `gap` apart).
std::vector<StlFile> scene_stl(const Scene& scene, const StlOptions& options);

}  // namespace cubex::render
