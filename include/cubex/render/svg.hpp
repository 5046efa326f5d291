// cubex/render/svg.hpp - one solution as an SVG picture.
//
// Voxel puzzles: an isometric view of the assembled container (hidden faces removed exactly, not
// painted over) beside each piece drawn alone in its place, and a legend; flat puzzles (one cell
// thick) as a plain 2-D drawing. Happy Cube: the net with every plate in its final orientation and
// its place, and the folded cube in isometric view. Every view has one <g class="piece"
// data-piece="NAME"> per piece; the picture is a function of the Scene only (stable output).
#pragma once

#include <string>

#include "cubex/puzzle/scene.hpp"
#include "cubex/render/steps.hpp"

namespace cubex::render {

// `caption` is printed under the title ("solution 3 of 11,520").
std::string svg(const Scene& scene, const std::string& caption);

// The disassembly of a voxel solution (render/steps.hpp) as a strip of steps in
// isometric view: the assembled puzzle, then after each move the part that the move takes apart,
// the moving group in its colours and the rest of the part paled, each step captioned with its
// move; the level above and the legend below. One <g class="step" data-step="K"> per step.
// Throws std::invalid_argument when there are no moves.
std::string svg_steps(const Scene& scene, const Steps& steps, const std::string& caption);

// Escapes & < > " ' for XML text and attributes.
std::string xml_escape(const std::string& s);

}  // namespace cubex::render
