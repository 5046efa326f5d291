// cubex/puzzle/assembly.hpp - an assembly of pieces on the cube grid, as the disassembler takes it
// (cubex/disassembly/disassembler.hpp): the front-end contract's type for Puzzle::assembly(), so
// that a front end describes its solutions without depending on the disassembler.
#pragma once

#include <vector>

#include "cubex/geometry.hpp"

namespace cubex::disassembly {

struct Piece {
  std::vector<Vec3> cells;  // in the assembled position, distinct
  // Pieces of one kind are interchangeable (copies of one shape); kinds index Input::groups.
  int kind = 0;
  // BurrTools' weight: when the group that would move is heavier than the rest, the rest moves.
  int weight = 1;
};

// BurrTools' disassembly groups: copies of a kind may be put in groups (group > 0); pieces that
// cannot be taken apart are accepted when they can all be given one group (within the counts).
struct GroupShare {
  int group = 0;  // > 0
  int count = 0;  // how many copies of the kind the group holds
};

struct Input {
  std::vector<Piece> pieces;                    // at most 64
  std::vector<std::vector<GroupShare>> groups;  // per kind (indexed by Piece::kind); may be short
};

}  // namespace cubex::disassembly
