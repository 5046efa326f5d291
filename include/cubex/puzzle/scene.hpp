// cubex/puzzle/scene.hpp - what a picture of one solution needs: the pieces as unit cubes with
// their colours, and for Happy Cube the plates as they lie in the net.
//
// Every kind of puzzle is drawn from unit cubes: a voxel piece is its cells; a Happy Cube plate
// is the shell points it covers, each drawn as a unit cube (so the folded cube is a hollow
// N x N x N block, plates one cube thick, as the foam pieces are). The front ends build a Scene
// from a verified solution (Puzzle::scene); the SVG and HTML writers and the terminal drawings
// only read it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cubex/geometry.hpp"

namespace cubex::render {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};

// "#rrggbb"
std::string hex(const Rgb& c);

struct ScenePiece {
  std::string name;             // as in the legend: "V", "B#1" (copy 1 of B), "3"
  std::vector<Vec3> cells;      // unit cubes, sorted
  std::array<double, 3> out{};  // direction it moves in an exploded view (not normalised)
  Rgb colour;
};

// One Happy Cube plate as it lies in the net (drawn side up, as in the text drawing). Every cube
// of the structure has its own net, a cross of 4 rows and 3 columns of blocks (places 1, 2, 5, 6
// down the middle column, 3 left and 4 right of 2): folded up toward the viewer, it is the cube
// with its plates in place. A face where the cube joins another cube of the structure has no
// plate (a NetGap).
struct NetPlate {
  std::size_t piece = 0;           // index into Scene::pieces
  std::string label;               // "1: part A" for a single cube; "A (+x)" in a structure
  int group = 0;                   // the cube: index into Scene::net_groups
  int row = 0, col = 0;            // block position in the cube's cross
  std::vector<std::uint8_t> grid;  // n x n, row-major, 1 = filled
};

// A face of a cube's cross without a plate: the cube joins another one there.
struct NetGap {
  int group = 0, row = 0, col = 0;
  std::string label;  // "joins (1,0,0)"
};

struct Scene {
  std::string kind;   // "voxel", "happy-cube"
  std::string title;  // the puzzle's name
  std::string note;   // about this solution ("stands for 48 solutions"), or empty
  std::vector<ScenePiece> pieces;
  std::vector<Vec3> container;          // voxel: the container's cells (empty for Happy Cube)
  int net_size = 0;                     // Happy Cube: N (plates are N x N); 0 for voxel puzzles
  std::vector<NetPlate> net;            // Happy Cube: one per plate
  std::vector<NetGap> net_gaps;         // Happy Cube structures: the joined faces
  std::vector<std::string> net_groups;  // the caption of each cube's net ("" for one cube)

  // A voxel puzzle whose container is one cell thick along some axis (drawn flat in 2-D).
  bool flat() const;
};

// Gives every piece its colour (colour.hpp: distinct colours while the palette lasts, the most
// different ones for pieces that touch) and its exploded-view direction for voxel puzzles (from
// the centre of the scene to the piece's centre).
void finish(Scene& scene);

}  // namespace cubex::render
