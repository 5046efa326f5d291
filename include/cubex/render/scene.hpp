// cubex/render/scene.hpp - what a picture of one solution needs: the pieces as unit cubes with
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

// One Happy Cube plate as it lies in the net (drawn side up, as in the text drawing).
struct NetPlate {
  std::size_t piece = 0;           // index into Scene::pieces
  std::string label;               // the place: "1".."6", or "(1,0,0)+x" for larger structures
  int row = 0, col = 0;            // block position in the net
  std::vector<std::uint8_t> grid;  // n x n, row-major, 1 = filled
};

struct Scene {
  std::string kind;   // "voxel", "happy-cube"
  std::string title;  // the puzzle's name
  std::vector<ScenePiece> pieces;
  std::vector<Vec3> container;  // voxel: the container's cells (empty for Happy Cube)
  int net_size = 0;             // Happy Cube: N (plates are N x N); 0 for voxel puzzles
  std::vector<NetPlate> net;    // Happy Cube: one per plate

  // A voxel puzzle whose container is one cell thick along some axis (drawn flat in 2-D).
  bool flat() const;
};

// Gives every piece its colour (colour.hpp: distinct colours while the palette lasts, the most
// different ones for pieces that touch) and its exploded-view direction for voxel puzzles (from
// the centre of the scene to the piece's centre).
void finish(Scene& scene);

}  // namespace cubex::render
