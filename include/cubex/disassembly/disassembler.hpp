// cubex/disassembly/disassembler.hpp - taking an assembly of voxel pieces apart by sliding moves
// (issue 36), with BurrTools' definitions so that the counts and levels agree with its burrTxt.
//
// The pieces are sets of unit cubes on the cube grid, given in their assembled positions; they are
// never turned. A move translates a group of pieces along one axis (+x, -x, +y, -y, +z, -z) by one
// or more unit steps, every intermediate step free of overlap. A group that can move arbitrarily
// far is removed: the two parts are then taken apart on their own, each from where its pieces
// are, recursively, until every part is a single piece (or a set of pieces allowed to stay
// together, see Piece::kind). An assembly "comes apart" when this succeeds.
//
// The search is BurrTools' (disassembler_0): a breadth-first search over the positions of the
// pieces (translations of the whole are one position) that stops at the first position, in its
// order, from which a group can be removed; the parts are then searched from that position. If a
// part cannot be taken apart the assembly does not come apart (no other separation is tried),
// as in BurrTools. The moves tried from a position, in order: for each direction (+x, -x, +y,
// -y, +z, -z) and piece, the smallest group with that piece that can move 1, 2, ... steps while
// it has at most half of the pieces, and the unions of such groups found in the same direction
// for the same distance. When a moving group is heavier (Piece::weight) than the pieces that
// stay, the others move the opposite way instead (in a packing puzzle the box stays).
//
// The level (BurrTools' "4.9.3") lists move counts: the moves of the first separation (the move
// that removes a group counts as one), then the level of the part that stayed, then of the part
// removed, where a part is listed only when some separation inside it needs more than one move.
// A part is searched only when it has two or more pieces that are not all of one group.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cubex/geometry.hpp"
#include "cubex/puzzle/assembly.hpp"  // Piece, GroupShare, Input

namespace cubex::disassembly {

// The six directions, in the order the search tries them.
enum class Direction : std::uint8_t { kPosX, kNegX, kPosY, kNegY, kPosZ, kNegZ };
// "+x", "-x", ...
const char* direction_name(Direction d);
// The unit vector of a direction.
Vec3 unit(Direction d);

struct Limits {
  // The most memory one search (one part of one assembly) may use for its table of positions;
  // a search that needs more is cut and the result says so.
  std::size_t max_bytes = std::size_t(256) << 20;
  // Parts of at most 8 pieces are searched in a compact form (positions of 3 words, a byte of
  // masks per direction); false searches them as larger parts are. The results are the same
  // (the tests compare both).
  bool compact = true;
};

// One move: `pieces` (indices into Input::pieces) move `distance` unit steps in `direction`.
// The last move of a separation removes the group: its distance is the one that takes the
// group's bounding box clear of the other pieces along that axis (any farther is free too).
struct Move {
  std::vector<int> pieces;
  Direction direction = Direction::kPosX;
  int distance = 0;
  bool separates = false;
};

// One separation of a part: the moves up to and including the one that removes a group, then
// the two parts, each taken apart from where its pieces are after the moves (the removed part
// moved by the last move). A part of one piece, or of pieces allowed to stay together, has no
// tree (nullptr).
struct Separation {
  std::vector<int> pieces;          // the part's pieces (indices into Input::pieces)
  std::vector<Vec3> start;          // their offsets from the assembled positions at the start
  std::vector<Move> moves;          // moves.back().separates
  std::vector<int> left_pieces;     // the pieces that stayed
  std::vector<int> removed_pieces;  // the pieces the last move took away
  std::unique_ptr<Separation> left;
  std::unique_ptr<Separation> removed;

  // Whether a separation in this tree needs more than one move (BurrTools prints such parts).
  bool has_long_moves() const;
};

enum class Status {
  kApart,   // comes apart: `tree` and `level` are set
  kLocked,  // cannot be taken apart (completely); also a single piece, as in BurrTools
  kCut,     // a search outgrew Limits::max_bytes: unknown; `message` says where
};

struct Result {
  Status status = Status::kLocked;
  std::unique_ptr<Separation> tree;
  std::vector<int> level;  // BurrTools' level, e.g. {4, 9, 3}
  std::uint64_t positions = 0;  // positions visited, over all searches
  std::string message;          // why a search was cut
  // Whether some separation removes all but one piece of its part (with at least three pieces),
  // i.e. takes the part off a single piece, the way a box is lifted off a base.
  bool lifts_all_but_one = false;
  // When locked: the part whose search found no separation (indices into Input::pieces; all of
  // them when the assembly itself is stuck) and its pieces' offsets at the start of that search.
  std::vector<int> stuck;
  std::vector<Vec3> stuck_start;

  // "4.9.3"
  std::string level_text() const;
  // The moves of the tree in the order they are made: a separation's moves, then the moves of
  // the part that stayed, then those of the part removed.
  std::vector<Move> moves() const;
};

// What the disassembly of one assembly leaves for the next ones of the same puzzle: how far a
// shape can slide past another at each relative position met (BurrTools' movement cache). Use
// one per thread; it holds at most a few million values and starts afresh beyond.
class Workspace {
 public:
  Workspace();
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  friend Result disassemble(const Input&, Workspace&, const Limits&);
};

// Takes the assembly apart. Throws std::invalid_argument when there are more than 64 pieces,
// pieces overlap, a piece is empty, or a piece spans more than 32 cells along an axis.
Result disassemble(const Input& input, Workspace& workspace, const Limits& limits = {});
// The same with a workspace of its own.
Result disassemble(const Input& input, const Limits& limits = {});

// Checks a tree from scratch against the pieces: every move of a part, made from where its
// pieces are, steps through free positions only (counting the part's own pieces, not those
// already taken away), each separation's last move leaves the groups with disjoint extents along
// its axis, and the parts add up. Returns "" when it holds, else what is wrong.
std::string replay(const Input& input, const Separation& tree);

}  // namespace cubex::disassembly
