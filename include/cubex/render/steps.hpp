// cubex/render/steps.hpp - a solution's disassembly (cubex/disassembly) in the pictures: the 3-D
// viewer plays it move by move, `render --svg --disassemble` draws it as a strip of steps.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cubex/disassembly/disassembler.hpp"
#include "cubex/puzzle/scene.hpp"

namespace cubex::render {

// One move of a disassembly as the pictures show it.
struct SceneMove {
  std::vector<std::size_t> pieces;  // the group that moves (indices into Scene::pieces)
  std::vector<std::size_t> part;    // the pieces of the part being taken apart (the group's too)
  Vec3 direction;                   // a unit vector along an axis
  int distance = 0;                 // unit steps, as the disassembly gives them
  // How far the 3-D viewer moves the group: the distance, and for a move that separates, far
  // enough that no later move brings the two parts together again.
  int travel = 0;
  bool separates = false;  // the move that removes the group from the rest of its part
  std::string text;        // "B C: +x 2", "B C: +x 3 (off)"
};

// The disassembly of one solution: its moves in the order they are made, and its level.
struct Steps {
  std::vector<SceneMove> moves;  // empty: not taken apart
  std::string level;             // "4.9.3"
};

// The steps of the disassembly of the solution `scene` shows: the moves of Result::moves(), the
// pieces of the disassembler's input being the scene's pieces in order (as the front ends give
// both). A move that separates travels in the viewer by its distance, plus the most that any
// piece of the group later moves back along its axis, plus the most that any other piece of its
// part later moves toward the group, plus one cell: the parts never meet again, whatever their
// own moves. Empty for an assembly that does not come apart. Throws std::invalid_argument when a
// move names a piece the scene lacks.
Steps scene_steps(const Scene& scene, const disassembly::Result& result);

// Where each of `pieces` pieces is after the first `k` moves: its offset from the assembled
// position, the moves counted by their distance (by_travel false: the positions of the
// disassembly) or by their travel (the viewer's).
std::vector<Vec3> offsets_after(const Steps& steps, std::size_t pieces, std::size_t k,
                                bool by_travel);

}  // namespace cubex::render
