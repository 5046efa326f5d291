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

namespace cubex::render {

// `caption` is printed under the title ("solution 3 of 11,520").
std::string svg(const Scene& scene, const std::string& caption);

// Escapes & < > " ' for XML text and attributes.
std::string xml_escape(const std::string& s);

}  // namespace cubex::render
