// cubex/happycube/model.hpp - Happy Cube plates, the shell they cover, and the exact-cover model.
//
// A plate (Tile) is an NxN grid read as in the `.hcq` files: row 0 is the top edge, column 0 the
// left edge, the (N-2)x(N-2) centre solid. A container is a polycube (`structure`, unit cubes at
// integer positions); unit cube c spans [c*L, (c+1)*L] on each axis with L = N-1, and its shell
// is the set of integer points on the surface of the union. Every outer unit face is a place for
// one plate: a face's N x N points are covered by the filled cells of the plate laid on it, and a
// solution covers every shell point exactly once (edges and corners interlock; a flat seam between
// coplanar faces or a concave edge is an edge like any other).
//
// Conventions (those of the HC_BQ files, see docs/formats.md): a plate is flipped first (mirrored
// left to right), then turned k quarter turns counter-clockwise as seen in the net. In the net of a
// single cube, places 1, 2, 5, 6 form a column from top to bottom, 3 is left of 2 and 4 right of 2;
// the flaps fold toward the viewer, so the side of a plate as drawn (unflipped) faces into the
// cube. Place 2 is the base (z = 0) and place 6 the top (z = L). Faces of larger structures use the
// same rule: the drawn side of an unflipped plate faces into the structure, its top edge toward +z
// (toward +y on the faces normal to z).
//
// compile() turns a Spec into the exact-cover Problem and keeps, for every option, its Placement:
// which piece type, which face, the orientation and the covered shell points. Nothing here knows
// about files or the command line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/geometry.hpp"
#include "cubex/limits.hpp"

namespace cubex::happycube {

// An NxN plate; row 0 is the top edge, column 0 the left edge.
struct Tile {
  int n = 0;
  std::vector<std::uint8_t> cells;  // row-major, 1 = filled

  Tile() = default;
  explicit Tile(int size) : n(size), cells(static_cast<std::size_t>(size) * size, 0) {}
  bool at(int r, int c) const { return cells[static_cast<std::size_t>(r) * n + c] != 0; }
  void set(int r, int c, bool filled) { cells[static_cast<std::size_t>(r) * n + c] = filled; }
  // A cell of the (n-2)x(n-2) centre, which must be solid.
  bool in_centre(int r, int c) const { return r > 0 && c > 0 && r < n - 1 && c < n - 1; }
  friend bool operator==(const Tile&, const Tile&) = default;
};

// The plate flipped first (if `flipped`: mirrored left to right), then turned `rotations_ccw`
// quarter turns counter-clockwise.
Tile orient(const Tile& t, int rotations_ccw, bool flipped);

// One orientation of a piece: the parameters and the resulting grid.
struct Orientation {
  int rotations_ccw = 0;
  bool flipped = false;
  Tile tile;
};

// The distinct orientations of `t` (4 rotations, and 4 flipped ones if `may_flip`), the first of
// each class of equal grids in the order (flipped = false, k = 0..3), (flipped = true, k = 0..3).
std::vector<Orientation> distinct_orientations(const Tile& t, bool may_flip);

// A piece as read from a file.
struct PieceSpec {
  std::string name;  // as in the file ("6"); unique within a Spec
  Tile tile;
  int count = 1;  // identical copies
  bool may_flip = true;
};

struct Spec {
  std::string name;
  int size = 5;                 // N: plates are N x N
  std::vector<Vec3> structure;  // unit cubes; {{0,0,0}} for a single cube
  std::vector<PieceSpec> pieces;
  // True for a single cube: places are named 1..6 as in the net (set by the readers).
  bool net_places() const { return structure.size() == 1; }
};

// Sides of a unit cube: the outward normal +x, -x, +y, -y, +z, -z.
inline constexpr const char* kSideNames[6] = {"+x", "-x", "+y", "-y", "+z", "-z"};

// A place: one outer unit face of the structure, with the frame that lays a plate on it.
struct Face {
  Vec3 cube;      // the unit cube it belongs to
  int side = 0;   // 0..5, see kSideNames
  int place = 0;  // 1..6 in the net of a single cube, 0 for larger structures
  Vec3 origin;    // the point of the plate's bottom-left cell (row n-1, column 0)
  Vec3 u, v;      // unit steps for one column right and one row up
  // The shell point under cell (r, c) of an n x n plate lying on this face.
  Vec3 point(int r, int c, int n) const {
    const int up = n - 1 - r;
    return {origin.x + c * u.x + up * v.x, origin.y + c * u.y + up * v.y,
            origin.z + c * u.z + up * v.z};
  }
  // "place 3" or "cube (1,0,0) side +x".
  std::string label() const;
};

// The outer unit faces of `structure` with plates of size n. For a single cube, in the order of
// the places 1..6 with the net's frames; otherwise by cube (in the given order), then side.
std::vector<Face> make_faces(int n, const std::vector<Vec3>& structure);

// A piece type: identical pieces (equal up to their allowed orientations) share one type and one
// primary item with multiplicity `names.size()`.
struct PieceType {
  std::vector<std::string> names;  // one entry per copy, in input order
  std::vector<Tile> copy_tiles;    // the grid of each copy as read (equal up to orientation)
  Tile tile;                       // the first copy's grid as read
  bool may_flip = true;
  std::vector<Orientation> orientations;  // distinct
};

// The orientation (flipped = false first, then fewest turns) that turns `from` into `to`, if any.
std::optional<Orientation> orientation_between(const Tile& from, const Tile& to, bool may_flip);

// What one option of the compiled Problem means.
struct Placement {
  static constexpr std::uint32_t kUnused = 0xffffffff;
  std::uint32_t type = 0;  // index into Model::types
  std::uint32_t face = 0;  // index into Model::faces, or kUnused: the plate is left over
  bool laid() const { return face != kUnused; }
  int rotations_ccw = 0;
  bool flipped = false;
  std::vector<Vec3> cells;  // covered shell points, sorted
};

struct Model {
  std::string name;
  int size = 0;
  std::vector<Vec3> structure;
  std::vector<Face> faces;
  std::vector<Vec3> shell;  // every shell point, sorted
  std::vector<PieceType> types;
  Problem problem;
  std::vector<Placement> placements;               // placements[o] is option o of `problem`
  std::vector<ItemId> face_items;                  // the item of faces[i]
  std::vector<std::optional<ItemId>> point_items;  // the item of shell[s] (border points only)
  // The hole item of shell[s] (border points only): covered by every plate laid with a hole at
  // the point, as many times as the faces through it less one (see compile()).
  std::vector<std::optional<ItemId>> hole_items;
  std::vector<ItemId> type_items;  // the item of types[t]

  std::size_t plates = 0;  // pieces in all, copies counted
  // More plates than faces: every piece type may be used up to its copies, and the plates left
  // over are unused in each solution.
  bool spare() const { return plates > faces.size(); }
  // Why the puzzle has no solution, found without searching (see infeasibility()); empty when
  // no such reason is known.
  std::string infeasible;

  bool net_places() const { return structure.size() == 1; }
  // Index of `p` in `shell`, if it is a shell point.
  std::optional<std::size_t> shell_index(const Vec3& p) const;
};

// Compiles a Spec. Items: one per piece type (covered exactly its copies when the plates match
// the faces; up to its copies when there are more plates than faces, except that a type of one
// copy is then covered exactly once, laid or by its "unused" option, which lets the symmetric
// search anchor on it), one per face (the face item stands for the solid centre), and one per
// shell point on a face border (covered once, by the plate whose bump fills it). Options are piece
// type x face x distinct orientation, each covering its type, its face and its filled border
// points. Fewer plates than faces is not an error: the model is built and `infeasible` says why
// it has no solution.
//
// With `hole_items`, every border point also gets a hole item, covered by the plates laid with a
// hole there, once fewer than the faces through the point (1 along an edge, 2 at a cube's
// corner), and every option covers each of its border points once, as the point or as its hole:
// laying a plate then drops at once every plate of a neighbouring face whose hole would meet a
// hole, not only those whose bump would meet a bump. The solutions are the same; the search
// visits about 15% fewer nodes but each costs more, and on the structures of bench/ it is slower
// (docs/happycube.md), so it is off by default and kept to measure.
Model compile(const Spec& spec, bool hole_items = false, const Limits& limits = {});

// The face items in the order in which the memo counter (cubex/core/memo.hpp) branches on them.
// A state of the count is the border points left open between the plates laid and the faces
// left (and the plates used), so the order keeps few points open: from each first face, it takes
// greedily the face that leaves the fewest open points, and keeps the order whose steps have the
// smallest sum of 2^(open points). On an L of three cubes it sweeps from the end of one arm to
// the other (4 times fewer states than starting at the corner cube).
std::vector<ItemId> memo_order(const Model& m);

// The reason a compiled model cannot have a solution, found by counting before any search, or an
// empty string: fewer plates than faces, or no choice of as many plates as faces whose bumps add
// up to the points along the edges of the structure and to its corner points (every such point
// is filled by exactly one plate; a plate's bump count on its edges and on its corners does not
// change with its orientation).
std::string infeasibility(const Model& m);

}  // namespace cubex::happycube
