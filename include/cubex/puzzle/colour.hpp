// cubex/puzzle/colour.hpp - the fixed palette and how pieces get their colours (in the pictures of
// render/ and in the front ends' coloured terminal drawings).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "cubex/geometry.hpp"
#include "cubex/puzzle/scene.hpp"

namespace cubex::render {

// 30 colours chosen to be told apart: the first n are far apart (CIEDE2000) for every n.
std::span<const Rgb> palette();

// Indices into palette(), one per piece (each piece a set of unit cells). Pieces that touch (a
// cell of one is face-adjacent to a cell of the other) never share a colour; while there are no
// more pieces than colours no two pieces share one, and n pieces take the first n colours. Greedy
// and deterministic: the piece with the most neighbours first, each taking the colour farthest from
// its coloured neighbours.
std::vector<int> assign_colours(std::span<const std::vector<Vec3>> pieces);

// The ANSI escape that draws the following text on `c` (nearest xterm-256 colour) with black or
// white letters, whichever reads better; kAnsiReset ends it.
std::string ansi_colour(const Rgb& c);
inline constexpr const char* kAnsiReset = "\x1b[0m";

// A lighter (f > 1) or darker (f < 1) shade.
Rgb shade(const Rgb& c, double f);

}  // namespace cubex::render
